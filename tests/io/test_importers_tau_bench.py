"""tau-bench results: one interaction per trial scored by its reward, trials grouped by task, the published curve."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core import aggregate, evaluate, load_paths, load_records
from agentic_core.cli import main
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_bytes

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "tau_bench_airline.json"
PAPER_PASS_POW = [0.420, 0.273, 0.220, 0.200]  # Yao et al. 2024, gpt-4o, airline, 50 tasks x 4 trials


@pytest.fixture(scope="module")
def trials() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return data


def load(records: list[Any], fmt: str = "auto") -> LoadReport:
    return load_bytes("gpt-4o-airline.json", json.dumps(records, indent=2).encode(), format=fmt)


def test_the_published_run_gives_the_papers_pass_pow_k_through_the_api() -> None:
    agg = aggregate(evaluate(load_paths([SAMPLE], format="tau-bench"), "dataset"))
    assert (agg.unit, agg.k) == ("task", 4)
    assert [round(p.pass_pow_k, 3) for p in agg.curve] == PAPER_PASS_POW  # type: ignore[arg-type]
    assert agg.curve[1].pass_pow_k == pytest.approx(41 / 150)  # exactly, not only after rounding


def test_the_published_run_gives_the_papers_pass_pow_k_on_the_command_line() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["evaluate", str(SAMPLE), "--judge", "dataset", "--json", "--no-progress"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    doc = json.loads(out.getvalue())
    assert [round(p["pass_pow_k"], 3) for p in doc["curve"]] == PAPER_PASS_POW
    assert "read as tau-bench results (detected from the content): 200 trials" in err.getvalue()
    assert doc["load"]["skipped"] == 0


def test_each_trial_is_one_interaction_scored_by_its_reward(trials: list[dict[str, Any]]) -> None:
    report = load(trials[:2])
    assert report.ok and not report.warnings, [i.message() for i in report.issues]
    conv = report.conversations[0]
    raw = trials[0]
    assert (conv.session_id, conv.task_id, conv.assistant_id) == (
        f"task-{raw['task_id']}-trial-{raw['trial']}",
        str(raw["task_id"]),
        "gpt-4o-airline",
    )
    (turn,) = conv.conversation
    assert turn.score == raw["reward"]
    first_user = next(m["content"] for m in raw["traj"] if m["role"] == "user")
    last_text = [m["content"] for m in raw["traj"] if m["role"] == "assistant" and m.get("content")][-1]
    assert (turn.query, turn.assistant) == (first_user, last_text)
    calls = [c["function"]["name"] for m in raw["traj"] if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert turn.agentic is not None and [t.tool_name for t in turn.agentic.tools_used] == calls
    assert turn.agentic.tools_used[0].result is not None  # linked by tool_call_id, decoded from JSON
    expected = raw["info"]["task"]["actions"]
    assert turn.ground_truth_agentic is not None
    assert [(t.tool_name, t.parameters) for t in turn.ground_truth_agentic.expected_tools] == [
        (a["name"], a["kwargs"]) for a in expected
    ]
    assert turn.ground_truth_agentic.tool_sequence_matters is False


def test_trials_of_one_task_share_its_task_id(trials: list[dict[str, Any]]) -> None:
    report = load(trials)
    by_task: dict[str | None, int] = {}
    for conv in report.conversations:
        by_task[conv.task_id] = by_task.get(conv.task_id, 0) + 1
    assert len(by_task) == 50 and set(by_task.values()) == {4}


def test_malformed_trials_are_skipped_or_kept_with_located_messages(trials: list[dict[str, Any]]) -> None:
    bad = copy.deepcopy(trials[:5])
    bad[0]["reward"] = "1"
    bad[1]["traj"] = []
    bad[1]["info"]["error"] = "RateLimitError"
    bad[2]["reward"] = 0.5
    bad[3]["traj"] = "oops"
    del bad[4]["task_id"]
    report = load(bad)
    errors = {i.record: i for i in report.errors}
    assert set(errors) == {0, 3, 4} and [s.record for s in report.skipped] == [0, 3, 4]
    assert errors[0].path == "reward" and errors[0].value == "'1'" and errors[0].line == 2
    assert "[0, 1]" in errors[0].rule and errors[0].fix
    assert errors[3].path == "traj" and "list of the trajectory's messages" in errors[3].rule
    assert errors[4].path == "task_id"
    warnings = {i.record: i for i in report.warnings}
    assert "RateLimitError" in warnings[1].rule and warnings[1].path == "traj"  # kept: a failed attempt counts
    assert "strictly between 0 and 1" in warnings[2].rule and "threshold to 1" in warnings[2].fix
    assert [c.conversation[0].score for c in report.conversations] == [trials[1]["reward"], 0.5]


def test_unknown_keys_and_missing_actions_are_reported(trials: list[dict[str, Any]]) -> None:
    bad = copy.deepcopy(trials[:1])
    bad[0]["rewrd"] = 1
    del bad[0]["info"]["task"]["actions"]
    del bad[0]["info"]["reward_info"]["actions"]
    report = load(bad)
    assert len(report.conversations) == 1
    paths = {i.path: i for i in report.warnings}
    assert "did you mean 'reward'?" in paths["rewrd"].fix
    assert "tool use is not scored" in paths["info.reward_info.actions"].rule
    assert report.conversations[0].conversation[0].ground_truth_agentic is None


def test_a_forced_wrong_format_is_a_clear_file_error(trials: list[dict[str, Any]]) -> None:
    report = load(trials[:2], fmt="openai")
    (error,) = report.errors
    assert "set to 'openai'" in error.rule and "tau-bench results" in error.rule and "'traj'" in error.rule
    assert not report.conversations


def test_records_in_memory_are_imported_too(trials: list[dict[str, Any]]) -> None:
    report = load_records(trials[:4], "run.json")
    assert len(report.conversations) == 4 and report.conversations[0].assistant_id == "run"
