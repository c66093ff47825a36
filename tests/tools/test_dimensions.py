"""Tests of agentic_core.tools.dimensions: selection, missing and optional calls, applicability, properties."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.data.schemas import Agentic, GroundTruthAgentic, Interaction
from agentic_core.tools import (
    MatchRow,
    combine,
    score_interaction,
    score_tools,
)
from agentic_core.tools.dimensions import _score_general
from tests.tools.conftest import DEFAULT, SKEWED, ag, call, exp_call, gt, score

# ---------------------------------------------------------------------------------------------
# selection, missing tools, optional calls
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("agentic", [None, ag(flag=None), ag(flag=True)])
def test_expected_tools_never_called_score_zero_with_reason(agentic: Agentic | None) -> None:
    c = score(agentic, gt(exp_call("search", q="x"), exp_call("book_flight", to="LIS")))
    assert (c.selection, c.selection_ignore_extra, c.parameters, c.utilization) == (0.0, 0.0, 0.0, 0.0)
    # Issue 2: "expected tools never called score 0 with a reason" -- overall, whatever the
    # order setting, so sequence gives no credit when nothing was called.
    assert c.sequence == 0.0
    assert c.missing == ["search", "book_flight"]
    result = combine(c, DEFAULT, 1.0)
    assert result.overall_correctness == 0.0
    assert not result.is_correct
    assert "'search'" in result.reasoning and "'book_flight'" in result.reasoning
    assert "No tool was called" in result.reasoning


def test_one_expected_tool_never_called_is_named() -> None:
    c = score(ag(call("search", q="x")), gt(exp_call("search", q="x"), exp_call("book_flight", to="LIS")))
    assert c.missing == ["book_flight"]
    assert c.parameters == 0.5  # mean over two required calls: 1 and 0
    assert c.selection == pytest.approx(2 / 3)  # precision 1, recall 1/2
    assert "Expected tool never called: 'book_flight' (expected call #2)" in c.deductions[0]


def test_optional_calls_never_count_as_missing() -> None:
    expected = gt(exp_call("search", q="x"), exp_call("log", optional=True, level="info"))
    without = score(ag(call("search", q="x")), expected)
    assert (without.selection, without.parameters, without.missing, without.n_optional) == (1.0, 1.0, [], 1)
    assert without.matches == [MatchRow(0, 0, 1.0), MatchRow(1, None, 0.0)]
    assert without.deductions == []


def test_matched_optional_call_counts_for_precision_not_parameters() -> None:
    expected = gt(exp_call("search", q="x"), exp_call("log", optional=True, level="info"))
    c = score(ag(call("search", q="x"), call("log", level="debug")), expected)
    assert c.selection == 1.0 and c.n_matched == 2 and c.extra == []
    assert c.parameters == 1.0  # the optional call's wrong level does not count...
    assert len(c.param_errors) == 1  # ...but is reported
    assert any("optional call" in d and "'debug'" in d for d in c.deductions)


def test_only_optional_expected_uses_their_agreement_for_parameters() -> None:
    c = score(ag(call("log", level="debug")), gt(exp_call("log", optional=True, level="info")))
    assert c.parameters == 0.0 and c.selection == 1.0 and c.n_required == 0


def test_only_optional_expected_and_nothing_used_is_perfect_but_utilization_not_assessable() -> None:
    c = score(ag(), gt(exp_call("log", optional=True)))
    assert (c.selection, c.parameters, c.sequence, c.utilization) == (1.0, 1.0, 1.0, None)


def test_tools_used_when_none_expected_are_extra() -> None:
    c = score(ag(call("search", q="x")), gt())
    assert c.selection == 0.0 and c.selection_ignore_extra == 1.0
    # Nothing expected: parameters, sequence and utilization have nothing to measure
    # (docs/statistics.md): left out, not counted as 1.0, so the overall score is the selection score.
    assert (c.parameters, c.sequence, c.utilization) == (None, None, None)
    assert "No tool call was expected" in " ".join(c.deductions)
    assert combine(c, DEFAULT, 1.0, ignore_extra=True).tool_selection_correct == 1.0
    penalised = combine(c, DEFAULT, 0.75)
    assert penalised.overall_correctness == 0.0 and not penalised.is_correct  # once passed at 0.75
    ignored = combine(c, DEFAULT, 0.75, ignore_extra=True)
    assert ignored.overall_correctness == 1.0 and ignored.is_correct


def test_the_matching_preference_is_stated_in_the_reasoning() -> None:
    # One 'book' call; a required expected 'book' disagrees with it (id 2 vs 1), an optional one
    # agrees fully. Required calls are covered first, and the reasoning says so.
    c = score(
        ag(call("book", id=1)),
        gt(exp_call("book", id=2), exp_call("book", optional=True, id=1)),
    )
    assert c.n_matched_required == 1 and c.parameters == 0.0
    assert any("required calls are covered first" in d and "optional call #2" in d for d in c.deductions)


# ---------------------------------------------------------------------------------------------
# applicability
# ---------------------------------------------------------------------------------------------


def test_not_applicable_cases_return_none() -> None:
    assert score_tools(ag(call("calc")), None, "x") is None  # no ground truth: not evaluated
    assert score_tools(None, None, "x") is None
    assert score_tools(None, gt(), "x") is None
    assert score_tools(ag(flag=True), gt(), "x") is None


def test_score_interaction_uses_the_assistant_text() -> None:
    interaction = Interaction.model_validate(
        {
            "qa_id": "q1",
            "query": "What is 15 + 27?",
            "assistant": "15 + 27 = 42.",
            "ground_truth_assistant": "42",
            "agentic": {"tools_used": [{"tool_name": "calc", "parameters": {"a": 15, "b": 27}, "result": 42}]},
            "ground_truth_agentic": {"expected_tools": [{"tool_name": "calc", "parameters": {"b": 27, "a": 15}}]},
        }
    )
    c = score_interaction(interaction)
    assert c is not None and c.utilization == 1.0 and c.utilization_inferred


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------


NAMES = st.sampled_from(["search", "calc", "book"])
KEYS = st.sampled_from(["a", "b", "c", "d"])


def json_values(allow_nan: bool) -> st.SearchStrategy[Any]:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-3, 3)
        | st.floats(-3, 3)
        | (st.just(math.nan) if allow_nan else st.nothing())
        | st.sampled_from(["x", "X", "x.", "42", "Paris"])
    )
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
        max_leaves=6,
    )


RULES = st.dictionaries(
    KEYS,
    st.sampled_from(
        [
            {"rule": "exact"},
            {"rule": "ignore"},
            {"rule": "text"},
            {"rule": "tolerance", "abs_tol": 0.5},
            {"rule": "any_of", "values": [1, "x"]},
        ]
    ),
    max_size=2,
)


@st.composite
def scenario(draw: st.DrawFn, allow_nan: bool = True) -> tuple[Agentic, GroundTruthAgentic, str]:
    values = json_values(allow_nan)
    params = st.dictionaries(KEYS, values, max_size=3)
    with_steps = draw(st.booleans())
    n_exp = draw(st.integers(0, 4))
    n_used = draw(st.integers(0, 4))
    expected = [
        {
            "tool_name": draw(NAMES),
            "parameters": draw(params),
            "step": draw(st.integers(0, 5)) if with_steps else None,
            "optional": draw(st.booleans()),
            "parameter_rules": draw(RULES),
        }
        for _ in range(n_exp)
    ]
    used = [
        {
            "tool_name": draw(NAMES),
            "parameters": draw(params),
            "result": draw(values),
            "step": draw(st.integers(0, 5)) if draw(st.booleans()) or with_steps else None,
        }
        for _ in range(n_used)
    ]
    agentic = Agentic.model_validate(
        {"tools_used": used, "final_answer_uses_tools": draw(st.sampled_from([None, True, False]))}
    )
    truth = GroundTruthAgentic.model_validate(
        {"expected_tools": expected, "tool_sequence_matters": draw(st.booleans())}
    )
    answer = draw(st.sampled_from(["", "The answer is 42.", "x marks paris", "1,200 and 3.0"]))
    return agentic, truth, answer


def _reverse_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reverse_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reverse_keys(v) for v in value]
    return value


@settings(max_examples=150, deadline=None)
@given(scenario())
def test_property_components_in_unit_interval(case: tuple[Agentic, GroundTruthAgentic, str]) -> None:
    c = score_tools(*case)
    if c is None:
        assert not case[0].tools_used and not case[1].expected_tools
        return
    for value in (c.selection, c.selection_ignore_extra, c.parameters, c.sequence):
        assert value is None or 0.0 <= value <= 1.0
    if not case[1].expected_tools:  # nothing expected: only selection measures anything
        assert c.parameters is None and c.sequence is None and c.utilization is None
    assert c.utilization in (None, 0.0, 1.0)
    assert c.selection_ignore_extra >= c.selection
    assert c.n_matched + len(c.extra) == c.n_used
    assert c.n_matched_required + len(c.missing) == c.n_required
    assert len(c.matches) == c.n_used + c.n_required + c.n_optional - c.n_matched
    for weights in (DEFAULT, SKEWED):
        overall = combine(c, weights, 1.0).overall_correctness
        assert overall is not None and 0.0 <= overall <= 1.0


@settings(max_examples=150, deadline=None)
@given(scenario(allow_nan=False))
def test_property_invariant_to_dict_key_order(case: tuple[Agentic, GroundTruthAgentic, str]) -> None:
    agentic, truth, answer = case
    flipped_agentic = Agentic.model_validate(_reverse_keys(agentic.model_dump()))
    flipped_truth = GroundTruthAgentic.model_validate(_reverse_keys(truth.model_dump()))
    assert score_tools(flipped_agentic, flipped_truth, answer) == score_tools(agentic, truth, answer)


@settings(max_examples=150, deadline=None)
@given(scenario(allow_nan=False))
def test_property_used_identical_to_expected_scores_one(
    case: tuple[Agentic, GroundTruthAgentic, str],
) -> None:
    _, truth, answer = case
    used = [{"tool_name": t.tool_name, "parameters": t.parameters, "step": t.step} for t in truth.expected_tools]
    c = score_tools(Agentic.model_validate({"tools_used": used, "final_answer_uses_tools": True}), truth, answer)
    if not truth.expected_tools:
        assert c is None
        return
    assert c is not None
    assert (c.selection, c.selection_ignore_extra, c.parameters, c.sequence, c.utilization) == (1.0,) * 5
    assert c.missing == [] and c.extra == [] and c.param_errors == [] and c.deductions == []
    result = combine(c, SKEWED, 1.0)
    assert result.is_correct and result.reasoning == "All tools used correctly"


# ---------------------------------------------------------------------------------------------
# the fast path for fully correct interactions agrees with the general path
# ---------------------------------------------------------------------------------------------


_NAMES = st.sampled_from(["search", "book", "convert"])


_VALUES = st.one_of(
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.booleans(),
    st.sampled_from(["x", "y"]),
    st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 2), max_size=2),
)


_PARAMS = st.dictionaries(st.sampled_from(["p", "q", "r"]), _VALUES, max_size=3)


@st.composite
def _call_pairs(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool, bool | None]:
    n = draw(st.integers(1, 3))
    with_steps = draw(st.booleans())
    expected = [
        {
            "tool_name": draw(_NAMES),
            "parameters": draw(_PARAMS),
            **({"step": draw(st.integers(1, 4))} if with_steps else {}),
        }
        for _ in range(n)
    ]
    used = [dict(e) for e in expected]
    if draw(st.booleans()):  # perturb: a different value, name, order or an extra call
        i = draw(st.integers(0, n - 1))
        kind = draw(st.sampled_from(["value", "name", "shuffle", "extra"]))
        if kind == "value":
            used[i] = {**used[i], "parameters": {**used[i]["parameters"], "p": draw(_VALUES)}}
        elif kind == "name":
            used[i] = {**used[i], "tool_name": draw(_NAMES)}
        elif kind == "shuffle":
            used = draw(st.permutations(used))
        else:
            used.append({"tool_name": draw(_NAMES), "parameters": draw(_PARAMS)})
    return expected, used, draw(st.booleans()), draw(st.sampled_from([True, False, None]))


@settings(max_examples=300, deadline=None)
@given(_call_pairs())
def test_fast_path_equals_general_path(
    case: tuple[list[dict[str, Any]], list[dict[str, Any]], bool, bool | None],
) -> None:
    expected_calls, used_calls, order_matters, flag = case
    agentic = Agentic.model_validate({"tools_used": used_calls, "final_answer_uses_tools": flag})
    truth = GroundTruthAgentic.model_validate(
        {"expected_tools": expected_calls, "tool_sequence_matters": order_matters}
    )
    fast = score_tools(agentic, truth, "answer")
    general = _score_general(agentic, truth, list(agentic.tools_used), "answer")
    assert fast == general


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "tool_name": NAMES,
            "parameters": st.dictionaries(KEYS, json_values(True), max_size=3),
            "optional": st.booleans(),
            "parameter_rules": RULES,
        }
    ),
    st.fixed_dictionaries(
        {
            "tool_name": NAMES,
            "parameters": st.dictionaries(KEYS, json_values(True), max_size=3),
            "result": json_values(False),
        }
    ),
    st.booleans(),
    st.sampled_from([True, False, None]),
    st.sampled_from(["", "The answer is 42.", "x marks paris", "1,200 and 3.0"]),
)
def test_one_pair_path_equals_general_path(
    expected_call: dict[str, Any], used_call: dict[str, Any], order_matters: bool, flag: bool | None, answer: str
) -> None:
    # One expected call and one call (the one-pair path's shape), with parameter rules, optional
    # calls, other tools, NaN, and every way of judging utilization.
    agentic = Agentic.model_validate({"tools_used": [used_call], "final_answer_uses_tools": flag})
    truth = GroundTruthAgentic.model_validate(
        {"expected_tools": [expected_call], "tool_sequence_matters": order_matters}
    )
    general = _score_general(agentic, truth, list(agentic.tools_used), answer)
    assert repr(score_tools(agentic, truth, answer)) == repr(general)  # repr: NaN parameters compare too
