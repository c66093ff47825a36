"""Line numbers of the records of a parsed JSON array, found by scanning the file's bytes.

The JSON parsers return values, not positions, so a record's line (for "record 3 (line 41)")
is looked up afterwards in the raw bytes: a fast regex pass for consistently indented arrays,
else a small tokenizer that skips strings. The lookup runs lazily, at most once per file, and
only when an issue needs a line. Used by :mod:`agentic_core.io.parse` (JSON arrays) and
:mod:`agentic_core.io.request` (the ``datasets`` array of a request).
"""

from __future__ import annotations

import re

# Strings (skipped whole, so brackets inside them do not count) and the structural characters.
_TOKEN = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[\[\]{},:]', re.DOTALL)
_NON_SPACE = re.compile(rb"\S")


class LazyLines:
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
    """1-based line of each element of the target array (see :class:`LazyLines`)."""
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
