"""An Inspect AI sample's event transcript as ``Conversation.spans`` (:mod:`agentic_core.data.spans`).

Inspect records what a sample did as ``events``, each with its ``timestamp``: ``span_begin`` /
``span_end`` (a solver, an agent, a tool call, with ``id`` and ``parent_id``), ``model`` (a
generation: the model, ``output.usage`` tokens, ``completed`` and ``working_time``, an ``error``),
``tool`` (``function``, ``error``), ``subtask`` and ``error``. They become the span tree's steps:
a model or tool event under the span its ``span_id`` names (a tool event fills in the ``tool`` span
that wraps it), a step's end its ``completed`` time (else its start plus ``working_time``). Older logs
have no spans: their events are a flat sequence with times. Other events (state, store, logging,
scoring) are not steps and are not shown. The sample is one interaction, so every step is
interaction 0, and its answer is the last model event's output.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from agentic_core.io.importers.common import RecordMap

_SPAN_KINDS = {"agent": "agent", "solver": "agent", "subtask": "agent", "handoff": "agent", "tool": "tool"}
"""A ``span_begin`` event's ``type`` as a step's kind (any other type: ``other``)."""


def inspect_time_ns(value: Any) -> int | None:
    """An Inspect timestamp (ISO 8601 text, as its logs write them) in nanoseconds since the epoch."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None  # a local time names no instant
    seconds = int(moment.timestamp())
    return seconds * 1_000_000_000 + moment.microsecond * 1000 if seconds >= 0 else None


def _end_ns(event: dict[str, Any], start: int | None) -> int | None:
    """When an event's step ended: its ``completed`` time, else its start plus its ``working_time`` (seconds)."""
    completed = inspect_time_ns(event.get("completed"))
    if completed is not None:
        return completed
    working = event.get("working_time")
    if start is not None and isinstance(working, (int, float)) and not isinstance(working, bool) and working >= 0:
        return start + round(working * 1e9)
    return None


def _count(usage: Any, key: str) -> int | None:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _error_text(error: Any) -> str | None:
    """An event's error: text, or Inspect's ``{"type", "message"}`` (the message, else the type)."""
    if isinstance(error, str):
        return error or None
    if isinstance(error, dict):
        for key in ("message", "type"):
            if isinstance(error.get(key), str) and error[key].strip():
                return str(error[key])
        return "error"
    return None


def _model_step(event: dict[str, Any]) -> dict[str, Any]:
    given = event.get("output")
    output: dict[str, Any] = given if isinstance(given, dict) else {}
    usage = output.get("usage")
    step: dict[str, Any] = {"name": str(event.get("model") or "model"), "kind": "llm"}
    for key in ("input_tokens", "output_tokens"):
        if (count := _count(usage, key)) is not None:
            step[key] = count
    cost = usage.get("total_cost") if isinstance(usage, dict) else None
    if isinstance(cost, (int, float)) and not isinstance(cost, bool) and 0 <= cost < float("inf"):
        step["cost"] = float(cost)
    error = _error_text(event.get("error")) or _error_text(output.get("error"))
    if error is not None:
        step["error"] = error
    return step


def _timed(step: dict[str, Any], start: int | None, end: int | None, parent: Any) -> dict[str, Any]:
    """The step with its times and parent (those it has), and interaction 0 (a sample is one interaction)."""
    if isinstance(parent, str) and parent:
        step["parent_id"] = parent
    if start is not None:
        step["start_ns"] = start
    if end is not None and (start is None or end >= start):
        step["end_ns"] = end
    step["interaction"] = 0
    return step


def inspect_span_records(rec: RecordMap, events: Any) -> list[dict[str, Any]]:
    """The sample's steps from its ``events`` (see the module), in the order they started.

    Args:
        rec: The sample being mapped (an event that is not an object is a warning there).
        events: The sample's ``events`` as written.

    Returns:
        One ``Conversation.spans`` record per step; empty when the events hold none.
    """
    if not isinstance(events, list):
        return []
    steps: list[dict[str, Any]] = []
    spans: dict[str, dict[str, Any]] = {}  # span_begin ids -> their step (a span_end or a tool event fills it in)
    filled: set[str] = set()
    not_objects = [e for e, event in enumerate(events) if not isinstance(event, dict)]
    if not_objects:
        rec.warn(f"events[{not_objects[0]}]", f"{len(not_objects)} event(s) are not event objects; they are left out "
                 "of the span tree", None, "keep the events as Inspect wrote them")
    answered: dict[str, Any] | None = None  # the last model event that did not fail: its output is the answer
    for event in events:
        if not isinstance(event, dict):
            continue
        kind, start, parent = event.get("event"), inspect_time_ns(event.get("timestamp")), event.get("span_id")
        if kind == "span_begin" and isinstance(event.get("id"), str):
            step = {"name": str(event.get("name") or event.get("type") or "span"), "id": event["id"],
                    "kind": _SPAN_KINDS.get(str(event.get("type")), "other")}
            spans.setdefault(event["id"], step)
            steps.append(_timed(step, start, None, event.get("parent_id")))
        elif kind == "span_end" and isinstance(event.get("id"), str) and event["id"] in spans:
            step = spans[event["id"]]
            if start is not None and start >= step.get("start_ns", 0):
                step["end_ns"] = start
        elif kind == "model":
            step = _timed(_model_step(event), start, _end_ns(event, start), parent)
            steps.append(step)
            if "error" not in step:
                answered = step
        elif kind == "tool":
            error = _error_text(event.get("error"))
            wrapper = spans.get(parent) if isinstance(parent, str) else None
            if wrapper is not None and wrapper["kind"] == "tool" and wrapper["id"] not in filled:
                filled.add(wrapper["id"])  # the tool span that wraps this call: one step, not two
                if error is not None:
                    wrapper["error"] = error
                continue
            step = {"name": str(event.get("function") or "tool"), "kind": "tool"}
            if error is not None:
                step["error"] = error
            steps.append(_timed(step, start, _end_ns(event, start), parent))
        elif kind in ("subtask", "error"):
            name = str(event.get("name") or "subtask") if kind == "subtask" else "error"
            step = {"name": name, "kind": "agent" if kind == "subtask" else "other"}
            if kind == "error":
                step["error"] = _error_text(event.get("error")) or "error"
            steps.append(_timed(step, start, _end_ns(event, start), parent))
    if answered is not None:
        answered["answer"] = True
    return steps
