"""The CLI contract: option names, one JSON document on stdout, errors on stderr with non-zero exit."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from agentic_core.cli import EXIT_STRICT, EXIT_USER_ERROR, main
from tests.conftest import SEED003_FIELDS

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "sample_data" / "seed_examples.json"
SUPPORT = ROOT / "sample_data" / "support_bot_attempts.jsonl"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> dict[str, Any]:
    code, out, err = run("evaluate", *argv, "--json", "--no-progress")
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_json_document_has_the_contract_fields() -> None:
    doc = run_json(str(SUPPORT), "--judge", "dataset", "--k", "4", "--mode", "frequentist")
    assert [p["k"] for p in doc["curve"]] == [1, 2, 3, 4]
    for point in doc["curve"]:
        assert set(point) >= {"k", "pass_at_k", "pass_pow_k", "pass_at_k_ci", "pass_pow_k_ci", "n_groups"}
        assert point["pass_pow_k"] <= point["pass_at_k"]
        low, high = point["pass_at_k_ci"]
        assert low <= point["pass_at_k"] <= high
    assert doc["unit"] == "task" and doc["settings"]["k"] == 4
    assert doc["interpretation"] in {"reliable", "inconsistent", "functional", "needs_improvement"}
    assert doc["judge"]["kind"] == "dataset"
    assert doc["judge_counts"]["ok"] == doc["counts"]["interactions"]
    tc = doc["tool_correctness"]
    assert set(tc["dimensions"]) == {"selection", "parameters", "sequence", "utilization"}
    assert tc["scored_interactions"] > 0
    conv = doc["conversations"][0]
    assert set(conv) >= SEED003_FIELDS | {"judge_reasoning"}
    assert len(doc["conversations"]) == doc["counts"]["conversations"]


def test_seed_example_k_three_matches_hand_computation() -> None:
    doc = run_json(str(SEEDS), "--judge", "dataset", "--k", "3", "--unit", "task", "--mode", "frequentist")
    head = doc["headline"]
    # The three seed-000 questions have 3 attempts each; the two seed-001 tasks have 1 and are
    # excluded at k=3 under the unbiased estimator (reported, not silently 0 or 1).
    assert head["n_groups"] == 3 and head["n_excluded"] == 2
    assert "attempt" in head["excluded_reason"]


def test_settings_change_the_numbers() -> None:
    lo = run_json(str(SUPPORT), "--judge", "dataset", "--threshold", "0.3")
    hi = run_json(str(SUPPORT), "--judge", "dataset", "--threshold", "0.95")
    assert lo["counts"]["correct_conversations"] > hi["counts"]["correct_conversations"]
    w = run_json(str(SUPPORT), "--judge", "dataset", "--tool-weights", "selection=1")
    assert w["tool_correctness"]["weights"] == {
        "selection": 1.0,
        "parameters": 0.0,
        "sequence": 0.0,
        "utilization": 0.0,
    }


def test_out_writes_exports(tmp_path: Path) -> None:
    code, _, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--out", str(tmp_path), "--no-progress")
    assert code == 0, err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "conversations.csv", "interactions.csv", "run.agentic-run.json.gz", "settings.json", "summary.json", "tasks.csv"
    ]
    interactions = pd.read_csv(tmp_path / "interactions.csv")
    assert len(interactions) == 12
    assert json.loads((tmp_path / "settings.json").read_text())["judge"]["kind"] == "dataset"


def test_out_writes_a_run_file_the_dashboard_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run evaluated elsewhere: its run file, imported into another history, gives the same numbers."""
    from agentic_core import aggregate, make_settings
    from agentic_core.runs import RunStore

    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "there.sqlite3"))
    code, out, err = run(
        "evaluate", str(SUPPORT), "--judge", "dataset", "--out", str(tmp_path / "out"), "--no-progress", "--json"
    )
    assert code == 0, err
    there = json.loads(out)
    laptop = RunStore(tmp_path / "laptop.sqlite3")
    meta = laptop.import_((tmp_path / "out" / "run.agentic-run.json.gz").read_bytes(), "run file")
    assert meta.id == there["run_id"] and meta.n_interactions == 344
    reopened = laptop.open(meta.id)
    agg = aggregate(reopened, make_settings())
    assert agg.headline is not None and agg.headline.k == there["headline"]["k"]
    assert agg.headline.pass_pow_k == pytest.approx(there["headline"]["pass_pow_k"])
    assert agg.counts.correct_conversations == there["counts"]["correct_conversations"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        # The message names the option as typed, not the setting's field name.
        (["--k", "0"], "error: --k: "),
        (["--threshold", "1.5"], "error: --threshold: "),
        (["--tool-weights", "selection=-1"], "error: --tool-weights (selection): "),
        (["--tool-weights", "selektion=1"], "error: --tool-weights (selektion): "),
        (["--prior", "1"], "error: --prior: "),
        (["--ci", "1.0"], "error: --ci: "),
    ],
)
def test_bad_settings_exit_non_zero_with_message_on_stderr(argv: list[str], needle: str) -> None:
    code, out, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--no-progress", *argv)
    assert code == EXIT_USER_ERROR
    assert out == ""
    assert err.startswith("error: ") and needle in err and "Fix:" in err


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    code, _, err = run("evaluate", str(tmp_path / "nope.json"), "--judge", "dataset", "--no-progress")
    assert code == EXIT_USER_ERROR
    assert "nope.json" in err


def test_invalid_records_are_listed_and_strict_fails(tmp_path: Path) -> None:
    records = json.loads(SEEDS.read_text())
    records[1]["conversation"][0]["score"] = 1.5
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(records))
    code, out, err = run("evaluate", str(path), "--judge", "dataset", "--json", "--no-progress")
    assert code == 0
    assert "record 1" in err and "skipped" in err
    assert json.loads(out)["counts"]["conversations"] == len(records) - 1
    code, _, err = run("evaluate", str(path), "--judge", "dataset", "--strict", "--no-progress")
    assert code == EXIT_STRICT


def test_llm_judge_without_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    code, _, err = run("evaluate", str(SEEDS), "--judge", "llm", "--provider", "groq", "--model", "m", "--no-progress")
    assert code == EXIT_USER_ERROR
    assert "GROQ_API_KEY" in err


def test_module_entry_point_runs_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "agentic_core", "evaluate", str(SEEDS), "--judge", "dataset", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["counts"]["conversations"] == 11
