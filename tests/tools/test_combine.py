"""Tests of agentic_core.tools.combine: weights, the tool threshold, reasoning and the vectorised path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.common.passing import reaches
from agentic_core.errors import SettingsError
from agentic_core.settings import ToolWeights
from agentic_core.tools import (
    ToolComponents,
    combine,
    components_matrix,
    overall_vectorised,
)
from tests.tools.conftest import DEFAULT, SKEWED, ag, call, exp_call, gt, score


def test_perfect_call_with_skewed_weights_is_correct_at_threshold_one() -> None:
    c = score(ag(call("calc", result=42, a=15, b=27)), gt(exp_call("calc", a=15, b=27)), "42")
    result = combine(c, SKEWED, 1.0)
    assert result.overall_correctness == 1.0 and result.is_correct
    assert result.reasoning == "All tools used correctly"
    overall = overall_vectorised(components_matrix([c]), SKEWED)
    assert overall[0] == 1.0 and reaches(overall, 1.0)[0]


def test_threshold_tolerance_is_tiny() -> None:
    c = score(ag(call("calc", a=1, b=2), call("calc", a=1, b=3)), gt(exp_call("calc", a=1, b=2)), "")
    result = combine(c, DEFAULT, 0.95)
    assert result.overall_correctness == pytest.approx((2 / 3 + 3) / 4)  # a retry lowers selection
    assert result.overall_correctness is not None and not result.is_correct
    assert combine(c, DEFAULT, result.overall_correctness + 5e-10).is_correct
    assert not combine(c, DEFAULT, result.overall_correctness + 2e-9).is_correct


def test_combine_reasoning_has_overall_line() -> None:
    c = score(ag(call("search", q="Pariss")), gt(exp_call("search", q="Paris")))
    result = combine(c, SKEWED, 1.0)
    assert result.overall_correctness == pytest.approx(0.6)
    assert result.reasoning.endswith(
        "Overall 0.600 = weighted mean of selection 1.000 (weight 0.200), parameters 0.000 (weight 0.400), "
        "sequence 1.000 (weight 0.300), utilization 1.000 (weight 0.100); below the tool threshold 1."
    )


def test_reasoning_is_deterministic_and_names_parameter_and_both_values() -> None:
    def run() -> str:
        c = score(
            ag(call("search", q="Pariss", limit=5), call("book", id=3), flag=None),
            gt(exp_call("search", q="Paris", limit=5), exp_call("pay", amount=10), matters=True),
            "Booked.",
        )
        return combine(c, DEFAULT, 1.0).reasoning

    first, second = run(), run()
    assert first == second
    assert "'q'" in first and "'Paris'" in first and "'Pariss'" in first
    assert "'pay'" in first and "'book'" in first and "Sequence incomplete" in first


def test_overall_undefined_when_only_unassessable_dimensions_are_weighted() -> None:
    c = score(ag(call("calc", a=1), flag=None), gt(exp_call("calc", a=1)))
    only_util = ToolWeights(selection=0, parameters=0, sequence=0, utilization=1)
    result = combine(c, only_util, 0.5)
    assert result.overall_correctness is None and not result.is_correct
    assert "not defined" in result.reasoning
    assert np.isnan(overall_vectorised(components_matrix([c]), only_util)[0])


def test_combine_rejects_threshold_outside_unit_interval() -> None:
    c = score(ag(call("calc")), gt(exp_call("calc")))
    with pytest.raises(SettingsError, match="tool_threshold"):
        combine(c, DEFAULT, 1.5)
    with pytest.raises(SettingsError, match="tool_threshold"):
        combine(c, DEFAULT, -0.1)


def test_components_matrix_marks_not_applicable() -> None:
    c = score(ag(call("calc", a=1), flag=None), gt(exp_call("calc", a=1)))
    arrays = components_matrix([None, c])
    assert arrays["applicable"].tolist() == [False, True]
    assert np.isnan(arrays["selection"][0]) and arrays["selection"][1] == 1.0
    assert np.isnan(arrays["utilization"]).all()  # row 0 not applicable, row 1 not assessable
    overall = overall_vectorised(arrays, DEFAULT)
    assert np.isnan(overall[0]) and overall[1] == 1.0
    assert reaches(overall, 1.0).tolist() == [False, True]
    assert combine(c, DEFAULT, 1.0).is_correct  # the scalar path agrees on the applicable row


def test_components_matrix_of_nothing() -> None:
    arrays = components_matrix([])
    assert overall_vectorised(arrays, DEFAULT).shape == (0,)


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------


UNIT = st.floats(0.0, 1.0)


@st.composite
def components(draw: st.DrawFn) -> ToolComponents | None:
    if draw(st.integers(0, 9)) == 0:
        return None
    selection = draw(UNIT)
    return ToolComponents(
        selection=selection,
        selection_ignore_extra=draw(st.floats(selection, 1.0)),
        parameters=draw(UNIT),
        sequence=draw(UNIT),
        sequence_checked=True,
        utilization=draw(st.none() | st.sampled_from([0.0, 1.0])),
        utilization_inferred=False,
        n_required=1,
        n_optional=0,
        n_used=1,
        n_matched=1,
        n_matched_required=1,
        missing=[],
        extra=[],
        param_errors=[],
        matches=[],
        deductions=[],
    )


WEIGHTS = st.builds(ToolWeights, selection=UNIT, parameters=UNIT, sequence=UNIT, utilization=UNIT)


@settings(max_examples=200, deadline=None)
@given(st.lists(components(), max_size=30), WEIGHTS, st.booleans(), UNIT)
def test_property_vectorised_overall_equals_scalar_combine(
    comps: list[ToolComponents | None], weights: ToolWeights, ignore_extra: bool, threshold: float
) -> None:
    overall = overall_vectorised(components_matrix(comps), weights, ignore_extra)
    correct = reaches(overall, threshold)
    assert overall.shape == (len(comps),)
    for i, c in enumerate(comps):
        if c is None:
            assert np.isnan(overall[i]) and not correct[i]
            continue
        scalar = combine(c, weights, threshold, ignore_extra)
        if scalar.overall_correctness is None:
            assert np.isnan(overall[i])
        else:
            assert overall[i] == scalar.overall_correctness  # bit-identical, not approximately
        # All weights 0: tool use is not scored and never incorrect (the aggregator does the same).
        assert scalar.is_correct == (bool(correct[i]) if weights.scores_tools else True)
