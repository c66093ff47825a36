"""OpenTelemetry spans as written by exporters, read into one compact shape (:class:`Span`).

Three writings of a span are read:

- OTLP JSON (``{"resourceSpans": [{"resource": ..., "scopeSpans": [{"spans": [...]}]}]}``, what the
  OTLP/HTTP JSON exporter, the Collector's file exporter and most tracing backends write; attribute
  values typed as ``{"stringValue": ...}``, ``{"intValue": "12"}``, ``{"arrayValue": ...}``);
- one OTLP span object per JSON line (``traceId``, ``spanId``, ``startTimeUnixNano``);
- the OpenTelemetry Python SDK's ``span.to_json()`` (``context.trace_id``, ``start_time`` as ISO
  time, attributes as a plain object), also one per line.

A span keeps only what the importer reads (its ids, times, attributes and events); the raw
record is not kept, so memory grows with the spans read, not with the file's bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agentic_core.io.importers.common import under
from agentic_core.io.otel_stream import StreamedSpans


@dataclass
class Event:
    """A span event (the v1.36 GenAI conventions put messages in them)."""

    name: str
    time_ns: int
    attrs: dict[str, Any]
    path: str


@dataclass
class Span:
    """One span: ids, times, attributes (plain values), events, and where it is in the file.

    Attributes:
        trace_id: Lower-case hex, without ``0x``.
        span_id: Lower-case hex.
        parent_id: The parent span's id (empty for a root span).
        name: The span's name.
        start_ns: Start, in nanoseconds since the epoch (0 when missing).
        end_ns: End, likewise.
        attrs: Attribute values, decoded from OTLP's typed values.
        events: The span's events.
        record: The index of the file record the span is in.
        path: The span's place inside that record (``resourceSpans[0].scopeSpans[0].spans[3]``).
        resource: The resource's attributes (``service.name``), shared by the spans of one resource.
        order: The span's position in the file (ties in time keep the file's order).
    """

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attrs: dict[str, Any]
    events: list[Event]
    record: int
    path: str
    resource: dict[str, Any] = field(default_factory=dict)
    order: int = 0

    def attr_path(self, key: str) -> str:
        """The place of attribute ``key`` in the file (``...spans[3].attributes.gen_ai.tool.name``)."""
        return under(self.path, f"attributes.{key}")


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` (``{"stringValue": "x"}``, ``{"intValue": "3"}``, ...) as a plain value.

    A value that is not typed (a plain JSON value, as the SDK's ``to_json`` writes) is returned
    as it is; ``intValue`` (a string in OTLP JSON, since JSON numbers lose 64-bit precision) is an int.
    """
    if not isinstance(value, dict) or len(value) != 1:
        return value
    ((kind, inner),) = value.items()
    if kind == "stringValue" or kind == "boolValue" or kind == "bytesValue":
        return inner
    if kind == "intValue":
        try:
            return int(inner)
        except (TypeError, ValueError):
            return inner
    if kind == "doubleValue":
        try:
            return float(inner)
        except (TypeError, ValueError):
            return inner
    if kind == "arrayValue":
        items = inner.get("values", []) if isinstance(inner, dict) else []
        return [any_value(v) for v in items]
    if kind == "kvlistValue":
        items = inner.get("values", []) if isinstance(inner, dict) else []
        return {kv.get("key"): any_value(kv.get("value")) for kv in items if isinstance(kv, dict)}
    return value


def attributes(raw: Any) -> dict[str, Any]:
    """Attributes as a dict: OTLP's ``[{"key": ..., "value": {...}}]`` list, or a plain object."""
    if isinstance(raw, dict):
        return {str(k): any_value(v) for k, v in raw.items()}
    out: dict[str, Any] = {}
    if isinstance(raw, list):
        for kv in raw:
            if isinstance(kv, dict) and isinstance(kv.get("key"), str):
                out[kv["key"]] = any_value(kv.get("value"))
    return out


def hex_id(value: Any) -> str:
    """A trace or span id as lower-case hex (``0xAB..`` and ``AB..`` read alike; empty when missing)."""
    if not isinstance(value, str):
        return ""
    text = value.strip().lower()
    text = text[2:] if text.startswith("0x") else text
    return "" if set(text) <= {"0"} else text


def time_ns(value: Any) -> int:
    """A time in nanoseconds: OTLP's ``"1700000000000000000"`` (or a number), or an ISO time (the SDK's)."""
    if isinstance(value, bool) or value is None:
        return 0
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.isdigit():
            return int(text)
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return 0
        return int(moment.timestamp()) * 1_000_000_000 + moment.microsecond * 1000
    return 0


def is_span(record: dict[str, Any]) -> bool:
    """Whether a record is one span (OTLP's ``traceId``/``spanId``, or the SDK's ``context``)."""
    if "spanId" in record or "span_id" in record:
        return True
    context = record.get("context")
    return isinstance(context, dict) and "span_id" in context


def read_span(raw: dict[str, Any], record: int, path: str, resource: dict[str, Any], order: int) -> Span:
    """One span object (OTLP JSON, flat snake_case, or the SDK's ``to_json``) as a :class:`Span`."""
    given = raw.get("context")
    context: dict[str, Any] = given if isinstance(given, dict) else {}
    trace = raw.get("traceId", raw.get("trace_id", context.get("trace_id")))
    span = raw.get("spanId", raw.get("span_id", context.get("span_id")))
    parent = raw.get("parentSpanId", raw.get("parent_span_id", raw.get("parent_id")))
    start = raw.get("startTimeUnixNano", raw.get("start_time_unix_nano", raw.get("start_time")))
    end = raw.get("endTimeUnixNano", raw.get("end_time_unix_nano", raw.get("end_time")))
    events = []
    for e, ev in enumerate(raw.get("events") or []):
        if isinstance(ev, dict):
            when = ev.get("timeUnixNano", ev.get("time_unix_nano", ev.get("timestamp")))
            events.append(Event(str(ev.get("name", "")), time_ns(when), attributes(ev.get("attributes")),
                                under(path, f"events[{e}]")))
    name = raw.get("name")
    own_resource = raw.get("resource")
    if isinstance(own_resource, dict) and not resource:
        resource = attributes(own_resource.get("attributes"))
    return Span(hex_id(trace), hex_id(span), hex_id(parent), name if isinstance(name, str) else "",
                time_ns(start), time_ns(end), attributes(raw.get("attributes")), events, record, path,
                resource, order)


def spans_of(record: int, raw: dict[str, Any], first_order: int) -> Iterator[Span | tuple[str, str]]:
    """The spans of one record: an OTLP document (or one of its ``resourceSpans`` chunks) or one span.

    Yields:
        Each span; or ``(path, problem)`` for a part that is not a span where one was expected.
    """
    order = first_order
    if is_span(raw):
        yield read_span(raw, record, "", {}, order)
        return
    chunks = raw.get("resourceSpans", raw.get("resource_spans"))
    if isinstance(chunks, StreamedSpans):
        last: tuple[Any, dict[str, Any]] = (None, {})  # a resource's attributes, decoded once for its spans
        for path, span, resource in chunks:
            if isinstance(span, str):
                yield (path, span)  # the document stopped being valid JSON here
                continue
            if resource is not last[0]:
                own = resource.get("attributes") if isinstance(resource, dict) else None
                last = (resource, attributes(own))
            if isinstance(span, dict):
                yield read_span(span, record, path, last[1], order)
                order += 1
            else:
                yield (path, "must be a span object")
        return
    if not isinstance(chunks, list):
        yield ("resourceSpans", "must be a list of resource spans")
        return
    for r, chunk in enumerate(chunks):
        at = f"resourceSpans[{r}]"
        if not isinstance(chunk, dict):
            yield (at, "must be an object with 'resource' and 'scopeSpans'")
            continue
        resource_raw = chunk.get("resource")
        resource = attributes(resource_raw.get("attributes")) if isinstance(resource_raw, dict) else {}
        scopes_key = "scopeSpans" if "scopeSpans" in chunk else "instrumentationLibrarySpans"
        scopes = chunk.get(scopes_key, chunk.get("scope_spans"))
        if not isinstance(scopes, list):
            yield (f"{at}.scopeSpans", "must be a list of scope spans")
            continue
        for s, scope in enumerate(scopes):
            spans = scope.get("spans") if isinstance(scope, dict) else None
            if not isinstance(spans, list):
                yield (f"{at}.{scopes_key}[{s}].spans", "must be a list of spans")
                continue
            for k, span in enumerate(spans):
                where = f"{at}.{scopes_key}[{s}].spans[{k}]"
                if isinstance(span, dict):
                    yield read_span(span, record, where, resource, order)
                    order += 1
                else:
                    yield (where, "must be a span object")
