"""Figures of the trend across stored runs and of the per-assistant breakdown (numbers from agentic_core)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import plotly.graph_objects as go
from plotly.colors import qualitative

from agentic_core.analysis import AssistantRow, HeadlineNumbers
from agentic_core.runs import RunGrouping, TrendPoint
from ui.charts import AT_COLOR, BASE_LAYOUT, GUIDE_COLOR, POW_COLOR, rgba
from ui.format import ci_text, pct

RATE_COLOR = "#2ca02c"
"""The success rate's colour (pass@K and pass^K keep the curve's)."""


NOT_MEASURED = "not measured"
"""What a table shows for pass@K / pass^K the data does not measure (one attempt per task)."""


def _series(k: int, rows: Sequence[HeadlineNumbers] = ()) -> list[tuple[str, str, str]]:
    """(attribute, label, colour) of the headline numbers: pass@K and pass^K only if some row measures them."""
    series = [("success_rate", "success rate", RATE_COLOR)]
    if not rows or not all(r.not_measured for r in rows):
        series += [("pass_at_k", f"pass@{k}", AT_COLOR), ("pass_pow_k", f"pass^{k}", POW_COLOR)]
    return series


def headline_columns(rows: Sequence[HeadlineNumbers], k: int) -> dict[str, list[str]]:
    """The table columns of the headline numbers and their intervals, as the trend and the breakdown show them.

    ``success rate``, ``success interval``, ``pass@K``, ``pass@K interval``, ``pass^K``, ``pass^K interval``;
    "not measured" where the core withheld pass@K / pass^K (too few attempts per task).
    """
    columns: dict[str, list[str]] = {}
    for attr, label, _ in _series(k):
        unmeasured = attr != "success_rate"
        columns[label] = [NOT_MEASURED if unmeasured and r.not_measured else pct(getattr(r, attr)) for r in rows]
        interval = "success interval" if attr == "success_rate" else f"{label} interval"
        columns[interval] = [ci_text(getattr(r, f"{attr}_ci")) for r in rows]
    return columns


def _values_and_errors(
    rows: Sequence[HeadlineNumbers], attr: str
) -> tuple[list[float | None], list[float], list[float]]:
    """One headline number of every row, and its error bars (0 where it or its interval is undefined)."""
    values: list[float | None] = [getattr(r, attr) for r in rows]
    cis: list[tuple[float, float] | None] = [getattr(r, f"{attr}_ci") for r in rows]
    plus = [(ci[1] - v) if ci is not None and v is not None else 0.0 for v, ci in zip(values, cis, strict=True)]
    minus = [(v - ci[0]) if ci is not None and v is not None else 0.0 for v, ci in zip(values, cis, strict=True)]
    return values, plus, minus


def trend_figure(points: Sequence[TrendPoint], level: float) -> go.Figure:
    """Success rate, pass@K and pass^K of each stored run against when it was made, with interval bars."""
    fig = go.Figure()
    k = points[-1].k if points else 1
    xs = [datetime.fromtimestamp(p.created_at) for p in points]
    for attr, label, color in _series(k, points):
        values, plus, minus = _values_and_errors(points, attr)
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=values,
                mode="lines+markers",
                name=label,
                line={"color": color, "width": 3},
                error_y={"type": "data", "array": plus, "arrayminus": minus, "visible": True,
                         "color": rgba(color, 0.6), "thickness": 1.5},
                customdata=[[p.name, p.judge] for p in points],
                hovertemplate=f"{label} = %{{y:.1%}} (%{{customdata[0]}}, %{{customdata[1]}})<extra></extra>",
            )
        )  # fmt: skip
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        height=380,
        xaxis={"title": "run made"},
        yaxis={"title": f"probability ({level:.0%} intervals)", "range": [0, 1.05], "tickformat": ".0%"},
    )
    return fig


GROUP_COLORS = qualitative.D3
"""The lines of a grouped trend, in turn (ten, then again)."""


def grouped_trend_figure(
    groups: dict[str | None, list[TrendPoint]], grouping: RunGrouping, level: float
) -> go.Figure:
    """The success rate of each group's runs against when they were made: one line per tag or metadata value.

    Args:
        groups: The points per group (:meth:`RunGrouping.split`), ``None`` for runs without the tag or key.
        grouping: What the groups are (names the ``None`` group and the legend's title).
        level: The intervals' level (the axis title says it).
    """
    fig = go.Figure()
    for i, (value, points) in enumerate(groups.items()):
        color = GROUP_COLORS[i % len(GROUP_COLORS)]
        values, plus, minus = _values_and_errors(points, "success_rate")
        name = grouping.none_label() if value is None else value
        fig.add_trace(
            go.Scatter(
                x=[datetime.fromtimestamp(p.created_at) for p in points],
                y=values,
                mode="lines+markers",
                name=name,
                line={"color": color, "width": 3, "dash": "dot" if value is None else "solid"},
                error_y={"type": "data", "array": plus, "arrayminus": minus, "visible": True,
                         "color": rgba(color, 0.6), "thickness": 1.5},
                # The group's name as data, not template: a metadata value may hold %{...}.
                customdata=[[name, p.name, p.judge] for p in points],
                hovertemplate="%{customdata[0]}: success rate = %{y:.1%} (%{customdata[1]}, %{customdata[2]})"
                "<extra></extra>",
            )
        )  # fmt: skip
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        height=380,
        legend_title_text=grouping.label,
        xaxis={"title": "run made"},
        yaxis={"title": f"success rate ({level:.0%} intervals)", "range": [0, 1.05], "tickformat": ".0%"},
    )
    return fig


def assistant_figure(rows: Sequence[AssistantRow], level: float) -> go.Figure:
    """Grouped bars per assistant: success rate, pass@K and pass^K with interval error bars."""
    fig = go.Figure()
    k = rows[0].k if rows else 1
    names = [r.assistant for r in rows]
    for attr, label, color in _series(k, rows):
        values, plus, minus = _values_and_errors(rows, attr)
        fig.add_trace(
            go.Bar(
                x=names,
                y=[v if v is not None else 0.0 for v in values],
                name=label,
                marker_color=color,
                error_y={"type": "data", "array": plus, "arrayminus": minus, "visible": True, "color": GUIDE_COLOR},
                hovertemplate=f"%{{x}}: {label} = %{{y:.1%}}<extra></extra>",
            )
        )
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        barmode="group",
        height=360,
        yaxis={"title": f"probability ({level:.0%} intervals)", "range": [0, 1.05], "tickformat": ".0%"},
    )
    return fig
