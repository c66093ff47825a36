"""An Inspect AI sample's events become its span tree's steps (``Conversation.spans``)."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agentic_core.io.importers.inspect_events import inspect_time_ns
from agentic_core.io.loader import load_bytes

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "inspect_log.json"
T0 = datetime(2025, 3, 10, 14, 2, 11, tzinfo=UTC)


def _at(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat()


def _ns(seconds: float) -> int:
    return int((T0 + timedelta(seconds=seconds)).timestamp()) * 1_000_000_000 + round(seconds % 1 * 1e6) * 1000


def _log(events: list[Any]) -> bytes:
    log = json.loads(SAMPLE.read_text())
    sample = copy.deepcopy(log["samples"][0])
    sample["events"] = events
    log["samples"] = [sample]
    return json.dumps(log).encode()


def _spans(events: list[Any]) -> tuple[list[Any], list[str]]:
    report = load_bytes("log.json", _log(events), workers=1)
    assert not report.errors
    (conv,) = list(report.conversations)
    return list(conv.spans or []), [w.message() for w in report.warnings]


SPANNED = [
    {"event": "sample_init", "timestamp": _at(0)},
    {"event": "span_begin", "id": "s1", "parent_id": None, "type": "solvers", "name": "solvers", "timestamp": _at(0)},
    {"event": "span_begin", "id": "s2", "parent_id": "s1", "type": "solver", "name": "generate", "timestamp": _at(0.1)},
    {"event": "model", "span_id": "s2", "timestamp": _at(0.2), "completed": _at(1.0), "working_time": 0.8,
     "model": "openai/gpt-4o-mini",
     "output": {"usage": {"input_tokens": 400, "output_tokens": 12, "total_cost": 0.01}}},
    {"event": "span_begin", "id": "s3", "parent_id": "s2", "type": "tool", "name": "lookup_policy",
     "timestamp": _at(1.1)},
    {"event": "tool", "span_id": "s3", "timestamp": _at(1.1), "working_time": 0.4, "function": "lookup_policy",
     "error": {"type": "timeout", "message": "lookup_policy timed out"}},
    {"event": "span_end", "id": "s3", "timestamp": _at(1.5)},
    {"event": "model", "span_id": "s2", "timestamp": _at(1.6), "working_time": 0.5, "model": "openai/gpt-4o-mini",
     "output": {"usage": {"input_tokens": 450, "output_tokens": 20}}},
    {"event": "state", "timestamp": _at(2.1), "changes": []},
    {"event": "span_end", "id": "s2", "timestamp": _at(2.1)},
    {"event": "span_end", "id": "s1", "timestamp": _at(2.2)},
]


def test_spans_nest_by_their_ids_and_model_and_tool_events_fill_them() -> None:
    spans, _ = _spans(SPANNED)
    assert [(s.name, s.kind, s.id, s.parent_id) for s in spans] == [
        ("solvers", "other", "s1", None),
        ("generate", "agent", "s2", "s1"),
        ("openai/gpt-4o-mini", "llm", None, "s2"),
        ("lookup_policy", "tool", "s3", "s2"),  # the tool span and the call it wraps: one step
        ("openai/gpt-4o-mini", "llm", None, "s2"),
    ]
    solvers, generate, first, tool, last = spans
    assert (solvers.start_ns, solvers.end_ns) == (_ns(0), _ns(2.2))
    assert (generate.start_ns, generate.end_ns) == (_ns(0.1), _ns(2.1))
    assert (first.start_ns, first.end_ns) == (_ns(0.2), _ns(1.0))  # completed
    assert (last.start_ns, last.end_ns) == (_ns(1.6), _ns(1.6) + 500_000_000)  # start + working_time
    assert (first.input_tokens, first.output_tokens, first.cost) == (400, 12, 0.01)
    assert tool.error == "lookup_policy timed out" and (tool.start_ns, tool.end_ns) == (_ns(1.1), _ns(1.5))
    assert [s.answer for s in spans] == [False, False, False, False, True]
    assert {s.interaction for s in spans} == {0}


def test_an_older_log_without_spans_is_a_flat_sequence_with_times() -> None:
    events = [
        {"event": "model", "timestamp": _at(0), "working_time": 1.25, "model": "m"},
        {"event": "tool", "timestamp": _at(1.5), "function": "calc", "result": "4"},
        {"event": "model", "timestamp": _at(2), "model": "m", "error": "rate limited"},
        {"event": "error", "timestamp": _at(3), "error": {"message": "sample failed", "traceback": "..."}},
    ]
    spans, _ = _spans(events)
    assert [(s.name, s.kind, s.parent_id) for s in spans] == [
        ("m", "llm", None), ("calc", "tool", None), ("m", "llm", None), ("error", "other", None)]
    assert spans[0].end_ns == _ns(0) + 1_250_000_000 and spans[1].end_ns is None
    assert [s.error for s in spans] == [None, None, "rate limited", "sample failed"]
    assert [s.answer for s in spans] == [True, False, False, False]  # the last model call that did not fail


def test_an_event_that_is_not_an_object_is_reported_and_no_events_mean_no_spans() -> None:
    spans, warnings = _spans([*SPANNED, "garbage", 3])
    assert len(spans) == 5
    assert any("events[11]" in w and "2 event(s) are not event objects" in w for w in warnings), warnings
    assert _spans([])[0] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2025-03-10T14:02:11+00:00", 1741615331 * 10**9),
        ("2025-03-10T14:02:11.5Z", 1741615331 * 10**9 + 500_000_000),
        ("2025-03-10T14:02:11", None),  # no time zone: no instant
        ("soon", None),
        (17, None),
        ("", None),
    ],
)
def test_inspect_times_are_read_as_instants(text: Any, expected: int | None) -> None:
    assert inspect_time_ns(text) == expected
