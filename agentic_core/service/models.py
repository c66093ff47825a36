"""The endpoint's boundary data: seed 001's request and response, with our additions.

The request envelope (``connector``, ``config``) is validated here, strictly: ``"0.5"`` is not a
threshold and ``true`` is not a k. ``datasets`` is typed loosely on purpose: its records go
through the loader (:func:`agentic_core.io.loader.load_records`), whose messages name the record
and the JSON path of each problem. Value rules (threshold in [0, 1], k >= 1, ...) are the
settings' own (:func:`agentic_core.settings.make_settings`), applied after this shape check.

The response models document the answer (OpenAPI at ``/docs``) and are what the tests check
responses against; the endpoint itself builds plain dicts (building a model per conversation
would cost more than the aggregation).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agentic_core.agentic_metrics.tool_call_accuracy import ToolCallOrder
from agentic_core.agentic_metrics.topic_adherence import TopicMode, TopicVariant
from agentic_core.data.schemas import Conversation
from agentic_core.service.labels import RequestLabel
from agentic_core.settings import Estimator, Mode, Target, UnitChoice
from agentic_core.tools import ToolCorrectnessScore


class Connector(BaseModel):
    """The LLM judge (seed 001): a chat model class from the allow-list and its parameters."""

    model_config = ConfigDict(extra="forbid", strict=True)

    class_path: str = Field(
        description="One of the allowed chat model classes, e.g. langchain_openai.chat_models.ChatOpenAI "
        "(nothing is ever imported from this text: it picks an entry of a fixed table)."
    )
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="model, api_key, temperature, base_url, timeout, max_retries (and each class's own names "
        "for them, such as model_name or openai_api_base); anything else is ignored with a warning.",
    )


class RunConfig(BaseModel):
    """Seed 001's ``config`` plus the workbench's statistics settings.

    Defaults follow seed 001 where it has one (k 3, tool threshold 0.75, plug-in pass@k over
    conversations), so its example request gives its example numbers.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    threshold: float | None = Field(default=None, description="answer threshold; default: the judge's (0.7)")
    tool_threshold: float = 0.75
    tool_weights: dict[str, float] | None = Field(
        default=None, description="selection, parameters, sequence, utilization (normalised; default 0.25 each)"
    )
    k: int | Literal["auto"] = 3
    use_structured_output: bool | Literal["auto", "json_schema", "json_object", "text"] | None = Field(
        default=None,
        description="LLM judge: structured output; true/false, or a format to pin (json_schema, json_object, "
        "text); default (null or auto): negotiated with the server, json_schema then json_object then text",
    )
    max_tokens: int | None = Field(
        default=None, description="LLM judge: the reply budget in tokens (default 512); raise it for reasoning models"
    )
    verbose: bool = Field(default=False, description="add each interaction's judge reasoning")
    estimator: Estimator = "plug-in"
    mode: Mode = "frequentist"
    unit: UnitChoice = "conversation"
    target: Target = "population"
    ci_level: float = 0.95
    prior: str | list[float] | None = Field(default=None, description="Beta prior: [a, b], uniform or jeffreys")
    seed: int = 0
    ignore_extra_tools: bool = False
    require_tool_correctness: bool = False
    unscored_as_incorrect: bool = False
    abstain_band: list[float] | None = Field(
        default=None,
        description="[low, high]: for a judge that gives a probability (the offline default), where it decides "
        "(P(correct) <= low or >= high) and where it abstains (uncertain, unscored); default: the judge's fitted "
        "band; [0.5, 0.5] never abstains",
    )
    judge: str | None = Field(
        default=None,
        description="an offline judge by name when there is no connector (default: the offline default judge), "
        "or cascade with a connector: the offline judge decides what it is sure of, the connector's LLM the rest",
    )
    concurrency: int | None = Field(default=None, description="LLM judge: calls in flight (default 8)")
    skip_invalid: bool = Field(
        default=False,
        description="evaluate the valid conversations and list the invalid ones, instead of answering 422",
    )
    metrics: list[str] | str | None = Field(
        default=None,
        description="seed 004's agentic metrics: tool_call_accuracy, topic_adherence, goal_accuracy (or all)",
    )
    tool_call_order: ToolCallOrder = "strict"
    topic_mode: TopicMode = "f1"
    topic_variant: TopicVariant = "workbench"


class RunMetadata(BaseModel):
    """The run's tags, note and metadata (``runs list --json``'s fields), echoed in the answer.

    The rules are :mod:`agentic_core.runs.run_tags`' (bounds; no key naming a credential, no value holding one);
    a value breaking one is a 422 located at ``metadata.tags[i]``, ``metadata.note`` or ``metadata.KEY``.
    """

    model_config = ConfigDict(extra="allow")

    tags: list[str] = Field(default_factory=list, description="short one-word tags (at most 20 of 40 characters)")
    note: str = Field(default="", description="free text (at most 2,000 characters)")
    # Any other key is a metadata key with a string value (agent_version, model, prompt_hash, git_commit, ...).


class RunRequest(BaseModel):
    """``POST /run``: seed 001's request."""

    model_config = ConfigDict(extra="allow")

    connector: Connector | None = Field(default=None, description="omit for the offline default judge")
    datasets: list[Conversation] = Field(description="seed-format conversations, one per dataset")
    config: RunConfig = Field(default_factory=RunConfig)
    metadata: RunMetadata | None = Field(
        default=None,
        description="the run's tags, note and any other key as metadata (agent_version, model, ...): checked, then "
        "echoed in the answer (this endpoint keeps no run history)",
    )
    labels: list[RequestLabel] | None = Field(
        default=None,
        description="human labels on some conversations or interactions (a random sample of tasks): the answer then "
        "gains 'corrected', the headline corrected for the judge's errors (at most the server's max_labels)",
    )


class ConversationMetrics(BaseModel):
    """One entry of ``per_conversation_metrics`` (seed 001 / 003 fields, plus ours)."""

    model_config = ConfigDict(extra="allow")

    session_id: str
    total_interactions: int
    correct_interactions: int
    is_fully_correct: bool | None
    threshold: float
    correctness_scores: list[float | None]
    correct_indices: list[int]
    tool_correctness_scores: list[ToolCorrectnessScore | None]


class AggregatedMetrics(BaseModel):
    """Seed 001's ``aggregated_metrics`` plus intervals and counts."""

    model_config = ConfigDict(extra="allow")

    total_conversations: int
    fully_correct_conversations: int
    conversation_success_rate: float | None
    k: int
    pass_at_k: float | None
    pass_pow_k: float | None
    interpretation: Literal["reliable", "inconsistent", "functional", "needs_improvement"] | None
    scored_conversations: int
    unscored_conversations: int
    pass_at_k_ci: list[float] | None
    pass_pow_k_ci: list[float] | None


class Health(BaseModel):
    """``GET /health``'s answer: alive, the version, the default judge and the accepted connector class paths."""

    model_config = ConfigDict(frozen=True)

    status: Literal["ok"]
    version: str
    default_judge: str
    class_paths: list[str]


class Problem(BaseModel):
    """One located problem: place, rule, value and fix (and the whole sentence)."""

    severity: Literal["error", "warning", "info"] = "error"
    place: str
    rule: str
    value: str | None = None
    fix: str = ""
    message: str


class RunResponse(BaseModel):
    """``POST /run``'s answer (HTTP 200)."""

    model_config = ConfigDict(extra="allow")

    success: Literal[True]
    per_conversation_metrics: list[ConversationMetrics]
    aggregated_metrics: AggregatedMetrics
    mode: Mode
    estimator: Estimator
    unit: str
    target: Target
    intervals: dict[str, Any]
    unscored: dict[str, Any]
    judge: dict[str, Any]
    issues: list[Problem]
    warnings: list[str]
    metadata: RunMetadata | None = Field(default=None, description="the request's metadata, checked and normalised")
    run_id: str | None = Field(
        default=None,
        description="the run's id in the server's run history (serve --store-runs); null when it could not be "
        "stored (a warning says why); absent when the server does not store runs",
    )


class ErrorResponse(BaseModel):
    """Every non-200 answer: ``success`` false, the message, and each located problem."""

    success: Literal[False]
    error: str
    status: int
    errors: list[Problem] = Field(default_factory=list)
    allowed: list[str] | None = Field(default=None, description="the allowed values, when that is the rule")
