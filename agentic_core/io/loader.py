"""Load conversation files into validated :class:`~agentic_core.data.schemas.Conversation` models.

This package is the only code that reads data files. Every problem is reported as an
:class:`~agentic_core.io.load_report.Issue` with its place (file, record, line, JSON path), the rule,
the value and the fix; an invalid record is skipped and listed, never dropped silently, and
the valid records of the same file are still loaded, unaltered and in file order.

Formats are detected by content, not by file extension: a JSON array of conversations, one
conversation object, a seed-001 request ``{"datasets": [...], ...}`` or JSON Lines. See
:mod:`agentic_core.io.parse`. Records in another agent-trace format (OpenAI chat traces, Ragas
samples, tau-bench results, Inspect AI logs) are detected from their first records and mapped to
the seed format by :mod:`agentic_core.io.importers` before validation; every issue then names the
place in the original record. ``format`` forces one format
(:data:`~agentic_core.io.importers.FORMAT_CHOICES`).

Streaming: JSON Lines are parsed chunk by chunk as validation reaches them, each chunk's raw
records are dropped once validated, and the valid ones are kept as compressed JSON text plus the
columns evaluation reads (:mod:`agentic_core.io.conversation_store`), so a large file is never
held as Python objects all at once.

Speed: every record goes through its own checks chunk by chunk, one pydantic call per chunk
(:mod:`agentic_core.io.record_stream`); a large JSON Lines file is cut into pieces checked by
forked worker processes, on every core (:mod:`agentic_core.io.load_pieces`), and this module
merges them with the duplicate check that spans pieces and files. The cyclic garbage collector
is paused while loading, because the millions of short-lived containers a large file creates
would otherwise trigger it over and over (it more than doubles the load time) while there is no
garbage cycle to find.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from agentic_core.common.gc_control import gc_paused, trim_memory
from agentic_core.data.schemas import Conversation
from agentic_core.errors import show_value
from agentic_core.io.bounded_read import UnreadableFile, max_file_mb, read_data_file
from agentic_core.io.conversation_store import ConversationStore
from agentic_core.io.importers import DEFAULT_FORMAT, check_format, import_parsed
from agentic_core.io.importers.common import relocate
from agentic_core.io.load_pieces import PiecePool, PieceSettings, load_in_pieces, plan
from agentic_core.io.load_report import Issue, LoadReport, SkippedRecord
from agentic_core.io.otel_stream import STREAM_FROM, is_one_otlp_document, streamed_otlp, streamed_otlp_file
from agentic_core.io.parse import from_document, parse
from agentic_core.io.parsed import Parsed
from agentic_core.io.record_stream import LineOf, stream_records
from agentic_core.io.span_lines import is_span_lines, span_lines, span_lines_file
from agentic_core.io.task_conflicts import ground_truth_conflicts

__all__ = [
    "DuplicateKey",
    "Issue",
    "LoadReport",
    "SkippedRecord",
    "load_bytes",
    "load_many",
    "load_paths",
    "load_records",
    "paths_of",
]

DuplicateKey = Literal["session_id", "session_id+assistant_id"]
# The seed-000 notebook dataset gives every attempt the same session_id and tells them apart by
# assistant_id, so the pair is the default identity; "session_id" alone is the stricter option.
DEFAULT_DUPLICATE_KEY: DuplicateKey = "session_id+assistant_id"
"""What must be unique across everything loaded at once.

``session_id+assistant_id`` (the default) accepts files that reuse one session id for several
agents' attempts (the seed-000 notebook data does this) and still catches a file loaded twice.
``session_id`` alone is the stricter reading of the seed documentation.
"""

_TRIM_FROM = 10_000  # records: a load this large frees hundreds of MB along the way

_First = tuple[str, int, LineOf, str]


class _Loader:
    """Accumulates one :class:`LoadReport` over several files (duplicates are checked across all)."""

    def __init__(
        self,
        duplicate_key: DuplicateKey,
        fmt: str = DEFAULT_FORMAT,
        pieces: PieceSettings | None = None,
        pool: PiecePool | None = None,
    ) -> None:
        self._format = check_format(fmt)
        self._pool = pool or PiecePool(pieces or PieceSettings(workers=1))
        if duplicate_key not in ("session_id", "session_id+assistant_id"):
            raise ValueError(
                f"duplicate_key must be 'session_id' or 'session_id+assistant_id', not {duplicate_key!r}"
            )
        self.report = LoadReport()
        self._by_assistant = duplicate_key == "session_id+assistant_id"
        # duplicate key -> first occurrence: (file, record index, line lookup of that file, assistant_id)
        self._seen: dict[object, _First] = {}

    # -- files -----------------------------------------------------------------------------

    def add_path(self, path: str | Path) -> None:
        name = str(path)
        # A large OpenTelemetry export (one OTLP document, or JSON lines of spans or of documents) is read span by
        # span, or line by line, from the disk: its bytes are never held.
        streamed = streamed_otlp_file(path, max_file_mb()) or span_lines_file(path, max_file_mb())
        if streamed is not None:
            self._add_parsed(name, streamed, owned=True)
            return
        try:
            data = read_data_file(path)
        except UnreadableFile as err:
            self._file_error(name, err.what, err.fix)
            return
        except FileNotFoundError:
            self._file_error(
                name, "file not found", f"check the path (relative paths start from {Path.cwd()})"
            )
            return
        except IsADirectoryError:
            self._file_error(name, "is a directory, not a file", "give the data files inside it")
            return
        except PermissionError:
            self._file_error(name, "cannot be read (permission denied)", "check the file's permissions")
            return
        except OSError as err:
            self._file_error(name, f"cannot be read: {err.strerror or err}", "check the path and the disk")
            return
        self._add_data(name, data)

    def add_bytes(self, name: str, data: bytes) -> None:
        self._add_data(name, data)

    def _add_data(self, name: str, data: bytes) -> None:
        if len(data) >= STREAM_FROM and is_span_lines(io.BytesIO(data)):
            # A large OpenTelemetry upload: one OTLP document is streamed span by span, JSON lines of spans (or of
            # documents) are read a line at a time; never parsed whole, never split into a second copy. (One scan
            # tells the two apart; the parser would scan again.)
            parsed = streamed_otlp(data) if is_one_otlp_document(data) else span_lines(name, data)
            self._add_parsed(name, parsed, owned=True)
            return
        pieces = plan(self._pool, name, data, self._format)
        if pieces is not None:
            self.report.files.append(name)
            self.report.formats[name] = "seed"  # only seed files are loaded in pieces
            n, issues, skipped = load_in_pieces(
                self._pool, name, data, pieces, self.report.conversations, self._unique
            )
            self.report.n_records += n
            self._add_issues(issues, skipped)
            return
        parsed = parse(name, data, lazy=True)
        del data  # the parsed records are all that is needed now (memory: ~ the file's size)
        self._add_parsed(name, parsed, owned=True)

    def add_records(self, name: str, records: Any) -> None:
        # A copy of the list: records that fail a check are replaced in it, never in the caller's.
        doc = list(records) if isinstance(records, (list, ConversationStore)) else records
        self._add_parsed(name, from_document(name, doc), owned=False)

    def close(self) -> None:
        """Stop the load's worker processes, if any were started."""
        self._pool.close()

    def finish(self) -> LoadReport:
        """The report, once every file is loaded (memory freed meanwhile handed back when it was a lot)."""
        self.close()
        if self.report.conversations:
            files = self.report.files
            place = files[0] if len(files) == 1 else "the loaded files"
            conflict = ground_truth_conflicts(self.report.conversations.columns, place)
            if conflict is not None:
                self.report.issues.append(conflict)
        if self.report.n_records >= _TRIM_FROM:
            trim_memory()
        return self.report

    def _file_error(self, name: str, rule: str, fix: str) -> None:
        self.report.files.append(name)
        self.report.issues.append(Issue("error", name, None, "", rule, None, fix))

    # -- records ---------------------------------------------------------------------------

    def _add_parsed(self, name: str, parsed: Parsed, *, owned: bool) -> None:
        source = parsed
        try:
            # Another format's records become seed records here; a seed file comes back as it is.
            parsed = import_parsed(name, parsed, self._format)
            report = self.report
            report.files.append(name)
            report.formats[name] = parsed.imported_as
            records = parsed.records
            report.n_records += len(records)
            issues: list[Issue] = []
            skipped: list[SkippedRecord] = []
            self._stream(name, parsed, owned, issues, skipped)
        finally:
            # Also when a step fails half-way: a file still open, the spans waiting on the disk, go now.
            parsed.release()
            source.release()

        issues.extend(parsed.record_issues)
        if parsed.origins is not None:
            issues, skipped = relocate(issues, skipped, parsed.origins)
        report.issues.extend(parsed.issues)
        self._add_issues(issues, skipped)

    def _add_issues(self, issues: list[Issue], skipped: list[SkippedRecord]) -> None:
        """A file's record issues and skipped records, in record order (each step found its own)."""
        issues.sort(key=lambda i: -1 if i.record is None else i.record)
        skipped.sort(key=lambda s: s.record)
        self.report.issues.extend(issues)
        self.report.skipped.extend(skipped)

    def _stream(
        self, name: str, parsed: Parsed, owned: bool, issues: list[Issue], skipped: list[SkippedRecord]
    ) -> None:
        """Every record through its own checks (:func:`stream_records`), then the duplicate check."""
        store = self.report.conversations
        line_of = parsed.line_of

        def keep(index: int, conv: Conversation, raw: Any) -> None:
            if self._unique(name, index, conv.session_id, conv.assistant_id, line_of, issues, skipped):
                store.append(conv, raw)

        stream_records(name, parsed, owned, issues, skipped, keep)

    def _unique(
        self,
        name: str,
        index: int,
        session_id: str,
        assistant_id: str,
        line_of: LineOf,
        issues: list[Issue],
        skipped: list[SkippedRecord],
    ) -> bool:
        """Whether a record is the first with its identity so far (else it is reported and skipped)."""
        unique: object = (session_id, assistant_id) if self._by_assistant else session_id
        first = self._seen.get(unique)
        if first is None:
            self._seen[unique] = (name, index, line_of, assistant_id)
            return True
        error = self._duplicate(name, index, session_id, assistant_id, first, line_of)
        issues.append(error)
        skipped.append(SkippedRecord(name, index, error.line, session_id, error.message(with_place=False)))
        return False

    def _duplicate(
        self, name: str, index: int, session_id: str, assistant_id: str, first: _First, line_of: LineOf
    ) -> Issue:
        first_file, first_index, first_line_of, previous = first
        first_line = first_line_of(first_index)
        where = f"{first_file} record {first_index}" + (f" (line {first_line})" if first_line else "")
        what = "session_id and assistant_id" if self._by_assistant else "session_id"
        fix = (
            "give each conversation its own session_id (repeated attempts at one task share a task_id "
            "instead); if the same data was loaded twice, load it once"
        )
        if previous != assistant_id:
            fix = (
                f"the two differ in assistant_id ({show_value(previous)} and "
                f"{show_value(assistant_id)}), "
                "so they look like repeated attempts at one task: give each its own session_id and the "
                "same task_id"
            )
        return Issue(
            "error",
            name,
            index,
            "session_id",
            f"duplicate {what}; the first occurrence is {where}",
            show_value(session_id),
            fix,
            line_of(index),
            None,
            session_id,
        )


def paths_of(data: object) -> list[str | Path] | None:
    """``data`` as a list of file paths when it is one path or a non-empty sequence of them, else ``None``.

    How ``evaluate`` (either engine) tells files to load from conversations or a load report.
    """
    if isinstance(data, (str, Path)):
        return [data]
    if isinstance(data, Sequence) and data and all(isinstance(d, (str, Path)) for d in data):
        return list(data)
    return None


def load_paths(
    paths: Sequence[str | Path],
    *,
    duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY,
    format: str = DEFAULT_FORMAT,
    workers: int | None = None,
    pool: PiecePool | None = None,
) -> LoadReport:
    """Load conversation files from disk.

    Args:
        paths: Files to read, in order (JSON array, one conversation, a ``{"datasets": [...]}``
            request, or JSON Lines; detected by content).
        duplicate_key: What must be unique across all files (see :data:`DuplicateKey`).
        format: ``auto`` (the default: each file's format is detected from its content), ``seed``,
            ``openai``, ``ragas``, ``tau-bench`` or ``inspect`` (see
            :data:`~agentic_core.io.importers.FORMAT_CHOICES`).
        workers: Worker processes for large JSON Lines files (see :mod:`agentic_core.io.load_pieces`):
            ``None`` (the default) reads ``AGENTIC_LOAD_WORKERS``, else uses every core this
            process may use; ``1`` loads in this process. The result is the same either way.
        pool: Where pieces of large files are checked, instead of forked workers (the Ray engine
            passes :class:`~agentic_core.engines.ray_load.RayPiecePool`); ``workers`` is then unused.

    Returns:
        The report: valid conversations in file order, and every issue. A file that cannot be
        read is an error issue, not an exception.

    Raises:
        SettingsError: ``format`` is not a known format name, or ``workers`` is negative.
    """
    loader = _Loader(duplicate_key, format, None if pool else PieceSettings.automatic(workers), pool)
    try:
        with gc_paused(promote=True):
            for path in paths:
                loader.add_path(path)
    finally:
        loader.close()
    return loader.finish()


def load_bytes(
    name: str,
    data: bytes,
    *,
    duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY,
    format: str = DEFAULT_FORMAT,
    workers: int | None = None,
) -> LoadReport:
    """Load one file's content (a browser upload): :func:`load_many` of one file.

    Args:
        name: The file name, used in messages.
        data: The file's bytes (UTF-8, byte-order mark tolerated).
        duplicate_key: What must be unique (see :data:`DuplicateKey`).
        format: The file's format, as for :func:`load_many`.
        workers: Worker processes, as for :func:`load_many`.

    Returns:
        The report for this file.

    Raises:
        SettingsError: as for :func:`load_many`.
    """
    return load_many([(name, data)], duplicate_key=duplicate_key, format=format, workers=workers)


def load_many(
    named: Sequence[tuple[str, bytes]],
    *,
    duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY,
    format: str = DEFAULT_FORMAT,
    workers: int | None = None,
) -> LoadReport:
    """Load several uploaded files at once; duplicate session ids are checked across all of them.

    Args:
        named: ``(file name, bytes)`` pairs, in order.
        duplicate_key: What must be unique across all files (see :data:`DuplicateKey`).
        format: ``auto`` (the default: each file's format is detected from its content), ``seed``,
            ``openai``, ``ragas``, ``tau-bench`` or ``inspect`` (see
            :data:`~agentic_core.io.importers.FORMAT_CHOICES`).
        workers: Worker processes for large JSON Lines files (``None``: automatic; see
            :func:`load_paths`).

    Returns:
        One report covering every file.

    Raises:
        SettingsError: ``format`` is not a known format name, or ``workers`` is negative.
    """
    loader = _Loader(duplicate_key, format, PieceSettings.automatic(workers))
    try:
        with gc_paused(promote=True):
            for name, data in named:
                # Tolerate text and bytearray / memoryview from upload widgets.
                loader.add_bytes(name, data.encode() if isinstance(data, str) else bytes(data))
    finally:
        loader.close()
    return loader.finish()


def load_records(
    records: list[Any],
    source: str = "<memory>",
    *,
    duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY,
    format: str = DEFAULT_FORMAT,
) -> LoadReport:
    """Validate records that are already parsed (e.g. built in Python or read by an importer).

    Args:
        records: Conversation dicts (or :class:`Conversation` models). A single conversation dict
            or a ``{"datasets": [...]}`` request dict is accepted too; so are the records of the
            other formats (OpenAI traces, Ragas samples, tau-bench trials, an Inspect log).
        source: The name used as "file" in messages.
        duplicate_key: What must be unique (see :data:`DuplicateKey`).
        format: ``auto`` (the default: each file's format is detected from its content), ``seed``,
            ``openai``, ``ragas``, ``tau-bench`` or ``inspect`` (see
            :data:`~agentic_core.io.importers.FORMAT_CHOICES`).

    Returns:
        The report. ``records`` itself is not modified.

    Raises:
        SettingsError: ``format`` is not a known format name.
    """
    loader = _Loader(duplicate_key, format)
    with gc_paused(promote=True):
        loader.add_records(source, records)
    return loader.report
