"""The Compare page's view model (ui/views/compare_view.py), without Streamlit."""

from __future__ import annotations

import pytest

from agentic_core.analysis import Side, compare_sides, leaderboard_of
from agentic_core.settings import make_settings
from agentic_core.stats import MetricComparison
from tests.analysis.test_compare_runs import agent, judged
from ui import views


def _row(metric: str, k: int | None, delta: float | None, ci: tuple[float, float] | None) -> MetricComparison:
    return MetricComparison(metric=metric, k=k, a=0.5, b=0.5 + (delta or 0.0), delta=delta, delta_ci=ci,
                            p_b_better=None, n_tasks=7)


def test_metric_labels_carry_their_k() -> None:
    assert views.metric_label(_row("success_rate", 5, 0.1, (0.0, 0.2))) == "success rate"
    assert views.metric_label(_row("pass_at_k", 5, 0.1, (0.0, 0.2))) == "pass@5"
    assert views.metric_label(_row("pass_pow_k", 3, 0.1, (0.0, 0.2))) == "pass^3"
    assert views.metric_label(_row("tool_selection", None, 0.1, (0.0, 0.2))) == "tool: selection"


def test_delta_rows_keep_only_rows_with_a_delta_and_an_interval_in_order() -> None:
    rows = [
        _row("success_rate", None, 0.1, (0.05, 0.15)),
        _row("pass_at_k", 2, None, None),
        _row("pass_pow_k", 2, -0.2, None),
        _row("tool_overall", None, -0.3, (-0.4, -0.2)),
    ]
    chart = views.delta_rows(rows)
    assert chart and chart.rows == [rows[0], rows[3]]
    assert chart.labels == ["success rate", "tool: overall"]
    assert (chart.deltas, chart.lows, chart.highs) == ([0.1, -0.3], [0.05, -0.4], [0.15, -0.2])
    assert not views.delta_rows([rows[1]])
    # No P(B > A) (no difference): said so, not an even chance that reads as a coin toss (issue 36; was 50.0%).
    assert views.pass_hover([rows[0]]) == ["A 50.0%, B 60.0%, P(B > A) not given"]
    sure = rows[0].model_copy(update={"p_b_better": 0.0})  # a probability of 0 is shown as such, not as 50%
    assert views.pass_hover([sure]) == ["A 50.0%, B 60.0%, P(B > A) < 0.1%"]
    assert views.tool_hover([rows[3]]) == ["A 0.50, B 0.20, over 7 tasks"]


def test_words_and_labels() -> None:
    assert [views.delta_words(d) for d in (0.4, -0.05, None)] == ["+40.0 pts", "-5.0 pts", "n/a"]
    assert views.side_labels("v1", "v2") == ("v1", "v2")
    assert views.side_labels("v1", "v1") == ("v1 (A)", "v1 (B)")


def test_flipped_and_unpaired_tables_list_every_such_task() -> None:
    a = judged(agent("a", set(range(10)), tasks=range(0, 20)))
    b = judged(agent("b", set(range(14)), tasks=range(5, 25)))
    cmp = compare_sides(Side(a, label="base"), Side(b, label="new"))
    flipped = views.flipped_table(cmp)
    assert list(flipped.columns) == ["task", "change", "A correct", "B correct"]
    assert list(flipped["task"]) == [t.task for t in cmp.flipped()] and len(flipped) == 4
    assert set(flipped["change"]) == {"fixed in B"} and set(flipped["A correct"]) == {"0/1"}
    unpaired = views.unpaired_table(cmp)
    assert len(unpaired) == 10
    assert list(unpaired["only in"]) == ["base"] * 5 + ["new"] * 5


def test_leaderboard_table_has_one_probability_column_per_rank() -> None:
    run = judged(agent("low", set(range(5))), agent("mid", set(range(15))), agent("high", set(range(27))))
    board = leaderboard_of(run, make_settings())
    table, probs = views.leaderboard_table(board)
    assert probs == ["P(rank 1)", "P(rank 2)", "P(rank 3)"]
    assert list(table["assistant"]) == ["high", "mid", "low"] and list(table["rank"]) == [1, 2, 3]
    for name in probs:
        assert table[name].between(0.0, 1.0).all()
    assert table[probs].sum(axis=1).to_numpy() == pytest.approx(1.0)
    caption = views.leaderboard_caption(board, "success_rate")
    assert caption.startswith(f"Ranked by success rate over the {board.n_tasks} tasks every assistant attempted.")
