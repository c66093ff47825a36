"""What parsing one file produces: :class:`Parsed` (records, file-level issues, line lookup).

Its own module because every format parser builds one: :mod:`agentic_core.io.parse` (arrays,
single objects, JSON Lines, streams) and :mod:`agentic_core.io.request` (seed-001 requests),
and :mod:`agentic_core.io.loader` consumes it. The "no conversations" warning lives here too,
since both parsers raise it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from agentic_core.io.line_numbers import LazyLines
from agentic_core.io.load_report import Issue

Kind = Literal["array", "object", "request", "jsonl", "stream", "empty", "invalid"]

# The accepted formats, in words (for messages).
FORMATS = (
    'a JSON array of conversations, one conversation object, a {"datasets": [...]} request, '
    "or JSON Lines (one conversation per line)"
)


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
        stdlib: Whether the standard library's parser read any of it (orjson refused it): only
            then can a string hold a lone UTF-16 surrogate, which orjson rejects.
        record_issues: Warnings (and further errors) about single records found before
            validation, by an importer (:mod:`agentic_core.io.importers`); sorted in with the
            loader's own.
        origins: For records an importer mapped to the seed format: per record index, pairs of
            (path in the mapped record, path in the original record), so that every issue names
            the place in the file as written. ``None`` for seed files.
        raw: The bytes of a file holding one object (kept so that an importer splitting it into
            records can look up their lines); empty otherwise.
        lines: JSON Lines read lazily (``parse(..., lazy=True)``): each record's line, for the
            records ``records`` does not hold yet (``None`` there until :meth:`parse_until`);
            a line stays once parsed by orjson (the loader keeps it as the record's text), else
            it is dropped.
        more: Parses the pending JSON lines up to a record index (set by the JSON Lines parser).
        line_numbers: JSON Lines: each record's line number (what ``line_of`` looks up), else ``None``.
        imported_as: The format the records were read as (``seed``, or the importer that mapped them).
        when_read: Run once, in order, when the last record read lazily is read (an importer's summary of
            records it maps on demand); empty for records read at once.
        closers: Close what a lazy reader holds open (run by :meth:`release`).
    """

    kind: Kind
    records: list[Any] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    record_errors: dict[int, Issue] = field(default_factory=dict)
    line_of: Callable[[int], int | None] = field(default=lambda _i: None)
    stdlib: bool = False
    record_issues: list[Issue] = field(default_factory=list)
    origins: dict[int, list[tuple[str, str]]] | None = None
    raw: bytes = b""
    lines: list[bytes | None] | None = None
    more: Callable[[int], None] | None = None
    line_numbers: list[int] | None = None
    imported_as: str = "seed"
    when_read: list[Callable[[], None]] = field(default_factory=list)
    closers: list[Callable[[], None]] = field(default_factory=list)

    def parse_until(self, stop: int) -> None:
        """Make sure records ``[0, stop)`` are parsed (a no-op unless read lazily)."""
        if self.more is not None:
            self._more(stop)

    def _more(self, stop: int) -> None:
        assert self.more is not None
        self.more(stop)
        if self.more is None:  # the last record is read: what waited for all of them runs now, once
            hooks, self.when_read = self.when_read, []
            for hook in hooks:
                hook()

    def parse_first(self, count: int) -> None:
        """Parse records until ``count`` of them are valid JSON (what format detection reads), or all are."""
        if self.more is None:
            return
        stop = 0
        while stop < len(self.records) and self.more is not None:
            stop = min(len(self.records), max(stop * 2, 64))
            self._more(stop)
            if sum(1 for r in self.records[:stop] if r is not UNPARSABLE) >= count:
                return

    def release(self) -> None:
        """Drop what is only kept for line lookups (the file's bytes), and close what a lazy reader holds open (a
        file, a temporary file), once loading is done or has failed; a second call does nothing more."""
        self.raw = b""
        self.lines = None
        closers, self.closers = self.closers, []
        for close in closers:
            close()
        if isinstance(self.line_of, LazyLines):
            self.line_of.release()


def empty_issue(file: str, path: str = "") -> Issue:
    """The warning for a file (or a request's ``datasets``, at ``path``) holding no records."""
    return Issue(
        "warning",
        file,
        None,
        path,
        "the file holds no conversations",
        None,
        f"check that this is the right file; it should hold {FORMATS}",
    )
