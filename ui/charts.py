"""Plotly figures for the pages. Rendering only: every number comes from agentic_core.

Figures are built without a Plotly template, so by default (the sidebar's chart theme "auto") they are
drawn with Streamlit's theme and follow the app's light or dark theme. When the reader picks "light" or
"dark", :func:`apply_chart_theme` gives a figure that template (:data:`CHART_TEMPLATES`: Plotly's own, on
Streamlit's background and text colours) and the page renders it without Streamlit's theme
(``ui/theme.py``). Every colour that carries meaning has a contrast of at least 3:1 against both the
light (#ffffff) and the dark (#0e1117) background (WCAG's rule for graphics; ``tests/ui/test_charts.py``
checks it), and annotation boxes are translucent grey, never white.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from agentic_core.analysis import ToolSummary
from agentic_core.stats import CurvePoint

AT_COLOR = "#1f77b4"
POW_COLOR = "#d62728"
P_COLOR = "#2ca02c"
"""The success rate p (pass@1) where it is drawn next to pass@K and pass^K."""
BASE_LAYOUT: dict[str, Any] = {
    "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
    "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "left", "x": 0},
    "hovermode": "x unified",
}
GUIDE_COLOR = "#888888"
"""Reference lines (target, population mean, separators): readable on both themes."""
LABEL_BOX = "rgba(128,128,128,0.22)"
"""Annotation background: lifts a label off the bars in both themes (white made dark-theme text vanish)."""
TOOL_COLORS = {
    "selection": "#4c78a8",
    "parameters": "#e45756",
    "sequence": "#54a24b",
    "utilization": "#b279a2",
    "overall": "#7f7f7f",
}


ChartTheme = Literal["auto", "light", "dark"]
CHART_THEMES: tuple[ChartTheme, ...] = ("auto", "light", "dark")
BACKGROUNDS = {"light": "#ffffff", "dark": "#0e1117"}
"""Streamlit's light and dark backgrounds: an explicitly themed chart sits on the same colour."""
TEXT_COLORS = {"light": "#31333f", "dark": "#fafafa"}
"""Streamlit's text colours on those backgrounds (axis labels, ticks, titles, legends)."""


def _template(theme: Literal["light", "dark"]) -> go.layout.Template:
    base = go.layout.Template(pio.templates["plotly_white" if theme == "light" else "plotly_dark"])
    base.layout.update(
        paper_bgcolor=BACKGROUNDS[theme],
        plot_bgcolor=BACKGROUNDS[theme],
        font={"color": TEXT_COLORS[theme]},
        hoverlabel={"font": {"color": TEXT_COLORS[theme]}, "bgcolor": BACKGROUNDS[theme]},
    )
    return base


CHART_TEMPLATES: dict[str, go.layout.Template] = {"light": _template("light"), "dark": _template("dark")}
"""The Plotly template of each explicit chart theme (Plotly's plotly_white / plotly_dark, Streamlit's colours)."""


def apply_chart_theme(fig: go.Figure, theme: ChartTheme) -> go.Figure:
    """Give ``fig`` the template of ``theme`` (in place; returned). ``auto`` leaves it to Streamlit's theme."""
    if theme != "auto":
        fig.update_layout(template=CHART_TEMPLATES[theme])
    return fig


def rgba(hex_color: str, alpha: float) -> str:
    r, g, b = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _band(xs: list[int], lows: list[float], highs: list[float], color: str, name: str) -> go.Scatter:
    # One closed polygon (mode="lines" only: markers would leave stray dots at the corners).
    return go.Scatter(
        x=xs + xs[::-1],
        y=highs + lows[::-1],
        fill="toself",
        fillcolor=rgba(color, 0.18),
        line={"width": 0},
        mode="lines",
        hoverinfo="skip",
        name=name,
        showlegend=True,
    )


def curve_figure(curve: Sequence[CurvePoint], level: float) -> go.Figure:
    """pass@k and pass^k against k with shaded interval bands."""
    fig = go.Figure()
    for attr, ci_attr, color, label in (
        ("pass_at_k", "pass_at_k_ci", AT_COLOR, "pass@k"),
        ("pass_pow_k", "pass_pow_k_ci", POW_COLOR, "pass^k"),
    ):
        pts = [p for p in curve if getattr(p, attr) is not None]
        with_ci = [p for p in pts if getattr(p, ci_attr) is not None]
        if len(with_ci) >= 1:
            xs = [p.k for p in with_ci]
            fig.add_trace(
                _band(
                    xs,
                    [getattr(p, ci_attr)[0] for p in with_ci],
                    [getattr(p, ci_attr)[1] for p in with_ci],
                    color,
                    f"{label} {level:.0%} interval",
                )
            )
        fig.add_trace(
            go.Scatter(
                x=[p.k for p in pts],
                y=[getattr(p, attr) for p in pts],
                mode="lines+markers",
                line={"color": color, "width": 3},
                name=label,
                hovertemplate=f"{label} = %{{y:.3f}}<extra></extra>",
            )
        )
    fig.update_layout(
        **BASE_LAYOUT,
        height=380,
        xaxis={
            "title": "k (attempts)",
            "dtick": 1,
            "range": [0.8, max((p.k for p in curve), default=1) + 0.2],
        },
        yaxis={"title": "probability", "range": [0, 1.02], "tickformat": ".0%"},
    )
    return fig


def posterior_figure(
    samples: np.ndarray,
    ci: tuple[float, float] | None,
    mean: float | None,
    title: str,
    color: str = AT_COLOR,
    target: float | None = None,
) -> go.Figure:
    """Histogram (as density) of posterior samples with the credible interval shaded."""
    fig = go.Figure()
    fig.add_trace(
        go.Histogram(
            x=samples,
            histnorm="probability density",
            nbinsx=60,
            marker={"color": rgba(color, 0.55), "line": {"width": 0}},
            name="posterior",
            hovertemplate="%{x:.1%}<extra></extra>",
        )
    )
    # Percentages, as on the KPI cards above the histograms.
    if ci is not None:
        fig.add_vrect(
            x0=ci[0],
            x1=ci[1],
            fillcolor=rgba(color, 0.12),
            line_width=0,
            annotation_text=f"interval [{ci[0]:.1%}, {ci[1]:.1%}]",
            annotation_position="top left",
        )
    # Three rows of labels: the interval's at the top, the target's below it, the mean's at the bottom;
    # drawn at one height they overlapped whenever the mean sat near the interval's edge or the target.
    if mean is not None:
        fig.add_vline(
            x=mean,
            line={"color": color, "width": 2},
            annotation_text=f"mean {mean:.1%}",
            annotation_position="bottom right",
        )
    if target is not None:
        fig.add_vline(
            x=target,
            line={"color": GUIDE_COLOR, "dash": "dash"},
            annotation_text=f"target {target:.0%}",
            annotation_position="top right",
            annotation_yshift=-24,
        )
    for annotation in fig.layout.annotations:
        annotation.update(bgcolor=LABEL_BOX)
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        title={"text": title, "font": {"size": 15}},
        height=300,
        showlegend=False,
        xaxis={"range": [0, 1], "tickformat": ".0%"},
        yaxis={"title": "density"},
        bargap=0.02,
    )
    return fig


def bar_figure(
    names: Sequence[str],
    means: Sequence[float | None],
    cis: Sequence[tuple[float, float] | None],
    counts: Sequence[int],
    colors: Sequence[str],
    counted: str,
    height: int,
    y_title: str,
) -> go.Figure:
    """Bars of means in [0, 1] with their intervals as error bars; ``n/a`` on a bar without a value.

    Args:
        names: One bar each.
        means: Each bar's value, ``None`` where there is none (no bar: the words "n/a" at its foot; a bar
            at 0 read as a value of 0, and its label inside a bar of no height did not show).
        cis: Each bar's interval, or ``None``.
        counts: What each value is over (shown on hover).
        colors: Each bar's colour.
        counted: What the counts count ("interactions", "conversations").
        height: The figure's height in pixels.
        y_title: The value axis' title.
    """
    heights = list(means)
    plus = [(ci[1] - m) if ci and m is not None else 0.0 for m, ci in zip(means, cis, strict=True)]
    minus = [(m - ci[0]) if ci and m is not None else 0.0 for m, ci in zip(means, cis, strict=True)]
    fig = go.Figure(
        go.Bar(
            x=list(names),
            y=heights,
            marker_color=list(colors),
            error_y={"type": "data", "array": plus, "arrayminus": minus, "visible": True, "color": GUIDE_COLOR},
            text=["n/a" if m is None else f"{m:.2f}" for m in means],
            # At the foot of the bar: the error bar at its top never crosses the label.
            textposition="inside",
            insidetextanchor="start",
            textfont={"color": "#ffffff"},
            # The value as text, so a value is never hovered as a rounded number it is not.
            customdata=[["n/a" if m is None else f"{m:.3f}", n] for m, n in zip(means, counts, strict=True)],
            hovertemplate=f"%{{x}}: %{{customdata[0]}} over %{{customdata[1]}} {counted}<extra></extra>",
        )
    )
    for name, m in zip(names, means, strict=True):
        if m is None:
            fig.add_annotation(x=name, y=0, text="n/a", showarrow=False, yanchor="bottom", hovertext=f"{name}: n/a")
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"}, height=height, yaxis={"range": [0, 1.05], "title": y_title}
    )
    return fig


def tool_dimension_figure(summary: ToolSummary) -> go.Figure:
    """Mean of each tool dimension (and overall) with interval error bars."""
    names = list(summary.dimensions.keys())
    entries = list(summary.dimensions.values())
    if summary.overall.mean is not None:  # no overall when the weights are all 0
        names.append("overall")
        entries.append(summary.overall)
    return bar_figure(
        names,
        [e.mean for e in entries],
        [e.ci for e in entries],
        [e.n for e in entries],
        [TOOL_COLORS[name] for name in names],
        "interactions",
        340,
        "mean score",
    )


def interval_rows(
    labels: Sequence[str],
    values: Sequence[float] | np.ndarray,
    lows: Sequence[float] | np.ndarray,
    highs: Sequence[float] | np.ndarray,
    marker: dict[str, Any],
    bar_color: str,
    hover: Sequence[str] | None,
    value_format: str,
) -> go.Scatter:
    """One row per label: a marker at the value and a horizontal bar for its interval (forest and delta plots).

    Args:
        labels: The rows, first at the top (with a reversed category axis).
        values: Each row's value; ``lows`` and ``highs`` its interval.
        marker: The markers' style (colour, size).
        bar_color: The interval bars' colour.
        hover: A line of text per row, or ``None``.
        value_format: How the hover shows the value (a d3 format: ``.3f``, ``+.3f``).
    """
    x = np.asarray(values, dtype=float)
    return go.Scatter(
        x=x,
        y=list(labels),
        mode="markers",
        marker=marker,
        error_x={
            "type": "data",
            "symmetric": False,
            "array": np.asarray(highs, dtype=float) - x,
            "arrayminus": x - np.asarray(lows, dtype=float),
            "color": bar_color,
            "thickness": 2,
            "width": 0,
        },
        customdata=list(hover) if hover is not None else None,
        hovertemplate=f"%{{y}}: %{{x:{value_format}}}"
        + ("<br>%{customdata}" if hover is not None else "")
        + "<extra></extra>",
    )


def forest_figure(
    labels: Sequence[str],
    means: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    title: str,
    color: str = AT_COLOR,
    hover: Sequence[str] | None = None,
    separator_after: int | None = None,
) -> go.Figure:
    """Forest plot: one row per label (first at the top), a point at the mean, a bar for the interval.

    ``separator_after`` draws a dashed line below that many rows (e.g. between the worst and the
    best tasks when the middle is left out); ``hover`` adds a line of text per row.
    """
    fig = go.Figure(
        interval_rows(labels, means, lows, highs, {"color": color, "size": 8}, rgba(color, 0.6), hover, ".3f")
    )
    if separator_after is not None and 0 < separator_after < len(labels):
        fig.add_hline(y=separator_after - 0.5, line={"color": GUIDE_COLOR, "dash": "dash", "width": 1})
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        title={"text": title, "font": {"size": 15}},
        height=120 + 22 * len(labels),
        showlegend=False,
        xaxis={"range": [0, 1.02], "tickformat": ".0%"},
        yaxis={"autorange": "reversed", "type": "category", "automargin": True},
    )
    return fig


def fit_x_range(fig: go.Figure, values: np.ndarray, also: Sequence[float] = (), pad: float = 0.15) -> go.Figure:
    """Zoom a [0, 1] probability axis onto ``values`` (and the points in ``also``), padded, within [0, 1].

    A posterior that is a few points wide is unreadable on the full [0, 1] axis. The figure's
    annotations (interval, mean, target) are stacked one per line and kept inside the plot, so the
    closer axis does not make them overlap.
    """
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size == 0:
        return fig
    lo = min([float(finite.min()), *also])
    hi = max([float(finite.max()), *also])
    span = max(hi - lo, 0.02)
    x0, x1 = max(0.0, lo - pad * span), min(1.0, hi + pad * span)
    fig.update_xaxes(range=[x0, x1])
    for i, ann in enumerate(fig.layout.annotations):
        x = ann.x if isinstance(ann.x, (int, float)) else None
        right_half = x is not None and x > (x0 + x1) / 2
        ann.update(yshift=-16 * i, xanchor="right" if right_half else "left", bgcolor=LABEL_BOX)
    return fig


def shrinkage_figure(
    labels: Sequence[str], observed: np.ndarray, shrunk: np.ndarray, attempts: np.ndarray, population: float | None
) -> go.Figure:
    """Each task's observed c/n (hollow) and its success probability under the population model (filled).

    A line joins the two: the shrinkage. Tasks with few attempts move most towards the population mean.
    """
    fig = go.Figure()
    order = np.argsort(shrunk, kind="stable")
    ys = [labels[i] for i in order]
    for i in order:
        fig.add_trace(
            go.Scatter(
                x=[observed[i], shrunk[i]],
                y=[labels[i], labels[i]],
                mode="lines",
                line={"color": "rgba(120,120,120,0.5)", "width": 2},
                hoverinfo="skip",
                showlegend=False,
            )
        )
    fig.add_trace(
        go.Scatter(
            x=observed[order],
            y=ys,
            mode="markers",
            marker={"symbol": "circle-open", "size": 9, "color": AT_COLOR},
            name="observed c/n",
            customdata=attempts[order],
            hovertemplate="%{y}: observed %{x:.0%} of %{customdata} attempts<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=shrunk[order],
            y=ys,
            mode="markers",
            marker={"size": 9, "color": POW_COLOR},
            name="population model",
            hovertemplate="%{y}: %{x:.1%} under the population model<extra></extra>",
        )
    )
    if population is not None:
        fig.add_vline(x=population, line={"dash": "dot", "color": GUIDE_COLOR}, annotation_text="population mean")
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        height=max(260, 22 * len(labels) + 80),
        xaxis={"range": [-0.02, 1.02], "tickformat": ".0%"},
        yaxis={"type": "category"},
    )
    return fig


def delta_figure(
    labels: Sequence[str],
    deltas: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    title: str,
    hover: Sequence[str] | None = None,
) -> go.Figure:
    """Differences B - A with their intervals, one row per metric (first at the top), a line at 0.

    Rows whose interval lies above 0 are drawn in the pass@k colour, below 0 in the pass^k colour, the
    others in grey: the eye finds the real changes first.
    """
    d = np.asarray(deltas, dtype=float)
    lo, hi = np.asarray(lows, dtype=float), np.asarray(highs, dtype=float)
    colors = [AT_COLOR if a > 0 else POW_COLOR if b < 0 else GUIDE_COLOR for a, b in zip(lo, hi, strict=True)]
    fig = go.Figure(interval_rows(labels, d, lo, hi, {"color": colors, "size": 9}, GUIDE_COLOR, hover, "+.3f"))
    fig.add_vline(x=0, line={"color": GUIDE_COLOR, "dash": "dash", "width": 1})
    reach = float(np.nanmax(np.abs(np.concatenate([lo, hi, [0.05]])))) * 1.1
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        title={"text": title, "font": {"size": 15}},
        height=120 + 26 * len(labels),
        showlegend=False,
        xaxis={"range": [-min(reach, 1.05), min(reach, 1.05)], "tickformat": "+.0%", "zeroline": False},
        yaxis={"autorange": "reversed", "type": "category", "automargin": True},
    )
    return fig


def pair_scatter_figure(
    a: Sequence[float], b: Sequence[float], tasks: Sequence[str], a_name: str, b_name: str
) -> go.Figure:
    """Each paired task's success rate in A (x) against B (y); tasks at one point share a marker sized by count.

    Above the diagonal: better in B; below: worse.
    """
    points: dict[tuple[float, float], list[str]] = {}
    for x, y, task in zip(a, b, tasks, strict=True):
        points.setdefault((round(float(x), 6), round(float(y), 6)), []).append(task)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    counts = np.array([len(v) for v in points.values()], dtype=float)
    colors = [AT_COLOR if y > x else POW_COLOR if y < x else GUIDE_COLOR for x, y in points]
    names = [", ".join(v[:8]) + (f" and {len(v) - 8} more" if len(v) > 8 else "") for v in points.values()]
    fig = go.Figure(
        go.Scatter(
            x=xs,
            y=ys,
            mode="markers",
            marker={"size": 8 + 22 * np.sqrt(counts / counts.max()), "color": colors, "opacity": 0.8},
            customdata=np.stack([counts.astype(int).astype(str), names], axis=1),
            hovertemplate=f"{a_name}: %{{x:.0%}}<br>{b_name}: %{{y:.0%}}<br>%{{customdata[0]}} task(s): "
            "%{customdata[1]}<extra></extra>",
        )
    )
    fig.add_shape(type="line", x0=0, y0=0, x1=1, y1=1, line={"color": GUIDE_COLOR, "dash": "dash", "width": 1})
    fig.update_layout(
        **{**BASE_LAYOUT, "hovermode": "closest"},
        height=420,
        showlegend=False,
        xaxis={"range": [-0.05, 1.05], "tickformat": ".0%", "title": f"{a_name} (A): success rate on the task"},
        yaxis={"range": [-0.05, 1.05], "tickformat": ".0%", "title": f"{b_name} (B): success rate on the task"},
    )
    return fig
