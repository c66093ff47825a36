"""A traced conversation's spans as ``Conversation.spans`` records (:mod:`agentic_core.data.spans`).

The OpenTelemetry importer maps a group of spans to turns; the spans themselves are kept too, in the
order they were read (start time, a parent before its children), for the Explorer's span tree: each
span's name, kind, ids, times, tokens, cost, error, the interaction it was read into, and whether its
output is that interaction's answer. Attributes are not kept (the record grows by a line per span).
A value the span lacks is left out of its record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from agentic_core.io.otel_messages import COST_KEYS, span_kind, token_usage
from agentic_core.io.otel_spans import Span

_KINDS = {"llm": "llm", "tool": "tool", "agent": "agent"}  # OpenInference's CHAIN and the rest: "other"


def span_cost(span: Span) -> float | None:
    """The cost the span records (a non-negative finite number), else ``None``."""
    for key in COST_KEYS:
        value = span.attrs.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf"):
            return float(value)
    return None


def otel_span_records(
    spans: Sequence[Span], turns: Iterable[tuple[Sequence[Span], Span | None]]
) -> list[dict[str, Any]]:
    """The conversation's spans as ``Conversation.spans`` records, in the order given.

    Args:
        spans: The conversation's spans as read (start-time order, a parent before its children; repeated
            copies left out and parent cycles cut: :mod:`agentic_core.io.otel_tree`).
        turns: Per interaction, in order: the spans read into it (model calls, tool calls, an agent span)
            and the span whose output is its answer (``None`` when it has none).

    Returns:
        One record per span.
    """
    interaction: dict[int, int] = {}
    answers: set[int] = set()
    for t, (members, answer) in enumerate(turns):
        for span in members:
            interaction.setdefault(id(span), t)
        if answer is not None:
            answers.add(id(answer))
            interaction.setdefault(id(answer), t)
    out: list[dict[str, Any]] = []
    for span in spans:
        record: dict[str, Any] = {"name": span.name, "kind": _KINDS.get(span_kind(span), "other")}
        if span.span_id:
            record["id"] = span.span_id
        if span.parent_id:
            record["parent_id"] = span.parent_id
        if span.start_ns > 0:
            record["start_ns"] = span.start_ns
        if span.end_ns > 0:
            record["end_ns"] = span.end_ns
        tokens_in, tokens_out = token_usage(span)
        if tokens_in is not None:
            record["input_tokens"] = tokens_in
        if tokens_out is not None:
            record["output_tokens"] = tokens_out
        cost = span_cost(span)
        if cost is not None:
            record["cost"] = cost
        if span.error is not None:
            record["error"] = span.error
        turn = interaction.get(id(span))
        if turn is not None:
            record["interaction"] = turn
        if id(span) in answers:
            record["answer"] = True
        out.append(record)
    return out
