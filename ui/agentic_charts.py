"""The Agentic metrics page's figure: each metric's run-level value with its interval."""

from __future__ import annotations

import plotly.graph_objects as go

from agentic_core.analysis import AgenticSummary
from ui.charts import BASE_LAYOUT, GUIDE_COLOR, TOOL_COLORS

METRIC_COLORS = {
    "tool call accuracy": TOOL_COLORS["selection"],
    "topic adherence": TOOL_COLORS["sequence"],
    "goal accuracy": TOOL_COLORS["parameters"],
    "goal (graded)": TOOL_COLORS["utilization"],
}


def chart_values(summary: AgenticSummary) -> list[float | None]:
    """Each computed metric's run-level value, ``None`` where it is n/a (the bars the figure would draw)."""
    found = [summary.tool_call_accuracy, summary.topic_adherence, summary.goal_graded]
    values: list[float | None] = [s.mean for s in found if s is not None]
    if summary.goal_accuracy is not None:
        values.append(summary.goal_accuracy.rate)
    return values


def agentic_figure(summary: AgenticSummary) -> go.Figure:
    """Bars: each computed metric's mean (or share) over the scored conversations; error bars: intervals."""
    entries: list[tuple[str, float | None, tuple[float, float] | None, int]] = []
    if summary.tool_call_accuracy is not None:
        s = summary.tool_call_accuracy
        entries.append(("tool call accuracy", s.mean, s.ci, s.n))
    if summary.topic_adherence is not None:
        s = summary.topic_adherence
        entries.append(("topic adherence", s.mean, s.ci, s.n))
    if summary.goal_accuracy is not None:
        g = summary.goal_accuracy
        entries.append(("goal accuracy", g.rate, g.ci, g.n))
    if summary.goal_graded is not None:
        s = summary.goal_graded
        entries.append(("goal (graded)", s.mean, s.ci, s.n))
    names = [e[0] for e in entries]
    means = [e[1] if e[1] is not None else 0.0 for e in entries]
    plus = [(e[2][1] - e[1]) if e[2] and e[1] is not None else 0.0 for e in entries]
    minus = [(e[1] - e[2][0]) if e[2] and e[1] is not None else 0.0 for e in entries]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=means,
            marker_color=[METRIC_COLORS[n] for n in names],
            error_y={"type": "data", "array": plus, "arrayminus": minus, "visible": True, "color": GUIDE_COLOR},
            text=["n/a" if e[1] is None else f"{e[1]:.2f}" for e in entries],
            textposition="inside",
            insidetextanchor="start",
            textfont={"color": "#ffffff"},
            customdata=[e[3] for e in entries],
            hovertemplate="%{x}: %{y:.3f} over %{customdata} conversations<extra></extra>",
        )
    )
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"}, height=320, yaxis={"range": [0, 1.05], "title": "value"}
    )
    return fig
