"""Pieces the pages now share instead of copying: the headline columns, the diagonal and the diamond marker."""

from __future__ import annotations

from agentic_core.analysis import HeadlineNumbers
from ui.calibration_charts import diagonal, diamond
from ui.format import pct
from ui.trend_charts import headline_columns


def test_headline_columns_name_k_and_show_undefined_numbers_as_such() -> None:
    rows = [
        HeadlineNumbers(k=3, success_rate=0.5, success_rate_ci=(0.4, 0.6), pass_at_k=0.875, pass_at_k_ci=(0.8, 0.9),
                        pass_pow_k=0.125, pass_pow_k_ci=(0.05, 0.2)),
        HeadlineNumbers(k=3, success_rate=None, success_rate_ci=None, pass_at_k=None, pass_at_k_ci=None,
                        pass_pow_k=None, pass_pow_k_ci=None),
    ]
    columns = headline_columns(rows, 3)
    assert list(columns) == ["success rate", "success interval", "pass@3", "pass@3 interval", "pass^3",
                             "pass^3 interval"]
    assert columns["success rate"][0] == "50.0%" and columns["pass@3"][0] == "87.5%"
    assert columns["pass^3 interval"][0] != columns["pass@3 interval"][0]  # each number its own interval
    assert all(len(values) == 2 for values in columns.values())
    # undefined is not shown as a number: every number of the undefined row reads as pct(None) does, no interval
    assert [columns[label][1] for label in ("success rate", "pass@3", "pass^3")] == [pct(None)] * 3 == ["n/a"] * 3
    assert [columns[label][1] for label in ("success interval", "pass@3 interval", "pass^3 interval")] == [""] * 3


def test_diagonal_and_diamond() -> None:
    line = diagonal("chance")
    assert (list(line.x), list(line.y), line.name, line.hoverinfo) == ([0, 1], [0, 1], "chance", "skip")
    point = diamond(0.25, 0.75, "threshold 0.50", "t", 12)
    assert (list(point.x), list(point.y), point.marker.symbol, point.marker.size) == ([0.25], [0.75], "diamond", 12)
    assert point.customdata is None
    assert list(diamond(0.5, 0.9, "own", "t", 14, customdata=[7]).customdata) == [7]
