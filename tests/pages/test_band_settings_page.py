"""The Settings panel's answer threshold and abstention band (issue 41), with the default ``learned`` judge.

The built-in support sample judged by the learned judge (the shipped verdicts answer it: no model call): the
numbers on the Overview are the core's for the band the slider sets, and the words beside each control are the
core's (:func:`agentic_core.analysis.band_controls`).
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.band_controls import band_controls
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.pages.conftest import APP, OpenApp
from ui.format import pct


@pytest.fixture(scope="module")
def learned() -> EvaluationResult:
    return evaluate(load_sample("support"), "learned")


@pytest.fixture
def learned_app(open_app: OpenApp, monkeypatch: pytest.MonkeyPatch) -> OpenApp:
    monkeypatch.setenv("AGENTIC_DEFAULT_JUDGE", "learned")
    return open_app


def _rate(at: AppTest) -> str:
    return next(str(m.value) for m in at.metric if m.label.startswith("Success rate (pass@1)"))


def _captions(at: AppTest) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def test_the_band_slider_starts_at_the_fitted_band_and_says_what_it_cannot_change(
    learned_app: OpenApp, learned: EvaluationResult
) -> None:
    at = learned_app()
    fitted = learned.judge_run.fitted_band
    assert fitted is not None
    band = at.sidebar.slider(key="band")
    assert band.value == (round(fitted.low, 2), round(fitted.high, 2))
    # The numbers are the judge's own (the exact fitted band), not the rounded slider's.
    assert _rate(at) == pct(aggregate(learned, make_settings(threshold=0.5)).success_rate.value)
    controls = band_controls(learned, 0.5, None)
    text = _captions(at).replace("\\", "")
    assert controls.threshold_note and controls.threshold_note in text
    assert controls.holdout_note and controls.holdout_note in text


def test_moving_the_band_moves_the_numbers_without_a_judge(learned_app: OpenApp, learned: EvaluationResult) -> None:
    at = learned_app()
    before = _rate(at)
    at.sidebar.slider(key="band").set_value((0.5, 0.5)).run()
    assert not at.exception
    expected = aggregate(learned, make_settings(threshold=0.5, abstain_band=(0.5, 0.5)))
    assert _rate(at) == pct(expected.success_rate.value) != before
    # Every item decided: now the threshold moves verdicts, and the note under it is gone.
    assert "No decided score lies between 0.07" not in _captions(at)


def test_the_threshold_inside_the_fitted_band_changes_nothing_and_says_so(
    learned_app: OpenApp, learned: EvaluationResult
) -> None:
    at = learned_app()
    before = _rate(at)
    at.sidebar.slider(key="threshold").set_value(0.65).run()
    assert _rate(at) == before == pct(aggregate(learned, make_settings(threshold=0.65)).success_rate.value)
    assert "every threshold above" in _captions(at)


def test_a_judge_without_probabilities_has_no_band_slider_but_a_sentence(open_app: OpenApp) -> None:
    at = open_app()  # the dataset judge
    assert all(s.key != "band" for s in at.sidebar.slider)
    assert "gives no probability, so it has no abstention band" in _captions(at)


def test_a_link_sets_the_band(learned_app: OpenApp, learned: EvaluationResult) -> None:
    learned_app()  # the judge, the cache and the sample for this test
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["band"] = "0.5,0.5"
    at.run()
    assert not at.exception
    assert at.sidebar.slider(key="band").value == (0.5, 0.5)
    expected = aggregate(learned, make_settings(threshold=0.5, abstain_band=(0.5, 0.5)))
    assert _rate(at) == pct(expected.success_rate.value)


def test_the_calibration_page_picks_a_band_from_the_runs_labels(learned_app: OpenApp) -> None:
    at = learned_app("pages/calibration.py", data="labelled")
    assert not at.exception
    button = at.button(key="calibration_use_band")
    text = " ".join(m.value for m in at.markdown)
    assert "abstains on" in text and "labelled answers" in text
    assert any("resamples" in c.value and "lower edge" in c.value for c in at.caption)
    # The guard passes: the active run's own labels, at least 10 of each verdict.
    assert not button.disabled, [i.value for i in at.info]
    button.click().run()
    assert not at.exception
    low, high = at.sidebar.slider(key="band").value
    assert low < high and any("abstention band is now" in s.value for s in at.success)
    # The selective-accuracy point follows the band: a band of width 0 abstains on nothing.
    at.sidebar.slider(key="band").set_value((0.5, 0.5)).run()
    assert any("The judge abstained on **0** labelled answer(s)" in m.value for m in at.markdown)
