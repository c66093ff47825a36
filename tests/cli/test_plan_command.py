"""``plan``: the planner from the command line (assumed rates, a counts file, a stored run; --json; errors)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core import plan_evaluation
from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.judges.offline.learned import MODEL_PATH
from agentic_core.stats.planner_sequential import sequential_bounds
from agentic_core.stats.planner_variance import per_task_variance, rates_population, task_variance

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
    # --unscored-share 0: every attempt scored, so the half-width is the closed form of per_task_variance
    # (the default counts the default judge's abstentions: test_plan_counts_the_judges_abstentions).
    doc = plan_json(
        "--mean", "0.6", "--spread", "0.25", "--k", "4", "--half-width", "0.05", "--difference", "0.1",
        "--tasks", "50,200", "--attempts", "4,8", "--interactions", "3", "--unscored-share", "0",
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


def test_plan_counts_the_judges_abstentions() -> None:
    # The default judge (learned) abstains on the share its fit chose; an attempt of 3 calls is scored only
    # when all 3 are, and the half-width is the one of the attempts a task keeps.
    share = json.loads(MODEL_PATH.read_text(encoding="utf-8"))["fitted_on"]["abstain_share"]
    argv = ("--mean", "0.6", "--spread", "0.25", "--k", "2", "--tasks", "200", "--attempts", "4", "--interactions", "3")
    doc = plan_json(*argv)
    assert share > 0 and doc["unscored_share"] == pytest.approx(share)
    assert "learned" in doc["unscored_source"] and doc["scored_attempt_share"] == pytest.approx((1 - share) ** 3)
    tv = task_variance(
        rates_population(0.6, 0.25), "pass^k", 2, 4, mode="frequentist", target="population", scored=(1 - share) ** 3
    )
    assert doc["cells"][0]["half_width"] == pytest.approx(1.959964 * (tv.per_task_run / 200) ** 0.5, rel=1e-5)
    none_lost = plan_json(*argv, "--unscored-share", "0")["cells"][0]["half_width"]
    assert doc["cells"][0]["half_width"] > none_lost
    # Same calls for the same tasks x attempts: unscored calls are made (and paid for) too.
    assert doc["cells"][0]["judge_calls"] == 200 * 4 * 3
    assert plan_json(*argv, "--judge", "dataset")["cells"][0]["half_width"] == pytest.approx(none_lost)
    code, out, _ = run("plan", *argv)
    assert code == EXIT_OK and f"unscored: {share:.0%} of judge calls" in out


def test_plan_states_how_agent_b_is_modelled() -> None:
    base = ("--mean", "0.6", "--spread", "0.25", "--difference", "0.1", "--unscored-share", "0")
    shifted = plan_json(*base)
    assert shifted["value_b"] == pytest.approx(shifted["value"] + 0.1, abs=1e-9)
    assert "shifted by +0.1" in shifted["agent_b"] and shifted["population_b"].endswith("shifted by +0.1")
    described = plan_json(*base, "--b-mean", "0.7", "--b-spread", "0.1")
    assert described["population_b"] == "assumed mean 0.7, spread 0.1"
    assert described["spread_b"] == pytest.approx(0.1) and "as described" in described["agent_b"]
    # The face passes B through: the same plan as the Python API's with B's population.
    api = plan_evaluation(
        rates_population(0.6, 0.25), difference=0.1, unscored_share=0, population_b=rates_population(0.7, 0.1)
    )
    assert described["cheapest_for_difference"] == api.cheapest_for_difference.model_dump()  # type: ignore[union-attr]
    assert described["cheapest_for_difference"] != shifted["cheapest_for_difference"]
    code, out, _ = run("plan", *base, "--b-beta", "2,1")
    assert code == EXIT_OK and "assumption: agent B's tasks as described: assumed Beta(2, 1)" in out
    assert plan_json("--mean", "0.6", "--spread", "0.25")["agent_b"] is None  # no comparison, no B


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--beta", "1,1", "--attempts", "1000000000000"), "--attempts: must be at most 1,000"),
        (("--beta", "1,1", "--attempts", "1e8"), "--attempts: must be at most 1,000"),
        (("--beta", "1,1", "--attempts", "2.5"), "--attempts: must be numbers"),
        (("--beta", "1,1", "--tasks", "1e10"), "--tasks: must be at most 1,000,000,000"),
        (("--beta", "1,1", "--tasks", ",".join(map(str, range(1, 300)))), "--tasks: must hold at most 200 values"),
        (("--beta", "1e308,1e308"), "Beta(a): must be a number from 0.001 to 10000"),
        (("--beta", "nan,1"), "Beta(a): must be a number from 0.001 to 10000"),
        (("--beta", "1,1", "--k", "100000"), "--k: must be at most 1000"),
        (("--beta", "1,1", "--interactions", "1e9"), "--interactions: must be a positive number, at most 10,000"),
        (("--beta", "1,1", "--unscored-share", "1"), "--unscored-share: must be a number from 0 to 0.95"),
        (("--beta", "1,1", "--unscored-share", "nan"), "--unscored-share: must be a number from 0 to 0.95"),
        (("--beta", "1,1", "--difference", "0.1", "--looks", "100"), "--looks: must be a whole number from 1 to 20"),
        (("--mean", "0.5", "--spread", "1e-9"), "spread of task difficulty: must be a standard deviation from"),
        (("--beta", "1,1", "--difference", "0.1", "--b-beta", "1e9,1"), "--b-beta task population Beta(a)"),
        (("--beta", "1,1", "--b-mean", "0.5", "--b-spread", "0.1"), "describe agent B of a comparison"),
        (("--beta", "1,1", "--difference", "0.1", "--b-mean", "0.5"), "--b-mean/--b-spread: go together"),
    ],
)
def test_plan_bounds_exit_2_naming_the_limit(argv: tuple[str, ...], words: str) -> None:
    code, out, err = run("plan", *argv)
    assert code == EXIT_USER_ERROR and out == ""
    assert words in err and "Fix:" in err and "Traceback" not in err


def test_plan_counts_file_is_read_with_bounds(tmp_path: Path) -> None:
    if Path("/dev/zero").exists():
        code, _, err = run("plan", "--counts", "/dev/zero")
        assert code == EXIT_USER_ERROR and "character device" in err
    # A sparse file: a real table's first rows, then 100 MB of holes. Refused by its size before it is read.
    sparse = tmp_path / "tasks.csv"
    with sparse.open("wb") as handle:
        handle.write(b"group,n,c\n" + b"".join(b"t%d,5,%d\n" % (i, i % 6) for i in range(200)))
        handle.truncate(100 * 1024 * 1024)
    code, _, err = run("plan", "--counts", str(sparse))
    assert code == EXIT_USER_ERROR and "the limit per data file is 64 MB" in err and "n and c per task" in err


def test_plan_early_stopping_uses_t_bounds_and_refuses_one_task_a_look() -> None:
    doc = plan_json("--beta", "0.6,2.5", "--k", "2", "--difference", "0.1", "--looks", "3", "--unscored-share", "0")
    early = doc["early_stopping"]
    per_look = early["tasks_per_look"]
    assert early["statistic"] == "paired t" and early["min_tasks_per_look"] == 2
    assert early["t_bounds"] == pytest.approx(list(sequential_bounds(3, 0.95, "obrien-fleming", per_look)))
    assert all(t > z for t, z in zip(early["t_bounds"], early["z_bounds"], strict=True))
    # 6 tasks in 10 looks: one task a look has no t statistic. Refused, naming how many looks the plan allows.
    argv = ("--mean", "0.3", "--spread", "0.2", "--difference", "0.6", "--unscored-share", "0", "--json")
    code, out, _ = run("plan", *argv)
    assert code == EXIT_OK and json.loads(out)["cheapest_for_difference"]["tasks"] == 6
    code, out, err = run("plan", *argv, "--looks", "10")
    assert code == EXIT_USER_ERROR and out == ""
    assert "needs at least 2 tasks a look" in err and "give --looks 3 or fewer" in err
