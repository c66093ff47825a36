"""Imported traces keep their spans (``Conversation.spans``): names, kinds, parents, times, tokens, cost, errors.

Spans come from the real OpenTelemetry SDK (the scripted agent of ``otel_agent.py``, and a small agent
whose tool call fails), written as the SDK writes them and as OTLP JSON, so the expected values are read
off the SDK's own span objects, never typed in.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

from agentic_core.data import Conversation
from agentic_core.io.loader import load_bytes
from agentic_core.io.otel_spans import read_span, status_error
from agentic_core.io.otel_spool import SpanSpool
from tests.io.otel_agent import otlp_json, run_agent, sdk_json_lines


def _load(data: str) -> Conversation:
    report = load_bytes("traces.json", data.encode(), workers=1)
    assert not report.errors, [i.message() for i in report.errors]
    (conv,) = list(report.conversations)
    return conv


def _with_status(spans: list[ReadableSpan]) -> str:
    """OTLP JSON of the spans with each span's status as OTLP writes it (code 2 = error, its message)."""
    doc = otlp_json(spans)
    for raw, span in zip(doc["resourceSpans"][0]["scopeSpans"][0]["spans"], spans, strict=True):
        if span.status.status_code == StatusCode.ERROR:
            raw["status"] = {"code": 2, "message": span.status.description or ""}
    return json.dumps(doc)


@pytest.mark.parametrize("writing", ["sdk-jsonl", "otlp-json"])
def test_every_span_is_kept_with_its_parent_kind_times_tokens_and_turn(writing: str) -> None:
    spans = run_agent("current")
    conv = _load(sdk_json_lines(spans) if writing == "sdk-jsonl" else json.dumps(otlp_json(spans)))
    assert conv.spans is not None and len(conv.spans) == len(spans)
    by_id = {f"{s.context.span_id:016x}": s for s in spans}
    kinds = {"invoke_agent": "agent", "chat": "llm", "execute_tool": "tool"}
    for record in conv.spans:
        sdk = by_id[record.id or ""]
        assert record.name == sdk.name
        assert record.kind == kinds[str(sdk.attributes["gen_ai.operation.name"])]
        assert record.parent_id == (f"{sdk.parent.span_id:016x}" if sdk.parent else None)
        # The SDK's to_json writes ISO times to the microsecond; OTLP JSON keeps the nanoseconds.
        tolerance = 1_000 if writing == "sdk-jsonl" else 0
        assert abs((record.start_ns or 0) - (sdk.start_time or 0)) <= tolerance
        assert abs((record.end_ns or 0) - (sdk.end_time or 0)) <= tolerance
        assert record.input_tokens == sdk.attributes.get("gen_ai.usage.input_tokens")
        assert record.output_tokens == sdk.attributes.get("gen_ai.usage.output_tokens")
        assert record.error is None and record.cost is None
    # In the order read: by start time, a parent before its children.
    starts = [r.start_ns or 0 for r in conv.spans]
    assert starts == sorted(starts)
    # Each turn's model and tool calls name it; the answer is its last model call's output.
    for t, turn in enumerate(conv.conversation):
        chats = [r for r in conv.spans if r.kind == "llm" and r.interaction == t]
        assert chats and [r.answer for r in chats] == [False] * (len(chats) - 1) + [True]
        sdk = by_id[chats[-1].id or ""]
        output = json.loads(str(sdk.attributes["gen_ai.output.messages"]))
        assert output[0]["parts"][0]["content"] == turn.assistant
    assert sum(r.answer for r in conv.spans) == len(conv.conversation)
    assert [r.interaction for r in conv.spans if r.kind == "tool"] == [0]


def _failing_agent() -> list[ReadableSpan]:
    """One turn: a model call asking for a tool, the tool failing (status ERROR), a model call answering."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-bot"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("failing-agent")
    user = {"role": "user", "parts": [{"type": "text", "content": "Weather in Oslo?"}]}
    call = {"type": "tool_call", "id": "c1", "name": "weather", "arguments": {"city": "Oslo"}}
    with tracer.start_as_current_span("invoke_agent weather") as agent:
        agent.set_attribute("gen_ai.operation.name", "invoke_agent")
        agent.set_attribute("gen_ai.conversation.id", "w-1")
        with tracer.start_as_current_span("chat gpt-4o") as chat:
            chat.set_attribute("gen_ai.operation.name", "chat")
            chat.set_attribute("gen_ai.input.messages", json.dumps([user]))
            chat.set_attribute("gen_ai.output.messages", json.dumps([{"role": "assistant", "parts": [call]}]))
            chat.set_attribute("gen_ai.usage.input_tokens", 40)
            chat.set_attribute("gen_ai.usage.cost", 0.0012)
        with tracer.start_as_current_span("execute_tool weather") as tool:
            tool.set_attribute("gen_ai.operation.name", "execute_tool")
            tool.set_attribute("gen_ai.tool.name", "weather")
            tool.set_status(Status(StatusCode.ERROR, "weather service timed out"))
        with tracer.start_as_current_span("chat gpt-4o") as chat:
            chat.set_attribute("gen_ai.operation.name", "chat")
            chat.set_attribute("gen_ai.input.messages", json.dumps([user]))
            chat.set_attribute("gen_ai.output.messages", json.dumps(
                [{"role": "assistant", "parts": [{"type": "text", "content": "I could not reach the service."}]}]))
            chat.set_attribute("llm.cost.total", 0.002)
    provider.shutdown()
    return list(exporter.get_finished_spans())


@pytest.mark.parametrize("writing", ["sdk-jsonl", "otlp-json"])
def test_a_failed_span_keeps_its_error_and_a_costed_span_its_cost(writing: str) -> None:
    spans = _failing_agent()
    conv = _load(sdk_json_lines(spans) if writing == "sdk-jsonl" else _with_status(spans))
    assert conv.spans is not None
    by_name = {(r.name, r.cost): r for r in conv.spans}
    failed = [r for r in conv.spans if r.error is not None]
    assert [(r.name, r.error) for r in failed] == [("execute_tool weather", "weather service timed out")]
    assert ("chat gpt-4o", 0.0012) in by_name and ("chat gpt-4o", 0.002) in by_name
    assert by_name[("chat gpt-4o", 0.002)].answer and not by_name[("chat gpt-4o", 0.0012)].answer
    notes = " ".join(n.message() for n in load_bytes("t.json", _with_status(spans).encode(), workers=1).notes)
    assert "gen_ai.usage.cost" not in notes and "llm.cost.total" not in notes  # read now: not "not used"


@pytest.mark.parametrize(
    ("status", "attrs", "events", "expected"),
    [
        ({"code": 2, "message": "boom"}, {}, [], "boom"),
        ({"code": "STATUS_CODE_ERROR"}, {"error.type": "TimeoutError"}, [], "TimeoutError"),
        ({"status_code": "ERROR", "description": ""}, {},
         [{"name": "exception", "attributes": {"exception.message": "division by zero"}}], "division by zero"),
        ({"code": 2}, {}, [], "error"),
        ({"code": 1, "message": "fine"}, {}, [], None),
        ({"status_code": "UNSET"}, {}, [], None),
        ({"code": True}, {}, [], None),
        ("ERROR", {}, [], None),
    ],
)
def test_the_error_is_read_from_the_status_then_from_what_says_why(
    status: Any, attrs: dict[str, Any], events: list[dict[str, Any]], expected: str | None
) -> None:
    raw = {"traceId": "aa", "spanId": "01", "name": "x", "status": status, "attributes": attrs, "events": events}
    span = read_span(raw, 0, "", {}, 0)
    assert span.error == expected == status_error(raw, span.attrs, span.events)


def test_a_spooled_span_keeps_its_error() -> None:
    raw = {"traceId": "aa", "spanId": "01", "name": "tool", "status": {"code": 2, "message": "refused"}}
    span = read_span(raw, 0, ("spans", 0), {}, 0)
    with SpanSpool(spill_from=0) as spool:
        spool.append(span)
        assert spool.spilled
        (back,) = spool.spans(spool.groups()["aa"])
    assert back == span and back.error == "refused"
