"""Bytes to records: format detection (by content), JSON / JSON Lines parsing and syntax errors.

Formats: a JSON array of conversations, one conversation object, a seed-001 request object
``{"datasets": [...], "connector": ..., "config": ...}`` (only ``datasets`` is read), JSON
Lines, and pretty-printed objects one after another (what ``jq '.[]'`` prints).

orjson parses first (fast); when it refuses, the standard library's parser decides, because it
accepts ``NaN`` / ``Infinity`` (so a NaN score gets a clear validation error rather than a
syntax error) and its syntax messages are clearer.

The result type is in :mod:`agentic_core.io.parsed`, the request format in
:mod:`agentic_core.io.request`, and record line numbers in :mod:`agentic_core.io.line_numbers`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import orjson

from agentic_core.errors import show_value
from agentic_core.io.line_numbers import LazyLines
from agentic_core.io.load_report import Issue, file_error
from agentic_core.io.otel_stream import STREAM_FROM, is_one_otlp_document, streamed_otlp
from agentic_core.io.parsed import FORMATS, UNPARSABLE, Parsed, empty_issue
from agentic_core.io.render import json_type
from agentic_core.io.request import from_request
from agentic_core.io.syntax_words import syntax_fix, syntax_words

_BYTE = re.compile(rb"[^ \t\n\r\x0b\x0c]")
"""The first byte that is not ASCII whitespace (what ``bytes.strip`` removes): found without
copying the data, as ``strip`` does (a pass and a copy of a large file, each time)."""


_BOM = b"\xef\xbb\xbf"
# Keys that make an object a conversation rather than a seed-001 request.
_CONVERSATION_KEYS = ("session_id", "conversation")
_REQUEST_KEYS = ("datasets", "connector", "config")


def _syntax_issue(
    file: str, err: json.JSONDecodeError, record: int | None = None, line: int | None = None
) -> Issue:
    rule, fix = syntax_words(err)
    return Issue(
        "error",
        file,
        record,
        "",
        rule,
        None,
        fix,
        line=line if line is not None else err.lineno,
        column=err.colno,
    )


def _encoding_issue(
    file: str, data: bytes, err: UnicodeDecodeError, record: int | None = None, first_line: int = 1
) -> Issue:
    start = err.start
    line = data.count(b"\n", 0, start) + first_line
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return Issue(
        "error",
        file,
        record,
        "",
        f"is not valid UTF-8 (byte 0x{data[start]:02x})",
        None,
        "save the file with the UTF-8 encoding",
        line=line,
        column=column,
    )


# 19 digits in a row: an integer orjson may not hold in 64 bits (it silently reads one past 2^64
# as a float, so ids ending ...890 and ...891 compare equal). Such a text goes to the standard
# library, which keeps every integer exact. Runs are found with bytes.translate (every digit to "0",
# everything else to a space) and a substring search, both C loops over the buffer: a regular
# expression scan of the same text is about ten times slower, and this check runs on every line of
# every file. A run only counts where a number can start (after ``:``, ``[``, ``,`` or at the start):
# digits inside strings (an OpenTelemetry span's nanosecond times, "1700000000000000000") do not send a
# text to the slower parser. A run after ``: `` inside a string (JSON quoted in a message) still does:
# only slower, never wrong.
_DIGITS_ONLY = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_NINETEEN_DIGITS = b"0" * 19
_MINUS = ord("-")
_SPACE = b" \t\r\n"
_NUMBER_AFTER = b":[,"


def has_big_integer(data: bytes | str) -> bool:
    """Whether a JSON text may hold an integer past 64 bits (then parse it with :mod:`json`, not orjson)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    digits = raw.translate(_DIGITS_ONLY)
    at = digits.find(_NINETEEN_DIGITS)
    while at >= 0:  # ``at`` starts a run of digits (the byte before it is not one)
        start = at - 1 if at and raw[at - 1] == _MINUS else at
        while start and raw[start - 1] in _SPACE:
            start -= 1
        if start == 0 or raw[start - 1] in _NUMBER_AFTER:
            return True
        end = digits.find(b" ", at)
        if end < 0:
            return False
        at = digits.find(_NINETEEN_DIGITS, end)
    return False


def loads_json(data: bytes) -> tuple[Any, Exception | None, bool]:
    """Parse one JSON text: orjson, then the standard library (NaN, Infinity, big integers).

    The one rule for every JSON text the workbench reads (data files, request bodies): orjson for
    speed, the standard library where orjson would lose an integer past 64 bits, read NaN, or
    fail to say where a syntax error is.

    Returns:
        ``(value, error, whether the standard library parsed it)``.
    """
    if not has_big_integer(data):
        try:
            return orjson.loads(data), None, False
        except orjson.JSONDecodeError:
            pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, err, True
    try:
        return json.loads(text), None, True
    except json.JSONDecodeError as err:
        return None, err, True
    except RecursionError as err:
        return None, err, True


# Leading bytes of formats people upload by mistake, named so the message says what the file is.
_MAGIC = (
    (b"\x1f\x8b", "is gzip-compressed", "decompress it first (gunzip FILE) and load the .json/.jsonl inside"),
    (b"PK\x03\x04", "is a zip archive", "unzip it first and load the .json/.jsonl files inside"),
    (b"%PDF", "is a PDF document", "export the conversations as JSON or JSON Lines"),
)
_UTF16_FIX = "save the file with the UTF-8 encoding (for example: iconv -f UTF-16 -t UTF-8)"


def binary_format(data: bytes) -> tuple[str, str] | None:
    """What a file that cannot be UTF-8 JSON is (compressed, archive, UTF-16), or ``None``."""
    for magic, what, fix in _MAGIC:
        if data.startswith(magic):
            return what, fix
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "is UTF-16 encoded; only UTF-8 is read", _UTF16_FIX
    # UTF-16 without a byte-order mark: ASCII text leaves every other byte NUL, which UTF-8 JSON
    # never contains outside a string escape.
    head = data[:512]
    if len(head) >= 4 and head.count(0) == len(head):
        # All zeros (a sparse or zero-filled file, a disk image): not text in any encoding.
        return "holds only zero bytes (NUL), not text", "check that this is the data file you meant"
    if len(head) >= 4 and head.count(0) * 3 >= len(head):
        odd, even = head[1::2].count(0), head[0::2].count(0)
        order = "little-endian" if odd > even else "big-endian"
        return f"is UTF-16 ({order}, without a byte-order mark) encoded; only UTF-8 is read", _UTF16_FIX
    return None


def _looks_like_csv(text: str) -> bool:
    """A first line that is not JSON and splits on commas (or tabs/semicolons) into a header."""
    first = text.lstrip().split("\n", 1)[0].strip()
    if not first or first[0] in "{[\"":
        return False
    for sep in (",", "\t", ";"):
        cells = first.split(sep)
        if len(cells) >= 2 and all(cell.strip() for cell in cells):
            return True
    return False


def _looks_like_jsonl(data: bytes) -> bool:
    # JSON Lines writers never indent: at least two lines that are a whole `{...}` object at
    # column 0 mean JSON Lines, even when the first line is broken. A pretty-printed object
    # starts with a line holding only "{".
    first = _BYTE.search(data)
    if first is None or first.group() != b"{":
        return False
    found = 0
    for line in _first_lines(data, 64):
        stripped = line.rstrip()
        if stripped.startswith(b"{") and stripped.endswith(b"}"):
            found += 1
            if found >= 2:
                return True
    return False


def _first_lines(data: bytes, count: int) -> Iterator[bytes]:
    """The first ``count`` lines of ``data`` (without copying the rest, as ``split`` would)."""
    start = 0
    for _ in range(count):
        end = data.find(b"\n", start)
        if end < 0:
            yield data[start:]
            return
        yield data[start:end]
        start = end + 1


def _more_than_one_value(data: bytes) -> bool:
    """Whether ``data`` (without a byte-order mark) is plainly not one JSON document: its first
    non-blank line is a whole JSON value, and something follows it.

    Parsing a large JSON Lines file as one document only to see it fail cost orjson a pass over
    every byte (it checks the UTF-8 of the whole input first); this answers from the first line.
    """
    first = _BYTE.search(data)
    if first is None:
        return False
    start = first.start()
    end = data.find(b"\n", start)
    if end < 0 or _BYTE.search(data, end) is None:
        return False
    try:
        orjson.loads(data[start:end])
    except orjson.JSONDecodeError:
        return False
    return True


def is_json_lines(data: bytes) -> bool:
    """Whether :func:`parse` reads ``data`` (without a byte-order mark) as JSON Lines, decided from
    its first lines (for :mod:`agentic_core.io.load_pieces`; ``False`` when that takes more)."""
    return (
        binary_format(data) is None
        and not data.startswith(_BOM)
        and _more_than_one_value(data)
        and _looks_like_jsonl(data)
    )


def parse(file: str, data: bytes, *, lazy: bool = False) -> Parsed:
    """Detect the format of one file's bytes and parse it into records.

    Args:
        file: The file name (for messages).
        data: The raw bytes; UTF-8, with or without a byte-order mark.
        lazy: JSON Lines records are parsed only when asked for (:meth:`Parsed.parse_until`),
            so a large file is never held as Python objects all at once (the loader streams).

    Returns:
        The records and the file-level issues. Never raises for bad input.
    """
    binary = binary_format(data)
    if binary is not None:
        what, fix = binary
        return Parsed("invalid", issues=[file_error(file, what, fix)])
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    if _BYTE.search(data) is None:
        return Parsed("empty", issues=[empty_issue(file)])
    if b"\r" in data and b"\n" not in data:
        # Old Mac line endings (CR only): a CR is JSON whitespace, so every line would read as one.
        data = data.replace(b"\r", b"\n")

    if len(data) >= STREAM_FROM and is_one_otlp_document(data):
        return streamed_otlp(data)  # a large OpenTelemetry export: read one span at a time, never whole
    if not _more_than_one_value(data) and not has_big_integer(data):
        try:
            return from_document(file, orjson.loads(data), data)
        except orjson.JSONDecodeError:
            pass
    if _looks_like_jsonl(data):
        return parse_jsonl(file, data, lazy)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return Parsed("invalid", issues=[_encoding_issue(file, data, err)])
    if _looks_like_csv(text):
        issue = file_error(
            file,
            "is a CSV (comma-separated) table, not JSON",
            "export the conversations as JSON or JSON Lines (one conversation object per line); "
            "see the seed-003 format in the README",
        )
        return Parsed("invalid", issues=[issue])
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        if err.msg == "Extra data":
            # A complete JSON value followed by more: JSON Lines when the first value fits on
            # its first line, else a stream of pretty-printed values (what `jq '.[]'` prints).
            first = text[: err.pos].strip()
            if "\n" in first:
                return _parse_stream(file, text)
            return parse_jsonl(file, data, lazy)
        return Parsed("invalid", issues=[_syntax_issue(file, err)])
    except RecursionError:
        issue = file_error(file, "is nested too deeply to be read", "flatten the data structure")
        return Parsed("invalid", issues=[issue])
    parsed = from_document(file, doc, data)
    parsed.stdlib = True
    return parsed


def from_document(file: str, doc: Any, data: bytes = b"") -> Parsed:
    """Records of one parsed JSON value (a file's whole content, or records given in memory).

    Args:
        file: The name used in messages.
        doc: A list of records, one conversation dict, or a ``{"datasets": [...]}`` request.
        data: The bytes ``doc`` was parsed from (for record line numbers), if any.

    Returns:
        The records and the file-level issues.
    """
    if isinstance(doc, list):
        parsed = Parsed("array", records=doc, line_of=LazyLines(data, None, len(doc)))
        if not doc:
            parsed.issues.append(empty_issue(file))
        return parsed
    if isinstance(doc, dict):
        is_conversation = any(k in doc for k in _CONVERSATION_KEYS)
        if not is_conversation and any(k in doc for k in _REQUEST_KEYS):
            return from_request(file, doc, data)
        # The bytes stay with it: an importer may split the object into records (the samples of an
        # Inspect log) and look up their lines.
        return Parsed("object", records=[doc], line_of=lambda _i: 1, raw=data)
    issue = file_error(
        file,
        f"must hold {FORMATS}; it holds {json_type(doc)}",
        "export the conversations as a JSON array or as JSON Lines",
        value=show_value(doc),
    )
    return Parsed("invalid", issues=[issue])


def parse_jsonl(file: str, data: bytes, lazy: bool = False, first_line: int = 1) -> Parsed:
    """One JSON value per line; blank lines are skipped; a bad line is a bad record, not a bad file.

    ``first_line`` is the line number of ``data``'s first line (a piece of a larger file, read by a
    load worker: :mod:`agentic_core.io.load_pieces`).
    """
    numbers: list[int] = []
    lines: list[bytes | None] = []
    for number, raw in enumerate(data.split(b"\n"), start=first_line):
        if raw.strip():
            numbers.append(number)
            lines.append(raw)
    parsed = Parsed("jsonl")
    parsed.records = [None] * len(lines)
    parsed.lines = lines
    parsed.line_of = numbers.__getitem__
    parsed.line_numbers = numbers
    done = 0

    def more(stop: int) -> None:
        nonlocal done
        stop = min(stop, len(numbers))
        records, pending = parsed.records, parsed.lines
        for index in range(done, stop):
            raw = pending[index] if pending is not None else None
            if raw is None:  # released: loading is over
                continue
            # The raw line is parsed (JSON allows the surrounding spaces and a trailing \r), so
            # error columns count from the start of the line as an editor shows it.
            value, err, stdlib = loads_json(raw)
            if stdlib and pending is not None:
                parsed.stdlib = True
                pending[index] = None  # not exact as JSON text (NaN, big integers): not kept
            if err is None:
                records[index] = value
                continue
            records[index] = UNPARSABLE
            if pending is not None:
                pending[index] = None
            parsed.record_errors[index] = line_error(file, raw, err, index, numbers[index])
        done = max(done, stop)
        if done >= len(numbers):
            parsed.more = None

    parsed.more = more
    if not lazy:
        more(len(numbers))
        parsed.lines = None
    return parsed


def line_error(file: str, raw: bytes, err: Exception, index: int, number: int) -> Issue:
    """The issue of one JSON line that could not be parsed."""
    if isinstance(err, json.JSONDecodeError):
        rule, fix = syntax_words(err, "line")
        return Issue(
            "error",
            file,
            index,
            "",
            rule,
            None,
            fix,
            line=number,
            column=err.colno,
        )
    if isinstance(err, UnicodeDecodeError):
        return _encoding_issue(file, raw, err, index, number)
    return Issue(
        "error",
        file,
        index,
        "",
        "is nested too deeply to be read",
        None,
        "flatten the record",
        number,
    )


_DECODER = json.JSONDecoder()
_TEXT = re.compile(r"\S")


def _parse_stream(file: str, text: str) -> Parsed:
    """Concatenated JSON values (one record each). A syntax error ends the stream: after it,
    where the next record starts cannot be known, so the rest of the file is reported unread."""
    parsed = Parsed("stream", stdlib=True)
    lines: list[int] = []
    position, line = 0, 1
    while True:
        found = _TEXT.search(text, position)
        if found is None:
            break
        start = found.start()
        line += text.count("\n", position, start)
        try:
            value, position = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as err:
            parsed.issues.append(
                file_error(
                    file,
                    f"is not valid JSON: {err.msg}; the rest of the file was not read",
                    syntax_fix(err.msg),
                    line=err.lineno,
                    column=err.colno,
                )
            )
            break
        except RecursionError:
            parsed.issues.append(file_error(file, "is nested too deeply to be read", "flatten the record", line=line))
            break
        lines.append(line)
        parsed.records.append(value)
        line += text.count("\n", start, position)
    parsed.line_of = lambda i: lines[i] if 0 <= i < len(lines) else None
    return parsed
