"""Figures of the trend across stored runs and of the per-assistant breakdown (numbers from agentic_core)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import plotly.graph_objects as go

from agentic_core.analysis import AssistantRow
from agentic_core.runs import TrendPoint
from ui.charts import AT_COLOR, BASE_LAYOUT, GUIDE_COLOR, POW_COLOR, rgba

RATE_COLOR = "#2ca02c"
"""The success rate's colour (pass@K and pass^K keep the curve's)."""


def _series(k: int) -> list[tuple[str, str, str]]:
    """(attribute, label, colour) of the three headline numbers."""
    return [
        ("success_rate", "success rate", RATE_COLOR),
        ("pass_at_k", f"pass@{k}", AT_COLOR),
        ("pass_pow_k", f"pass^{k}", POW_COLOR),
    ]


def _errors(values: list[float | None], cis: list[tuple[float, float] | None]) -> tuple[list[float], list[float]]:
    plus = [(ci[1] - v) if ci is not None and v is not None else 0.0 for v, ci in zip(values, cis, strict=True)]
    minus = [(v - ci[0]) if ci is not None and v is not None else 0.0 for v, ci in zip(values, cis, strict=True)]
    return plus, minus


def trend_figure(points: Sequence[TrendPoint], level: float) -> go.Figure:
    """Success rate, pass@K and pass^K of each stored run against when it was made, with interval bars."""
    fig = go.Figure()
    k = points[-1].k if points else 1
    xs = [datetime.fromtimestamp(p.created_at) for p in points]
    for attr, label, color in _series(k):
        values = [getattr(p, attr) for p in points]
        plus, minus = _errors(values, [getattr(p, f"{attr}_ci") for p in points])
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


def assistant_figure(rows: Sequence[AssistantRow], level: float) -> go.Figure:
    """Grouped bars per assistant: success rate, pass@K and pass^K with interval error bars."""
    fig = go.Figure()
    k = rows[0].k if rows else 1
    names = [r.assistant for r in rows]
    for attr, label, color in _series(k):
        values = [getattr(r, attr) for r in rows]
        plus, minus = _errors(values, [getattr(r, f"{attr}_ci") for r in rows])
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
