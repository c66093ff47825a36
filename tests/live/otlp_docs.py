"""OTLP export requests for the live-path tests: the scripted agent's, hand-written ones, and their protobuf form."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

from tests.io.otel_agent import TURNS, otlp_json, run_agent
from tests.io.test_otel_integrity import _span, _two_conversations_in_one_trace

SERVICE = {"attributes": [{"key": "service.name", "value": {"stringValue": "support-bot"}}]}


def agent_document(convention: str, ids: list[str]) -> dict[str, Any]:
    """The scripted agent's conversations ``ids`` as one OTLP JSON export request."""
    return otlp_json([span for i in ids for span in run_agent(convention, i)])


def tangled_document() -> dict[str, Any]:
    """A trace naming two conversation ids (split by the importer) and a trace naming none (its own conversation)."""
    lone = "cd" * 16
    spans = [*_two_conversations_in_one_trace(),
             _span(7, None, 6, {"gen_ai.operation.name": "invoke_agent"}, trace=lone, name="agent"),
             _span(8, 7, 7, {"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps(
                 [{"role": "user", "parts": [{"type": "text", "content": "Hello?"}]}]), "gen_ai.output.messages":
                 json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "Hi."}]}])}, trace=lone)]
    return {"resourceSpans": [{"resource": SERVICE, "scopeSpans": [{"spans": spans}]}]}


def protobuf_body(document: dict[str, Any]) -> bytes:
    """The same request as protobuf, made by protobuf's own JSON reader (ids hex in OTLP JSON, base64 in proto3's)."""
    from google.protobuf.json_format import ParseDict
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    doc = copy.deepcopy(document)
    for chunk in doc["resourceSpans"]:
        for scope in chunk["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    span[key] = base64.b64encode(bytes.fromhex(span.get(key, ""))).decode()
    return bytes(ParseDict(doc, ExportTraceServiceRequest()).SerializeToString())


def golden_file(folder: Path, ids: list[str]) -> Path:
    """A reference file for the scripted agent's conversations ``ids`` (both answers, the first turn's call)."""
    path = folder / "golden.jsonl"
    rows = [{"session_id": i, "reference": [a for *_, a in TURNS],
             "expected_tool_calls": [{"name": "lookup_order", "arguments": {"order_id": 7}}]} for i in ids]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
