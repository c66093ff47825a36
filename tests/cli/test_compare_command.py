"""``compare`` on the command line, and the CI gate's exit code 4 (``--fail-under``, ``--fail-if-worse``)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_NOTHING_SCORED, EXIT_OK, EXIT_STRICT, EXIT_USER_ERROR, main
from agentic_core.cli.gate_options import EXIT_GATE
from agentic_core.runs import RunStore
from tests.analysis.test_compare_runs import agent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def usage_error(*argv: str) -> None:
    """A bad gate option is a usage error (exit 2, before any judging), naming the known metrics."""
    err = io.StringIO()
    with pytest.raises(SystemExit) as exc, contextlib.redirect_stderr(err):
        run(*argv)
    assert exc.value.code == EXIT_USER_ERROR and "unknown metric" in err.getvalue()


def write(path: Path, *records: list[dict[str, Any]]) -> str:
    path.write_text("\n".join(json.dumps(r) for rs in records for r in rs), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("compare")
    return {
        "a": write(folder / "a.jsonl", agent("a", set(range(15)))),
        "b": write(folder / "b.jsonl", agent("b", set(range(23)))),
        "three": write(
            folder / "three.jsonl", agent("x", set(range(5))), agent("y", set(range(15))), agent("z", set(range(27)))
        ),
    }


COMMON = ("--judge", "dataset", "--no-progress")


def test_the_gate_exit_code_is_its_own() -> None:
    assert EXIT_GATE == 4
    assert EXIT_GATE not in {EXIT_OK, EXIT_USER_ERROR, EXIT_STRICT, EXIT_NOTHING_SCORED, 1}


def test_compare_json_has_metrics_and_tasks(files: dict[str, str]) -> None:
    code, out, err = run("compare", files["a"], files["b"], *COMMON, "--json")
    assert code == EXIT_OK, err
    doc = json.loads(out)
    rows = {(m["metric"], m["k"]): m for m in doc["metrics"]}
    success = rows[("success_rate", None)]
    assert set(success) == {"metric", "k", "a", "b", "delta", "delta_ci", "p_b_better"}
    assert success["a"] == 0.5 and success["delta"] == pytest.approx(8 / 30)
    assert success["delta_ci"][0] > 0 and success["p_b_better"] >= 0.95
    assert ("pass_pow_k", 1) in rows and ("pass_at_k", 1) in rows
    fixed = [t["task"] for t in doc["tasks"] if t["change"] == "fixed"]
    assert len(fixed) == 8 and len(doc["tasks"]) == 30


def test_compare_text_names_the_flipped_tasks(files: dict[str, str]) -> None:
    code, out, _ = run("compare", files["a"], files["b"], *COMMON)
    assert code == EXIT_OK
    assert "success_rate" in out and "flipped tasks (8)" in out and "fixed   t15" in out


def test_fail_if_worse_exits_4_naming_the_metric_value_and_bound(files: dict[str, str]) -> None:
    code, _, err = run("compare", files["b"], files["a"], *COMMON, "--json", "--fail-if-worse", "success_rate")
    assert code == EXIT_GATE
    assert "gate failed: success_rate" in err and "delta -0.267" in err and "0.95" in err
    code, _, _ = run("compare", files["a"], files["b"], *COMMON, "--fail-if-worse", "all")
    assert code == EXIT_OK
    usage_error("compare", files["a"], files["b"], *COMMON, "--fail-if-worse", "accuracy")


def test_identical_runs_say_the_same_verdicts_in_text_json_and_gate(files: dict[str, str]) -> None:
    # Issue 36: the text said success_rate +0.000 [-0.154, +0.154] 0.500, --json had no way to tell.
    code, out, err = run("compare", files["a"], files["a"], *COMMON, "--fail-if-worse", "all")
    assert code == EXIT_OK, err
    assert "the same verdicts" in out.splitlines()[1]
    success = next(line for line in out.splitlines() if line.startswith("success_rate"))
    assert success.split()[-3:] == ["[+0.000,", "+0.000]", "-"]  # the point 0, and no P(B > A)
    assert "note: A and B have the same verdicts" in out
    assert "gate passed: B cannot be worse than A: A and B have the same verdicts" in err
    code, out, _ = run("compare", files["a"], files["a"], *COMMON, "--json")
    doc = json.loads(out)
    assert doc["same_verdicts"] is True
    assert all(m["delta_ci"] == [0.0, 0.0] and m["p_b_better"] is None for m in doc["metrics"])
    code, out, _ = run("compare", files["a"], files["b"], *COMMON, "--json")
    assert json.loads(out)["same_verdicts"] is False


def test_stored_runs_and_assistants_of_one_run(files: dict[str, str], tmp_path: Path) -> None:
    history = str(tmp_path / "runs.sqlite3")
    store = RunStore(Path(history))
    from agentic_core.evaluate import evaluate
    from agentic_core.io.loader import load_paths

    ids = [store.save(evaluate(load_paths([files[x]]), "dataset", cache_mode="off"), x).id for x in ("a", "b")]
    code, out, err = run("compare", *ids, "--runs-path", history, "--json", "--no-progress")
    assert code == EXIT_OK, err
    assert json.loads(out)["metrics"][0]["delta"] == pytest.approx(8 / 30)
    code, out, err = run("compare", files["three"], "--assistants", "x,z", *COMMON, "--json")
    assert code == EXIT_OK, err
    doc = json.loads(out)
    assert (doc["a"], doc["b"]) == ("x", "z") and doc["metrics"][0]["delta"] == pytest.approx(22 / 30)
    code, _, err = run("compare", "no-such-run", files["a"], "--runs-path", history)
    assert code == EXIT_USER_ERROR and "neither a data file nor a stored run id" in err
    code, _, err = run("compare", files["a"], *COMMON)
    assert code == EXIT_USER_ERROR and "--assistants" in err


def test_leaderboard_of_three_assistants(files: dict[str, str]) -> None:
    code, out, err = run("compare", files["three"], "--leaderboard", *COMMON, "--json")
    assert code == EXIT_OK, err
    board = json.loads(out)
    assert [r["agent"] for r in board["rows"]] == ["z", "y", "x"]
    assert all(sum(r["rank_probabilities"]) == pytest.approx(1.0) for r in board["rows"])
    code, out, _ = run("compare", files["three"], "--leaderboard", *COMMON)
    assert "P(#1)" in out and out.index(" z ") < out.index(" x ")


def test_evaluate_fail_under_exits_4_when_a_metric_is_below_its_bound(files: dict[str, str]) -> None:
    args = ("evaluate", files["a"], *COMMON, "--no-save", "--unit", "task", "--k", "1", "--json")
    code, out, err = run(*args, "--fail-under", "success_rate=0.8")
    assert code == EXIT_GATE and json.loads(out)["headline"]
    assert "gate failed: success_rate = 0.500" in err and "below the bound 0.8" in err
    assert run(*args, "--fail-under", "success_rate=0.45")[0] == EXIT_OK
    code, _, err = run(*args, "--fail-under", "success_rate=0.45", "--fail-under-lower")
    assert code == EXIT_GATE and "lower bound" in err
    usage_error(*args, "--fail-under", "success=0.45")


def test_compare_help_lists_the_shared_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run("compare", "--help")
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for option in ("--assistants", "--fail-if-worse", "--judge", "--mode", "--ci", "--leaderboard", "--runs-path"):
        assert option in text
