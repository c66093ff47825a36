"""The trend split per tag or metadata value: one success-rate line per group, runs without one on a dotted line."""

from __future__ import annotations

import pytest

from agentic_core.runs import RunGrouping
from agentic_core.runs.trends import TrendPoint
from ui.trend_charts import grouped_trend_figure


def _point(i: int, rate: float, **metadata: str) -> TrendPoint:
    return TrendPoint(
        run_id=f"r{i}", name=f"run {i}", created_at=1_790_000_000 + 3600 * i, judge="dataset", k=1, conversations=10,
        success_rate=rate, success_rate_ci=(rate - 0.1, rate + 0.2), pass_at_k=None, pass_at_k_ci=None,
        pass_pow_k=None, pass_pow_k_ci=None, metadata=metadata,
    )  # fmt: skip


def test_one_line_per_value_with_interval_bars_and_the_runs_without_the_key_dotted() -> None:
    grouping = RunGrouping(by="metadata", key="model")
    points = [_point(0, 0.5, model="gpt-4o"), _point(1, 0.6), _point(2, 0.7, model="gpt-4o")]
    points.append(_point(3, 0.4, model="%{y}"))  # a value that reads like Plotly's template syntax
    fig = grouped_trend_figure(grouping.split(points), grouping, 0.9)
    assert [t.name for t in fig.data] == ["%{y}", "gpt-4o", "(no model)"]
    gpt = fig.data[1]
    assert list(gpt.y) == [0.5, 0.7] and [row[1] for row in gpt.customdata] == ["run 0", "run 2"]
    assert list(gpt.error_y.array) == pytest.approx([0.2, 0.2])
    assert list(gpt.error_y.arrayminus) == pytest.approx([0.1, 0.1])
    assert fig.data[2].line.dash == "dot" and gpt.line.dash == "solid"
    # The group's name is data, not template: every line has the same template.
    assert fig.data[0].customdata[0][0] == "%{y}" and len({t.hovertemplate for t in fig.data}) == 1
    assert fig.layout.legend.title.text == "metadata: model" and "90% intervals" in fig.layout.yaxis.title.text
