"""The history under damage, a full disk and read-only files (issue 23): clear errors, never a traceback.

Tests run as root, for whom ``chmod 0444`` does not stop writes, so a read-only file is simulated in two
honest ways: the store opened with ``read_only=True`` (SQLite's own ``mode=ro``, which refuses writes
whoever runs the process) and ``os.access`` patched to say "not writable" (the automatic detection).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from agentic_core.result import EvaluationResult
from agentic_core.runs import RunStore, RunStoreError

PAGE = 4096


def _history_with_runs(path: Path, result: EvaluationResult, n: int = 2) -> list[str]:
    store = RunStore(path)
    return [store.save(result, "seed_examples.json").id for _ in range(n)]


def damage_runs_table(path: Path) -> None:
    """Overwrite the page holding the runs table's root (page 2, after the schema page) with garbage."""
    with sqlite3.connect(path) as conn:
        page_size, root = conn.execute("PRAGMA page_size").fetchone()[0], conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'runs'"
        ).fetchone()[0]
    with path.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xde\xad\xbe\xef" * (page_size // 4))


def test_a_damaged_page_is_a_store_error_naming_the_file_and_the_fix(tmp_path: Path, seeds: EvaluationResult) -> None:
    path = tmp_path / "runs.sqlite3"
    _history_with_runs(path, seeds)
    damage_runs_table(path)
    store = RunStore(path)  # the schema page is intact: the damage shows when the runs are read
    with pytest.raises(RunStoreError) as listing:
        store.runs()
    assert str(path) in str(listing.value) and "damaged" in str(listing.value)
    assert "move the file aside" in str(listing.value)
    with pytest.raises(RunStoreError, match="damaged"):
        store.save(seeds, "seed_examples.json")


def test_a_full_disk_while_saving_is_a_store_error(
    tmp_path: Path, seeds: EvaluationResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    real_connect = sqlite3.connect

    class FullDisk:
        """A connection whose inserts fail as SQLite fails on a full disk."""

        def __init__(self, conn: sqlite3.Connection) -> None:
            self._conn = conn

        def execute(self, sql: str, *args: Any) -> Any:
            if sql.lstrip().upper().startswith("INSERT"):
                raise sqlite3.OperationalError("database or disk is full")
            return self._conn.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._conn, name)

        def __enter__(self) -> FullDisk:
            self._conn.__enter__()
            return self

        def __exit__(self, *exc: Any) -> Any:
            return self._conn.__exit__(*exc)

    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: FullDisk(real_connect(*a, **k)))
    with pytest.raises(RunStoreError) as caught:
        store.save(seeds, "seed_examples.json")
    message = str(caught.value)
    assert "disk is full" in message and "free some disk space" in message and str(path) in message
    monkeypatch.undo()
    assert RunStore(path).runs() == []  # the failed transaction left nothing behind


def test_read_only_store_lists_shows_and_exports_but_refuses_writes(tmp_path: Path, seeds: EvaluationResult) -> None:
    path = tmp_path / "runs.sqlite3"
    ids = _history_with_runs(path, seeds)
    before = path.read_bytes()
    store = RunStore(path, read_only=True)
    assert store.read_only
    assert sorted(m.id for m in store.runs()) == sorted(ids)
    assert store.payload(ids[0]).meta.id == ids[0]
    assert store.open(ids[0]).n_interactions == seeds.n_interactions
    assert store.export(ids[0])[:2] == b"\x1f\x8b"
    for write in (
        lambda: store.save(seeds, "seed_examples.json"),
        lambda: store.rename(ids[0], "other"),
        lambda: store.delete(ids[0]),
        lambda: store.clear_override(ids[0], 0),
        lambda: store.import_(store.export(ids[0])),
    ):
        with pytest.raises(RunStoreError, match="read-only") as caught:
            write()
        assert "writable" in str(caught.value)
    assert path.read_bytes() == before


def test_read_only_mode_is_sqlites_own_and_holds_for_root(tmp_path: Path, seeds: EvaluationResult) -> None:
    # Past the store's own check, SQLite itself refuses: the guarantee does not depend on file permissions.
    path = tmp_path / "runs.sqlite3"
    _history_with_runs(path, seeds, n=1)
    store = RunStore(path, read_only=True)
    with pytest.raises(RunStoreError, match="read-only"), store._connect() as conn:
        conn.execute("DELETE FROM runs")
    assert len(RunStore(path).runs()) == 1


def test_a_file_that_cannot_be_written_is_opened_read_only(
    tmp_path: Path, seeds: EvaluationResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "runs.sqlite3"
    ids = _history_with_runs(path, seeds, n=1)
    real_access = os.access
    # What a 0444 file (or a read-only folder) reports to a non-root user.
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if mode & os.W_OK else real_access(p, mode, **k))
    store = RunStore(path)
    assert store.read_only
    assert [m.id for m in store.runs()] == ids
    with pytest.raises(RunStoreError, match="read-only"):
        store.save(seeds, "seed_examples.json")


def test_read_only_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(RunStoreError, match="does not exist"):
        RunStore(tmp_path / "missing.sqlite3", read_only=True)
    assert not (tmp_path / "missing.sqlite3").exists()


def test_a_damaged_run_description_is_a_store_error(tmp_path: Path, seeds: EvaluationResult) -> None:
    # Damage SQLite still reads (its structure intact): the run's description is garbage.
    path = tmp_path / "runs.sqlite3"
    (run_id,) = _history_with_runs(path, seeds, n=1)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE runs SET meta = ? WHERE id = ?", ("\x00garbage{", run_id))
    store = RunStore(path)
    for read in (store.runs, lambda: store.meta(run_id), lambda: store.payload(run_id)):
        with pytest.raises(RunStoreError, match="damaged"):
            read()
