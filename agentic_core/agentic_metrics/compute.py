"""Compute the agentic metrics of a run once (the expensive step), for any number of aggregations.

* Tool call accuracy: Ragas' definition in both orders (pure, no judge).
* Topic adherence: each user query classified answered/refused and on/off topic, by the LLM judge when
  the run's judge is one (one cached call per distinct query, reply and topics), else offline and
  approximate (:mod:`agentic_core.agentic_metrics.topic_offline`). A conversation without
  ``reference_topics`` is unscored; so is one where a query's classification failed.
* Agent goal accuracy: with an LLM judge, with reference (the conversation against ``reference``) or
  without (the goal inferred from the user's turns). Offline, only with reference: the goal judge
  (``goal_judge``: ``lexical`` by default, whatever offline judge the run used, since it is as accurate as
  hybrid on the judge devset and is not bound by MiniLM; ``hybrid`` or ``embedding`` when asked; a custom
  grader passed as the run's judge is used as it is) scores the outcome (the last non-blank answer) against
  ``reference`` through the judge runner (cached, deduplicated); graded score = the judge's score,
  achieved = the score reaches the judge's recommended threshold, evidence = its reasoning. Without
  reference offline, or on a judge failure: unscored with the reason, never 0.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from agentic_core.agentic_metrics.parts import clip_for_judge, outcome_text, transcript_text, user_turns_text
from agentic_core.agentic_metrics.results import (
    DEFAULT_GOAL_JUDGE,
    GOAL_JUDGES,
    METRIC_NAMES,
    AgenticMetrics,
    ConversationMetrics,
    GoalResult,
    MetricName,
    QueryTopic,
    TopicResult,
)
from agentic_core.agentic_metrics.tool_call_accuracy import conversation_tool_call_accuracy
from agentic_core.agentic_metrics.topic_adherence import TopicCounts
from agentic_core.agentic_metrics.topic_offline import classify_queries, similarity_backend
from agentic_core.common.passing import reaches
from agentic_core.common.text_normal import fold_case
from agentic_core.data.schemas import Conversation
from agentic_core.errors import SettingsError
from agentic_core.judges.base import Judge, JudgeItem, Verdict, capabilities
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CacheMode, JudgeRun, run_judge_sync
from agentic_core.judges.spec import judge_spec, spec_class_of

if TYPE_CHECKING:
    from agentic_core.judges.llm.judge import LLMJudge

NO_TOPICS = "no reference_topics: nothing to adhere to"
NO_REFERENCE_OFFLINE = "no reference: goal accuracy without reference needs an LLM judge (--judge llm)"


def parse_metrics(metrics: str | Iterable[str] | None) -> tuple[MetricName, ...]:
    """Metric names from a comma-separated string or a list (``all`` for every one), in canonical order.

    Raises:
        SettingsError: an unknown name.
    """
    if metrics is None:
        return ()
    names = [m.strip() for m in (metrics.split(",") if isinstance(metrics, str) else metrics) if m.strip()]
    if "all" in names:
        return METRIC_NAMES
    unknown = [n for n in names if n not in METRIC_NAMES]
    if unknown:
        raise SettingsError("metrics", f"must name some of {', '.join(METRIC_NAMES)} (or all)", ", ".join(unknown),
                            "use e.g. --metrics tool_call_accuracy,topic_adherence")
    return tuple(m for m in METRIC_NAMES if m in names)


def _llm_base(judge: Judge | None) -> LLMJudge | None:
    if judge is None or not capabilities(judge).calls_llm:
        return None  # without importing LangChain's chat models (a second and a half)
    from agentic_core.judges.llm.judge import LLMJudge

    return judge if isinstance(judge, LLMJudge) else None


def llm_judges_metrics(judge: Judge | None) -> bool:
    """Whether the metrics computed with ``judge`` are LLM-judged (it is the LLM judge), else the offline
    approximations (the cascade's too: its LLM sees only what its offline judge is unsure of)."""
    return _llm_base(judge) is not None


def check_goal_judge(name: str | None) -> str | None:
    """``name`` when it is one of :data:`GOAL_JUDGES` (or ``None``: the default rule).

    Raises:
        SettingsError: another name.
    """
    if name is None or name in GOAL_JUDGES:
        return name
    raise SettingsError("goal_judge", f"must be one of {', '.join(GOAL_JUDGES)}", name,
                        "use e.g. --goal-judge lexical")


def goal_judge_for(judge: Judge | None, choice: str | None = None) -> Judge:
    """The offline judge of goal accuracy with reference.

    ``choice`` (one of :data:`GOAL_JUDGES`) when given: the run's judge itself when it is of that kind,
    else one built by name. Without a choice: a custom grader passed as the run's judge is used as it is;
    the registry's offline judges (``hybrid``, ``embedding``, ``lexical``), the dataset judge (it reads
    each interaction's own score, it cannot grade an outcome) and none give :data:`DEFAULT_GOAL_JUDGE`.

    Raises:
        SettingsError: an unknown choice.
    """
    wanted = check_goal_judge(choice)
    own = None if judge is None else spec_class_of(judge.identity)  # None: a judge of the caller's own
    if wanted is None:
        if judge is not None and own is None:  # a custom grader, not one of the registry's judges
            return judge
        wanted = DEFAULT_GOAL_JUDGE
    spec = judge_spec(wanted)
    return judge if judge is not None and own is type(spec) else spec.build()


def judge_for_run(goal_judge: str | None = None) -> Judge:
    """The judge that computes a finished run's metrics offline (the dashboard's compute button).

    Only goal accuracy uses it: ``goal_judge`` when given, else :data:`DEFAULT_GOAL_JUDGE`, whichever offline
    judge the run used (an LLM judge's key is not kept with a run; the LLM paths are asked for on the Run page).

    Raises:
        SettingsError: an unknown goal judge.
    """
    return judge_spec(check_goal_judge(goal_judge) or DEFAULT_GOAL_JUDGE).build()


class _Runs:
    """Runs judges through the runner and keeps the accounting."""

    def __init__(self, cache: JudgeCache | None, cache_mode: CacheMode) -> None:
        self.cache, self.cache_mode = cache, cache_mode
        self.model_calls = self.cache_hits = 0
        self.warnings: list[str] = []

    def run(self, judge: Judge, items: Sequence[JudgeItem]) -> list[Verdict]:
        if not items:
            return []
        cache = self.cache
        if cache is None and self.cache_mode != "off" and judge.cacheable:
            cache = self.cache = JudgeCache()
        run: JudgeRun = run_judge_sync(judge, items, cache=cache, cache_mode=self.cache_mode)
        self.model_calls += run.model_calls
        self.cache_hits += run.cache_hits
        self.warnings.extend(run.warnings)
        return run.verdicts


def _topics_llm(convs: Sequence[Conversation], base: LLMJudge, runs: _Runs) -> list[TopicResult | None]:
    from agentic_core.agentic_metrics.llm_judge import MetricJudge
    from agentic_core.agentic_metrics.llm_prompts import TOPIC_TASK

    items = [
        JudgeItem(clip_for_judge(t.query), clip_for_judge(t.assistant), "\n".join(c.reference_topics or []))
        for c in convs if c.reference_topics for t in c.conversation
    ]
    verdicts = iter(runs.run(MetricJudge(base, TOPIC_TASK), items))
    source = f"llm ({TOPIC_TASK.version})"
    out: list[TopicResult | None] = []
    for c in convs:
        if not c.reference_topics:
            out.append(TopicResult(counts=None, source=source, unscored_reason=NO_TOPICS))
            continue
        mine = [next(verdicts) for _ in c.conversation]
        failed = [v.error or "failed" for v in mine if v.score is None]
        if failed:
            out.append(TopicResult(counts=None, source=source,
                                   unscored_reason=f"{len(failed)} query classification(s) failed: {failed[0]}"))
            continue
        queries = []
        for v in mine:
            fields = json.loads(v.reasoning)
            queries.append(QueryTopic(answered=fields["answered"], on_topic=fields["on_topic"], topic=fields["topic"],
                                      reasoning=fields["reasoning"]))
        counts = TopicCounts.of([q.answered for q in queries], [q.on_topic for q in queries])
        out.append(TopicResult(counts=counts, queries=tuple(queries), source=source))
    return out


def _topics_offline(convs: Sequence[Conversation], backend: str) -> list[TopicResult | None]:
    pairs = [(t.query, t.assistant, tuple(c.reference_topics or ())) for c in convs if c.reference_topics
             for t in c.conversation]
    classified = iter(classify_queries(pairs, backend))
    source = f"offline ({backend} similarity, refusal phrases)"
    out: list[TopicResult | None] = []
    for c in convs:
        if not c.reference_topics:
            out.append(TopicResult(counts=None, approximate=True, source=source, unscored_reason=NO_TOPICS))
            continue
        queries = tuple(next(classified) for _ in c.conversation)
        counts = TopicCounts.of([q.answered for q in queries], [q.on_topic for q in queries])
        out.append(TopicResult(counts=counts, queries=queries, approximate=True, source=source))
    return out


def _evidence_text(fields: dict[str, object], transcript: str) -> str:
    quotes = fields.get("evidence") or []
    folded = fold_case(transcript)
    shown = []
    for quote in quotes if isinstance(quotes, list) else []:
        found = fold_case(str(quote)) in folded
        shown.append(f"\u201c{quote}\u201d" + ("" if found else " (not found in the conversation)"))
    text = str(fields.get("reasoning") or "")
    return f"{text} Evidence: {'; '.join(shown)}" if shown else text


def _goals_llm(convs: Sequence[Conversation], base: LLMJudge, runs: _Runs) -> list[GoalResult | None]:
    from agentic_core.agentic_metrics.llm_judge import MetricJudge
    from agentic_core.agentic_metrics.llm_prompts import GOAL_NOREF_TASK, GOAL_REF_TASK

    transcripts = [clip_for_judge(transcript_text(c)) for c in convs]
    out: list[GoalResult | None] = [None] * len(convs)
    for task, with_ref in ((GOAL_REF_TASK, True), (GOAL_NOREF_TASK, False)):
        rows = [i for i, c in enumerate(convs) if bool(c.reference) == with_ref]
        items = [JudgeItem(transcripts[i], clip_for_judge(outcome_text(convs[i])),
                           clip_for_judge(convs[i].reference or "")) for i in rows]
        verdicts = runs.run(MetricJudge(base, task), items)
        for i, v in zip(rows, verdicts, strict=True):
            source = f"llm ({task.version})"
            if v.score is None:
                out[i] = GoalResult(achieved=None, with_reference=with_ref, source=source,
                                    unscored_reason=f"the judge failed: {v.error}")
                continue
            fields = json.loads(v.reasoning)
            out[i] = GoalResult(achieved=bool(fields["achieved"]), score=v.score, with_reference=with_ref,
                                evidence=_evidence_text(fields, transcripts[i]), goal=fields.get("goal") or None,
                                source=source)
    return out


def _goals_offline(convs: Sequence[Conversation], judge: Judge, runs: _Runs) -> list[GoalResult | None]:
    rows = [i for i, c in enumerate(convs) if c.reference]
    items = [JudgeItem(clip_for_judge(user_turns_text(convs[i])), clip_for_judge(outcome_text(convs[i])),
                       clip_for_judge(convs[i].reference or "")) for i in rows]
    verdicts = runs.run(judge, items)
    source = f"offline ({judge.identity.label()})"
    out: list[GoalResult | None] = [
        GoalResult(achieved=None, source=source, unscored_reason=NO_REFERENCE_OFFLINE) for _ in convs
    ]
    threshold = float(judge.recommended_threshold)
    for i, v in zip(rows, verdicts, strict=True):
        if v.score is None:
            out[i] = GoalResult(achieved=None, with_reference=True, source=source,
                                unscored_reason=f"the judge failed: {v.error}")
        else:
            out[i] = GoalResult(achieved=bool(reaches(v.score, threshold)), score=v.score, with_reference=True,
                                evidence=v.reasoning, source=source)
    return out


def compute_agentic_metrics(
    conversations: Sequence[Conversation],
    judge: Judge | None = None,
    *,
    metrics: str | Iterable[str] | None = METRIC_NAMES,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    prefer_embeddings: bool = True,
    goal_judge: str | None = None,
) -> AgenticMetrics:
    """Compute the asked agentic metrics of every conversation (see the module docstring).

    Args:
        conversations: The conversations, in the run's order.
        judge: The run's judge: an LLM judge gives the LLM paths, anything else the offline ones.
        metrics: Names (or a comma-separated string, or ``all``).
        cache: The verdict cache (the default location when ``None`` and the mode is not ``off``).
        cache_mode: ``use``, ``refresh`` or ``off``.
        prefer_embeddings: Offline topic similarity by MiniLM when installed (else lexical stems).
        goal_judge: The offline judge of goal accuracy with reference (one of :data:`GOAL_JUDGES`; ``None``:
            :data:`DEFAULT_GOAL_JUDGE` unless the run's judge is a custom grader, see :func:`goal_judge_for`).
            The LLM path ignores it.

    Returns:
        The metrics, one entry per conversation.

    Raises:
        SettingsError: an unknown metric name or goal judge.
    """
    started = time.perf_counter()
    names = parse_metrics(metrics)
    check_goal_judge(goal_judge)
    convs = list(conversations)
    runs = _Runs(cache, cache_mode)
    base = _llm_base(judge)
    strict = flexible = None
    if "tool_call_accuracy" in names:
        strict = conversation_tool_call_accuracy(convs, "strict")
        flexible = conversation_tool_call_accuracy(convs, "flexible")
    topics: list[TopicResult | None] | None = None
    if "topic_adherence" in names:
        if base is not None:
            topics = _topics_llm(convs, base, runs)
        else:
            backend = similarity_backend(prefer_embeddings)
            topics = _topics_offline(convs, backend)
            if any(c.reference_topics for c in convs):
                runs.warnings.append(
                    f"topic adherence is approximate: offline refusal phrases and {backend} similarity of each query "
                    "to the reference topics (an LLM judge classifies them properly)"
                )
    goals: list[GoalResult | None] | None = None
    goal_label = ""
    if "goal_accuracy" in names and base is not None:
        goals = _goals_llm(convs, base, runs)
        goal_label = base.identity.label()
    elif "goal_accuracy" in names:
        offline = goal_judge_for(judge, goal_judge)
        goals = _goals_offline(convs, offline, runs)
        goal_label = offline.identity.label()
    per_conv = [
        ConversationMetrics(
            tool_call_strict=strict[i] if strict else None,
            tool_call_flexible=flexible[i] if flexible else None,
            topic=topics[i] if topics else None,
            goal=goals[i] if goals else None,
        )
        for i in range(len(convs))
    ]
    label = judge.identity.label() if base is not None and judge is not None else "offline"
    return AgenticMetrics(
        metrics=names, conversations=per_conv, judge=label, goal_judge=goal_label, model_calls=runs.model_calls,
        cache_hits=runs.cache_hits, elapsed_s=time.perf_counter() - started,
        warnings=list(dict.fromkeys(runs.warnings)),
    )
