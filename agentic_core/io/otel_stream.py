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
# A second document starting on a later line (the Collector's file exporter writes one per line): such a file is
# JSON lines of documents, read line by line by the parser, never streamed as one document.
_NEXT_DOCUMENT = re.compile(rb'\n\s*\{\s*"(?:resourceSpans|resource_spans)"\s*:')
_RESOURCES = ("resourceSpans", "resource_spans")
_SCOPES = ("scopeSpans", "scope_spans", "instrumentationLibrarySpans")
# The one-scope layout: exactly one resource holding exactly one scope (one "spans" list), written in the
# current key names. A key quoted inside a message is escaped (\"spans\") and never matches.
_ONE_SCOPE = ((b'"resourceSpans"', 1), (b'"scopeSpans"', 1), (b'"spans"', 1), (b'"resource_spans"', 0),
              (b'"scope_spans"', 0), (b'"instrumentationLibrarySpans"', 0))


def is_otlp_document(data: bytes) -> bool:
    """Whether ``data`` is one JSON object whose first key is ``resourceSpans`` (an OTLP export)."""
    return _OTLP_START.match(data[:4096]) is not None


def is_one_otlp_document(data: bytes) -> bool:
    """Whether ``data`` is one OTLP document, not JSON lines of them (only one can be streamed)."""
    return is_otlp_document(data) and _NEXT_DOCUMENT.search(data) is None


_CHUNK = 8 * 1024 * 1024


def scan_otlp(stream: IO[bytes]) -> tuple[list[int], bool]:
    """One pass over a stream, a chunk at a time: how often each key of :data:`_ONE_SCOPE` stands in it,
    and whether a second document starts on a later line."""
    counts = [0] * len(_ONE_SCOPE)
    keep = 64  # longer than any key and any document start the pattern would find
    tail = b""
    more = False
    while chunk := stream.read(_CHUNK):
        window = tail + chunk
        for i, (key, _) in enumerate(_ONE_SCOPE):
            # Occurrences wholly inside the tail were counted with the previous chunk.
            counts[i] += window.count(key) - tail.count(key)
        more = more or _NEXT_DOCUMENT.search(window) is not None
        tail = window[-keep:]
    return counts, more


Place = str | tuple[str, int]


class StreamedSpans:
    """The spans of an OTLP JSON document, built one at a time from its bytes or its file.

    Iterating yields ``(place, span object, resource attributes)`` per span, or ``(path, problem,
    None)`` once when the document stops being valid JSON or cannot be read further (the spans
    before it were read). A place is the span's path, or its list's path and its index there (the
    one-scope layout; see :class:`~agentic_core.io.otel_spans.Span`).
    """

    def __init__(self, source: bytes | Path, counts: list[int] | None = None) -> None:
        self.source = source
        self.counts = counts  # from the caller's scan (a file is scanned once, when it is chosen)

    def _open(self) -> IO[bytes]:
        return io.BytesIO(self.source) if isinstance(self.source, bytes) else open(self.source, "rb")

    def __iter__(self) -> Iterator[tuple[Place, Any, Any]]:
        # The usual large export is one resource with one scope holding every span: its spans are built by
        # ijson's C code directly, several times faster than following the events here (any other layout, or
        # a message that quotes the key, takes the general path, which is exact for every layout).
        counts = self.counts
        if counts is None:
            with self._open() as stream:
                counts, _ = scan_otlp(stream)
        one = all(count == n for count, (_, n) in zip(counts, _ONE_SCOPE, strict=True))
        return self._guarded(self._one_scope if one else self._events)

    def _guarded(self, read: Any) -> Iterator[tuple[Place, Any, Any]]:
        # One handle for the whole read; what stops it (bad JSON, a file gone or failing) is a problem at the
        # place reached, after the spans read before it: never an exception out of the loader.
        at = ["resourceSpans[0]"]
        try:
            with self._open() as stream:
                yield from read(stream, at)
        except ijson.JSONError as err:
            yield at[0], f"is not valid JSON from here on ({err}); the spans before it were read", None
        except OSError as err:
            yield at[0], f"cannot be read from here on ({err.strerror or err}); the spans before it were read", None

    def _one_scope(self, stream: IO[bytes], at: list[str]) -> Iterator[tuple[Place, Any, Any]]:
        resource = next(iter(ijson.items(stream, "resourceSpans.item.resource", use_float=True)), None)
        stream.seek(0)
        spans = ijson.items(stream, "resourceSpans.item.scopeSpans.item.spans.item", use_float=True)
        for k, span in enumerate(spans):
            yield ("resourceSpans[0].scopeSpans[0].spans", k), span, resource

    def _events(self, stream: IO[bytes], at: list[str]) -> Iterator[tuple[Place, Any, Any]]:
        r = s = k = -1
        resource: Any = None
        builder: Any = None
        target = ""
        key, scope = "resourceSpans", "scopeSpans"
        for prefix, event, value in ijson.parse(stream, use_float=True):
            if builder is not None:
                builder.event(event, value)
                if prefix == target and event == "end_map":
                    if target.endswith(".resource"):
                        resource = builder.value
                    else:
                        yield f"{key}[{r}].{scope}[{s}].spans[{k}]", builder.value, resource
                    builder = None
                continue
            if event != "start_map":
                continue
            head, _, rest = prefix.partition(".")
            if head not in _RESOURCES:
                continue
            key = head
            parts = rest.split(".")
            if rest == "item":
                r, s, resource = r + 1, -1, None
                at[0] = f"{key}[{r}]"
            elif rest == "item.resource":
                builder, target = ijson.ObjectBuilder(), prefix
                builder.event(event, value)
            elif len(parts) == 3 and parts[0] == "item" and parts[1] in _SCOPES and parts[2] == "item":
                scope, s, k = parts[1], s + 1, -1
            elif len(parts) == 5 and parts[1] in _SCOPES and parts[3:] == ["spans", "item"]:
                k += 1
                builder, target = ijson.ObjectBuilder(), prefix
                builder.event(event, value)


def streamed_otlp(data: bytes) -> Parsed:
    """A large OTLP JSON document as one record whose ``resourceSpans`` are streamed (see the module)."""
    return Parsed("object", records=[{"resourceSpans": StreamedSpans(data)}], line_of=lambda _i: 1)


def large_regular_file(path: str | Path, limit_mb: int) -> Path | None:
    """``path`` when it is a regular file of :data:`STREAM_FROM` bytes or more within the per-file limit, else
    ``None`` (also when it cannot be looked at: the loader reads such a file as usual and names the cause).

    What qualifies a trace file to be read from the disk as it streams (here, and JSON lines of spans in
    :mod:`agentic_core.io.span_lines`); any other file is read whole, and one past the limit refused.
    """
    file = Path(path)
    try:
        return file if file.is_file() and STREAM_FROM <= file.stat().st_size <= limit_mb * 1024 * 1024 else None
    except OSError:
        return None


def streamed_otlp_file(path: str | Path, limit_mb: int) -> Parsed | None:
    """A large OTLP JSON file given by path, streamed from the disk; ``None`` when it is not one.

    Only a regular file of :data:`STREAM_FROM` bytes or more, within the per-file limit, holding one document
    whose first key is ``resourceSpans`` (no byte-order mark; not JSON lines of documents) qualifies; any
    other file is read whole by the loader as usual (which refuses one past the limit with its own message).
    The file is scanned once here; what the scan counted decides how its spans are read.

    Args:
        path: The file.
        limit_mb: The per-file limit in MB (:func:`~agentic_core.io.bounded_read.max_file_mb`).
    """
    file = large_regular_file(path, limit_mb)
    if file is None:
        return None
    try:
        with file.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None  # the loader reads it and names the cause
    if not is_otlp_document(head):
        return None
    try:
        with file.open("rb") as handle:
            counts, more = scan_otlp(handle)
    except OSError:
        return None
    if more:
        return None  # JSON lines of documents: the parser reads them line by line
    spans = StreamedSpans(file, counts)
    return Parsed("object", records=[{"resourceSpans": spans}], line_of=lambda _i: 1)
