"""The ranking rule of per-task posteriors: worst first, ties by the upper bound then the key; undefined left out."""

from __future__ import annotations

import pandas as pd
import pytest

from agentic_core.analysis import RANK_METRICS, rank_tasks
from agentic_core.errors import SettingsError


def tasks(**columns: list[object]) -> pd.DataFrame:
    """A per-task table with every metric equal to ``success_rate`` unless given."""
    frame = pd.DataFrame(columns)
    for metric in RANK_METRICS:
        if metric not in frame:
            frame[metric] = frame["success_rate"]
        if f"{metric}_ci_high" not in frame:
            frame[f"{metric}_ci_high"] = frame[metric] + 0.1
    return frame


def test_worst_first_then_lowest_upper_bound_then_key() -> None:
    table = tasks(
        group=["d", "c", "b", "a"],
        defined=[True, True, True, True],
        success_rate=[0.5, 0.2, 0.5, 0.5],
        success_rate_ci_high=[0.9, 0.4, 0.7, 0.9],
    )
    ranking = rank_tasks(table, "success_rate")
    # c is lowest; b ties a and d on the mean but has the lower upper bound; a and d tie on both: key order.
    assert ranking.ranked["group"].tolist() == ["c", "b", "a", "d"]
    assert ranking.ranked.index.tolist() == [0, 1, 2, 3]  # index + 1 is the rank
    assert ranking.n_undefined == 0


def test_each_metric_ranks_by_its_own_column() -> None:
    table = tasks(group=["x", "y"], defined=[True, True], success_rate=[0.1, 0.9], pass_pow_k=[0.8, 0.3])
    assert rank_tasks(table, "success_rate").ranked["group"].tolist() == ["x", "y"]
    assert rank_tasks(table, "pass_pow_k").ranked["group"].tolist() == ["y", "x"]


def test_undefined_tasks_are_counted_not_ranked_as_zero() -> None:
    table = tasks(group=["a", "b", "c"], defined=[True, False, True], success_rate=[0.4, float("nan"), 0.3])
    ranking = rank_tasks(table, "success_rate")
    assert ranking.ranked["group"].tolist() == ["c", "a"]
    assert ranking.n_undefined == 1


def test_an_unknown_metric_is_named_with_the_choices() -> None:
    with pytest.raises(SettingsError) as err:
        rank_tasks(tasks(group=["a"], defined=[True], success_rate=[0.5]), "pass_at_1")
    assert "pass_at_1" in str(err.value) and "success_rate" in str(err.value)


@pytest.mark.parametrize(("n", "per_end", "separator", "kept"), [(6, 3, None, 6), (7, 3, 3, 6), (30, 5, 5, 10)])
def test_ends_keep_the_worst_and_the_best(n: int, per_end: int, separator: int | None, kept: int) -> None:
    table = tasks(group=[f"t{i:02d}" for i in range(n)], defined=[True] * n, success_rate=[i / n for i in range(n)])
    shown, after = rank_tasks(table, "success_rate").ends(per_end)
    assert after == separator
    assert len(shown) == kept
    assert shown["group"].iloc[0] == "t00" and shown["group"].iloc[-1] == f"t{n - 1:02d}"
    if separator is not None:  # the middle is left out; the ranks (index) are kept
        assert shown.index.tolist() == [*range(per_end), *range(n - per_end, n)]


def test_ends_need_at_least_one_task_each() -> None:
    ranking = rank_tasks(tasks(group=["a"], defined=[True], success_rate=[0.5]), "success_rate")
    with pytest.raises(SettingsError):
        ranking.ends(0)
