"""The Agentic metrics page's figure: each metric's run-level value with its interval."""

from __future__ import annotations

import plotly.graph_objects as go

from agentic_core.analysis import AgenticSummary
from ui.charts import TOOL_COLORS, bar_figure

METRIC_COLORS = {
    "tool call accuracy": TOOL_COLORS["selection"],
    "topic adherence": TOOL_COLORS["sequence"],
    "goal accuracy": TOOL_COLORS["parameters"],
    "goal (graded)": TOOL_COLORS["utilization"],
}


Bar = tuple[str, float | None, tuple[float, float] | None, int]  # name, value, interval, conversations


def _bars(summary: AgenticSummary) -> list[Bar]:
    """Each computed metric's bar, in the figure's order; goal accuracy is a share (Wilson), the others means."""
    bars: list[Bar] = []
    for name, stat in (
        ("tool call accuracy", summary.tool_call_accuracy),
        ("topic adherence", summary.topic_adherence),
    ):
        if stat is not None:
            bars.append((name, stat.mean, stat.ci, stat.n))
    if summary.goal_accuracy is not None:
        g = summary.goal_accuracy
        bars.append(("goal accuracy", g.rate, g.ci, g.n))
    if summary.goal_graded is not None:
        s = summary.goal_graded
        bars.append(("goal (graded)", s.mean, s.ci, s.n))
    return bars


def chart_values(summary: AgenticSummary) -> list[float | None]:
    """Each computed metric's run-level value, ``None`` where it is n/a (the bars the figure would draw)."""
    return [bar[1] for bar in _bars(summary)]


def agentic_figure(summary: AgenticSummary) -> go.Figure:
    """Bars: each computed metric's mean (or share) over the scored conversations; error bars: intervals."""
    bars = _bars(summary)
    names = [bar[0] for bar in bars]
    return bar_figure(
        names,
        [bar[1] for bar in bars],
        [bar[2] for bar in bars],
        [bar[3] for bar in bars],
        [METRIC_COLORS[n] for n in names],
        "conversations",
        320,
        "value",
    )
