"""Human labels of a stored run, in their own table: given one at a time, kept the moment they are given.

Labels (:class:`~agentic_core.data.labels.HumanLabel`) change long after the run was judged (the review queue adds
them one by one, from several browser tabs), so like the overrides they live beside the run's document, not in
it: adding one writes one row. A label on the same conversation, assistant and interaction replaces the earlier
one. Schema 3 of the history adds the table; older files get it on upgrade (a read-only older file has none).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from agentic_core.data.labels import HumanLabel

LABELS_TABLE = """
CREATE TABLE IF NOT EXISTS labels (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    assistant_id TEXT NOT NULL,
    qa_id TEXT NOT NULL,
    label INTEGER NOT NULL,
    source TEXT NOT NULL,
    design TEXT NOT NULL,
    inclusion REAL,
    labelled_at REAL NOT NULL,
    PRIMARY KEY (run_id, session_id, assistant_id, qa_id)
);
"""
"""The table of schema 3: a run's human labels ('' stands for an absent assistant_id or qa_id)."""

_COLUMNS = "session_id, assistant_id, qa_id, label, source, design, inclusion, labelled_at"


def insert_labels(conn: sqlite3.Connection, run_id: str, labels: Iterable[HumanLabel]) -> int:
    """Add labels to a run, each replacing an earlier one on the same item; returns how many were written."""
    rows = [(run_id, *label.key, label.label, label.source, label.design, label.inclusion, label.labelled_at)
            for label in labels]  # fmt: skip
    conn.executemany(f"INSERT OR REPLACE INTO labels (run_id, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def read_labels(conn: sqlite3.Connection, run_id: str) -> list[HumanLabel]:
    """A run's labels, oldest first (then by item, so the order never depends on the file's pages)."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM labels WHERE run_id = ? ORDER BY labelled_at, session_id, assistant_id, qa_id",
        (run_id,),
    ).fetchall()
    return [
        HumanLabel(session_id=s, assistant_id=a or None, qa_id=q or None, label=lab, source=src, design=d,
                   inclusion=inc, labelled_at=t)
        for s, a, q, lab, src, d, inc, t in rows
    ]  # fmt: skip


def delete_labels(conn: sqlite3.Connection, run_id: str, keys: Iterable[tuple[str, str, str]]) -> int:
    """Remove labels by their :attr:`~agentic_core.data.labels.HumanLabel.key`; returns how many were removed."""
    removed = 0
    for key in keys:
        removed += conn.execute(
            "DELETE FROM labels WHERE run_id = ? AND session_id = ? AND assistant_id = ? AND qa_id = ?", (run_id, *key)
        ).rowcount
    return removed


def count_labels(conn: sqlite3.Connection, run_ids: list[str]) -> dict[str, int]:
    """How many labels each of these runs holds (runs without any left out)."""
    marks = ", ".join("?" * len(run_ids))
    rows = conn.execute(f"SELECT run_id, COUNT(*) FROM labels WHERE run_id IN ({marks}) GROUP BY run_id", run_ids)
    return {run_id: int(n) for run_id, n in rows.fetchall()}
