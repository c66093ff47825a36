"""A large OTLP JSON document read one span at a time (ijson), never parsed whole.

One OTLP export can be a single JSON document of a gigabyte, often one ``resourceSpans`` item
holding one ``scopeSpans`` item holding every span: parsing it per ``resourceSpans`` chunk would
still build the whole tree at once. The document is read as a stream of JSON events instead and
each span (and each resource) is built alone, handed to the importer, which keeps only what it
reads (:class:`~agentic_core.io.otel_spans.Span`) and lets the span object go. A document
below :data:`STREAM_FROM` bytes is parsed whole, which is faster.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import ijson

from agentic_core.io.parsed import Parsed

STREAM_FROM = 32 * 1024 * 1024
"""Bytes from which an OTLP JSON document is streamed rather than parsed whole."""

_OTLP_START = re.compile(rb'\s*\{\s*"(?:resourceSpans|resource_spans)"\s*:')
_RESOURCES = ("resourceSpans", "resource_spans")
_ONE_SCOPE = ((b'"resourceSpans"', 1), (b'"scopeSpans"', 1), (b'"resource_spans"', 0), (b'"scope_spans"', 0),
              (b'"instrumentationLibrarySpans"', 0))


def is_otlp_document(data: bytes) -> bool:
    """Whether ``data`` is one JSON object whose first key is ``resourceSpans`` (an OTLP export)."""
    return _OTLP_START.match(data[:4096]) is not None


class StreamedSpans:
    """The spans of an OTLP JSON document, built one at a time from its bytes.

    Iterating yields ``(path, span object, resource attributes)`` per span, or ``(path, problem,
    None)`` once when the document stops being valid JSON (the spans before it were read).
    """

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __iter__(self) -> Iterator[tuple[str, Any, Any]]:
        # The usual large export is one resource with one scope holding every span: its spans are built by
        # ijson's C code directly, several times faster than following the events here (any other layout, or
        # a message that quotes the key, takes the general path, which is exact for every layout).
        one = all(self.data.count(key) == n for key, n in _ONE_SCOPE)
        return self._one_scope() if one else self._events()

    def _one_scope(self) -> Iterator[tuple[str, Any, Any]]:
        try:
            resources = ijson.items(io.BytesIO(self.data), "resourceSpans.item.resource", use_float=True)
            resource = next(iter(resources), None)
            spans = ijson.items(io.BytesIO(self.data), "resourceSpans.item.scopeSpans.item.spans.item", use_float=True)
            for k, span in enumerate(spans):
                yield f"resourceSpans[0].scopeSpans[0].spans[{k}]", span, resource
        except ijson.JSONError as err:
            yield "resourceSpans[0]", f"is not valid JSON from here on ({err}); the spans before it were read", None

    def _events(self) -> Iterator[tuple[str, Any, Any]]:
        r = s = k = -1
        resource: Any = None
        builder: Any = None
        target = ""
        key = "resourceSpans"
        try:
            for prefix, event, value in ijson.parse(io.BytesIO(self.data), use_float=True):
                if builder is not None:
                    builder.event(event, value)
                    if prefix == target and event == "end_map":
                        if target.endswith(".resource"):
                            resource = builder.value
                        else:
                            yield f"{key}[{r}].scopeSpans[{s}].spans[{k}]", builder.value, resource
                        builder = None
                    continue
                if event != "start_map":
                    continue
                head, _, rest = prefix.partition(".")
                if head not in _RESOURCES:
                    continue
                key = head
                if rest == "item":
                    r, s, resource = r + 1, -1, None
                elif rest == "item.resource":
                    builder, target = ijson.ObjectBuilder(), prefix
                    builder.event(event, value)
                elif rest in ("item.scopeSpans.item", "item.scope_spans.item"):
                    s, k = s + 1, -1
                elif rest in ("item.scopeSpans.item.spans.item", "item.scope_spans.item.spans.item"):
                    k += 1
                    builder, target = ijson.ObjectBuilder(), prefix
                    builder.event(event, value)
        except ijson.JSONError as err:
            yield f"{key}[{max(r, 0)}]", f"is not valid JSON from here on ({err}); the spans before it were read", None


def streamed_otlp(data: bytes) -> Parsed:
    """A large OTLP JSON document as one record whose ``resourceSpans`` are streamed (see the module)."""
    return Parsed("object", records=[{"resourceSpans": StreamedSpans(data)}], line_of=lambda _i: 1)
