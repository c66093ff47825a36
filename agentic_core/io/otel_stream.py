"""A large OTLP JSON document read one span at a time (ijson), never parsed whole.

One OTLP export can be a single JSON document of a gigabyte, often one ``resourceSpans`` item
holding one ``scopeSpans`` item holding every span: parsing it per ``resourceSpans`` chunk would
still build the whole tree at once. The document is read as a stream of JSON events instead and
each span (and each resource) is built alone, handed to the importer, which keeps only what it
reads (:class:`~agentic_core.io.otel_spans.Span`) and lets the span object go. A document
below :data:`STREAM_FROM` bytes is parsed whole, which is faster.

A file given by path is read from the disk as it streams (:func:`streamed_otlp_file`): its bytes are
never held, so the load's memory is what the spans keep, not the file's size on top.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

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


_CHUNK = 8 * 1024 * 1024


def _count_keys(stream: IO[bytes]) -> list[int]:
    """How often each key of :data:`_ONE_SCOPE` stands in a stream, read a chunk at a time."""
    counts = [0] * len(_ONE_SCOPE)
    keep = max(len(key) for key, _ in _ONE_SCOPE) - 1
    tail = b""
    while chunk := stream.read(_CHUNK):
        window = tail + chunk
        for i, (key, _) in enumerate(_ONE_SCOPE):
            # A key found again must end inside the new chunk: the tail is shorter than any key.
            counts[i] += window.count(key) - tail.count(key)
        tail = window[-keep:]
    return counts


class StreamedSpans:
    """The spans of an OTLP JSON document, built one at a time from its bytes or its file.

    Iterating yields ``(place, span object, resource attributes)`` per span, or ``(path, problem,
    None)`` once when the document stops being valid JSON (the spans before it were read). A place is
    the span's path, or its list's path and its index there (the one-scope layout; see
    :class:`~agentic_core.io.otel_spans.Span`).
    """

    def __init__(self, source: bytes | Path) -> None:
        self.source = source

    def _open(self) -> IO[bytes]:
        return io.BytesIO(self.source) if isinstance(self.source, bytes) else open(self.source, "rb")

    def __iter__(self) -> Iterator[tuple[str | tuple[str, int], Any, Any]]:
        # The usual large export is one resource with one scope holding every span: its spans are built by
        # ijson's C code directly, several times faster than following the events here (any other layout, or
        # a message that quotes the key, takes the general path, which is exact for every layout).
        with self._open() as stream:
            counts = _count_keys(stream)
        one = all(count == n for count, (_, n) in zip(counts, _ONE_SCOPE, strict=True))
        return self._one_scope() if one else self._events()

    def _one_scope(self) -> Iterator[tuple[str | tuple[str, int], Any, Any]]:
        try:
            with self._open() as stream:
                resources = ijson.items(stream, "resourceSpans.item.resource", use_float=True)
                resource = next(iter(resources), None)
            with self._open() as stream:
                spans = ijson.items(stream, "resourceSpans.item.scopeSpans.item.spans.item", use_float=True)
                for k, span in enumerate(spans):
                    yield ("resourceSpans[0].scopeSpans[0].spans", k), span, resource
        except ijson.JSONError as err:
            yield "resourceSpans[0]", f"is not valid JSON from here on ({err}); the spans before it were read", None

    def _events(self) -> Iterator[tuple[str, Any, Any]]:
        r = s = k = -1
        resource: Any = None
        builder: Any = None
        target = ""
        key = "resourceSpans"
        try:
            with self._open() as stream:
                for prefix, event, value in ijson.parse(stream, use_float=True):
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


def streamed_otlp_file(path: str | Path, limit_mb: int) -> Parsed | None:
    """A large OTLP JSON file given by path, streamed from the disk; ``None`` when it is not one.

    Only a regular file of :data:`STREAM_FROM` bytes or more, within the per-file limit, whose first key is
    ``resourceSpans`` (no byte-order mark) qualifies; any other file is read whole by the loader as usual
    (which refuses one past the limit with its own message).

    Args:
        path: The file.
        limit_mb: The per-file limit in MB (:func:`~agentic_core.io.bounded_read.max_file_mb`).
    """
    file = Path(path)
    try:
        if not file.is_file() or not STREAM_FROM <= file.stat().st_size <= limit_mb * 1024 * 1024:
            return None
        with file.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None  # the loader reads it and names the cause
    if not is_otlp_document(head):
        return None
    return Parsed("object", records=[{"resourceSpans": StreamedSpans(file)}], line_of=lambda _i: 1)
