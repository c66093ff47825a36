"""The Data page's view model: what a load is called, which issues show where, and the sentences around them.

``pages/data.py`` reads its widgets, calls these functions and renders what they return; none of
them needs Streamlit.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import pandas as pd

from agentic_core.io import LoadReport
from ui.format import md_text

ISSUE_COLUMNS = ["file", "record", "line", "column", "session_id", "path", "rule", "value", "fix"]
ALWAYS_SHOWN = ("file", "rule", "fix")


class UploadedName(Protocol):
    """What the view model reads of an uploaded file (Streamlit's UploadedFile has these)."""

    @property
    def file_id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def size(self) -> int: ...


@dataclass
class LastLoad:
    """The most recent load attempt (shown in the report even when nothing could be loaded)."""

    name: str
    report: LoadReport
    loaded: bool
    oversized: list[str] = field(default_factory=list)


def data_name(names: Sequence[str]) -> str:
    """The name of data loaded from ``names``: one file's name, two joined, or the first and how many more."""
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} + {names[1]}"
    return f"{names[0]} + {len(names) - 1} more files"


def upload_signature(fmt: str, files: Sequence[UploadedName], references: UploadedName | None) -> tuple[Hashable, ...]:
    """What identifies an upload: the format too, so choosing another one reads the same files again."""
    return (
        fmt,
        *((f.file_id, f.name, f.size) for f in files),
        None if references is None else (references.file_id, references.name, references.size),
    )


@dataclass(frozen=True)
class IssueGroups:
    """A load's issues split by severity: errors (records skipped), warnings (loaded, probably not as meant), notes."""

    errors: pd.DataFrame
    warnings: pd.DataFrame
    notes: pd.DataFrame

    @property
    def clean(self) -> bool:
        """No error and no warning (notes are nothing wrong)."""
        return self.errors.empty and self.warnings.empty


def issue_groups(frame: pd.DataFrame) -> IssueGroups:
    """Split :meth:`LoadReport.to_frame`'s table by severity."""
    severity = frame["severity"]
    return IssueGroups(frame[severity == "error"], frame[severity == "warning"], frame[severity == "info"])


def issue_columns(frame: pd.DataFrame) -> list[str]:
    """The issue columns to show: file, rule and fix always, the others only where some row has a value.

    Column numbers, for example, exist only for syntax errors; an all-empty column is left out.
    """
    return [c for c in ISSUE_COLUMNS if c in ALWAYS_SHOWN or frame[c].notna().any()]


def issue_sentences(frame: pd.DataFrame, limit: int = 50) -> list[str]:
    """The first ``limit`` issues as Markdown list items (a table cell cuts long text)."""
    lines = []
    for issue in frame.head(limit).itertuples(index=False):
        where = ", ".join(
            f"{name} {value}"
            for name, value in (("record", issue.record), ("line", issue.line), ("at", issue.path))
            if not pd.isna(value) and value != ""
        )
        lines.append(
            f"- **{md_text(issue.file)}**{' (' + md_text(where) + ')' if where else ''}: {md_text(issue.rule)}. "
            f"*Fix:* {md_text(issue.fix)}"
        )
    return lines


def sentences_title(what: str, n: int, limit: int = 50) -> str:
    """The title of the full-sentences expander, saying when only the first ``limit`` are listed."""
    return f"The {what} in full sentences" + (f" (the first {limit})" if n > limit else "")


def active_sentence(name: str, n_conv: int, n_int: int, judged_by: str | None) -> str:
    """The status line of the active data: already judged (by whom) or waiting for a run."""
    if judged_by is not None:
        return (
            f"Active data: **{md_text(name)}** — {n_conv:,} conversations, {n_int:,} interactions. "
            f"It already has a run (judged by {md_text(judged_by)}): its results are on Overview. "
            "Go to Run to judge it again with another judge."
        )
    return f"Loaded {n_conv:,} conversations ({n_int:,} interactions) from **{md_text(name)}** — go to Run to evaluate."


def preview_caption(table: pd.DataFrame) -> str:
    """The totals under the preview table: conversations, interactions, distinct tasks, conversations with tools."""
    return (
        f"{len(table):,} conversations, {int(table['interactions'].sum()):,} interactions, "
        f"{table['task_key'].nunique():,} distinct tasks; {int((table['tool_calls'] > 0).sum()):,} "
        "conversations use tools."
    )
