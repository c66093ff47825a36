"""The Calibration page's selective-accuracy chart: accuracy on the verdicts given against coverage.

Rendering only: the curve and the judge's own point come from :mod:`agentic_core.analysis.selective`.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from agentic_core.analysis import AbstentionPoint
from ui.calibration_charts import diamond
from ui.charts import AT_COLOR, BASE_LAYOUT


def selective_figure(curve: pd.DataFrame, own: AbstentionPoint) -> go.Figure:
    """Selective accuracy (y) against coverage (x), one marker per share abstained, and the judge's own point."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=curve["coverage"].tolist(),
            y=curve["accuracy"].tolist(),
            mode="lines+markers",
            line={"color": AT_COLOR, "width": 3},
            name="abstaining on the least sure",
            customdata=curve[["abstained_share", "n_given"]].to_numpy().tolist(),
            hovertemplate="abstaining on %{customdata[0]:.0%}: accuracy %{y:.1%} on %{customdata[1]} verdicts "
            "(coverage %{x:.0%})<extra></extra>",
        )
    )
    if own.accuracy is not None:
        fig.add_trace(
            diamond(
                own.coverage,
                own.accuracy,
                f"the judge's own abstentions ({own.n_abstained})",
                "the judge abstained on %{customdata} answers: accuracy %{y:.1%} on the rest "
                "(coverage %{x:.0%})<extra></extra>",
                14,
                customdata=[own.n_abstained],
            )
        )
    low = min([float(curve["accuracy"].min()), own.accuracy or 1.0, 0.5])
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        height=360,
        xaxis={"title": "coverage (share of labelled answers given a verdict)", "range": [1.02, 0.35],
               "tickformat": ".0%"},
        yaxis={"title": "accuracy on the verdicts given", "range": [low - 0.02, 1.01], "tickformat": ".0%"},
    )
    return fig
