"""Bytes to records: format detection (by content), JSON / JSON Lines parsing and syntax errors.

Formats: a JSON array of conversations, one conversation object, a seed-001 request object
``{"datasets": [...], "connector": ..., "config": ...}`` (only ``datasets`` is read), JSON
Lines, and pretty-printed objects one after another (what ``jq '.[]'`` prints).

orjson parses first (fast); when it refuses, the standard library's parser decides, because it
accepts ``NaN`` / ``Infinity`` (so a NaN score gets a clear validation error rather than a
syntax error) and its syntax messages are clearer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from agentic_core.errors import show_value
from agentic_core.io.explain import json_type, safe_value
from agentic_core.io.load_report import Issue
from agentic_core.secrets import is_secret_key

Kind = Literal["array", "object", "request", "jsonl", "stream", "empty", "invalid"]

_BOM = b"\xef\xbb\xbf"
_FORMATS = (
    'a JSON array of conversations, one conversation object, a {"datasets": [...]} request, '
    "or JSON Lines (one conversation per line)"
)
# Keys that make an object a conversation rather than a seed-001 request.
_CONVERSATION_KEYS = ("session_id", "conversation")
_REQUEST_KEYS = ("datasets", "connector", "config")


class Unparsable:
    """Placeholder for a JSON Lines record whose line is not valid JSON."""

    __slots__ = ()


UNPARSABLE = Unparsable()


@dataclass
class Parsed:
    """One file, parsed.

    Attributes:
        kind: The detected format.
        records: The records in file order; :data:`UNPARSABLE` for a JSON line that failed
            to parse (its error is in ``record_errors``).
        issues: File-level issues (syntax errors, encoding, notes about ignored request keys).
        record_errors: Syntax errors of single JSON lines, by record index.
        line_of: Returns the 1-based line of a record, or ``None`` when unknown.
    """

    kind: Kind
    records: list[Any] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    record_errors: dict[int, Issue] = field(default_factory=dict)
    line_of: Callable[[int], int | None] = field(default=lambda _i: None)

    def release(self) -> None:
        """Drop what is only kept for line lookups (the file's bytes) once loading is done."""
        if isinstance(self.line_of, _LazyLines):
            self.line_of.release()


def _syntax_fix(msg: str) -> str:
    # stdlib messages, translated into what usually causes them.
    if msg.startswith("Expecting ',' delimiter"):
        return "a comma is missing between two items, or a string contains an unescaped double quote"
    if msg.startswith("Expecting property name"):
        return "keys need double quotes, and JSON allows no trailing comma before } or ]"
    if msg.startswith("Expecting ':' delimiter"):
        return "put a colon between each key and its value"
    if msg.startswith("Expecting value"):
        return (
            "a value is missing or invalid here: a trailing comma, single quotes, a bare word, "
            "or Python's None/True/False instead of null/true/false"
        )
    if msg.startswith("Extra data"):
        return "put exactly one conversation on each line (JSON Lines), or wrap them all in a JSON array"
    if msg.startswith("Unterminated string"):
        return "close the string with a double quote"
    if msg.startswith("Invalid control character"):
        return r"write newlines and tabs inside strings as \n and \t"
    if msg.startswith("Invalid \\escape") or msg.startswith("Invalid \\uXXXX"):
        return r"write a backslash inside a string as \\"
    return "correct the JSON at that position (an editor with JSON support will point at it)"


def _syntax_issue(
    file: str, err: json.JSONDecodeError, record: int | None = None, line: int | None = None
) -> Issue:
    return Issue(
        "error",
        file,
        record,
        "",
        f"is not valid JSON: {err.msg}",
        None,
        _syntax_fix(err.msg),
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


def _empty_issue(file: str, path: str = "") -> Issue:
    return Issue(
        "warning",
        file,
        None,
        path,
        "the file holds no conversations",
        None,
        f"check that this is the right file; it should hold {_FORMATS}",
    )


def _loads(data: bytes) -> tuple[Any, Exception | None]:
    """Parse one JSON text: orjson, then the standard library (NaN, Infinity, big integers)."""
    try:
        return orjson.loads(data), None
    except orjson.JSONDecodeError:
        pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return None, err
    try:
        return json.loads(text), None
    except json.JSONDecodeError as err:
        return None, err
    except RecursionError as err:
        return None, err


def _looks_like_jsonl(data: bytes) -> bool:
    # JSON Lines writers never indent: at least two lines that are a whole `{...}` object at
    # column 0 mean JSON Lines, even when the first line is broken. A pretty-printed object
    # starts with a line holding only "{".
    if not data.lstrip().startswith(b"{"):
        return False
    found = 0
    for line in data.split(b"\n", 64)[:64]:
        stripped = line.rstrip()
        if stripped.startswith(b"{") and stripped.endswith(b"}"):
            found += 1
            if found >= 2:
                return True
    return False


def parse(file: str, data: bytes) -> Parsed:
    """Detect the format of one file's bytes and parse it into records.

    Args:
        file: The file name (for messages).
        data: The raw bytes; UTF-8, with or without a byte-order mark.

    Returns:
        The records and the file-level issues. Never raises for bad input.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return Parsed(
            "invalid",
            issues=[
                Issue(
                    "error",
                    file,
                    None,
                    "",
                    "is UTF-16 encoded; only UTF-8 is read",
                    None,
                    "save the file with the UTF-8 encoding",
                )
            ],
        )
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    if not data.strip():
        return Parsed("empty", issues=[_empty_issue(file)])

    try:
        return from_document(file, orjson.loads(data), data)
    except orjson.JSONDecodeError:
        pass
    if _looks_like_jsonl(data):
        return _parse_jsonl(file, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return Parsed("invalid", issues=[_encoding_issue(file, data, err)])
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        if err.msg == "Extra data":
            # A complete JSON value followed by more: JSON Lines when the first value fits on
            # its first line, else a stream of pretty-printed values (what `jq '.[]'` prints).
            first = text[: err.pos].strip()
            if "\n" in first:
                return _parse_stream(file, text)
            return _parse_jsonl(file, data)
        return Parsed("invalid", issues=[_syntax_issue(file, err)])
    except RecursionError:
        issue = Issue(
            "error", file, None, "", "is nested too deeply to be read", None, "flatten the data structure"
        )
        return Parsed("invalid", issues=[issue])
    return from_document(file, doc, data)


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
        parsed = Parsed("array", records=doc, line_of=_LazyLines(data, None, len(doc)))
        if not doc:
            parsed.issues.append(_empty_issue(file))
        return parsed
    if isinstance(doc, dict):
        is_conversation = any(k in doc for k in _CONVERSATION_KEYS)
        if not is_conversation and any(k in doc for k in _REQUEST_KEYS):
            return _request(file, doc, data)
        return Parsed("object", records=[doc], line_of=lambda _i: 1)
    issue = Issue(
        "error",
        file,
        None,
        "",
        f"must hold {_FORMATS}; it holds {json_type(doc)}",
        show_value(doc),
        "export the conversations as a JSON array or as JSON Lines",
    )
    return Parsed("invalid", issues=[issue])


def _secret_paths(value: Any, path: str, depth: int = 0) -> list[str]:
    """Paths of credential-looking keys (values are never read or shown)."""
    found: list[str] = []
    if depth > 6:
        return found
    if isinstance(value, dict):
        for key, child in value.items():
            child_path = f"{path}.{key}" if path else str(key)
            if is_secret_key(key) and child not in (None, ""):
                found.append(child_path)
            else:
                found.extend(_secret_paths(child, child_path, depth + 1))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            found.extend(_secret_paths(child, f"{path}[{i}]", depth + 1))
    return found


def _request(file: str, doc: dict[str, Any], data: bytes) -> Parsed:
    """A seed-001 request: take ``datasets``; note (never echo) everything else."""
    parsed = Parsed("request")
    others = sorted(str(k) for k in doc if k != "datasets")
    if others:
        names = ", ".join(repr(k) for k in others)
        parsed.issues.append(
            Issue(
                "info",
                file,
                None,
                "",
                f"request keys {names} are ignored; only 'datasets' is loaded",
                None,
                "choose the judge, thresholds and k in the app or on the command line",
            )
        )
    for path in _secret_paths({k: v for k, v in doc.items() if k != "datasets"}, ""):
        # The path is shown, the value never is.
        parsed.issues.append(
            Issue(
                "warning",
                file,
                None,
                path,
                "this data file contains a credential; it was ignored and not stored",
                None,
                "remove it from the file (give API keys in the app's password field or an environment "
                "variable), and revoke it if the file has been shared",
            )
        )
    datasets = doc.get("datasets")
    if "datasets" not in doc:
        parsed.kind = "invalid"
        parsed.issues.append(
            Issue(
                "error",
                file,
                None,
                "datasets",
                "a request object needs a 'datasets' list of conversations",
                None,
                'add "datasets": [ ...conversations... ]',
            )
        )
    elif not isinstance(datasets, list):
        parsed.kind = "invalid"
        parsed.issues.append(
            Issue(
                "error",
                file,
                None,
                "datasets",
                f"must be a list (JSON array) of conversations, not {json_type(datasets)}",
                safe_value(datasets),
                'write "datasets": [ {...}, {...} ]',
            )
        )
    else:
        parsed.records = datasets
        parsed.line_of = _LazyLines(data, b'"datasets"', len(datasets))
        if not datasets:
            parsed.issues.append(_empty_issue(file, "datasets"))
    return parsed


def _parse_jsonl(file: str, data: bytes) -> Parsed:
    """One JSON value per line; blank lines are skipped; a bad line is a bad record, not a bad file."""
    parsed = Parsed("jsonl")
    lines: list[int] = []
    records = parsed.records
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        index = len(records)
        lines.append(number)
        # The raw line is parsed (JSON allows the surrounding spaces and a trailing \r), so
        # error columns count from the start of the line as an editor shows it.
        value, err = _loads(raw)
        if err is None:
            records.append(value)
            continue
        records.append(UNPARSABLE)
        if isinstance(err, json.JSONDecodeError):
            issue = Issue(
                "error",
                file,
                index,
                "",
                f"is not valid JSON: {err.msg}",
                None,
                _syntax_fix(err.msg),
                line=number,
                column=err.colno,
            )
        elif isinstance(err, UnicodeDecodeError):
            issue = _encoding_issue(file, raw, err, index, number)
        else:
            issue = Issue(
                "error",
                file,
                index,
                "",
                "is nested too deeply to be read",
                None,
                "flatten the record",
                number,
            )
        parsed.record_errors[index] = issue
    parsed.line_of = lines.__getitem__
    return parsed


_DECODER = json.JSONDecoder()
_TEXT = re.compile(r"\S")


def _parse_stream(file: str, text: str) -> Parsed:
    """Concatenated JSON values (one record each). A syntax error ends the stream: after it,
    where the next record starts cannot be known, so the rest of the file is reported unread."""
    parsed = Parsed("stream")
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
                Issue(
                    "error",
                    file,
                    None,
                    "",
                    f"is not valid JSON: {err.msg}; the rest of the file was not read",
                    None,
                    _syntax_fix(err.msg),
                    line=err.lineno,
                    column=err.colno,
                )
            )
            break
        except RecursionError:
            parsed.issues.append(
                Issue(
                    "error",
                    file,
                    None,
                    "",
                    "is nested too deeply to be read",
                    None,
                    "flatten the record",
                    line,
                )
            )
            break
        lines.append(line)
        parsed.records.append(value)
        line += text.count("\n", start, position)
    parsed.line_of = lambda i: lines[i] if 0 <= i < len(lines) else None
    return parsed


# Strings (skipped whole, so brackets inside them do not count) and the structural characters.
_TOKEN = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[\[\]{},:]', re.DOTALL)
_NON_SPACE = re.compile(rb"\S")


class _LazyLines:
    """Line numbers of the elements of a JSON array, computed on first use.

    Only pretty-printed files benefit (a one-line file puts every record on line 1), and only
    files with issues need them, so the scan runs at most once and only then. A scan that does
    not find exactly as many elements as were parsed is discarded: no line number is better
    than a wrong one.
    """

    __slots__ = ("_count", "_data", "_key", "_lines")

    def __init__(self, data: bytes, key: bytes | None, count: int) -> None:
        # A file with (almost) no line breaks has nothing to look up: do not keep its bytes.
        self._data: bytes | None = data if data.count(b"\n") >= 2 else None
        self._key = key  # None: the top-level array; else the array under this top-level key
        self._count = count
        self._lines: list[int] | None = None

    def __call__(self, index: int) -> int | None:
        if self._lines is None:
            data, self._data = self._data, None  # release the bytes after the scan
            self._lines = []
            if data is not None:
                lines = _indented_element_lines(data) if self._key is None else []
                if len(lines) != self._count:
                    lines = _element_lines(data, self._key)
                if len(lines) == self._count:
                    self._lines = lines
        return self._lines[index] if 0 <= index < len(self._lines) else None

    def release(self) -> None:
        """Drop the file's bytes if the scan never ran (memory)."""
        self._data = None
        if self._lines is None:
            self._lines = []


def _indented_element_lines(data: bytes) -> list[int]:
    """Fast path for a consistently indented top-level array (``json.dumps(indent=...)``, jq,
    editors): its elements start on the lines indented exactly like the first one.

    One C-level regex pass instead of a tokenizer loop in Python (a second instead of several
    at 100 MB); the caller checks the count and falls back to :func:`_element_lines`.
    """
    opening = _NON_SPACE.search(data)
    if opening is None or data[opening.start()] != 0x5B:  # [
        return []
    first = _NON_SPACE.search(data, opening.end())
    if first is None or data[first.start()] == 0x5D:  # ]
        return []
    line_start = data.rfind(b"\n", 0, first.start()) + 1
    indent = data[line_start : first.start()]
    if line_start <= opening.start() or indent.strip(b" \t"):
        return []  # the first element is on the "[" line: not an indented layout
    pattern = re.compile(rb"^" + re.escape(indent) + rb"(?=[^\s\]}])", re.MULTILINE)
    lines: list[int] = []
    line, counted = 1, 0
    for match in pattern.finditer(data, line_start):
        start = match.start()
        line += data.count(b"\n", counted, start)
        counted = start
        lines.append(line)
    return lines


def _element_lines(data: bytes, key: bytes | None) -> list[int]:
    """1-based line of each element of the target array (see :class:`_LazyLines`)."""
    lines: list[int] = []
    depth = 0
    target = -1
    last_string = b""
    top_key = b""
    line, counted = 1, 0

    def mark(after: int) -> None:
        nonlocal line, counted
        found = _NON_SPACE.search(data, after)
        if found is None or data[found.start()] == ord("]"):
            return
        start = found.start()
        line += data.count(b"\n", counted, start)
        counted = start
        lines.append(line)

    for match in _TOKEN.finditer(data):
        char = data[match.start()]
        if char == 0x22:  # "
            last_string = match.group()
        elif char == 0x3A:  # :
            if depth == 1:
                top_key = last_string
        elif char in (0x5B, 0x7B):  # [ {
            depth += 1
            if (
                target < 0
                and char == 0x5B
                and ((key is None and depth == 1) or (key is not None and depth == 2 and top_key == key))
            ):
                target = depth
                mark(match.end())
        elif char in (0x5D, 0x7D):  # ] }
            if depth == target:
                break
            depth -= 1
        elif char == 0x2C and depth == target:  # ,
            mark(match.end())
    return lines
