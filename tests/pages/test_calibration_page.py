"""Calibration page: works on first visit (labelled sample), drills into cells, "Use it" sets the threshold."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.analysis.calibration import Calibration, calibrate_run
from agentic_core.common import md_text
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import SAMPLES, load_sample
from tests.pages.conftest import OpenApp

PAGE = "pages/calibration.py"


def metric(at: AppTest, label: str) -> str:
    return str(next(m.value for m in at.metric if m.label == label))


def expected(threshold: float = 0.7) -> tuple[Calibration, pd.DataFrame]:
    result = evaluate(load_sample("labelled"), "dataset", cache_mode="off")
    return calibrate_run(result, threshold)


def test_first_visit_calibrates_the_labelled_sample(open_app: OpenApp) -> None:
    at = open_app(PAGE)
    assert not at.exception and not at.error
    assert "has no human verdicts" in " ".join(i.value for i in at.info)
    cal, _ = expected()
    assert metric(at, "Labelled answers") == "56"
    assert metric(at, "Cohen's kappa") == f"{cal.at_threshold.kappa:.3f}"
    assert metric(at, "Suggested threshold") == f"{cal.suggested_threshold:.2f}"
    # The range of thresholds with the highest kappa is said, not only the one number (issue 36).
    assert any("gives the highest kappa" in c.value for c in at.caption)
    matrix = at.dataframe(key="calibration_matrix").value
    c = cal.at_threshold.confusion
    assert matrix["human correct"].tolist() == [c.tp, c.fn]
    assert matrix["human incorrect"].tolist() == [c.fp, c.tn]
    assert len(at.get("plotly_chart")) == 3


@pytest.mark.parametrize("cell", ["fp", "fn", "tp", "tn"])
def test_picking_a_cell_lists_its_cases(open_app: OpenApp, cell: str) -> None:
    at = open_app(PAGE)
    at.selectbox(key="calibration_cell").set_value(cell).run()
    assert not at.exception
    _, cases = expected()
    wanted = cases[cases["cell"] == cell]
    if wanted.empty:
        assert "No case in this cell." in [c.value for c in at.caption]
        return
    shown = at.dataframe[1].value  # after the matrix
    assert sorted(shown["row"].tolist()) == sorted(wanted["row"].tolist())


def test_disagreements_are_shown_first(open_app: OpenApp) -> None:
    at = open_app(PAGE)
    cal, _ = expected()
    first = "fp" if cal.at_threshold.confusion.fp else "fn"
    assert at.selectbox(key="calibration_cell").value == first


def test_use_it_sets_the_threshold_everywhere(open_app: OpenApp) -> None:
    at = open_app(PAGE, data="labelled")  # the labels belong to the active run
    suggested = float(metric(at, "Suggested threshold"))
    assert suggested != 0.7  # the sample's people and grader disagree: the suggestion moves the threshold
    at.button(key="calibration_use_threshold").click().run()
    assert not at.exception and not at.error
    assert at.session_state["_settings"]["threshold"] == pytest.approx(suggested)
    assert at.sidebar.slider(key="threshold").value == pytest.approx(suggested)
    assert at.button(key="calibration_use_threshold").disabled
    assert any("now" in s.value for s in at.success)
    cal, _ = expected(suggested)
    assert metric(at, "Cohen's kappa") == f"{cal.at_threshold.kappa:.3f}"
    # Other pages use it too.
    at.switch_page("pages/overview.py").run()
    assert at.sidebar.slider(key="threshold").value == pytest.approx(suggested)


def test_a_labelled_active_run_is_calibrated_itself(open_app: OpenApp) -> None:
    at = open_app(PAGE, data="labelled")
    assert not at.exception and not at.error
    assert not at.info
    # The file's name is data shown as text: escaped for Markdown (labelled\_support.jsonl).
    assert any(md_text(SAMPLES["labelled"].file) in c.value for c in at.caption)


def test_the_sample_can_be_opened_as_the_active_run(open_app: OpenApp) -> None:
    at = open_app(PAGE)
    at.button(key="calibration_open_sample").click().run()
    assert not at.exception and not at.info
    assert any(SAMPLES["labelled"].title in c.value for c in at.sidebar.caption)


def test_without_any_scored_label_the_page_says_why(open_app: OpenApp, monkeypatch: pytest.MonkeyPatch) -> None:
    from agentic_core.analysis import calibration
    from agentic_core.errors import DataError

    def refuse(*_: object, **__: object) -> None:
        raise DataError("human labels", "no interaction has both a human verdict and a judge score", 0, "add labels")

    monkeypatch.setattr(calibration, "calibrate_run", refuse)
    monkeypatch.setattr("ui.calibration_view.calibrate_run", refuse)
    at = open_app(PAGE)
    assert not at.exception
    assert "no interaction has both" in " ".join(e.value for e in at.error)


def test_use_it_is_not_offered_for_the_built_in_samples_labels(open_app: OpenApp) -> None:
    # Issue 25: a threshold learned on the built-in labelled sample must not be applied to another run.
    at = open_app(PAGE)
    assert at.button(key="calibration_use_threshold").disabled
    assert any("active run" in i.value for i in at.info)
    assert any("at least 10" in c.value for c in at.caption)
