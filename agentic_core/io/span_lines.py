"""A large file of JSON lines of OpenTelemetry spans, read a line at a time from the file or its bytes.

The usual JSON Lines reader splits the bytes into lines first: a copy of the whole file held until the
lines are parsed, on top of the file's bytes (an upload) or of the file read whole (a path). A file whose
first line is a span (``traceId`` and ``spanId``) or an OTLP document (the Collector's file exporter) is
read here instead: one pass notes where each line starts and ends, and each line is read when the
importer asks for its record, then let go. Its records, errors and line numbers are those the JSON Lines
reader gives; only the lines are not kept (an OpenTelemetry file's records are mapped, never stored as
written).
"""

from __future__ import annotations

import io
import re
import weakref
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import IO

import orjson

from agentic_core.io.bounded_read import read_at
from agentic_core.io.load_report import Issue
from agentic_core.io.otel_import import looks_like_otel
from agentic_core.io.otel_stream import large_regular_file
from agentic_core.io.parse import line_error, loads_json
from agentic_core.io.parsed import UNPARSABLE, Parsed

__all__ = ["is_span_lines", "span_lines", "span_lines_file"]

_CHUNK = 8 * 1024 * 1024
_TEXT = re.compile(rb"[^ \t\r\n\f\v]")
_DOCUMENT = re.compile(rb'\{\s*"(?:resourceSpans|resource_spans)"\s*:')
_PROBE = 64 * 1024
FIRST_LINE_MAX = 16 * 1024 * 1024
"""Bytes read to find a file's first line; a first line longer than this is not read here (the usual reader)."""


def is_span_lines(stream: IO[bytes]) -> bool:
    """Whether a file's first line (blank lines skipped) is a span or an OTLP document (then it is read here).

    A span line has the span's ids as top-level keys (:func:`~agentic_core.io.otel_import.looks_like_otel`; a seed
    record holding ``trace_id`` in a tool's parameters is not one); a document line starts with ``resourceSpans``.
    A document may be the whole file (one document, streamed instead: the caller rules that out first,
    :func:`~agentic_core.io.otel_stream.is_one_otlp_document`).

    Args:
        stream: The file from its start; up to the first line with text is read (at most
            :data:`FIRST_LINE_MAX` bytes). A byte-order mark says no (the usual reader drops it).
    """
    head = stream.read(_PROBE)
    if head.startswith(b"\xef\xbb\xbf"):
        return False
    body = head.lstrip(b" \t\r\n")
    if _DOCUMENT.match(body) is not None:
        return True  # a document per line (the Collector's file exporter): its line may be longer than any probe
    if not body.startswith(b"{"):
        return False
    line = bytearray(body)
    while b"\n" not in line and len(line) < FIRST_LINE_MAX:  # a chat span carrying a long history
        more = stream.read(_PROBE)
        if not more:
            break
        line += more
    first = bytes(line.split(b"\n", 1)[0])
    if b"\r" in first.rstrip(b"\r"):  # CR-only line ends: the usual reader turns them into newlines
        return False
    try:
        record = orjson.loads(first)
    except orjson.JSONDecodeError:
        return False
    return isinstance(record, dict) and looks_like_otel(record) is not None


def _line_bounds(stream: IO[bytes]) -> tuple[array[int], array[int], array[int]]:
    """Where each line with text starts and ends, and its 1-based number (blank lines are skipped)."""
    starts, ends, numbers = array("q"), array("q"), array("q")
    base = line_start = 0
    number = 1
    has_text = False
    while chunk := stream.read(_CHUNK):
        pos = 0
        while True:
            newline = chunk.find(b"\n", pos)
            stop = len(chunk) if newline < 0 else newline
            has_text = has_text or _TEXT.search(chunk, pos, stop) is not None
            if newline < 0:
                break
            if has_text:
                starts.append(line_start)
                ends.append(base + newline)
                numbers.append(number)
            number += 1
            line_start, has_text, pos = base + newline + 1, False, newline + 1
        base += len(chunk)
    if has_text:
        starts.append(line_start)
        ends.append(base)
        numbers.append(number)
    return starts, ends, numbers


def span_lines(file: str, source: bytes | Path) -> Parsed:
    """JSON lines read one at a time from ``source`` (a file's bytes, or the file), never split up front.

    Args:
        file: The file name, for messages.
        source: The bytes, or the path of the file (read through one handle, closed once every line is read
            or the parsed file is let go).

    Returns:
        A lazily parsed JSON Lines file (:meth:`Parsed.parse_until`); ``lines`` is not kept.

    Raises:
        OSError: The file cannot be opened (the caller names the cause).
    """
    handle: IO[bytes] = io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")  # noqa: SIM115
    try:
        starts, ends, numbers = _line_bounds(handle)
    except OSError:
        handle.close()
        raise
    if isinstance(source, bytes):
        handle.close()
        view = source

        def line(i: int) -> bytes:
            return view[starts[i]:ends[i]]
    else:

        def line(i: int) -> bytes:
            return read_at(handle, starts[i], ends[i] - starts[i])

    parsed = Parsed("jsonl")
    parsed.records = [None] * len(numbers)
    parsed.line_of = numbers.__getitem__
    parsed.more = _reader(file, parsed, line, numbers, handle)
    parsed.closers.append(handle.close)  # the loader releases it, also after a failure
    weakref.finalize(parsed, handle.close)  # and one nobody releases closes it when it goes
    return parsed


def _reader(file: str, parsed: Parsed, line: Callable[[int], bytes], numbers: array[int],
            handle: IO[bytes]) -> Callable[[int], None]:
    """The parser of the lines up to a record index (what :meth:`Parsed.parse_until` calls)."""
    done = 0

    def more(stop: int) -> None:
        nonlocal done
        stop = min(stop, len(numbers))
        records = parsed.records
        for index in range(done, stop):
            try:
                raw = line(index)
            except OSError as failure:
                # The file went away or failed mid-read: one error where it stopped; the lines before it were read.
                records[index:] = [UNPARSABLE] * (len(numbers) - index)
                parsed.record_errors[index] = Issue(
                    "error", file, index, "", f"cannot be read from here on ({failure.strerror or failure}); the lines "
                    "before it were read", None, "check the file and the disk, then load it again", numbers[index])
                done = len(numbers)
                break
            value, error, stdlib = loads_json(raw)
            parsed.stdlib = parsed.stdlib or stdlib
            if error is None:
                records[index] = value
            else:
                records[index] = UNPARSABLE
                parsed.record_errors[index] = line_error(file, raw, error, index, numbers[index])
        done = max(done, stop)
        if done >= len(numbers):  # every line read (or the file failed): the handle goes
            parsed.more = None
            handle.close()

    return more


def span_lines_file(path: str | Path, limit_mb: int) -> Parsed | None:
    """A large file of JSON lines of spans, given by path, read a line at a time; ``None`` when it is not one.

    Only a regular file of :data:`~agentic_core.io.otel_stream.STREAM_FROM` bytes or more, within the
    per-file limit, whose first line is a span or an OTLP document qualifies (see :func:`is_span_lines`); any
    other file is read by the loader as usual (which names the cause of a file it cannot read).

    Args:
        path: The file.
        limit_mb: The per-file limit in MB.
    """
    file = large_regular_file(path, limit_mb)
    if file is None:
        return None
    try:
        with file.open("rb") as handle:
            if not is_span_lines(handle):
                return None
        return span_lines(str(path), file)
    except OSError:
        return None
