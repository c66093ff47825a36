"""``runs list|show|rename|delete|export|import`` and ``evaluate`` storing its run."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.runs import RunStore

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "sample_data" / "seed_examples.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(path))
    return path


def evaluate_json(*extra: str) -> dict[str, Any]:
    code, out, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--json", "--no-progress", *extra)
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_evaluate_stores_its_run_and_says_its_id(history: Path) -> None:
    doc = evaluate_json("--threshold", "0.6", "--k", "2")
    run_id = doc["run_id"]
    assert "curve" in doc and "headline" in doc  # the existing fields stay
    metas = RunStore(history).runs()
    assert [m.id for m in metas] == [run_id]
    assert metas[0].data_name == "seed_examples.json" and metas[0].judge.kind == "dataset"
    # The settings it was reported with are kept with it.
    stored = RunStore(history).payload(run_id).settings
    assert stored is not None and stored["threshold"] == 0.6
    code, _, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--no-progress")
    assert code == EXIT_OK and "run stored: " in err


def test_no_save_leaves_the_history_alone(history: Path) -> None:
    doc = evaluate_json("--no-save")
    assert "run_id" not in doc
    assert RunStore(history).runs() == []


def test_list_show_rename_export_import_delete(history: Path, tmp_path: Path) -> None:
    run_id = evaluate_json("--threshold", "0.6")["run_id"]
    code, out, err = run("runs", "list")
    assert code == EXIT_OK and run_id in out and "seed_examples.json" in out and str(history) in err
    listed = json.loads(run("runs", "list", "--json")[1])
    assert listed["path"] == str(history) and [r["id"] for r in listed["runs"]] == [run_id]

    code, out, _ = run("runs", "show", run_id)
    assert code == EXIT_OK
    assert "settings (as evaluated)" in out and "threshold: 0.6" in out and "pass@" in out and "pass^" in out
    shown = json.loads(run("runs", "show", run_id, "--json")[1])
    assert shown["run"]["id"] == run_id and shown["settings"]["threshold"] == 0.6
    assert shown["headline"]["pass_at_k"] is not None and shown["overrides"] == []

    assert run("runs", "rename", run_id, "baseline")[0] == EXIT_OK
    assert RunStore(history).meta(run_id).name == "baseline"

    target = tmp_path / "exported.json.gz"
    code, out, _ = run("runs", "export", run_id, "--out", str(target))
    assert code == EXIT_OK and target.exists() and str(target) in out
    imported = json.loads(run("runs", "import", str(target), "--json")[1])
    assert imported["id"] != run_id and imported["name"] == "baseline"

    assert run("runs", "delete", run_id)[0] == EXIT_OK
    assert [m.id for m in RunStore(history).runs()] == [imported["id"]]


def test_errors_name_the_run_and_the_fix(history: Path, tmp_path: Path) -> None:
    for argv in (("runs", "show", "no-such-run"), ("runs", "delete", "no-such-run"), ("runs", "export", "no-such-run")):
        code, out, err = run(*argv)
        assert code == EXIT_USER_ERROR and out == ""
        assert "no-such-run" in err and "runs list" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    code, _, err = run("runs", "import", str(bad))
    assert code == EXIT_USER_ERROR and "is not a workbench run" in err and "runs export" in err
    code, _, err = run("runs", "import", str(tmp_path / "missing.json.gz"))
    assert code == EXIT_USER_ERROR and "missing.json.gz" in err and "cannot be read" in err


def test_show_reads_a_run_without_settings_with_the_defaults(history: Path) -> None:
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import load_sample

    meta = RunStore(history).save(evaluate(load_sample("seeds"), "dataset", cache_mode="off"), "seeds")
    code, out, _ = run("runs", "show", meta.id)
    assert code == EXIT_OK and "defaults (none stored with the run)" in out


def test_an_empty_history_says_how_to_fill_it(history: Path) -> None:
    code, out, _ = run("runs", "list")
    assert code == EXIT_OK and "no stored run" in out and "runs import" in out


def test_export_on_a_full_disk_is_a_clean_error_and_no_half_file(
    history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    run_id = evaluate_json()["run_id"]
    target = tmp_path / "run.json.gz"

    def no_space(fd: int) -> None:  # the disk fills up before the file is complete
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    code, _, err = run("runs", "export", run_id, "--out", str(target))
    assert code == EXIT_USER_ERROR
    assert str(target) in err and "free some disk space" in err
    assert list(tmp_path.glob("*.gz")) == [] and list(tmp_path.glob(".run.json.gz.*")) == []
