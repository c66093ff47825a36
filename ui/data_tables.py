"""The Data page's tables: the validation report (errors, warnings, notes) and the preview's columns.

Renders only: which issues go where and their sentences come from :mod:`ui.views.data_view`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from agentic_core.io import LoadReport
from ui import views
from ui.format import md_text

ISSUE_CONFIG = {
    "file": st.column_config.TextColumn("File", width="small"),
    "record": st.column_config.NumberColumn(
        "Record", help="0-based index of the record in its file", format="%d", width="small"
    ),
    "line": st.column_config.NumberColumn("Line", help="1-based line in the file", format="%d", width="small"),
    "column": st.column_config.NumberColumn("Column", format="%d", width="small"),
    "session_id": st.column_config.TextColumn("session_id", width="small"),
    "path": st.column_config.TextColumn("JSON path", help="Where inside the record"),
    "rule": st.column_config.TextColumn("What is wrong", width="medium"),
    "value": st.column_config.TextColumn("Value found", width="small"),
    "fix": st.column_config.TextColumn("How to fix it", width="large"),
}
# A note is nothing wrong: "What is wrong" over "read as tau-bench results" misled.
NOTE_CONFIG = {
    **ISSUE_CONFIG,
    "rule": st.column_config.TextColumn("Note", width="medium"),
    "fix": st.column_config.TextColumn("What you can do", width="large"),
}
PREVIEW_CONFIG = {
    "task_key": st.column_config.TextColumn(
        "task key", help="task_id, or the conversation's question ids: attempts at one task share it"
    ),
    "interactions": st.column_config.NumberColumn("#interactions"),
    "tool_calls": st.column_config.NumberColumn("tool calls made"),
    "expected_tool_calls": st.column_config.NumberColumn("tool calls expected"),
    "scored": st.column_config.NumberColumn(
        "with own score", help="Interactions with a 'score' field (needed by the dataset judge)"
    ),
}


def keyed_table(frame: pd.DataFrame, key: str, **kwargs: Any) -> None:
    """A table in a keyed container (a table's own key is only used for selections)."""
    with st.container(key=key):
        st.dataframe(frame, **kwargs)


def _issue_table(frame: pd.DataFrame, key: str, *, notes: bool = False) -> None:
    config = NOTE_CONFIG if notes else ISSUE_CONFIG
    keyed_table(frame[views.issue_columns(frame)], key, hide_index=True, column_config=config)


def _full_text(frame: pd.DataFrame, what: str) -> None:
    """The first issues in full sentences (a table cell cuts long text), in a closed expander."""
    with st.expander(views.sentences_title(what, len(frame))):
        for line in views.issue_sentences(frame):
            st.markdown(line)


def show_report(name: str, report: LoadReport, issues: pd.DataFrame) -> None:
    """The validation report of a load: its summary, then errors, warnings and notes, each where it belongs.

    Args:
        name: The load's name.
        report: Its report.
        issues: ``report.to_frame()`` (memoised by the page).
    """
    st.subheader("Validation report")
    st.caption(f"{md_text(name)}: {md_text(report.summary())}")
    groups = views.issue_groups(issues)
    if groups.clean:
        st.success("No problems found: every record is valid.")
    if not groups.errors.empty:
        st.error(
            f"**{len(groups.errors)} error(s)** — the records below were **skipped**; every valid record was loaded "
            "unchanged. Each row names the file, record, line, JSON path, what is wrong and how to fix it."
        )
        _issue_table(groups.errors, "report_errors")
        if report.skipped:
            # One table: every skipped record's problems are rows of the errors table above.
            st.caption(f"{len(report.skipped):,} record(s) skipped; each one's problems are rows of the table above.")
        _full_text(groups.errors, "errors")
    if not groups.warnings.empty:
        st.warning(
            f"**{len(groups.warnings)} warning(s)** — these records were loaded, but probably not as meant "
            "(for example a misspelt key: kept, but not used)."
        )
        _issue_table(groups.warnings, "report_warnings")
        _full_text(groups.warnings, "warnings")
    if not groups.notes.empty:
        with st.expander(f"{len(groups.notes)} note(s)"):
            _issue_table(groups.notes, "report_notes", notes=True)
