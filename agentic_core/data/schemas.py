"""Validated data models for the seed format (and our optional additions).

Field names follow the seeds (Fair-Forge ``Dataset`` = our :class:`Conversation`, ``Batch`` =
our :class:`Interaction`). The seeds' free-form ``agentic`` / ``ground_truth_agentic`` dicts get
real schemas here. Unknown keys are *kept* (``extra="allow"``) so nothing is lost, and the loader
reports each one as a warning, because a typo such as ``tool_sequense_matters`` must not pass silently.

Booleans are strict: the reference implementation accepted the string ``"false"`` as true.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, StrictInt, model_validator

from agentic_core.data.spans import TraceSpan
from agentic_core.data.trace import TraceStep

_ALLOW = ConfigDict(extra="allow", frozen=False)

RuleKind = Literal["exact", "ignore", "any_of", "tolerance", "text"]


class ParameterRule(BaseModel):
    """How one expected parameter is compared with the used value.

    Kinds:
        exact: structural equality (the default for every parameter without a rule).
        ignore: the parameter is not compared at all (not counted either way).
        any_of: the used value must structurally equal one of ``values``.
        tolerance: numbers agree when ``|used - expected| <= max(abs_tol, rel_tol * |expected|)``.
        text: strings agree after normalisation (case, surrounding/multiple whitespace, punctuation).
    """

    model_config = ConfigDict(extra="forbid")

    rule: RuleKind = "exact"
    values: list[Any] | None = None
    abs_tol: float = Field(default=0.0, ge=0.0, allow_inf_nan=False)
    rel_tol: float = Field(default=0.0, ge=0.0, allow_inf_nan=False)
    # The any_of values indexed for lookup (built on first use by tools.values.in_values).
    _value_index: Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_kind_fields(self) -> ParameterRule:
        if self.rule == "any_of" and not self.values:
            raise ValueError("rule 'any_of' needs a non-empty 'values' list")
        if self.rule == "tolerance" and self.abs_tol == 0.0 and self.rel_tol == 0.0:
            raise ValueError("rule 'tolerance' needs 'abs_tol' or 'rel_tol' greater than 0")
        return self


class ToolCall(BaseModel):
    """A tool call the agent actually made (seed: an item of ``agentic.tools_used``)."""

    model_config = _ALLOW

    tool_name: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)
    result: Any = None
    step: int | None = None


class ExpectedTool(BaseModel):
    """A tool call the agent should have made (seed: an item of ``expected_tools``).

    ``optional`` calls never count as missing; ``parameter_rules`` maps a parameter name to
    the :class:`ParameterRule` used to compare it (exact when absent).
    """

    model_config = _ALLOW

    tool_name: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict)
    step: int | None = None
    optional: StrictBool = False
    parameter_rules: dict[str, ParameterRule] = Field(default_factory=dict)


class Agentic(BaseModel):
    """What the agent did with tools in one interaction (seed: ``Batch.agentic``)."""

    model_config = _ALLOW

    tools_used: list[ToolCall] = Field(default_factory=list)
    final_answer_uses_tools: StrictBool | None = None


class GroundTruthAgentic(BaseModel):
    """What the agent should have done with tools (seed: ``Batch.ground_truth_agentic``)."""

    model_config = _ALLOW

    expected_tools: list[ExpectedTool] = Field(default_factory=list)
    tool_sequence_matters: StrictBool = False


class Telemetry(BaseModel):
    """What a traced interaction cost (our addition, filled by the OpenTelemetry importer).

    Every field is optional: a trace keeps what its instrumentation recorded. Tokens are summed
    over the turn's model calls; latency runs from the turn's first span start to its last span end.
    """

    model_config = _ALLOW

    model: str | None = None
    agent_name: str | None = None
    input_tokens: StrictInt | None = Field(default=None, ge=0)
    output_tokens: StrictInt | None = Field(default=None, ge=0)
    latency_ms: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    trace_id: str | None = None


class Interaction(BaseModel):
    """One question/answer turn (seed: ``Batch``).

    ``score`` is our addition: a precomputed correctness score in [0, 1] (environment reward,
    human grade) used by the ``dataset`` judge.

    ``human_label`` (0 or 1: is the answer correct?) and ``human_score`` (in [0, 1], correct at 0.5
    and above) are our additions too: a person's verdict, which the judge is calibrated against
    (:mod:`agentic_core.analysis.calibration`); the label wins when both are given. Neither changes what
    the aggregates count (a human override does, see :mod:`agentic_core.data.overrides`).

    ``telemetry`` is our addition too: model, agent name, tokens and latency of a traced
    interaction (:class:`Telemetry`, read from OpenTelemetry spans).
    """

    model_config = _ALLOW

    qa_id: str = Field(min_length=1)
    query: str
    assistant: str
    ground_truth_assistant: str
    observation: str | None = None
    logprobs: dict[str, Any] | None = None
    agentic: Agentic | None = None
    ground_truth_agentic: GroundTruthAgentic | None = None
    score: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    human_label: StrictInt | None = Field(default=None, ge=0, le=1)
    human_score: float | None = Field(default=None, ge=0.0, le=1.0, allow_inf_nan=False)
    telemetry: Telemetry | None = None


class Conversation(BaseModel):
    """One complete conversation (seed: ``Dataset``).

    ``task_id`` is our addition: conversations sharing it are repeated attempts at one task.
    Without it, the task key is the ordered tuple of the conversation's ``qa_id``s.

    ``reference_topics`` is our addition too: the topics the agent should keep to in this
    conversation (Ragas' ``reference_topics``, read by the Ragas importer), what topic adherence
    (:mod:`agentic_core.agentic_metrics`) classifies each user query against.

    ``trace`` is our addition too: the whole imported chat log, every message in order with the
    interaction it belongs to (:mod:`agentic_core.data.trace`), for reading the conversation as a thread.

    ``spans`` is our addition too: the trace's timed steps (spans, or events with times) with their
    parents, tokens, cost and errors (:mod:`agentic_core.data.spans`), for the Explorer's span tree.

    ``reference`` is our addition too: the expected outcome of the conversation's goal (Ragas'
    ``reference`` of a multi-turn sample, read by the Ragas importer), what agent goal accuracy
    with reference compares the conversation's outcome with.
    """

    model_config = _ALLOW

    session_id: str = Field(min_length=1)
    assistant_id: str
    language: str | None = None
    context: str | None = None
    task_id: str | None = None
    reference_topics: list[str] | None = None
    reference: str | None = None
    conversation: list[Interaction] = Field(min_length=1)
    trace: list[TraceStep] | None = None
    spans: list[TraceSpan] | None = None

    def task_key(self) -> str:
        """The key that groups repeated attempts at the same task."""
        if self.task_id is not None:
            return self.task_id
        return "|".join(i.qa_id for i in self.conversation)
