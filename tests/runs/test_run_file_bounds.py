"""Run files are read with bounds (issue 23): the limits apply while reading, not after."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from agentic_core.cli import EXIT_USER_ERROR, main
from agentic_core.errors import DataError
from agentic_core.result import EvaluationResult
from agentic_core.runs import RunStore
from agentic_core.runs.run_file import expand_run_file, read_run_file

MB = 1024 * 1024


def test_a_gzip_bomb_stops_at_the_limit_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_MAX_RUN_MB", "1")
    bomb = gzip.compress(b"0" * (50 * MB), 9)  # tens of KB that expand to 50 MB
    assert len(bomb) < MB
    with pytest.raises(DataError, match=r"expands past the run document limit of 1 MB") as caught:
        expand_run_file(bomb, "bomb.json.gz")
    assert "AGENTIC_MAX_RUN_MB" in str(caught.value)


def test_a_truncated_run_file_is_named_truncated() -> None:
    data = gzip.compress(b'{"a": 1}' * 1000)
    with pytest.raises(DataError, match="truncated"):
        expand_run_file(data[: len(data) // 2], "cut.json.gz")


def test_store_import_of_a_bomb_is_refused_before_expanding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTIC_MAX_RUN_MB", "1")
    store = RunStore(tmp_path / "runs.sqlite3")
    with pytest.raises(DataError, match="expands past"):
        store.import_(gzip.compress(b" " * (20 * MB), 9), "bomb.json.gz")
    assert store.runs() == []


def test_a_real_run_file_still_round_trips(tmp_path: Path, seeds: EvaluationResult) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    run_id = store.save(seeds, "seed_examples.json").id
    path = tmp_path / "run.json.gz"
    path.write_bytes(store.export(run_id))
    meta = store.import_(expand_run_file(read_run_file(path), str(path)), str(path))
    assert meta.n_interactions == seeds.n_interactions


def test_runs_import_reads_dev_zero_only_up_to_the_limit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("needs /dev/zero")
    monkeypatch.setenv("AGENTIC_MAX_UPLOAD_MB", "1")
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    out, err = io.StringIO(), io.StringIO()
    code = main(["runs", "import", "/dev/zero"], stdout=out, stderr=err)
    assert code == EXIT_USER_ERROR
    assert "larger than the run file limit of 1 MB" in err.getvalue()
