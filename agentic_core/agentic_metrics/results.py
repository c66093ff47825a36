"""The agentic metrics of a run, as computed once at evaluate time (judge once, aggregate many).

Everything a selector changes later is kept: tool call accuracy in both orders, topic adherence as its
four counts (precision, recall, F1 and the variant are applied when aggregating), and goal accuracy's
binary verdict, graded score and evidence. A metric that could not be computed is ``None`` with the
reason beside it, never 0.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from agentic_core.agentic_metrics.tool_call_accuracy import ToolCallAccuracy, ToolCallOrder
from agentic_core.agentic_metrics.topic_adherence import TopicCounts, TopicMode, TopicVariant

MetricName = Literal["tool_call_accuracy", "topic_adherence", "goal_accuracy"]
METRIC_NAMES: tuple[MetricName, ...] = ("tool_call_accuracy", "topic_adherence", "goal_accuracy")
"""The seed-004 metrics, in the order they are listed everywhere."""
TOOL_METRICS: tuple[MetricName, ...] = ("tool_call_accuracy",)
"""The metrics computed from the tool calls alone: they need no answer judge (nor a reference answer)."""
GOAL_JUDGES: tuple[str, ...] = ("lexical", "hybrid", "embedding")
"""The offline judges that may score goal accuracy with reference (``--goal-judge``)."""
DEFAULT_GOAL_JUDGE = "lexical"
"""Offline goal accuracy's judge unless one is asked for: about as accurate as hybrid on the judge devset
and not bound by MiniLM, so several times faster (figures in benchmarks/RESULTS.md)."""


class AgenticView(BaseModel):
    """How the stored metrics are read: the selectors, applied when aggregating (never re-judging).

    Attributes:
        order: Tool call order (``strict``: Ragas' default, or ``flexible``).
        mode: Topic adherence as ``precision``, ``recall`` or ``f1``.
        variant: ``workbench`` (counts correct refusals) or ``ragas`` (Ragas' numbers).
    """

    model_config = ConfigDict(frozen=True)

    order: ToolCallOrder = "strict"
    mode: TopicMode = "f1"
    variant: TopicVariant = "workbench"


class QueryTopic(BaseModel):
    """One user query's topic classification.

    Attributes:
        answered: ``True`` when the agent answered, ``False`` when it refused (or said nothing).
        on_topic: Whether the query is about one of the reference topics.
        topic: The closest reference topic (offline) or the one the judge named.
        similarity: The offline similarity of the query to that topic (``None`` from an LLM).
        reasoning: Why, in words.
    """

    model_config = ConfigDict(frozen=True)

    answered: bool
    on_topic: bool
    topic: str | None = None
    similarity: float | None = None
    reasoning: str = ""


class TopicResult(BaseModel):
    """A conversation's topic adherence inputs: per-query classifications and their four counts.

    Attributes:
        counts: The four counts, or ``None`` when unscored (no topics, or a judge failure).
        queries: Per user query, its classification (empty when unscored).
        approximate: ``True`` for the offline classification (refusal phrases and similarity).
        source: What classified the queries.
        unscored_reason: Why there are no counts.
    """

    model_config = ConfigDict(frozen=True)

    counts: TopicCounts | None
    queries: tuple[QueryTopic, ...] = ()
    approximate: bool = False
    source: str = ""
    unscored_reason: str | None = None


class GoalResult(BaseModel):
    """A conversation's agent goal accuracy.

    Attributes:
        achieved: The binary verdict (Ragas' 1 or 0), or ``None`` when unscored.
        score: The graded score in [0, 1], or ``None`` when unscored.
        evidence: The judge's reasoning and the passages it cited.
        with_reference: Whether the outcome was compared with the conversation's ``reference``.
        goal: The goal the judge inferred from the user's turns (without reference).
        source: What judged it.
        unscored_reason: Why there is no verdict.
    """

    model_config = ConfigDict(frozen=True)

    achieved: bool | None
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    evidence: str = ""
    with_reference: bool = False
    goal: str | None = None
    source: str = ""
    unscored_reason: str | None = None


class ConversationMetrics(BaseModel):
    """The agentic metrics of one conversation (``None`` where a metric was not asked for).

    Attributes:
        tool_call_strict: Ragas' tool call accuracy in strict order.
        tool_call_flexible: The same in flexible order.
        topic: Topic adherence's classifications and counts.
        goal: Agent goal accuracy.
    """

    model_config = ConfigDict(frozen=True)

    tool_call_strict: ToolCallAccuracy | None = None
    tool_call_flexible: ToolCallAccuracy | None = None
    topic: TopicResult | None = None
    goal: GoalResult | None = None

    def tool_call(self, order: ToolCallOrder) -> ToolCallAccuracy | None:
        """Tool call accuracy in ``order``."""
        return self.tool_call_strict if order == "strict" else self.tool_call_flexible


class AgenticMetrics(BaseModel):
    """The agentic metrics of a run, one entry per conversation in the run's order.

    Attributes:
        metrics: The metrics computed.
        conversations: Per conversation, its metrics.
        judge: What judged topics and goals (a judge label, or ``offline``).
        goal_judge: What judged goal accuracy (the LLM judge's label, or the offline goal judge's, e.g.
            ``lexical``); empty when goal accuracy was not computed (or by an older version).
        model_calls: Judge calls made for these metrics (cache hits excluded).
        cache_hits: Items answered by the verdict cache.
        elapsed_s: Wall time of the computation.
        warnings: Things the user should know (approximations, unavailable paths).
        view: The selectors the run is reported with (exports, the CLI's JSON); changed freely.
    """

    metrics: tuple[MetricName, ...]
    conversations: list[ConversationMetrics]
    judge: str = ""
    goal_judge: str = ""
    model_calls: int = 0
    cache_hits: int = 0
    elapsed_s: float = 0.0
    warnings: list[str] = Field(default_factory=list)
    view: AgenticView = Field(default_factory=AgenticView)

    def tool_metrics_only(self) -> bool:
        """Only :data:`TOOL_METRICS` were asked for, and some conversation has one: no answer judge was needed."""
        return set(self.metrics) <= set(TOOL_METRICS) and any(
            c.tool_call_strict is not None or c.tool_call_flexible is not None for c in self.conversations
        )
