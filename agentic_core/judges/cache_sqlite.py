"""SQLite details of the judge cache: its schema, which errors it acts on, what a stored reasoning looks like.

Kept apart from :mod:`agentic_core.judges.cache` (which imports it) so the cache reads as policy
(open, repair, fall back); the error-code table itself is :mod:`agentic_core.common.sqlite_errors`,
shared with the run history.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import TypeVar

from agentic_core.common.secrets import mask_secrets
from agentic_core.common.sqlite_errors import sqlite_failure
from agentic_core.judges.llm.reply_text import clip_reasoning, printable

_T = TypeVar("_T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (
    key TEXT PRIMARY KEY,
    judge TEXT NOT NULL,
    score REAL CHECK (score IS NULL OR (score >= 0.0 AND score <= 1.0)),
    status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'uncertain')),
    probability REAL CHECK (probability IS NULL OR (probability >= 0.0 AND probability <= 1.0)),
    error TEXT,
    reasoning TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    created_at REAL NOT NULL,
    CHECK (score IS NOT NULL OR status = 'uncertain')
) WITHOUT ROWID
"""

# Schema 1 -> 2: SQLite cannot drop a NOT NULL constraint in place, so the table is copied.
FROM_SCHEMA_1 = (
    SCHEMA.replace("TABLE IF NOT EXISTS verdicts", "TABLE verdicts_v2"),
    "INSERT INTO verdicts_v2 (key, judge, score, status, reasoning, input_tokens, output_tokens, created_at) "
    "SELECT key, judge, score, 'ok', reasoning, input_tokens, output_tokens, created_at FROM verdicts",
    "DROP TABLE verdicts",
    "ALTER TABLE verdicts_v2 RENAME TO verdicts",
)

# What a read selects: the stored columns, or their schema-1 stand-ins for a file read as it is.
READ_COLUMNS = "key, score, reasoning, input_tokens, output_tokens, status, probability, error"
READ_COLUMNS_1 = "key, score, reasoning, input_tokens, output_tokens, 'ok', NULL, NULL"


def has_status_column(conn: sqlite3.Connection) -> bool | None:
    """Whether the verdicts table is schema 2 (``None``: there is no table yet)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(verdicts)")}
    return None if not columns else "status" in columns


# What an error means is read by the classifier the run history shares; the cache acts on three of its answers.
def is_corruption(exc: sqlite3.Error) -> bool:
    """Whether an error means the file is damaged or not a database."""
    return sqlite_failure(exc) == "damaged"


def is_read_only(exc: sqlite3.Error) -> bool:
    """Whether an error means the file (or its folder) cannot be written, or the file cannot be opened there."""
    return sqlite_failure(exc) in ("read_only", "cannot_open")


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether an error means another connection holds a lock."""
    return sqlite_failure(exc) == "busy"


class NewerCacheError(Exception):
    """The file was written by a newer version of the workbench (its schema number is higher)."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


def storable_reasoning(reasoning: str, secrets: list[str]) -> str:
    """A reasoning as stored: every known secret masked, clipped, lone surrogates escaped.

    Masked here too (judges mask at the source) because any judge can be cached; escaped because
    SQLite refuses text that is not valid UTF-8, which would lose the whole batch.
    """
    return printable(clip_reasoning(mask_secrets(reasoning, secrets)))


def chunks(seq: Sequence[_T], size: int) -> Iterator[Sequence[_T]]:
    """``seq`` in consecutive slices of at most ``size`` items."""
    for start in range(0, len(seq), size):
        yield seq[start : start + size]
