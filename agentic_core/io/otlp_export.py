"""An OTLP/HTTP trace export request (``POST /v1/traces``) read into spans to keep, and spans read back.

The OpenTelemetry SDKs' exporters send ``ExportTraceServiceRequest`` either as protobuf
(``application/x-protobuf``, the default) or as OTLP JSON (``application/json``: hex ids, camelCase keys, typed
attribute values). Both are read here, in two steps:

- on arrival (:func:`read_export`), each span is checked (a trace id and a span id), keyed (its trace, its
  conversation id, whether it is a root) and kept as it was sent (its protobuf bytes or its JSON text), so the
  request costs little and the spans can wait on the disk;
- when its conversation is complete (:func:`span_document`), a kept span is written out as the OTLP JSON object
  it is (protobuf converted field for field), which the file importer's own reader
  (:func:`~agentic_core.io.otel_spans.read_span`) reads: a live span and the same span in a file are read by the
  same code.

The protobuf module (``opentelemetry-proto``) is imported only when a protobuf body arrives.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from agentic_core.io.otel_messages import conversation_id
from agentic_core.io.otel_spans import Span, any_value, hex_id

Encoding = Literal["json", "protobuf"]
"""How a request (and each span kept from it) is encoded."""

_CONVERSATION_KEYS = frozenset({"gen_ai.conversation.id", "session.id"})
"""The attributes :func:`~agentic_core.io.otel_messages.conversation_id` reads (the only ones read on arrival)."""
_MAX_PROBLEMS = 5
"""Refused spans described in the answer (the rest are counted)."""


class UndecodableExport(ValueError):
    """The body is not an export request in the encoding it declares (answered 400)."""


@dataclass(slots=True)
class ReceivedSpan:
    """One span of a request, as kept until its conversation is complete.

    Attributes:
        trace_id: Its trace id (lower-case hex).
        conversation: Its conversation id (``gen_ai.conversation.id``, ``session.id``), if it names one.
        root: Whether it has no parent (a trace's root span; exporters send a span once it has ended).
        place: Where it is in the request (``resourceSpans[0].scopeSpans[0].spans[3]``), as a file's spans are placed.
        body: The span as sent: its protobuf bytes or its JSON text.
        resource: The index of its resource in :attr:`ExportBatch.resources`.
    """

    trace_id: str
    conversation: str | None
    root: bool
    place: str
    body: bytes
    resource: int


@dataclass
class ExportBatch:
    """The spans of one request: those kept, and how many were refused (with the first few reasons).

    Attributes:
        encoding: The request's encoding (each kept span's too).
        spans: The spans kept.
        resources: Each resource's attributes as OTLP JSON text (``[{"key": ..., "value": {...}}]``).
        rejected: Spans refused (no trace id or span id, not a span object).
        problems: The first refusals, each a place and a rule.
    """

    encoding: Encoding
    spans: list[ReceivedSpan] = field(default_factory=list)
    resources: list[bytes] = field(default_factory=list)
    rejected: int = 0
    problems: list[str] = field(default_factory=list)

    def refuse(self, place: str, rule: str, count: int = 1) -> None:
        """Count ``count`` refused spans at ``place`` (the first few described)."""
        self.rejected += count
        if len(self.problems) < _MAX_PROBLEMS:
            self.problems.append(f"{place} {rule}")

    def message(self) -> str:
        """The refusals in words (the partial success's ``error_message``)."""
        more = self.rejected - len(self.problems)
        tail = f"; and {more} more" if more > 0 and len(self.problems) >= _MAX_PROBLEMS else ""
        return (f"{self.rejected} span(s) refused: " + "; ".join(self.problems) + tail + ". Fix: send each span "
                "with its traceId (16 bytes) and spanId (8 bytes), not all zeros")


def _keyed(attrs: dict[str, Any]) -> str | None:
    """The conversation id of a span whose conversation attributes are ``attrs`` (the importer's own rule)."""
    if not attrs:
        return None
    return conversation_id(Span("", "", "", "", 0, 0, attrs, (), 0, "", {}, 0))


# -- OTLP JSON ----------------------------------------------------------------------------------


def _json_list(value: Any) -> list[Any] | None:
    return value if isinstance(value, list) else None


def _read_json(body: bytes, batch: ExportBatch, max_spans: int) -> None:
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise UndecodableExport(f"is not valid JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise UndecodableExport("must be an OTLP JSON object ({\"resourceSpans\": [...]})")
    chunks = _json_list(doc.get("resourceSpans", doc.get("resource_spans", [])))
    if chunks is None:
        raise UndecodableExport("has a 'resourceSpans' that is not a list")
    total = sum(len(spans) for chunk in chunks if isinstance(chunk, dict)
                for scope in (_json_list(chunk.get("scopeSpans", chunk.get("scope_spans"))) or [])
                if isinstance(scope, dict) and (spans := _json_list(scope.get("spans"))) is not None)
    if total > max_spans:
        raise TooManySpans(total)
    for r, chunk in enumerate(chunks):
        at = f"resourceSpans[{r}]"
        if not isinstance(chunk, dict):
            batch.refuse(at, "is not an object with 'resource' and 'scopeSpans'", 0)
            continue
        resource = chunk.get("resource")
        attributes = resource.get("attributes") if isinstance(resource, dict) else None
        batch.resources.append(orjson.dumps(attributes if isinstance(attributes, list) else []))
        index = len(batch.resources) - 1
        scopes_key = "scopeSpans" if "scopeSpans" in chunk else "instrumentationLibrarySpans"
        for s, scope in enumerate(_json_list(chunk.get(scopes_key, chunk.get("scope_spans"))) or []):
            spans = _json_list(scope.get("spans")) if isinstance(scope, dict) else None
            for k, span in enumerate(spans or []):
                place = f"{at}.{scopes_key}[{s}].spans[{k}]"
                if not isinstance(span, dict):
                    batch.refuse(place, "is not a span object")
                    continue
                trace = hex_id(span.get("traceId", span.get("trace_id")))
                if not trace or not hex_id(span.get("spanId", span.get("span_id"))):
                    batch.refuse(place, "has no traceId or no spanId")
                    continue
                raw = span.get("attributes")
                attrs = {kv["key"]: any_value(kv.get("value")) for kv in raw if isinstance(kv, dict)
                         and kv.get("key") in _CONVERSATION_KEYS} if isinstance(raw, list) else {}
                root = not hex_id(span.get("parentSpanId", span.get("parent_span_id")))
                batch.spans.append(ReceivedSpan(trace, _keyed(attrs), root, place, orjson.dumps(span), index))


# -- protobuf -----------------------------------------------------------------------------------


def _value_json(value: Any) -> dict[str, Any]:
    """A protobuf ``AnyValue`` as OTLP JSON writes it (``{"stringValue": ...}``; int64 as a string, bytes base64)."""
    kind = value.WhichOneof("value")
    if kind == "string_value":
        return {"stringValue": value.string_value}
    if kind == "int_value":
        return {"intValue": str(value.int_value)}
    if kind == "bool_value":
        return {"boolValue": value.bool_value}
    if kind == "double_value":
        return {"doubleValue": value.double_value}
    if kind == "array_value":
        return {"arrayValue": {"values": [_value_json(v) for v in value.array_value.values]}}
    if kind == "kvlist_value":
        return {"kvlistValue": {"values": _attributes_json(value.kvlist_value.values)}}
    if kind == "bytes_value":
        return {"bytesValue": base64.b64encode(value.bytes_value).decode("ascii")}
    return {}


def _attributes_json(attributes: Any) -> list[dict[str, Any]]:
    return [{"key": kv.key, "value": _value_json(kv.value)} for kv in attributes]


def _read_protobuf(body: bytes, batch: ExportBatch, max_spans: int) -> None:
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    try:
        request = ExportTraceServiceRequest.FromString(body)
    except DecodeError as exc:
        raise UndecodableExport(f"is not a protobuf ExportTraceServiceRequest ({exc})") from None
    total = sum(len(scope.spans) for chunk in request.resource_spans for scope in chunk.scope_spans)
    if total > max_spans:
        raise TooManySpans(total)
    for r, chunk in enumerate(request.resource_spans):
        batch.resources.append(orjson.dumps(_attributes_json(chunk.resource.attributes)))
        index = len(batch.resources) - 1
        for s, scope in enumerate(chunk.scope_spans):
            for k, span in enumerate(scope.spans):
                place = f"resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"
                trace = hex_id(span.trace_id.hex())
                if len(span.trace_id) != 16 or not trace or len(span.span_id) != 8 or not hex_id(span.span_id.hex()):
                    batch.refuse(place, "has no valid traceId (16 bytes) or spanId (8 bytes)")
                    continue
                attrs = {kv.key: any_value(_value_json(kv.value)) for kv in span.attributes
                         if kv.key in _CONVERSATION_KEYS}
                root = not hex_id(span.parent_span_id.hex())
                batch.spans.append(ReceivedSpan(trace, _keyed(attrs), root, place, span.SerializeToString(), index))


class TooManySpans(ValueError):
    """A request holds more spans than the server takes at once (answered 413)."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def read_export(body: bytes, encoding: Encoding, max_spans: int) -> ExportBatch:
    """Read an OTLP/HTTP trace export request (see the module).

    Args:
        body: The request body, uncompressed.
        encoding: ``protobuf`` (``application/x-protobuf``) or ``json`` (``application/json``).
        max_spans: The most spans one request may hold.

    Returns:
        The spans kept and those refused.

    Raises:
        UndecodableExport: The body is not an export request in that encoding.
        TooManySpans: It holds more than ``max_spans`` spans (nothing is kept).
    """
    batch = ExportBatch(encoding)
    if encoding == "protobuf":
        _read_protobuf(body, batch, max_spans)
    else:
        _read_json(body, batch, max_spans)
    return batch


def span_document(encoding: Encoding, body: bytes) -> dict[str, Any]:
    """A kept span as the OTLP JSON object it is (what :func:`~agentic_core.io.otel_spans.read_span` reads).

    Args:
        encoding: How it was kept (:attr:`ReceivedSpan.body`).
        body: Its bytes.
    """
    if encoding == "json":
        document: dict[str, Any] = orjson.loads(body)
        return document
    from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan

    span = ProtoSpan.FromString(body)
    return {
        "traceId": span.trace_id.hex(),
        "spanId": span.span_id.hex(),
        "parentSpanId": span.parent_span_id.hex(),
        "name": span.name,
        "startTimeUnixNano": str(span.start_time_unix_nano),
        "endTimeUnixNano": str(span.end_time_unix_nano),
        "attributes": _attributes_json(span.attributes),
        "events": [{"timeUnixNano": str(e.time_unix_nano), "name": e.name, "attributes": _attributes_json(e.attributes)}
                   for e in span.events],
    }


def export_response(encoding: Encoding, rejected: int = 0, message: str = "") -> bytes:
    """The ``ExportTraceServiceResponse`` body, in the request's encoding (``partial_success`` when spans were refused).

    Args:
        encoding: The request's encoding.
        rejected: Spans refused.
        message: Why (the partial success's ``error_message``).
    """
    if encoding == "json":
        if not rejected and not message:
            return b"{}"
        # proto3's JSON form: int64 as a string, as collectors write it.
        return orjson.dumps({"partialSuccess": {"rejectedSpans": str(rejected), "errorMessage": message}})
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

    response = ExportTraceServiceResponse()
    if rejected or message:
        response.partial_success.rejected_spans = rejected
        response.partial_success.error_message = message
    return bytes(response.SerializeToString())
