"""An OpenTelemetry GenAI trace export (``otel_traces.json``) and its golden set (``otel_references.jsonl``).

The texts are in ``texts/import_otel.json``; no randomness here. Each conversation is one trace, written as the
OTLP/HTTP JSON exporter writes it (typed attribute values, hex ids, times as strings) in the current GenAI
conventions: per user turn an ``invoke_agent`` span holding the turn's ``chat`` spans (the history as
``gen_ai.input.messages``, tokens, a cost) and ``execute_tool`` spans (arguments, result; a failed call's status
is an error), a tool span's own steps (an HTTP request) inside it. Steps follow each other 5 ms apart.

A step in the texts is ``{"chat": {"call": name, "arguments": {...}} | {"text": answer}, "ms", "tokens": [in, out],
"cost"}`` or ``{"tool": name, "ms", "result", "error"?, "inside"?: [{"name", "ms"}]}``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from .common import check_keys, load_texts

OTEL_KEYS = {"service", "agent", "model", "system", "start", "conversations"}
CONVERSATION_KEYS = {"id", "task_id", "why", "turns", "reference", "expected_tool_calls"}
CHAT_STEP_KEYS = {"chat", "ms", "tokens", "cost"}
TOOL_STEP_KEYS = {"tool", "ms", "result", "error", "inside"}
GAP_NS = 5_000_000  # between two steps
MS = 1_000_000


def _any(value: Any) -> dict[str, Any]:
    """A value as OTLP JSON types it."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    return {"stringValue": str(value)}


class _Trace:
    """The spans of one trace being written: ids numbered in order, times on one clock."""

    def __init__(self, number: int, start_ns: int) -> None:
        self.trace_id = f"{number:032x}"
        self.prefix = number << 16
        self.count = 0
        self.now = start_ns
        self.spans: list[dict[str, Any]] = []

    def span(self, name: str, parent: str, start: int, end: int, attrs: dict[str, Any],
             error: str | None = None) -> str:
        self.count += 1
        span_id = f"{self.prefix + self.count:016x}"
        self.spans.append({
            "traceId": self.trace_id, "spanId": span_id, "parentSpanId": parent, "name": name, "kind": 1,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(end),
            "attributes": [{"key": k, "value": _any(v)} for k, v in attrs.items()],
            "status": {"code": 2, "message": error} if error else {},
        })
        return span_id


def _text(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": text}]}


def _turn(trace: _Trace, texts: dict[str, Any], conv: dict[str, Any], turn: dict[str, Any],
          history: list[dict[str, Any]]) -> None:
    """One user turn: an ``invoke_agent`` span with its model and tool calls inside."""
    history.append(_text("user", turn["user"]))
    start = trace.now
    inner: list[tuple[str, int, int, dict[str, Any], str | None, list[dict[str, Any]]]] = []
    clock = start + GAP_NS
    calls = 0
    for step in turn["steps"]:
        end = clock + step["ms"] * MS
        if "chat" in step:
            check_keys(step, CHAT_STEP_KEYS, f"texts/import_otel.json, {conv['id']}, a chat step")
            said = step["chat"]
            attrs = {"gen_ai.operation.name": "chat", "gen_ai.request.model": texts["model"],
                     "gen_ai.response.model": texts["model"],
                     "gen_ai.system_instructions": json.dumps([{"type": "text", "content": texts["system"]}]),
                     "gen_ai.input.messages": json.dumps(history, ensure_ascii=False)}
            if "call" in said:
                calls += 1
                call_id = f"call_{conv['task_id']}_{calls}"
                output = {"role": "assistant", "parts": [
                    {"type": "tool_call", "id": call_id, "name": said["call"], "arguments": said["arguments"]}]}
            else:
                output = _text("assistant", said["text"])
            attrs["gen_ai.output.messages"] = json.dumps([{**output, "finish_reason": "stop"}], ensure_ascii=False)
            attrs["gen_ai.usage.input_tokens"], attrs["gen_ai.usage.output_tokens"] = step["tokens"]
            attrs["gen_ai.usage.cost"] = step["cost"]
            history.append(output)
            inner.append((f"chat {texts['model']}", clock, end, attrs, None, []))
        else:
            check_keys(step, TOOL_STEP_KEYS, f"texts/import_otel.json, {conv['id']}, a tool step")
            call_id = f"call_{conv['task_id']}_{calls}"
            arguments = history[-1]["parts"][0]["arguments"]
            result = json.dumps(step["result"], ensure_ascii=False)
            attrs = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": step["tool"],
                     "gen_ai.tool.call.id": call_id, "gen_ai.tool.call.arguments": json.dumps(arguments),
                     "gen_ai.tool.call.result": result}
            history.append({"role": "tool", "parts": [
                {"type": "tool_call_response", "id": call_id, "response": step["result"]}]})
            inner.append((f"execute_tool {step['tool']}", clock, end, attrs, step.get("error"), step.get("inside", [])))
        clock = end + GAP_NS
    agent_attrs = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": texts["agent"],
                   "gen_ai.conversation.id": conv["id"], "task.id": conv["task_id"]}
    agent = trace.span(f"invoke_agent {texts['agent']}", "", start, clock, agent_attrs)
    for name, begin, end, attrs, error, inside in inner:
        parent = trace.span(name, agent, begin, end, attrs, error)
        at = begin + GAP_NS
        for sub in inside:
            check_keys(sub, {"name", "ms"}, f"texts/import_otel.json, {conv['id']}, a step inside a tool")
            trace.span(sub["name"], parent, at, at + sub["ms"] * MS, {})
            at += sub["ms"] * MS + GAP_NS
    trace.now = clock + 400 * MS  # the user reads and types


def otel_export() -> dict[str, Any]:
    """The conversations as one OTLP JSON export request (one resource, one scope)."""
    texts = load_texts("import_otel.json")
    check_keys(texts, OTEL_KEYS, "texts/import_otel.json", required=OTEL_KEYS)
    start = int(datetime.fromisoformat(texts["start"]).timestamp()) * 1_000_000_000
    spans: list[dict[str, Any]] = []
    for number, conv in enumerate(texts["conversations"], start=1):
        where = f"texts/import_otel.json, conversation {number}"
        check_keys(conv, CONVERSATION_KEYS, where, required=CONVERSATION_KEYS)
        trace = _Trace(number, start + number * 3_600 * 1_000_000_000)
        history: list[dict[str, Any]] = []
        for turn in conv["turns"]:
            check_keys(turn, {"user", "steps"}, f"texts/import_otel.json, {conv['id']}, a turn")
            _turn(trace, texts, conv, turn, history)
        spans.extend(trace.spans)
    resource = {"attributes": [{"key": "service.name", "value": _any(texts["service"])}]}
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [
        {"scope": {"name": "trip-helper.agent"}, "spans": spans}]}]}


def otel_references() -> list[dict[str, Any]]:
    """The golden set: per conversation its task, the expected answer of each turn and the expected tool calls."""
    texts = load_texts("import_otel.json")
    return [{"session_id": c["id"], "task_id": c["task_id"], "reference": c["reference"],
             "expected_tool_calls": c["expected_tool_calls"]} for c in texts["conversations"]]
