"""The one threshold rule (agentic_core.common.passing) and everyone who reads it agreeing at the boundary."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.analysis.aggregate import aggregate
from agentic_core.common.passing import TOLERANCE, reaches
from agentic_core.evaluate import evaluate
from agentic_core.report import interactions_table
from agentic_core.report.explorer import conversation_detail
from agentic_core.settings import ToolWeights, make_settings
from agentic_core.tools import combine
from tests.datasets import conv, convs


def test_reaches_is_inclusive_with_a_tolerance_and_never_passes_nan() -> None:
    assert reaches(0.7, 0.7) and reaches(0.7 - TOLERANCE / 2, 0.7)
    assert not reaches(0.7 - 2 * TOLERANCE, 0.7)
    assert not reaches(math.nan, 0.0)
    values = np.array([0.69999999999, 0.7, 0.69, np.nan])
    assert reaches(values, 0.7).tolist() == [True, True, False, False]
    assert isinstance(reaches(0.5, 0.5), bool) and reaches(values, 0.7).dtype == bool


@given(st.floats(0, 1), st.floats(0, 1))
def test_scalar_and_array_forms_agree(score: float, threshold: float) -> None:
    assert reaches(score, threshold) == bool(reaches(np.array([score]), threshold)[0])


# Scores exactly at, just inside and just outside the tolerance of a 0.7 threshold.
BOUNDARY = [0.7, 0.1 + 0.6, 0.7 - TOLERANCE / 2, 0.7 - 3 * TOLERANCE, 0.7 + 1e-12]


def test_every_reader_of_a_pass_agrees_with_the_aggregate_at_the_boundary() -> None:
    result = evaluate(convs([conv(f"s{i}", [s]) for i, s in enumerate(BOUNDARY)]), "dataset")
    agg = aggregate(result, make_settings(threshold=0.7, k=1))
    expected = [reaches(s, 0.7) for s in BOUNDARY]
    assert agg.interactions["passes_threshold"].tolist() == expected
    assert agg.interactions["correct"].tolist() == expected
    # The export's verdict column and the Explorer's sentence read the aggregate's decision.
    assert interactions_table(result, agg)["correct"].tolist() == expected
    for row, passes in enumerate(expected):
        (detail,) = conversation_detail(result, agg, row)
        assert detail.status == ("correct" if passes else "incorrect")
        assert ("≥ answer threshold" in detail.verdict) == passes
        assert ("< answer threshold" in detail.verdict) == (not passes)


def test_tool_correctness_agrees_between_combine_and_the_aggregate() -> None:
    # Weights 0.2 / 0.4 / 0.3 / 0.1 on a perfect call sum to 0.9999999999999999: still correct at 1.0.
    weights = ToolWeights.parse("selection=0.2,parameters=0.4,sequence=0.3,utilization=0.1")
    result = evaluate(convs([conv("good", [0.9], tools=True), conv("bad", [0.9], tools=True, used_b=5)]), "dataset")
    for threshold in (1.0, 0.875, 0.5):
        agg = aggregate(result, make_settings(tool_weights=weights, tool_threshold=threshold))
        singles = [combine(c, weights, threshold).is_correct for c in result.tool_components if c is not None]
        assert agg.interactions["tool_correct"].tolist() == singles
    agg = aggregate(result, make_settings(tool_weights=weights, tool_threshold=1.0))
    assert agg.interactions["tool_correct"].tolist() == [True, False]


def test_interval_wording_comes_from_the_method_the_core_used() -> None:
    # Two tasks with 5 and 2 attempts at k = 3 (unbiased): only the first is included, so the
    # interval is Wilson's, whatever the number of groups suggests.
    records = [conv(f"a{i}", [0.9 if i < 3 else 0.1], task="A") for i in range(5)]
    records += [conv(f"b{i}", [0.9], task="B") for i in range(2)]
    result = evaluate(convs(records), "dataset")
    agg = aggregate(result, make_settings(k=3, mode="frequentist", estimator="unbiased"))
    assert agg.counts.groups == 2 and agg.headline.n_groups == 1
    assert agg.headline.interval_method == "wilson"
    from ui.format import settings_sentence  # the page's sentence prints the core's method

    sentence = settings_sentence(agg)
    assert "Wilson" in sentence and "bootstrap" not in sentence


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_success_rate_reports_its_method(mode: str) -> None:
    result = evaluate(convs([conv("a", [0.9]), conv("b", [0.1])]), "dataset")
    agg = aggregate(result, make_settings(mode=mode, unit="conversation", k=1))
    assert agg.success_rate.interval_method == ("wilson" if mode == "frequentist" else "beta-quantiles")
