"""The Tools page's view model (no Streamlit): the memo's dependencies, the cards, the failing-calls page."""

from __future__ import annotations

import pandas as pd
import pytest

from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.samples import load_sample
from agentic_core.report import failing_tool_calls
from agentic_core.result import EvaluationResult
from agentic_core.settings import AggregateSettings, make_settings
from ui.views import TOOL_SCORING_FIELDS, dimensions_caption, failing_page, failing_signature, tool_cards

# Every other setting, moved away from its default (each must leave the failing calls unchanged).
OTHER_VALUES = {
    "threshold": 0.3,
    "require_tool_correctness": True,
    "k": 2,
    "unit": "conversation",
    "target": "these-tasks",
    "estimator": "plug-in",
    "mode": "bayesian",
    "prior_a": 0.5,
    "prior_b": 0.5,
    "ci_level": 0.8,
    "unscored_as_incorrect": True,
    "seed": 7,
    "n_samples": 500,
    "abstain_band": (0.5, 0.5),
}
TOOL_VALUES = {"tool_threshold": 0.6, "tool_weights": {"utilization": 0.0}, "ignore_extra_tools": True}


@pytest.fixture(scope="module")
def travel() -> EvaluationResult:
    return evaluate(load_sample("travel"), "dataset", cache_mode="off")


def test_the_tool_fields_are_derived_from_the_models() -> None:
    assert set(TOOL_SCORING_FIELDS) == set(TOOL_VALUES)
    # Every setting is either a tool-scoring one or one this test moves: a new setting must be placed.
    assert set(AggregateSettings.model_fields) == set(TOOL_SCORING_FIELDS) | set(OTHER_VALUES)


@pytest.mark.parametrize("name", sorted(OTHER_VALUES))
def test_other_settings_keep_the_signature_and_the_table(travel: EvaluationResult, name: str) -> None:
    base = make_settings()
    moved = make_settings(**{name: OTHER_VALUES[name]})
    assert failing_signature(moved) == failing_signature(base)
    pd.testing.assert_frame_equal(
        failing_tool_calls(travel, aggregate(travel, moved)), failing_tool_calls(travel, aggregate(travel, base))
    )


@pytest.mark.parametrize("name", sorted(TOOL_VALUES))
def test_each_tool_setting_renews_the_signature(travel: EvaluationResult, name: str) -> None:
    base = make_settings()
    moved = make_settings(**{name: TOOL_VALUES[name]})
    assert failing_signature(moved) != failing_signature(base)


def test_the_cards_say_scored_correct_and_failing(travel: EvaluationResult) -> None:
    settings = make_settings(tool_threshold=0.8)
    summary = aggregate(travel, settings).tool_summary
    overall, correct, failing = tool_cards(summary, settings)
    assert overall.label == "Overall tool score" and overall.text is None
    assert (overall.proportion, overall.ci) == (summary.overall.mean, summary.overall.ci)
    scored, ok = summary.scored_interactions, summary.correct_interactions
    assert correct.text == f"{ok:,} / {scored:,}" and correct.delta == f"{ok / scored:.1%}"
    assert "0.8" in correct.help
    assert failing.text == f"{scored - ok:,}"


def test_the_dimensions_caption_follows_the_weights() -> None:
    off = make_settings(tool_weights={"selection": 0, "parameters": 0, "sequence": 0, "utilization": 0}, ci_level=0.9)
    assert dimensions_caption(off).endswith("90% t intervals. Without weights there is no overall score.")
    on = dimensions_caption(make_settings())
    assert "(and the weighted overall)" in on and "no overall score" not in on


def test_a_failing_page_sends_one_page_and_says_which_rows() -> None:
    view = pd.DataFrame({"row": range(23)})
    page = failing_page(view, 40, 0.75, wanted=3, size=10)
    assert page.rows["row"].tolist() == [20, 21, 22]
    assert page.caption == (
        "Showing 23 of 40 failing interactions (overall tool score below the tool threshold 0.75), worst first. "
        "Page 3 of 3: rows 21–23."
    )
    whole = failing_page(view, 23, 1.0, size=100)
    assert len(whole.rows) == 23 and "Page" not in whole.caption
    assert failing_page(view, 23, 1.0, wanted=99, size=10).rows["row"].tolist() == [20, 21, 22]  # clamped
