"""Comparing evaluated runs and assistants task by task, and the leaderboard of a run's assistants."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.analysis.compare_runs import Side, compare_sides, leaderboard_of
from agentic_core.errors import DataError
from agentic_core.evaluate import evaluate
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.datasets import conv, convs


def agent(name: str, passing: set[int], tasks: range = range(30), tools: bool = False) -> list[dict[str, Any]]:
    """One conversation per task; the ones in ``passing`` are answered correctly."""
    records = []
    for i in tasks:
        score = 0.9 if i in passing else 0.1
        record = conv(f"{name}-{i}", [score], task=f"t{i:02d}", tools=tools, used_b=2 if i % 2 else 5)
        record["assistant_id"] = name
        records.append(record)
    return records


def judged(*records: list[dict[str, Any]]) -> EvaluationResult:
    return evaluate(convs([r for rs in records for r in rs]), "dataset", cache_mode="off")


@pytest.fixture(scope="module")
def runs() -> tuple[EvaluationResult, EvaluationResult]:
    return judged(agent("a", set(range(15)))), judged(agent("b", set(range(23))))


def test_b_fixing_8_tasks_is_better_and_the_flipped_tasks_are_listed(runs: tuple[EvaluationResult, ...]) -> None:
    a, b = runs
    result = compare_sides(Side(a, label="base"), Side(b, label="new"))
    success = result.metrics[0]
    assert (success.metric, success.a, success.b) == ("success_rate", 0.5, pytest.approx(23 / 30))
    assert success.delta_ci is not None and success.delta_ci[0] > 0 and success.p_b_better >= 0.95  # type: ignore[operator]
    flipped = result.flipped()
    assert [t.task for t in flipped] == [f"t{i}" for i in range(15, 23)]
    assert all(t.change == "fixed" and t.a_sessions == (f"a-{t.task[1:].lstrip('0')}",) for t in flipped)
    doc = result.to_json()
    assert {"metrics", "tasks"} <= set(doc)
    assert set(doc["metrics"][0]) == {"metric", "k", "a", "b", "delta", "delta_ci", "p_b_better"}
    assert len(doc["tasks"]) == 30 and doc["tasks"][0]["change"] == "fixed"


def test_a_run_against_itself_changes_nothing(runs: tuple[EvaluationResult, ...]) -> None:
    a, _ = runs
    result = compare_sides(Side(a), Side(a, label="B"))
    for row in result.metrics:
        assert row.delta == 0.0 and row.delta_ci is not None and row.delta_ci[0] <= 0 <= row.delta_ci[1]
    assert not result.flipped()


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_identical_runs_say_the_same_verdicts_with_no_difference(runs: tuple[EvaluationResult, ...], mode: str) -> None:
    # Issue 36: a run against itself showed success_rate +0.000 [-0.154, +0.154] and P(B > A) 0.50.
    from agentic_core.analysis.compare_runs import SAME_VERDICTS_TEXT

    a, _ = runs
    settings = make_settings(mode=mode)
    result = compare_sides(Side(a, settings), Side(a, settings, label="B"))
    assert result.same_verdicts and result.notes[0] == SAME_VERDICTS_TEXT
    for row in result.paired.metrics:
        assert (row.delta, row.delta_ci, row.p_b_better) == (0.0, (0.0, 0.0), None)
    doc = result.to_json()
    assert doc["same_verdicts"] is True and doc["metrics"][0]["p_b_better"] is None
    assert doc["notes"][0].startswith("A and B have the same verdicts")
    other = compare_sides(Side(a, settings), Side(runs[1], settings, label="B"))
    assert not other.same_verdicts and other.to_json()["same_verdicts"] is False
    assert SAME_VERDICTS_TEXT not in other.notes


def test_tasks_only_one_side_attempted_are_listed_not_dropped() -> None:
    a = judged(agent("a", set(range(10)), tasks=range(0, 20)))
    b = judged(agent("b", set(range(10)), tasks=range(5, 25)))
    result = compare_sides(Side(a), Side(b, label="B"))
    assert result.paired.n_tasks == 15
    assert [t.task for t in result.unpaired()] == [f"t{i:02d}" for i in (*range(5), *range(20, 25))]
    assert {t.change for t in result.unpaired()} == {"only_a", "only_b"}
    assert any("5 tasks only in A and 5 tasks only in B" in note for note in result.notes)


def test_two_assistants_of_one_run_and_the_tool_dimensions() -> None:
    run = judged(agent("v1", set(range(12)), tools=True), agent("v2", set(range(20)), tools=True))
    result = compare_sides(Side(run, label="v1", assistant="v1"), Side(run, label="v2", assistant="v2"))
    assert result.paired.n_tasks == 30 and result.metrics[0].delta == pytest.approx(8 / 30)
    tools = {row.metric: row for row in result.tools}
    assert set(tools) >= {"tool_selection", "tool_parameters", "tool_overall"}
    assert tools["tool_parameters"].delta == 0.0  # the same tool calls on both sides
    with pytest.raises(DataError, match="v3"):
        compare_sides(Side(run, assistant="v1"), Side(run, label="B", assistant="v3"))


def test_runs_without_a_common_task_are_refused() -> None:
    a = judged(agent("a", {0}, tasks=range(0, 3)))
    b = judged(agent("b", {4}, tasks=range(3, 6)))
    with pytest.raises(DataError, match="share no task"):
        compare_sides(Side(a), Side(b, label="B"))


def test_bayesian_mode_and_k_come_from_side_a() -> None:
    a = judged(agent("a", set(range(15))))
    b = judged(agent("b", set(range(23))))
    settings = make_settings(mode="bayesian")
    result = compare_sides(Side(a, settings), Side(b, settings, label="B"))
    assert result.paired.mode == "bayesian" and result.k == 1
    assert result.metrics[0].interval_method == "hierarchical-copula"
    assert result.metrics[0].p_b_better >= 0.95  # type: ignore[operator]


def test_leaderboard_of_a_run_with_three_assistants() -> None:
    run = judged(agent("low", set(range(5))), agent("mid", set(range(15))), agent("high", set(range(27))))
    board = leaderboard_of(run, make_settings())
    assert [r.agent for r in board.rows] == ["high", "mid", "low"]
    assert board.rows[0].rank_probabilities[0] > 0.95
    with pytest.raises(DataError, match="two or more"):
        leaderboard_of(judged(agent("solo", {1})), make_settings())
