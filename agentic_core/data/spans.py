"""The timed steps of a traced conversation (spans, or events with times), for the Explorer's span tree.

An importer whose format records when each step ran (OpenTelemetry and OpenInference spans, an
Inspect log's events) keeps them as ``Conversation.spans``: one :class:`TraceSpan` per step, in the
order they started, each naming its parent by id (a format without parents leaves it out: the steps
are then a flat sequence). Only what the tree shows is kept (name, kind, times, tokens, cost, error,
the interaction and whether its output is the judged answer), never the span's attributes, so a
record grows by a line per step. Our addition to the seed format; optional, never read by the
judges or the aggregates.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

SpanKind = Literal["llm", "tool", "agent", "other"]
"""What a step is: a model call, a tool call, an agent (or a solver, a sub-task), anything else."""


class TraceSpan(BaseModel):
    """One timed step of a trace.

    Attributes:
        name: The step's name as the format gives it (``chat gpt-4o``, ``execute_tool lookup_order``).
        kind: ``llm``, ``tool``, ``agent`` or ``other``.
        id: The span's id (unique within the conversation; ``None`` for a step nothing names as parent).
        parent_id: The id of the step it ran in (``None``: a root, or a format without parents).
        start_ns: When it started, in nanoseconds since the epoch (``None``: unknown).
        end_ns: When it ended, likewise (``None``: unknown).
        input_tokens: The model call's input tokens, when recorded.
        output_tokens: Its output tokens, when recorded.
        cost: What the step cost, as the trace records it (its currency, usually US dollars).
        error: The step's error (its status message, or the error's type), ``None`` when it did not fail.
        interaction: The index in ``conversation`` of the interaction the step belongs to, when known.
        answer: Whether the step's output is its interaction's answer (what the judge graded).
    """

    model_config = ConfigDict(extra="allow")

    name: str = ""
    kind: SpanKind = "other"
    id: str | None = None
    parent_id: str | None = None
    start_ns: StrictInt | None = Field(default=None, ge=0)
    end_ns: StrictInt | None = Field(default=None, ge=0)
    input_tokens: StrictInt | None = Field(default=None, ge=0)
    output_tokens: StrictInt | None = Field(default=None, ge=0)
    cost: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    error: str | None = None
    interaction: StrictInt | None = Field(default=None, ge=0)
    answer: StrictBool = False
