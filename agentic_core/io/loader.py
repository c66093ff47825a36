"""Load conversation files into validated :class:`~agentic_core.schemas.Conversation` models.

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

Speed: validation runs over chunks of records with one pydantic ``TypeAdapter`` call each
(per-record ``model_validate`` is several times slower); a chunk that fails is split into its
failing records (explained one by one from the errors already at hand) and the rest
(validated again in one call). The cyclic garbage collector is paused while loading, because
the millions of short-lived containers a large file creates would otherwise trigger it over
and over (it more than doubles the load time) while there is no garbage cycle to find.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from agentic_core.errors import show_value
from agentic_core.gc_control import gc_paused, trim_memory
from agentic_core.io.conversation_store import ConversationStore
from agentic_core.io.explain import explain_validation_error
from agentic_core.io.importers import DEFAULT_FORMAT, check_format, import_parsed
from agentic_core.io.importers.common import relocate
from agentic_core.io.load_report import Issue, LoadReport, SkippedRecord
from agentic_core.io.parse import from_document, parse
from agentic_core.io.parsed import UNPARSABLE, Parsed
from agentic_core.io.record_checks import check_records
from agentic_core.io.render import join_path
from agentic_core.io.unknown_keys import iter_model_extras, iter_raw_extras, unknown_key_fix, unknown_key_rule
from agentic_core.schemas import Conversation

__all__ = [
    "DuplicateKey",
    "Issue",
    "LoadReport",
    "SkippedRecord",
    "load_bytes",
    "load_many",
    "load_paths",
    "load_records",
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

# Validation is strict (``strict=True`` at every call): parsed JSON already has the right types,
# and lax mode would convert "0.5" into a score or 1.0 into a step silently, while loaded data
# must stay exactly as written.
_ADAPTER: TypeAdapter[list[Conversation]] = TypeAdapter(list[Conversation])
_CHUNK = 1024
_TRIM_FROM = 10_000  # records: a load this large frees hundreds of MB along the way

LineOf = Callable[[int], "int | None"]
_First = tuple[str, int, LineOf, str]


def _unknown_key_issue(
    name: str, index: int, base: str, model: type[BaseModel], key: str, line: int | None, session_id: str | None
) -> Issue:
    """The warning for an unknown key (from a rejected raw record or an accepted model alike)."""
    return Issue(
        "warning",
        name,
        index,
        join_path(base, key),
        unknown_key_rule(key),
        None,
        unknown_key_fix(model, key),
        line,
        None,
        session_id,
    )


class _Loader:
    """Accumulates one :class:`LoadReport` over several files (duplicates are checked across all)."""

    def __init__(self, duplicate_key: DuplicateKey, fmt: str = DEFAULT_FORMAT) -> None:
        self._format = check_format(fmt)
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
        try:
            data = Path(path).read_bytes()
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
        parsed = parse(name, data, lazy=True)
        del data  # the parsed records are all that is needed now (memory: ~ the file's size)
        self._add_parsed(name, parsed, owned=True)

    def add_bytes(self, name: str, data: bytes) -> None:
        self._add_parsed(name, parse(name, data, lazy=True), owned=True)

    def add_records(self, name: str, records: Any) -> None:
        # A copy of the list: records that fail a check are replaced in it, never in the caller's.
        doc = list(records) if isinstance(records, (list, ConversationStore)) else records
        self._add_parsed(name, from_document(name, doc), owned=False)

    def finish(self) -> LoadReport:
        """The report, once every file is loaded (memory freed meanwhile handed back when it was a lot)."""
        if self.report.n_records >= _TRIM_FROM:
            trim_memory()
        return self.report

    def _file_error(self, name: str, rule: str, fix: str) -> None:
        self.report.files.append(name)
        self.report.issues.append(Issue("error", name, None, "", rule, None, fix))

    # -- records ---------------------------------------------------------------------------

    def _add_parsed(self, name: str, parsed: Parsed, *, owned: bool) -> None:
        # Another format's records become seed records here; a seed file comes back as it is.
        parsed = import_parsed(name, parsed, self._format)
        report = self.report
        report.files.append(name)
        records = parsed.records
        report.n_records += len(records)
        issues: list[Issue] = []
        skipped: list[SkippedRecord] = []
        self._stream(name, parsed, owned, issues, skipped)
        parsed.release()

        issues.extend(parsed.record_issues)
        if parsed.origins is not None:
            issues, skipped = relocate(issues, skipped, parsed.origins)
        issues.sort(key=lambda i: -1 if i.record is None else i.record)
        skipped.sort(key=lambda s: s.record)
        report.issues.extend(parsed.issues)
        report.issues.extend(issues)
        report.skipped.extend(skipped)

    def _stream(
        self, name: str, parsed: Parsed, owned: bool, issues: list[Issue], skipped: list[SkippedRecord]
    ) -> None:
        """Chunk by chunk, in file order: parse (JSON Lines are read lazily), report lines that are not
        JSON, check, validate, keep. Issues are sorted by record afterwards, so the report is the same
        as if each step had run over the whole file at once."""
        records, lines, line_of = parsed.records, parsed.lines, parsed.line_of
        # Records kept as JSON text: the line itself (JSON Lines, parsed by orjson), else the
        # record re-serialised when orjson parsed the bytes this load owns (an exact round trip).
        exact = owned and not parsed.stdlib
        for start in range(0, len(records), _CHUNK):
            stop = min(start + _CHUNK, len(records))
            parsed.parse_until(stop)
            for index in range(start, stop):
                issue = parsed.record_errors.get(index)
                if issue is not None:
                    issues.append(issue)
                    skipped.append(SkippedRecord(name, index, issue.line, None, issue.message(with_place=False)))
            check_records(name, parsed, owned, issues, skipped, start, stop)
            ids = [i for i in range(start, stop) if records[i] is not UNPARSABLE]
            chunk = [records[i] for i in ids]
            for index, conv in self._validate_chunk(name, ids, chunk, line_of, issues, skipped):
                raw: Any = lines[index] if lines is not None else records[index] if exact else None
                self._accept(name, index, conv, line_of, issues, skipped, raw)
            if owned:
                # Drop the raw dicts (and JSON lines) as soon as their models exist: peak memory is
                # then about one copy of the data, not two.
                for i in ids:
                    records[i] = None
                if lines is not None:
                    lines[start:stop] = [None] * (stop - start)

    def _validate_chunk(
        self,
        name: str,
        ids: list[int],
        chunk: list[Any],
        line_of: LineOf,
        issues: list[Issue],
        skipped: list[SkippedRecord],
    ) -> list[tuple[int, Conversation]]:
        """Validate a chunk; report its invalid records; return ``(index, model)`` of the valid ones."""
        try:
            return list(zip(ids, _ADAPTER.validate_python(chunk, strict=True), strict=True))
        except ValidationError as err:
            errors = err.errors(include_url=False)
        by_position: dict[int, list[ErrorDetails]] = {}
        for error in errors:
            position = error["loc"][0]
            assert isinstance(position, int)  # the first location of a list[...] error is its index
            by_position.setdefault(position, []).append(error)
        good = [p for p in range(len(chunk)) if p not in by_position]
        try:
            models = _ADAPTER.validate_python([chunk[p] for p in good], strict=True)
            valid = [(ids[p], m) for p, m in zip(good, models, strict=True)]
        except ValidationError:
            # Cannot happen for independent records; validate one by one rather than lose any.
            valid = []
            for p in good:
                try:
                    valid.append((ids[p], _ADAPTER.validate_python([chunk[p]], strict=True)[0]))
                except ValidationError as single:
                    by_position[p] = single.errors(include_url=False)
        for position in sorted(by_position):
            self._reject(
                name, ids[position], chunk[position], by_position[position], line_of, issues, skipped
            )
        return sorted(valid, key=lambda pair: pair[0])

    def _reject(
        self,
        name: str,
        index: int,
        raw: Any,
        errors: list[ErrorDetails],
        line_of: LineOf,
        issues: list[Issue],
        skipped: list[SkippedRecord],
    ) -> None:
        session = raw.get("session_id") if isinstance(raw, dict) else None
        session_id = session if isinstance(session, str) else None
        line = line_of(index)
        first: Issue | None = None
        for error in errors:
            why = explain_validation_error(error, tuple(error["loc"][1:]))
            issue = Issue(
                "error", name, index, why.path, why.rule, why.value, why.fix, line, None, session_id
            )
            issues.append(issue)
            first = first or issue
        for base, model, key in iter_raw_extras(raw):
            issues.append(_unknown_key_issue(name, index, base, model, key, line, session_id))
        assert first is not None  # a record is rejected only with at least one error
        skipped.append(SkippedRecord(name, index, line, session_id, first.message(with_place=False)))

    def _accept(
        self,
        name: str,
        index: int,
        conv: Conversation,
        line_of: LineOf,
        issues: list[Issue],
        skipped: list[SkippedRecord],
        raw: Any = None,
    ) -> None:
        session_id = conv.session_id
        extras = list(iter_model_extras(conv))
        line = line_of(index) if extras else None
        for base, model, key in extras:
            issues.append(_unknown_key_issue(name, index, base, model, key, line, session_id))

        error: Issue | None = None
        unique: object = (session_id, conv.assistant_id) if self._by_assistant else session_id
        first = self._seen.get(unique)
        if not session_id.strip():
            error = Issue(
                "error",
                name,
                index,
                "session_id",
                "must not be blank",
                show_value(session_id),
                "give each conversation a unique, non-empty session_id",
                line_of(index),
                None,
                session_id,
            )
        elif first is not None:
            error = self._duplicate(name, index, conv, first, line_of)
        if error is not None:
            issues.append(error)
            skipped.append(
                SkippedRecord(name, index, error.line, session_id, error.message(with_place=False))
            )
            return
        self._seen[unique] = (name, index, line_of, conv.assistant_id)
        self.report.conversations.append(conv, raw)

    def _duplicate(self, name: str, index: int, conv: Conversation, first: _First, line_of: LineOf) -> Issue:
        first_file, first_index, first_line_of, previous = first
        first_line = first_line_of(first_index)
        where = f"{first_file} record {first_index}" + (f" (line {first_line})" if first_line else "")
        what = "session_id and assistant_id" if self._by_assistant else "session_id"
        fix = (
            "give each conversation its own session_id (repeated attempts at one task share a task_id "
            "instead); if the same data was loaded twice, load it once"
        )
        if previous != conv.assistant_id:
            fix = (
                f"the two differ in assistant_id ({show_value(previous)} and "
                f"{show_value(conv.assistant_id)}), "
                "so they look like repeated attempts at one task: give each its own session_id and the "
                "same task_id"
            )
        return Issue(
            "error",
            name,
            index,
            "session_id",
            f"duplicate {what}; the first occurrence is {where}",
            show_value(conv.session_id),
            fix,
            line_of(index),
            None,
            conv.session_id,
        )


def load_paths(
    paths: Sequence[str | Path], *, duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY, format: str = DEFAULT_FORMAT
) -> LoadReport:
    """Load conversation files from disk.

    Args:
        paths: Files to read, in order (JSON array, one conversation, a ``{"datasets": [...]}``
            request, or JSON Lines; detected by content).
        duplicate_key: What must be unique across all files (see :data:`DuplicateKey`).
        format: ``auto`` (the default: each file's format is detected from its content), ``seed``,
            ``openai``, ``ragas``, ``tau-bench`` or ``inspect`` (see
            :data:`~agentic_core.io.importers.FORMAT_CHOICES`).

    Returns:
        The report: valid conversations in file order, and every issue. A file that cannot be
        read is an error issue, not an exception.

    Raises:
        SettingsError: ``format`` is not a known format name.
    """
    loader = _Loader(duplicate_key, format)
    with gc_paused(promote=True):
        for path in paths:
            loader.add_path(path)
    return loader.finish()


def load_bytes(
    name: str, data: bytes, *, duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY, format: str = DEFAULT_FORMAT
) -> LoadReport:
    """Load one file's content (a browser upload).

    Args:
        name: The file name, used in messages.
        data: The file's bytes (UTF-8, byte-order mark tolerated).
        duplicate_key: What must be unique (see :data:`DuplicateKey`).
        format: ``auto`` (the default: each file's format is detected from its content), ``seed``,
            ``openai``, ``ragas``, ``tau-bench`` or ``inspect`` (see
            :data:`~agentic_core.io.importers.FORMAT_CHOICES`).

    Returns:
        The report for this file.

    Raises:
        SettingsError: ``format`` is not a known format name.
    """
    return load_many([(name, data)], duplicate_key=duplicate_key, format=format)


def load_many(
    named: Sequence[tuple[str, bytes]],
    *,
    duplicate_key: DuplicateKey = DEFAULT_DUPLICATE_KEY,
    format: str = DEFAULT_FORMAT,
) -> LoadReport:
    """Load several uploaded files at once; duplicate session ids are checked across all of them.

    Args:
        named: ``(file name, bytes)`` pairs, in order.
        duplicate_key: What must be unique across all files (see :data:`DuplicateKey`).
        format: ``auto`` (the default: each file's format is detected from its content), ``seed``,
            ``openai``, ``ragas``, ``tau-bench`` or ``inspect`` (see
            :data:`~agentic_core.io.importers.FORMAT_CHOICES`).

    Returns:
        One report covering every file.

    Raises:
        SettingsError: ``format`` is not a known format name.
    """
    loader = _Loader(duplicate_key, format)
    with gc_paused(promote=True):
        for name, data in named:
            # Tolerate text and bytearray / memoryview from upload widgets.
            loader.add_bytes(name, data.encode() if isinstance(data, str) else bytes(data))
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
