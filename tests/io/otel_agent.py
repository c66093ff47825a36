"""A small scripted agent loop traced with the real OpenTelemetry SDK (in-memory exporter).

The agent answers two user turns; the first needs a tool call (``lookup_order``), the second none.
It is traced in the current GenAI conventions (``gen_ai.input.messages`` JSON, ``execute_tool`` spans
with arguments and results) or in the v1.36 ones (message events; tool spans without arguments or
results, which then come from the model's tool call and the tool message). The finished spans are
written as the SDK writes them (``span.to_json()``, one per line) or as OTLP JSON.
"""

from __future__ import annotations

import json
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

SYSTEM = "You are a retail support agent."
TURNS = [
    ("Where is order 7?", {"order_id": 7}, {"status": "shipped"}, "Order 7 has shipped."),
    ("Thanks! Can I still cancel it?", None, None, "No, a shipped order cannot be cancelled."),
]


def _text(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": text}]}


def run_agent(convention: str, conversation_id: str = "conv-1", *, tokens: bool = True,
              provider: TracerProvider | None = None) -> list[ReadableSpan]:
    """Run the scripted loop once, traced in ``convention`` (``current`` or ``v1.36``); return its spans.

    With ``provider`` (the caller's, e.g. exporting over OTLP), the spans go there instead and none are returned.
    """
    exporter = InMemorySpanExporter()
    own = provider is None
    if provider is None:
        provider = TracerProvider(resource=Resource.create({"service.name": "support-bot"}))
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("scripted-agent")
    history: list[dict[str, Any]] = []
    events: list[tuple[str, dict[str, Any]]] = [("gen_ai.system.message", {"content": SYSTEM})]
    for n, (question, args, result, answer) in enumerate(TURNS):
        with tracer.start_as_current_span("invoke_agent support") as agent:
            agent.set_attribute("gen_ai.operation.name", "invoke_agent")
            agent.set_attribute("gen_ai.agent.name", "support-bot")
            agent.set_attribute("gen_ai.conversation.id", conversation_id)
            history.append(_text("user", question))
            events.append(("gen_ai.user.message", {"content": question}))
            call_id = f"call-{n}"
            if args is not None:
                call = {"type": "tool_call", "id": call_id, "name": "lookup_order", "arguments": args}
                _chat(tracer, convention, history, events, {"role": "assistant", "parts": [call]}, tokens)
                history.append({"role": "assistant", "parts": [call]})
                events.append(("gen_ai.assistant.message", {"tool_calls": json.dumps(
                    [{"id": call_id, "type": "function",
                      "function": {"name": "lookup_order", "arguments": json.dumps(args)}}])}))
                with tracer.start_as_current_span("execute_tool lookup_order") as tool:
                    tool.set_attribute("gen_ai.operation.name", "execute_tool")
                    tool.set_attribute("gen_ai.tool.name", "lookup_order")
                    tool.set_attribute("gen_ai.tool.call.id", call_id)
                    if convention == "current":
                        tool.set_attribute("gen_ai.tool.call.arguments", json.dumps(args))
                        tool.set_attribute("gen_ai.tool.call.result", json.dumps(result))
                history.append({"role": "tool", "parts": [{"type": "tool_call_response", "id": call_id,
                                                           "response": result}]})
                events.append(("gen_ai.tool.message", {"id": call_id, "content": json.dumps(result)}))
            _chat(tracer, convention, history, events, _text("assistant", answer), tokens)
            history.append(_text("assistant", answer))
            events.append(("gen_ai.assistant.message", {"content": answer}))
    if own:
        provider.shutdown()
    return list(exporter.get_finished_spans())


def _chat(tracer: Any, convention: str, history: list[dict[str, Any]], events: list[tuple[str, dict[str, Any]]],
          output: dict[str, Any], tokens: bool) -> None:
    with tracer.start_as_current_span("chat gpt-4o") as chat:
        chat.set_attribute("gen_ai.operation.name", "chat")
        chat.set_attribute("gen_ai.request.model", "gpt-4o")
        chat.set_attribute("gen_ai.response.model", "gpt-4o-2024-08-06")
        chat.set_attribute("gen_ai.request.temperature", 0.0)
        if tokens:
            chat.set_attribute("gen_ai.usage.input_tokens", 100 + 10 * len(history))
            chat.set_attribute("gen_ai.usage.output_tokens", 20)
        if convention == "current":
            chat.set_attribute("gen_ai.system_instructions", json.dumps([{"type": "text", "content": SYSTEM}]))
            chat.set_attribute("gen_ai.input.messages", json.dumps(history))
            chat.set_attribute("gen_ai.output.messages", json.dumps([{**output, "finish_reason": "stop"}]))
        else:
            for name, attrs in events:
                chat.add_event(name, attrs)
            parts = output["parts"]
            message: dict[str, Any] = {"role": "assistant"}
            if parts[0]["type"] == "text":
                message["content"] = parts[0]["content"]
            else:
                message["tool_calls"] = [{"id": p["id"], "type": "function", "function": {
                    "name": p["name"], "arguments": json.dumps(p["arguments"])}} for p in parts]
            chat.add_event("gen_ai.choice", {"index": 0, "finish_reason": "stop", "message": json.dumps(message)})


def sdk_json_lines(spans: list[ReadableSpan]) -> str:
    """The spans as the SDK writes them (``to_json``), one per line."""
    return "".join(json.dumps(json.loads(s.to_json())) + "\n" for s in spans)


def _any(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [_any(v) for v in value]}}
    return {"stringValue": str(value)}


def _attrs(attrs: Any) -> list[dict[str, Any]]:
    return [{"key": k, "value": _any(v)} for k, v in (attrs or {}).items()]


def otlp_json(spans: list[ReadableSpan]) -> dict[str, Any]:
    """The spans as an OTLP/JSON export request (hex ids, typed values, times as strings)."""
    out = []
    for s in spans:
        ctx = s.get_span_context()
        assert ctx is not None
        out.append({
            "traceId": f"{ctx.trace_id:032x}", "spanId": f"{ctx.span_id:016x}",
            "parentSpanId": f"{s.parent.span_id:016x}" if s.parent else "", "name": s.name, "kind": 1,
            "startTimeUnixNano": str(s.start_time), "endTimeUnixNano": str(s.end_time),
            "attributes": _attrs(s.attributes),
            "events": [{"timeUnixNano": str(e.timestamp), "name": e.name, "attributes": _attrs(e.attributes)}
                       for e in s.events],
            "status": {},
        })
    resource = spans[0].resource.attributes if spans else {}
    return {"resourceSpans": [{"resource": {"attributes": _attrs(resource)},
                               "scopeSpans": [{"scope": {"name": "scripted-agent"}, "spans": out}]}]}
