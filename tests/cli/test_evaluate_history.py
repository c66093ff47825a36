"""Results first (issue 23): a history that cannot store the run, or an ``--out`` that cannot be written,
never costs the evaluation: results are printed (and ``--out`` written), then the problem is reported.

Exit codes: ``EXIT_NOT_STORED`` (6) when only the history failed; a failed gate's 4 (and 5, 3) win over it;
an ``--out`` that could not be written is 2 and wins over everything.
"""

from __future__ import annotations

import errno
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_NOT_STORED, EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.cli.gate_options import EXIT_GATE
from agentic_core.runs import RunStore
from tests.runs.test_store_trust import damage_runs_table

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "sample_data" / "seed_examples.json"
EVALUATE = ("evaluate", str(SEEDS), "--judge", "dataset", "--no-progress")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(path))
    return path


@pytest.fixture
def damaged(history: Path) -> Path:
    assert run(*EVALUATE)[0] == EXIT_OK
    assert run(*EVALUATE)[0] == EXIT_OK
    damage_runs_table(history)
    return history


def _stored_id(path: Path) -> str:
    with sqlite3.connect(path) as conn:  # through the id index, which the damage left intact
        return str(conn.execute("SELECT id FROM runs INDEXED BY sqlite_autoindex_runs_1 LIMIT 1").fetchone()[0])


@pytest.fixture
def full_history(history: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Storing fails as SQLite does on a full disk (raised where the store writes its row)."""

    def full(self: RunStore, payload: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(RunStore, "_insert", full)
    return history


def _cli(env_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AGENTIC_RUNS_PATH": str(env_path)}
    command = [sys.executable, "-m", "agentic_core", *argv]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=180, check=False)


def test_damaged_history_prints_results_writes_out_then_exits_6(damaged: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    proc = _cli(damaged, *EVALUATE, "--out", str(out_dir))
    assert proc.returncode == EXIT_NOT_STORED, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "success rate (pass@1)" in proc.stdout
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "conversations.csv", "interactions.csv", "run.agentic-run.json.gz", "settings.json", "summary.json",
        "tasks.csv",
    ]
    last = proc.stderr.strip().splitlines()[-1]
    assert "could not be stored" in last and str(damaged) in last and "damaged" in last and "Fix:" in last


def test_runs_subcommands_on_a_damaged_history_exit_2_with_a_message(damaged: Path) -> None:
    run_id = _stored_id(damaged)
    actions = (("list",), ("show", run_id), ("export", run_id), ("rename", run_id, "n"))
    for argv in (("runs", *action) for action in actions):
        proc = _cli(damaged, *argv)
        assert proc.returncode == EXIT_USER_ERROR, (argv, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert proc.stderr.startswith(f"error: {damaged}: is damaged"), proc.stderr


def test_full_disk_json_has_results_and_why_the_run_was_not_stored(full_history: Path) -> None:
    code, out, err = run(*EVALUATE, "--json")
    assert code == EXIT_NOT_STORED
    doc = json.loads(out)
    assert doc["counts"]["conversations"] == 11
    assert doc["run_id"] is None and "disk is full" in doc["run_not_stored"]
    assert "could not be stored" in err.strip().splitlines()[-1]


def test_a_failed_gate_wins_over_a_run_not_stored(full_history: Path) -> None:
    code, out, err = run(*EVALUATE, "--fail-under", "success_rate=0.99")
    assert code == EXIT_GATE
    assert "gate failed" in err and "could not be stored" in err and "success rate" in out


def test_read_only_history_lists_and_evaluate_exits_6(history: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, _ = run(*EVALUATE)
    assert code == EXIT_OK
    real_access = os.access
    # Tests run as root, whom chmod does not stop: the store is told the file is not writable instead.
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if mode & os.W_OK else real_access(p, mode, **k))
    code, out, err = run("runs", "list", "--json")
    assert code == EXIT_OK, err
    (stored,) = json.loads(out)["runs"]
    assert run("runs", "show", stored["id"])[0] == EXIT_OK
    code, out, err = run(*EVALUATE)
    assert code == EXIT_NOT_STORED
    assert "success rate (pass@1)" in out and "read-only" in err
    assert len(RunStore(history, read_only=True).runs()) == 1


def test_out_on_a_full_disk_prints_results_then_exits_2_naming_the_file(
    history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    out_dir = tmp_path / "out"
    code, out, err = run(*EVALUATE, "--out", str(out_dir))
    assert code == EXIT_USER_ERROR
    assert "success rate (pass@1)" in out
    assert "interactions.csv" in err and "No space left" in err and "free some disk space" in err
    assert list(out_dir.iterdir()) == []  # no half-written file, no temporary


def test_help_documents_exit_code_6_and_the_precedence() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "agentic_core", "evaluate", "--help"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    text = " ".join(proc.stdout.split())
    assert f"{EXIT_NOT_STORED} results printed and --out written, but the run could not be stored" in text
    assert f"the first in this order wins: 2, 5, 3, {EXIT_GATE}, {EXIT_NOT_STORED}" in text


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, a folder even root cannot write")
def test_history_in_a_folder_nobody_can_write_prints_results_and_exits_6(tmp_path: Path) -> None:
    # A real unwritable place, root included (tests run as root, whom chmod does not stop).
    path = Path("/proc/agentic-test-runs.sqlite3")
    proc = _cli(path, *EVALUATE, "--json")
    assert proc.returncode == EXIT_NOT_STORED, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["counts"]["conversations"] == 11 and doc["run_id"] is None
    assert "cannot be opened or created there" in doc["run_not_stored"]
    assert "Traceback" not in proc.stderr and "a folder you can write to" in proc.stderr
    listing = _cli(path, "runs", "list")
    assert listing.returncode == EXIT_USER_ERROR and "Traceback" not in listing.stderr
