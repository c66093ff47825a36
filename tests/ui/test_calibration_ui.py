"""The Calibration page's helpers: matrix clicks to cells, and the figures (theme colours, one trace each)."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.analysis.calibration import calibrate
from ui.calibration_charts import reliability_figure, roc_figure, sweep_figure
from ui.calibration_view import matrix_cell


@pytest.mark.parametrize(
    ("selected", "cell"),
    [
        ((0, "human correct"), "tp"),
        ((0, "human incorrect"), "fp"),
        ((1, "human correct"), "fn"),
        ((1, "human incorrect"), "tn"),
        ([1, "human incorrect"], "tn"),
        ((0, "judge"), None),  # the label column
        ((2, "human correct"), None),
        ((), None),
        (None, None),
    ],
)
def test_a_clicked_matrix_cell_names_its_cases(selected: object, cell: str | None) -> None:
    assert matrix_cell(selected) == cell


def test_the_figures_draw_the_calibration() -> None:
    scores = np.array([0.9, 0.8, 0.75, 0.4, 0.3, 0.1, 0.85, 0.35])
    human = np.array([1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0])
    cal = calibrate(scores, human, threshold=0.7)
    roc = roc_figure(cal)
    assert roc.data[0].name == "chance" and "AUC" in roc.data[1].name
    sweep = sweep_figure(cal)
    assert [t.name for t in sweep.data] == ["accuracy", "Cohen's kappa", "kappa at 0.70"]
    # The current threshold's line, the suggested one's (unless the same), and the suggested range's band.
    assert len(sweep.layout.shapes) == (2 if cal.suggested_threshold == cal.threshold else 3)
    rel = reliability_figure(cal)
    bars = rel.data[1]
    assert sum(c[2] for c in bars.customdata) == len(scores)


def drawn_at(xs: list[float], ys: list[float], shape: str, x: float) -> float:
    """The value a Plotly step line of ``shape`` shows at ``x`` (between two points; at a point, its own)."""
    if x in xs:
        return ys[xs.index(x)]
    if shape == "vh":  # rises at a point, then flat to the next: the next point's value
        return ys[next(i for i, v in enumerate(xs) if v > x)]
    assert shape == "hv"  # flat from a point to the next, then rises: the previous point's value
    return ys[max(i for i, v in enumerate(xs) if v < x)]


@pytest.mark.parametrize("threshold", [0.005, 0.03, 0.05, 0.3, 0.5, 0.9376, 0.94, 0.96, 0.99])
def test_the_sweep_chart_shows_the_pages_kappa_at_the_threshold(threshold: float) -> None:
    # Issue 36: the chart showed kappa 0.79 at the 0.50 marker where the page said 0.738: the step was drawn
    # from the point on the left (hv), but a threshold agrees as the first score at or above it.
    scores = np.array([0.0407, 0.0594, 0.01, 0.9376, 0.95, 0.97, 0.0594, 0.95])
    human = np.array([0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0])
    cal = calibrate(scores, human, threshold=threshold)
    fig = sweep_figure(cal)
    kappa = next(t for t in fig.data if t.name == "Cohen's kappa")
    assert drawn_at(list(kappa.x), list(kappa.y), kappa.line.shape, threshold) == pytest.approx(cal.at_threshold.kappa)
    marker = fig.data[-1]  # the diamond at the current threshold: the page's kappa
    assert marker.x == (threshold,) and marker.y == (cal.at_threshold.kappa,)
