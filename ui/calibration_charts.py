"""Plotly figures of the Calibration page: ROC curve, threshold sweep, reliability diagram.

Rendering only (every number comes from :mod:`agentic_core.analysis.calibration`), with the conventions of
:mod:`ui.charts`: Streamlit's theme, the shared layout and the colours that read on both themes.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from agentic_core.analysis import Calibration, threshold_text
from ui.charts import AT_COLOR, BASE_LAYOUT, GUIDE_COLOR, POW_COLOR


def _threshold_line(fig: go.Figure, x: float, text: str, dash: str) -> None:
    fig.add_vline(
        x=x,
        line={"color": GUIDE_COLOR, "dash": dash, "width": 1.5},
        annotation={"text": text, "showarrow": False, "yanchor": "bottom"},
        annotation_position="top",
    )


def diagonal(name: str) -> go.Scatter:
    """The dotted 0-1 diagonal (chance on a ROC curve, perfect calibration on a reliability diagram)."""
    return go.Scatter(
        x=[0, 1], y=[0, 1], mode="lines", line={"color": GUIDE_COLOR, "dash": "dot"}, name=name, hoverinfo="skip"
    )


def diamond(
    x: float, y: float, name: str, hovertemplate: str, size: int, customdata: list[int] | None = None
) -> go.Scatter:
    """One highlighted point (the current threshold, the judge's own abstentions) drawn as a diamond."""
    return go.Scatter(
        x=[x],
        y=[y],
        mode="markers",
        marker={"color": POW_COLOR, "size": size, "symbol": "diamond"},
        name=name,
        hovertemplate=hovertemplate,
        customdata=customdata,
    )


def roc_figure(cal: Calibration) -> go.Figure:
    """The ROC curve (false against true positive rate), the chance diagonal, and the current threshold."""
    xs, ys = zip(*cal.roc, strict=True) if cal.roc else ((), ())
    fig = go.Figure()
    fig.add_trace(diagonal("chance"))
    auc = "undefined" if cal.auc is None else f"{cal.auc:.3f}"
    fig.add_trace(
        go.Scatter(
            x=list(xs),
            y=list(ys),
            mode="lines+markers",
            line={"color": AT_COLOR, "width": 3, "shape": "hv"},
            name=f"judge (AUC {auc})",
            hovertemplate="false positive rate %{x:.2f}<br>true positive rate %{y:.2f}<extra></extra>",
        )
    )
    point = cal.at_threshold
    if point.false_positive_rate is not None and point.true_positive_rate is not None:
        fig.add_trace(
            diamond(
                point.false_positive_rate,
                point.true_positive_rate,
                f"threshold {threshold_text(cal.threshold)}",
                "at the threshold: FPR %{x:.2f}, TPR %{y:.2f}<extra></extra>",
                12,
            )
        )
    layout = {**BASE_LAYOUT, "hovermode": "closest"}
    fig.update_layout(
        **layout,
        height=360,
        xaxis={"title": "false positive rate (wrong answers passed)", "range": [-0.02, 1.02], "tickformat": ".0%"},
        yaxis={"title": "true positive rate (right answers passed)", "range": [-0.02, 1.02], "tickformat": ".0%"},
    )
    return fig


def sweep_figure(cal: Calibration) -> go.Figure:
    """Accuracy and Cohen's kappa at every threshold, with the current and the suggested threshold.

    A threshold t gives the verdicts ``score >= t``: every t above one sweep point and up to the next
    agrees as the next point does, so the steps are drawn ``vh`` (rise at a point, then run flat to the next
    one). Drawn ``hv``, the line at the 0.50 marker showed the kappa of the answer just below 0.50, not the
    page's. The diamond is the page's kappa at the current threshold; the band is the suggested range.
    """
    fig = go.Figure()
    ts = [p.threshold for p in cal.sweep]
    for values, color, name in (
        ([p.accuracy for p in cal.sweep], AT_COLOR, "accuracy"),
        ([p.kappa for p in cal.sweep], POW_COLOR, "Cohen's kappa"),
    ):
        fig.add_trace(
            go.Scatter(
                x=ts,
                y=values,
                mode="lines+markers",
                line={"color": color, "width": 3, "shape": "vh"},
                name=name,
                hovertemplate=f"threshold %{{x:.3f}}: {name} %{{y:.3f}}<extra></extra>",
            )
        )
    current = threshold_text(cal.threshold)
    fig.add_trace(
        diamond(
            cal.threshold,
            cal.at_threshold.kappa,
            f"kappa at {current}",
            f"at the threshold {current}: kappa %{{y:.3f}}<extra></extra>",
            12,
        )
    )
    _threshold_line(fig, cal.threshold, f"current {current}", "dash")
    low, high = cal.suggested_range
    if high > low:
        fig.add_vrect(x0=low, x1=high, fillcolor=GUIDE_COLOR, opacity=0.15, line_width=0, layer="below")
    if not math.isclose(cal.suggested_threshold, cal.threshold, abs_tol=1e-9):
        _threshold_line(fig, cal.suggested_threshold, f"suggested {threshold_text(cal.suggested_threshold)}", "dot")
    bottom = min([0.0, *(p.kappa for p in cal.sweep)])
    fig.update_layout(
        **BASE_LAYOUT,
        height=360,
        xaxis={"title": "answer threshold (correct when score >= threshold)", "range": [-0.02, 1.02]},
        yaxis={"title": "agreement with people", "range": [bottom - 0.05, 1.05]},
    )
    return fig


def reliability_figure(cal: Calibration) -> go.Figure:
    """Per judge-score bin, the share people marked correct against the mean score (diagonal = calibrated)."""
    bins = [b for b in cal.reliability if b.n]
    fig = go.Figure()
    fig.add_trace(diagonal("perfectly calibrated"))
    fig.add_trace(
        go.Bar(
            x=[(b.low + b.high) / 2 for b in bins],
            y=[b.human_correct_rate for b in bins],
            width=[(b.high - b.low) * 0.9 for b in bins],
            marker={"color": AT_COLOR, "opacity": 0.55},
            name="share people marked correct",
            customdata=[[b.low, b.high, b.n, b.mean_score] for b in bins],
            hovertemplate="scores %{customdata[0]:.1f}–%{customdata[1]:.1f}: %{customdata[2]} answers, "
            "%{y:.0%} correct by people (mean score %{customdata[3]:.2f})<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[b.mean_score for b in bins],
            y=[b.human_correct_rate for b in bins],
            mode="markers",
            marker={"color": POW_COLOR, "size": [min(24, 6 + 2 * b.n**0.5) for b in bins]},
            name="bin mean score",
            hovertemplate="mean score %{x:.2f}: %{y:.0%} correct by people<extra></extra>",
        )
    )
    layout = {**BASE_LAYOUT, "hovermode": "closest"}
    fig.update_layout(
        **layout,
        height=360,
        xaxis={"title": "judge score", "range": [0, 1]},
        yaxis={"title": "share people marked correct", "range": [0, 1.05], "tickformat": ".0%"},
    )
    return fig
