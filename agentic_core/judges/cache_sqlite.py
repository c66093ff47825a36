"""SQLite details of the judge cache: what an error code means, and what a stored reasoning looks like.

Kept apart from :mod:`agentic_core.judges.cache` (which imports it) so the cache reads as policy
(open, repair, fall back) without the error-code table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import TypeVar

from agentic_core.judges.reply_text import clip_reasoning, printable
from agentic_core.secrets import mask_secrets

_T = TypeVar("_T")

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_READONLY = 8
_SQLITE_CORRUPT = 11
_SQLITE_CANTOPEN = 14
_SQLITE_NOTADB = 26


def primary_code(exc: sqlite3.Error) -> int | None:
    """The primary SQLite result code of an error (``None`` on Pythons that do not report it)."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    # Extended result codes keep the primary code in the low byte.
    return None if code is None else code & 0xFF


def is_corruption(exc: sqlite3.Error) -> bool:
    """Whether an error means the file is damaged or not a database."""
    code = primary_code(exc)
    if code is not None:
        return code in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def is_read_only(exc: sqlite3.Error) -> bool:
    """Whether an error means the file (or its folder) cannot be written."""
    code = primary_code(exc)
    if code is not None:
        return code in (_SQLITE_READONLY, _SQLITE_CANTOPEN)
    text = str(exc).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text


class NewerCacheError(Exception):
    """The file was written by a newer version of the workbench (its schema number is higher)."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether an error means another connection holds a lock."""
    code = primary_code(exc)
    if code is not None:
        return code in (_SQLITE_BUSY, _SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


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
