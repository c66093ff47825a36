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

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agentic_core.io.importers.common import under
from agentic_core.io.otel_stream import StreamedSpans


@dataclass(slots=True)
class Event:
    """A span event (the v1.36 GenAI conventions put messages in them)."""

    name: str
    time_ns: int
    attrs: dict[str, Any]
    path: str


@dataclass(slots=True)
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
        place: The span's place inside that record: the text (``resourceSpans[0].scopeSpans[0].spans[3]``),
            or a list's place and the index in it, written out only when asked for (:attr:`path`): a
            million spans would otherwise each hold a copy of the same prefix.
        resource: The resource's attributes (``service.name``), shared by the spans of one resource.
        order: The span's position in the file (ties in time keep the file's order).
        error: The span's error when its status says it failed (the status message, else its
            ``error.type`` or exception's message, else ``"error"``); ``None`` otherwise. Shown in the
            Explorer's span tree, not evaluated.
    """

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attrs: dict[str, Any]
    events: tuple[Event, ...]
    record: int
    place: str | tuple[str, int]
    resource: dict[str, Any] = field(default_factory=dict)
    order: int = 0
    error: str | None = None

    @property
    def path(self) -> str:
        """The span's place inside its record (``resourceSpans[0].scopeSpans[0].spans[3]``)."""
        return place_text(self.place)

    def attr_path(self, key: str) -> str:
        """The place of attribute ``key`` in the file (``...spans[3].attributes.gen_ai.tool.name``)."""
        return under(self.path, f"attributes.{key}")


@dataclass(frozen=True, slots=True)
class UnreadableStart:
    """A span whose start time is written but is not a time (``"soon"``): it was read as 0 (unknown).

    Attributes:
        span: The span (its place and record say where).
        key: The key that holds the start (``startTimeUnixNano``).
        value: The start as written.
    """

    span: Span
    key: str
    value: Any

    @property
    def path(self) -> str:
        """The place of the start time in the file (``...spans[3].startTimeUnixNano``)."""
        return under(self.span.path, self.key)


def place_text(place: str | tuple[str, int]) -> str:
    """A span's place as text: the path itself, or a list's path and an index (``...spans[3]``)."""
    return place if isinstance(place, str) else f"{place[0]}[{place[1]}]"


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


_SHARED_UP_TO = 64
"""Characters up to which a string attribute value is shared between spans (see :func:`_shared`)."""


def _shared(value: Any) -> Any:
    """One string object for equal short values: a million spans repeat the same few keys and values.

    The JSON parser makes a new string for every key and value it reads; attribute names, operation
    names, models and conversation ids repeat across spans, so each is kept once (``sys.intern``).
    Longer texts (messages) are rarely equal and are kept as read.
    """
    return sys.intern(value) if isinstance(value, str) and len(value) <= _SHARED_UP_TO else value


def attributes(raw: Any) -> dict[str, Any]:
    """Attributes as a dict: OTLP's ``[{"key": ..., "value": {...}}]`` list, or a plain object."""
    if isinstance(raw, dict):
        return {sys.intern(str(k)): _shared(any_value(v)) for k, v in raw.items()}
    out: dict[str, Any] = {}
    if isinstance(raw, list):
        for kv in raw:
            if isinstance(kv, dict) and isinstance(kv.get("key"), str):
                out[sys.intern(kv["key"])] = _shared(any_value(kv.get("value")))
    return out


def hex_id(value: Any) -> str:
    """A trace or span id as lower-case hex (``0xAB..`` and ``AB..`` read alike; empty when missing)."""
    if not isinstance(value, str):
        return ""
    text = value.strip().lower()
    text = text[2:] if text.startswith("0x") else text
    return "" if set(text) <= {"0"} else sys.intern(text)  # shared: a trace's spans, a parent's children


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


_START_KEYS = ("startTimeUnixNano", "start_time_unix_nano", "start_time")


def _start_key(raw: dict[str, Any]) -> str:
    """The key a span's start is read from: the first of :data:`_START_KEYS` it has (the first when none)."""
    return next((key for key in _START_KEYS if key in raw), _START_KEYS[0])


def unreadable_start(span: Span, raw: dict[str, Any]) -> UnreadableStart | None:
    """The span's start when it is written but is no time (``None`` when it was read, is 0 or is missing)."""
    if span.start_ns:
        return None
    key = _start_key(raw)
    value = raw.get(key)
    if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        return None
    if isinstance(value, str) and value.strip().isdigit():  # "0": a zero, read as written
        return None
    return UnreadableStart(span, key, value)


def is_span(record: dict[str, Any]) -> bool:
    """Whether a record is one span (OTLP's ``traceId``/``spanId``, or the SDK's ``context``)."""
    if "spanId" in record or "span_id" in record:
        return True
    context = record.get("context")
    return isinstance(context, dict) and "span_id" in context


def read_span(raw: dict[str, Any], record: int, place: str | tuple[str, int], resource: dict[str, Any],
              order: int) -> Span:
    """One span object (OTLP JSON, flat snake_case, or the SDK's ``to_json``) as a :class:`Span`."""
    path = place_text(place)
    given = raw.get("context")
    context: dict[str, Any] = given if isinstance(given, dict) else {}
    trace = raw.get("traceId", raw.get("trace_id", context.get("trace_id")))
    span = raw.get("spanId", raw.get("span_id", context.get("span_id")))
    parent = raw.get("parentSpanId", raw.get("parent_span_id", raw.get("parent_id")))
    start = raw.get(_start_key(raw))
    end = raw.get("endTimeUnixNano", raw.get("end_time_unix_nano", raw.get("end_time")))
    events = tuple(  # most spans have none: the empty tuple is one shared object, an empty list is not
        Event(str(ev.get("name", "")), time_ns(ev.get("timeUnixNano", ev.get("time_unix_nano", ev.get("timestamp")))),
              attributes(ev.get("attributes")), under(path, f"events[{e}]"))
        for e, ev in enumerate(raw.get("events") or []) if isinstance(ev, dict)
    )
    name = raw.get("name")
    own_resource = raw.get("resource")
    if isinstance(own_resource, dict) and not resource:
        resource = attributes(own_resource.get("attributes"))
    attrs = attributes(raw.get("attributes"))
    return Span(hex_id(trace), hex_id(span), hex_id(parent), name if isinstance(name, str) else "",
                time_ns(start), time_ns(end), attrs, events, record, place, resource, order,
                status_error(raw, attrs, events))


_ERROR_CODES = frozenset({2, "2", "ERROR", "STATUS_CODE_ERROR"})
"""How a status says the span failed: OTLP JSON's ``code`` 2 (or its enum name), the SDK's ``status_code``."""


def status_error(raw: dict[str, Any], attrs: dict[str, Any], events: tuple[Event, ...]) -> str | None:
    """The span's error, when its status says it failed: its message, else what else says why, else ``"error"``.

    Read from OTLP JSON's ``status`` (``{"code": 2, "message": ...}``) and the SDK's
    (``{"status_code": "ERROR", "description": ...}``); the why, when the status has no message, from the
    ``error.type`` attribute or an ``exception`` event's ``exception.message``.
    """
    status = raw.get("status")
    if not isinstance(status, dict):
        return None
    code = status.get("code", status.get("status_code"))
    if isinstance(code, str):
        code = code.strip().upper()
    if isinstance(code, bool) or code not in _ERROR_CODES:
        return None
    for why in (status.get("message"), status.get("description"), attrs.get("error.type"),
                *(e.attrs.get("exception.message") for e in events if e.name == "exception")):
        if isinstance(why, str) and why.strip():
            return why
    return "error"


SpanItem = Span | UnreadableStart | tuple[str, str]
"""What :func:`spans_of` yields: a span, a flaw of the span just yielded, or a part that is not a span."""


def spans_of(record: int, raw: dict[str, Any], first_order: int) -> Iterator[SpanItem]:
    """The spans of one record: an OTLP document (or one of its ``resourceSpans`` chunks) or one span.

    Yields:
        Each span, followed by its :class:`UnreadableStart` when its start time is not a time; or
        ``(path, problem)`` for a part that is not a span where one was expected.
    """
    order = first_order
    if is_span(raw):
        one = read_span(raw, record, "", {}, order)
        yield one
        if not one.start_ns and (flaw := unreadable_start(one, raw)) is not None:
            yield flaw
        return
    chunks = raw.get("resourceSpans", raw.get("resource_spans"))
    if isinstance(chunks, StreamedSpans):
        last: tuple[Any, dict[str, Any]] = (None, {})  # a resource's attributes, decoded once for its spans
        for place, span, resource in chunks:
            if isinstance(span, str):
                yield (place_text(place), span)  # the document stopped being valid JSON here
                continue
            if not isinstance(span, dict):
                yield (place_text(place), "must be a span object")
                continue
            try:
                if resource is not last[0]:
                    own = resource.get("attributes") if isinstance(resource, dict) else None
                    last = (resource, attributes(own))
                read = read_span(span, record, place, last[1], order)
            except RecursionError:  # as the whole-file parser says of a document nested this deep
                yield (place_text(place), "is nested too deeply to be read")
                continue
            yield read
            if not read.start_ns and (flaw := unreadable_start(read, span)) is not None:
                yield flaw
            order += 1
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
                    read = read_span(span, record, where, resource, order)
                    yield read
                    if not read.start_ns and (flaw := unreadable_start(read, span)) is not None:
                        yield flaw
                    order += 1
                else:
                    yield (where, "must be a span object")
