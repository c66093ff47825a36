"""Trend and per-assistant figures: three series, interval bars around each value."""

from __future__ import annotations

import pytest

from agentic_core.analysis.assistant_breakdown import AssistantRow
from agentic_core.runs.trends import TrendPoint
from ui.trend_charts import assistant_figure, trend_figure


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
