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
    assert [t.name for t in sweep.data] == ["accuracy", "Cohen's kappa"]
    assert len(sweep.layout.shapes) == (1 if cal.suggested_threshold == cal.threshold else 2)
    rel = reliability_figure(cal)
    bars = rel.data[1]
    assert sum(c[2] for c in bars.customdata) == len(scores)
