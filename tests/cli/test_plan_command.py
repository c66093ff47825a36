"""``plan``: the planner from the command line (assumed rates, a counts file, a stored run; --json; errors)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.stats.planner_variance import per_task_variance, rates_population

ROOT = Path(__file__).resolve().parents[2]
ATTEMPTS = ROOT / "sample_data" / "support_bot_attempts.jsonl"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def plan_json(*argv: str) -> dict[str, Any]:
    code, out, err = run("plan", *argv, "--json")
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_plan_json_from_assumed_rates() -> None:
    doc = plan_json(
        "--mean", "0.6", "--spread", "0.25", "--k", "4", "--half-width", "0.05", "--difference", "0.1",
        "--tasks", "50,200", "--attempts", "4,8", "--interactions", "3",
    )  # fmt: skip
    assert doc["metric"] == "pass^k" and doc["k"] == 4 and doc["mode"] == "frequentist"
    assert doc["mean_success"] == pytest.approx(0.6) and doc["spread"] == pytest.approx(0.25)
    assert [(c["tasks"], c["attempts"]) for c in doc["cells"]] == [(50, 4), (200, 4), (50, 8), (200, 8)]
    sd = per_task_variance(rates_population(0.6, 0.25), "pass^k", 4, 8, mode="frequentist", target="population")[0]
    assert doc["cells"][3]["half_width"] == pytest.approx(1.959964 * (sd / 200) ** 0.5, rel=1e-5)
    assert doc["cells"][3]["judge_calls"] == 200 * 8 * 3
    assert 0 < doc["cells"][0]["power"] < doc["cells"][1]["power"] < 1
    best = doc["cheapest_for_half_width"]
    assert best["judge_calls"] == min(r["judge_calls"] for r in doc["for_half_width"])
    assert best["judge_calls"] == best["tasks"] * best["attempts"] * 3
    assert doc["for_difference"][0]["judge_calls"] == 2 * doc["for_difference"][0]["tasks"] * 4 * 3


def test_plan_text_has_the_table_and_the_cheapest_choice() -> None:
    code, out, err = run("plan", "--beta", "0.5,0.5", "--k", "2", "--half-width", "0.05", "--attempts", "1,2,4")
    assert code == EXIT_OK, err
    assert "half-width of pass^2" in out and "cheapest:" in out
    assert "no half-width at n = 1: the unbiased estimator needs n >= k = 2" in out


def test_plan_from_a_counts_file(tmp_path: Path) -> None:
    counts = tmp_path / "tasks.csv"
    counts.write_text("group,n,c\n" + "".join(f"t{i},5,{i % 6}\n" for i in range(30)), encoding="utf-8")
    doc = plan_json("--counts", str(counts), "--mode", "bayesian", "--k", "3", "--attempts", "2,5")
    assert doc["population"] == "pilot of 30 tasks" and doc["mode"] == "bayesian"
    assert doc["mean_success"] == pytest.approx(sum(i % 6 for i in range(30)) / 150, abs=0.03)


def test_plan_from_a_stored_pilot_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    code, out, err = run("evaluate", str(ATTEMPTS), "--judge", "dataset", "--json", "--no-progress")
    assert code == EXIT_OK, err
    run_id = json.loads(out)["run_id"]
    doc = plan_json("--run", run_id, "--k", "2", "--half-width", "0.1")
    assert doc["population"].startswith("pilot of ") and doc["interactions_per_attempt"] > 1


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ((), "plan: needs exactly one task population"),
        (("--mean", "0.5"), "--mean/--spread: go together"),
        (("--mean", "0.5", "--spread", "0.1", "--beta", "1,1"), "needs exactly one task population"),
        (("--beta", "1"), "--beta: must be two numbers A,B"),
        (("--beta", "1,1", "--attempts", "a,b"), "--attempts: must be numbers"),
        (("--beta", "1,1", "--half-width", "2"), "half-width: must be a number strictly between 0 and 1"),
        (("--counts", "/nonexistent/tasks.csv"), "must be a readable CSV or JSON table"),
    ],
)
def test_plan_errors_exit_2_with_the_place_and_fix(argv: tuple[str, ...], words: str) -> None:
    code, out, err = run("plan", *argv)
    assert code == EXIT_USER_ERROR and out == ""
    assert words in err and "Fix:" in err


def test_plan_counts_file_without_the_columns_names_them(tmp_path: Path) -> None:
    counts = tmp_path / "tasks.csv"
    counts.write_text("task,attempts,correct\nt1,5,3\n", encoding="utf-8")
    code, _, err = run("plan", "--counts", str(counts))
    assert code == EXIT_USER_ERROR
    assert "must have columns n (attempts) and c (correct attempts)" in err and "'attempts'" in err


def test_plan_early_stopping_gives_the_boundaries_and_batches() -> None:
    doc = plan_json("--beta", "0.6,2.5", "--difference", "0.1", "--looks", "3", "--boundary", "pocock")
    early = doc["early_stopping"]
    best = doc["cheapest_for_difference"]
    assert early["looks"] == 3 and early["attempts"] == best["attempts"]
    assert early["tasks_per_look"] == -(-best["tasks"] // 3)
    assert len(set(early["z_bounds"])) == 1 and early["z_bounds"][0] == pytest.approx(2.289, abs=0.012)
    assert plan_json("--beta", "0.6,2.5", "--difference", "0.1")["early_stopping"] is None
    code, _, err = run("plan", "--beta", "0.6,2.5", "--looks", "3")
    assert code == EXIT_USER_ERROR and "--looks: needs --difference" in err
