"""The shared SQLite error classifier: real SQLite failures by their code, others by errno, type and message."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from agentic_core.common.sqlite_errors import primary_code, sqlite_failure
from agentic_core.judges.cache_sqlite import is_busy, is_corruption, is_read_only


def _raised(fn: object) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as info:
        fn()  # type: ignore[operator]
    return info.value


def _not_a_database(tmp_path: Path) -> sqlite3.Error:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not an SQLite file" * 100)
    return _raised(lambda: sqlite3.connect(path).execute("SELECT * FROM sqlite_master").fetchall())


def _locked(tmp_path: Path) -> sqlite3.Error:
    path = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        return _raised(lambda: sqlite3.connect(path, timeout=0).execute("SELECT * FROM t").fetchall())
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _read_only(tmp_path: Path) -> sqlite3.Error:
    path = tmp_path / "ro.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    return _raised(lambda: conn.execute("INSERT INTO t VALUES (1)"))


def _cannot_open(tmp_path: Path) -> sqlite3.Error:
    missing = tmp_path / "no such folder" / "x.sqlite3"
    return _raised(lambda: sqlite3.connect(f"{missing.resolve().as_uri()}?mode=ro", uri=True))


def _full(tmp_path: Path) -> sqlite3.Error:
    conn = sqlite3.connect(tmp_path / "full.sqlite3")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("PRAGMA max_page_count = 3")  # a database that may not grow: SQLite says the disk is full
    return _raised(lambda: conn.executemany("INSERT INTO t VALUES (?)", [("x" * 4000,)] * 50))


@pytest.mark.parametrize(
    ("make", "failure"),
    [
        (_not_a_database, "damaged"),
        (_locked, "busy"),
        (_read_only, "read_only"),
        (_cannot_open, "cannot_open"),
        (_full, "full"),
    ],
)
def test_real_sqlite_failures_are_classified(tmp_path: Path, make: object, failure: str) -> None:
    exc = make(tmp_path)  # type: ignore[operator]
    assert sqlite_failure(exc) == failure


def test_the_code_decides_over_the_message() -> None:
    # A message that would read as 'locked' but a code that says the file is damaged (SQLITE_CORRUPT, extended).
    exc = sqlite3.DatabaseError("table is locked")
    exc.sqlite_errorcode = 11 | (1 << 8)  # type: ignore[attr-defined]
    assert primary_code(exc) == 11
    assert sqlite_failure(exc) == "damaged"


@pytest.mark.parametrize(
    ("exc", "failure"),
    [
        (ValueError("a run's description is malformed: x"), "damaged"),
        (OSError(errno.ENOSPC, "No space left on device"), "full"),
        (PermissionError(errno.EACCES, "Permission denied"), "read_only"),
        (FileNotFoundError(errno.ENOENT, "No such file or directory"), "cannot_open"),
        (OSError(errno.EROFS, "Read-only file system"), "read_only"),
        (OSError(errno.EROFS, "cannot write"), "read_only"),  # the errno decides a file-system error, not its words
        (sqlite3.OperationalError("database is locked"), "busy"),
        (sqlite3.OperationalError("disk I/O error"), "other"),
    ],
)
def test_errors_without_a_code_are_read_by_errno_type_and_message(exc: BaseException, failure: str) -> None:
    assert primary_code(exc) is None
    assert sqlite_failure(exc) == failure


def test_the_judge_cache_acts_on_the_shared_answers(tmp_path: Path) -> None:
    damaged, locked = _not_a_database(tmp_path), _locked(tmp_path)
    read_only, cannot_open = _read_only(tmp_path), _cannot_open(tmp_path)
    assert is_corruption(damaged) and not is_corruption(locked)
    assert is_busy(locked) and not is_busy(damaged)
    # The cache opens a file it cannot write (or open for writing) read-only: both answers lead there.
    assert is_read_only(read_only) and is_read_only(cannot_open) and not is_read_only(locked)


@pytest.mark.parametrize(
    ("error", "meaning"),
    [
        (PermissionError(errno.EACCES, "Permission denied", "/srv/fullstack/history"), "read_only"),
        (FileNotFoundError(errno.ENOENT, "No such file or directory", "/home/ann/corrupted-backups/runs.db"),
         "cannot_open"),
        (OSError(errno.ENOSPC, "No space left on device", "/data/locked-readonly/runs.db"), "full"),
        (NotADirectoryError(errno.ENOTDIR, "Not a directory", "/tmp/busy/x"), "cannot_open"),
    ],
)
def test_a_file_system_error_is_named_by_its_errno_never_by_words_in_its_path(error: OSError, meaning: str) -> None:
    assert sqlite_failure(error) == meaning
