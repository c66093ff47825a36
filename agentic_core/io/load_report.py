"""What a load produced: the valid conversations and every problem found, with its place.

An :class:`Issue` names the place (file, record, line, JSON path), the rule that was broken,
the offending value (a shortened, secret-redacted repr) and the fix, like
:class:`~agentic_core.errors.AgenticError`. A :class:`LoadReport` collects them for one load
of one or more files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from agentic_core.common.wording import plural
from agentic_core.errors import DataError
from agentic_core.io.conversation_store import ConversationStore

if TYPE_CHECKING:  # pandas is imported lazily: loading must not pay for it
    import pandas as pd

Severity = Literal["error", "warning", "info"]

_FRAME_COLUMNS = (
    "severity",
    "file",
    "record",
    "line",
    "column",
    "session_id",
    "path",
    "rule",
    "value",
    "fix",
    "message",
)


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem (or note) found while loading.

    Attributes:
        severity: ``error`` (the record or file was skipped), ``warning`` (loaded, but
            probably not what was meant, e.g. an unknown key) or ``info`` (a note, e.g. the
            ignored keys of a request object).
        file: The file name as given.
        record: 0-based index of the record in the file (``None`` for file-level issues).
        path: JSON path inside the record, e.g. ``conversation[2].agentic.final_answer_uses_tools``
            (empty when the issue is about the whole record or file).
        rule: The requirement that was broken, e.g. ``must be a number in [0, 1]``.
        value: Shortened repr of the offending value, or ``None`` when there is none to show.
        fix: What to do about it.
        line: 1-based line number of the record (JSON Lines; pretty-printed JSON when known) or
            of a syntax error.
        column: 1-based column of a syntax error.
        session_id: The record's session id when it could be read.
    """

    severity: Severity
    file: str
    record: int | None
    path: str
    rule: str
    value: str | None = None
    fix: str = ""
    line: int | None = None
    column: int | None = None
    session_id: str | None = None

    @property
    def place(self) -> str:
        """Where the issue is: ``"data.jsonl record 3 (line 4), conversation[2].score"``."""
        where = self.file
        position = ""
        if self.line is not None:
            position = f"line {self.line}"
            if self.column is not None:
                position += f", column {self.column}"
        if self.record is not None:
            where += f" record {self.record}"
            if position:
                where += f" ({position})"
        elif position:
            where += f" {position}"
        if self.path:
            where += f", {self.path}"
        return where

    def message(self, *, with_place: bool = True, with_fix: bool = True) -> str:
        """Render the issue as one sentence: place, rule, value and fix.

        Args:
            with_place: Start with the file / record / line (set to false where those are
                shown separately); the JSON path is always kept.
            with_fix: End with the fix (set to false where the sentence is quoted inside a
                message that gives its own, so "Fix:" is said once).

        Returns:
            For example ``"data.jsonl record 3 (line 4), conversation[2].score: must be a number
            in [0, 1] (got 1.5). Fix: rescale scores to [0, 1] ..."``.
        """
        place = self.place if with_place else self.path
        text = f"{place}: {self.rule}" if place else self.rule
        if self.value is not None:
            text += f" (got {self.value})"
        if self.fix and with_fix:
            text += f". Fix: {self.fix}"
        return text


def file_error(
    file: str, rule: str, fix: str, *, path: str = "", value: str | None = None,
    line: int | None = None, column: int | None = None,
) -> Issue:
    """An error about a file as a whole (no record): it was not read, or not all of it.

    Args:
        file: The file name as given.
        rule: The requirement that was broken.
        fix: What to do about it.
        path: The JSON path inside the file's document, when the error is about one key.
        value: Shortened repr of the offending value, when there is one to show.
        line: 1-based line of a syntax error.
        column: 1-based column of a syntax error.

    Returns:
        The issue, with severity ``error`` and no record.
    """
    return Issue("error", file, None, path, rule, value, fix, line, column)


@dataclass(frozen=True, slots=True)
class SkippedRecord:
    """A record that was not loaded.

    Attributes:
        file: The file name as given.
        record: 0-based index of the record in the file.
        line: 1-based line of the record when known.
        session_id: The record's ``session_id`` when it could be read.
        message: The first error found in the record (without the file / record prefix).
    """

    file: str
    record: int
    line: int | None
    session_id: str | None
    message: str


@dataclass
class LoadReport:
    """The outcome of loading one or more files.

    Attributes:
        conversations: The valid conversations, in file order, exactly as validated (a read-only
            :class:`~agentic_core.io.conversation_store.ConversationStore`: records kept as JSON
            and validated again when read, with the columns evaluation needs).
        issues: Every error, warning and note, grouped by file in load order and sorted by
            record within a file.
        files: The names of the files read, in order.
        n_records: Records found (array elements, JSON Lines, ``datasets`` items), valid or not.
        skipped: The records that were not loaded, each with its first error.
        formats: The format each file was read as, by file name (``seed`` or an importer's format;
            what :func:`~agentic_core.io.importers.defaults.format_defaults` reads).
    """

    conversations: ConversationStore = field(default_factory=ConversationStore)
    issues: list[Issue] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    n_records: int = 0
    skipped: list[SkippedRecord] = field(default_factory=list)
    formats: dict[str, str] = field(default_factory=dict)

    @property
    def errors(self) -> list[Issue]:
        """Issues of severity ``error``."""
        return [i for i in self.issues if i.severity == "error"]

    @property
    def warnings(self) -> list[Issue]:
        """Issues of severity ``warning``."""
        return [i for i in self.issues if i.severity == "warning"]

    @property
    def notes(self) -> list[Issue]:
        """Issues of severity ``info`` (nothing wrong, but worth knowing)."""
        return [i for i in self.issues if i.severity == "info"]

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings and notes are allowed)."""
        return not any(i.severity == "error" for i in self.issues)

    @property
    def n_interactions(self) -> int:
        """Number of interactions in the loaded conversations."""
        return self.conversations.n_interactions

    def summary(self) -> str:
        """One line for the screen or the CLI.

        Returns:
            For example ``"3 files, 120 records: 118 loaded, 2 skipped (see issues), 4 warnings"``.
            File-level errors (a file that could not be read or parsed) are added at the end.
        """
        n_skipped = len(self.skipped)
        text = (
            f"{plural(len(self.files), 'file')}, {plural(self.n_records, 'record')}: "
            f"{len(self.conversations)} loaded, {n_skipped} skipped"
        )
        if n_skipped:
            text += " (see issues)"
        text += f", {plural(len(self.warnings), 'warning')}"
        file_errors = sum(1 for i in self.issues if i.severity == "error" and i.record is None)
        if file_errors:
            text += f", {plural(file_errors, 'file error')} (see issues)"
        return text

    def raise_if_empty(self) -> LoadReport:
        """Raise when no valid conversation remains; otherwise return the report itself.

        Returns:
            ``self``, so that ``load_paths(p).raise_if_empty().conversations`` reads well.

        Raises:
            DataError: No conversation could be loaded; the message says why (no file, empty
                files, unreadable files, or every record skipped with the first problem) and
                what to do.
        """
        if self.conversations:
            return self
        place = ", ".join(self.files) if self.files else "input"
        first_error = next((i for i in self.issues if i.severity == "error"), None)
        if not self.files:
            why, fix = "no file was given", "choose at least one data file"
        elif self.n_records == 0 and first_error is not None:
            why = f"no file could be read; first problem: {first_error.message(with_fix=False)}"
            fix = first_error.fix or "fix the problem above and load the file again"
        elif self.n_records == 0:
            why = "the files hold no conversations"
            fix = (
                "check that you picked the right file; it should hold a JSON array of conversations, "
                'one conversation object, a {"datasets": [...]} request or JSON Lines'
            )
        else:
            reason = first_error.message(with_fix=False) if first_error is not None else "see the issues"
            why = f"all {plural(self.n_records, 'record')} were skipped; first problem: {reason}"
            fix = "fix the listed errors (each names the record, the field and the fix) and load again"
        raise DataError(place, f"no valid conversation to evaluate: {why}", fix=fix, show=False)

    def to_frame(self) -> pd.DataFrame:
        """The issues as a table for display (one row per issue, empty with columns when none).

        Returns:
            A DataFrame with columns severity, file, record, line, column, session_id, path,
            rule, value, fix and message; record, line and column are nullable integers.
        """
        import pandas as pd

        rows = [
            (
                i.severity,
                i.file,
                i.record,
                i.line,
                i.column,
                i.session_id,
                i.path,
                i.rule,
                i.value,
                i.fix,
                i.message(),
            )
            for i in self.issues
        ]
        frame = pd.DataFrame.from_records(rows, columns=list(_FRAME_COLUMNS))
        for name in ("record", "line", "column"):
            frame[name] = frame[name].astype("Int64")
        return frame
