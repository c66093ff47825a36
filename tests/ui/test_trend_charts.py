"""Trend and per-assistant figures: three series, interval bars around each value."""

from __future__ import annotations

import pytest

from agentic_core.analysis.assistant_breakdown import AssistantRow
from agentic_core.runs.trends import TrendPoint
from ui.trend_charts import NOT_MEASURED, assistant_figure, headline_columns, trend_figure


def _point(i: int) -> TrendPoint:
    return TrendPoint(
        run_id=f"r{i}", name=f"run {i}", created_at=1_790_000_000 + 3600 * i, judge="dataset", k=3, conversations=10,
        success_rate=0.5, success_rate_ci=(0.4, 0.7), pass_at_k=0.8, pass_at_k_ci=(0.7, 0.9),
        pass_pow_k=0.2, pass_pow_k_ci=None,
    )  # fmt: skip


def test_trend_figure_has_the_three_numbers_with_interval_bars() -> None:
    fig = trend_figure([_point(0), _point(1)], 0.95)
    assert [t.name for t in fig.data] == ["success rate", "pass@3", "pass^3"]
    rate = fig.data[0]
    assert list(rate.error_y.array) == pytest.approx([0.2, 0.2]) and list(rate.error_y.arrayminus) == pytest.approx(
        [0.1, 0.1]
    )
    assert list(fig.data[2].error_y.array) == [0.0, 0.0]  # no interval: no bar


def test_assistant_figure_groups_bars_per_assistant() -> None:
    rows = [
        AssistantRow(
            assistant=name, conversations=3, scored_conversations=3, correct_conversations=2, groups=3, k=2,
            success_rate=0.6, success_rate_ci=(0.5, 0.9), pass_at_k=None, pass_at_k_ci=None, pass_pow_k=0.3,
            pass_pow_k_ci=(0.1, 0.4),
        )
        for name in ("a", "b")
    ]
    fig = assistant_figure(rows, 0.9)
    assert fig.layout.barmode == "group"
    assert [list(t.x) for t in fig.data] == [["a", "b"]] * 3
    assert list(fig.data[1].y) == [0.0, 0.0]  # an undefined pass@K is drawn as an empty bar


def test_pass_at_k_the_core_did_not_measure_is_neither_drawn_nor_a_number() -> None:
    # Issue 36: one attempt per task; the core left pass@K / pass^K None and said why.
    why = "pass@3 and pass^3 are not measured: every task has one attempt"
    points = [_point(i).model_copy(update={"pass_at_k": None, "pass_at_k_ci": None, "pass_pow_k": None,
                                           "not_measured": why}) for i in range(2)]  # fmt: skip
    assert [t.name for t in trend_figure(points, 0.95).data] == ["success rate"]
    columns = headline_columns(points, 3)
    assert columns["pass@3"] == columns["pass^3"] == [NOT_MEASURED] * 2 and columns["success rate"] == ["50.0%"] * 2
    # One run measured, one not: both series drawn, the unmeasured cell says so.
    mixed = [_point(0), points[1]]
    assert [t.name for t in trend_figure(mixed, 0.95).data] == ["success rate", "pass@3", "pass^3"]
    assert headline_columns(mixed, 3)["pass@3"] == ["80.0%", NOT_MEASURED]
