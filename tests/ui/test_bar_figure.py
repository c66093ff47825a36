"""The one bar chart of means with intervals (ui.charts.bar_figure) the Tools and Agentic metrics pages draw."""

from __future__ import annotations

from agentic_core.analysis import ToolSummary
from agentic_core.analysis.tool_summary import DimensionStat
from ui.charts import bar_figure, tool_dimension_figure


def test_bars_with_intervals_and_na() -> None:
    fig = bar_figure(
        ["a", "b", "c"], [0.5, None, 0.2], [(0.4, 0.7), (0.1, 0.2), None], [10, 0, 3], ["red", "green", "blue"],
        "conversations", 300, "value",
    )  # fmt: skip
    bar = fig.data[0]
    # No value: no bar (issue 36: a bar at 0 read as 0, and its n/a inside a bar of no height did not show) ...
    assert list(bar.y) == [0.5, None, 0.2]
    assert list(bar.text) == ["0.50", "n/a", "0.20"]
    # ... but the words n/a at its foot.
    assert [(a.x, a.y, a.text) for a in fig.layout.annotations] == [("b", 0, "n/a")]
    assert [round(x, 9) for x in bar.error_y.array] == [0.2, 0.0, 0.0]
    assert [round(x, 9) for x in bar.error_y.arrayminus] == [0.1, 0.0, 0.0]
    assert "conversations" in bar.hovertemplate and fig.layout.height == 300
    # Hover reads the value as text: the bar without one hovers n/a, not the 0 it is drawn at.
    assert [list(c) for c in bar.customdata] == [["0.500", 10], ["n/a", 0], ["0.200", 3]]
    assert "%{customdata[0]}" in bar.hovertemplate and "%{y" not in bar.hovertemplate


def test_a_tool_dimension_without_values_reads_na() -> None:
    empty = DimensionStat(mean=None, ci=None, n=0)
    full = DimensionStat(mean=0.8, ci=(0.7, 0.9), n=12, interval_method="t")
    summary = ToolSummary(
        dimensions={"selection": full, "parameters": full, "sequence": empty, "utilization": full},
        overall=full, scored_interactions=12, correct_interactions=9, tool_threshold=1.0,
        weights={"selection": 0.25, "parameters": 0.25, "sequence": 0.25, "utilization": 0.25},
        ignore_extra_tools=False,
    )  # fmt: skip
    bar = tool_dimension_figure(summary).data[0]
    assert list(bar.text) == ["0.80", "0.80", "n/a", "0.80", "0.80"]
    assert "interactions" in bar.hovertemplate
