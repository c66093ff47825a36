"""Tests of agentic_core.tools: tool-correctness scoring (DESIGN.md §5 and §10)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.schemas import Agentic, GroundTruthAgentic, Interaction, ParameterRule
from agentic_core.settings import ToolWeights
from agentic_core.tools import (
    MatchRow,
    ToolComponents,
    combine,
    components_matrix,
    normalise_text,
    overall_vectorised,
    score_interaction,
    score_tools,
    tool_correct_vectorised,
    values_agree,
)

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def call(name: str, step: int | None = None, result: Any = None, **params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"tool_name": name, "parameters": params, "step": step}
    if result is not None:
        out["result"] = result
    return out


def exp_call(
    name: str,
    step: int | None = None,
    optional: bool = False,
    rules: dict[str, dict[str, Any]] | None = None,
    **params: Any,
) -> dict[str, Any]:
    return {
        "tool_name": name,
        "parameters": params,
        "step": step,
        "optional": optional,
        "parameter_rules": rules or {},
    }


def ag(*calls: dict[str, Any], flag: bool | None = True) -> Agentic:
    return Agentic.model_validate({"tools_used": list(calls), "final_answer_uses_tools": flag})


def gt(*calls: dict[str, Any], matters: bool = False) -> GroundTruthAgentic:
    return GroundTruthAgentic.model_validate({"expected_tools": list(calls), "tool_sequence_matters": matters})


def score(agentic: Agentic | None, expected: GroundTruthAgentic | None, answer: str = "") -> ToolComponents:
    c = score_tools(agentic, expected, answer)
    assert c is not None
    return c


def agreement_of(expected: dict[str, Any], used: dict[str, Any], rules: dict[str, Any] | None = None) -> float:
    c = score(ag(call("t", **used)), gt(exp_call("t", rules=rules, **expected)))
    assert c.n_matched == 1
    return c.parameters


DEFAULT = ToolWeights()
SKEWED = ToolWeights(selection=0.2, parameters=0.4, sequence=0.3, utilization=0.1)


# ---------------------------------------------------------------------------------------------
# matching (the reference compared every expected call with the FIRST used call of that name)
# ---------------------------------------------------------------------------------------------


def test_correct_double_call_is_two_full_matches() -> None:
    c = score(
        ag(call("search", q="paris"), call("search", q="rome")),
        gt(exp_call("search", q="paris"), exp_call("search", q="rome")),
    )
    assert (c.selection, c.parameters, c.n_matched, c.extra, c.missing) == (1.0, 1.0, 2, [], [])
    assert [m.agreement for m in c.matches] == [1.0, 1.0]
    assert c.deductions == []


def test_double_call_in_other_order_is_matched_optimally_not_first_come() -> None:
    c = score(
        ag(call("search", q="rome"), call("search", q="paris")),
        gt(exp_call("search", q="paris"), exp_call("search", q="rome")),
    )
    assert c.parameters == 1.0 and c.selection == 1.0
    assert sorted((m.expected_index, m.used_index) for m in c.matches) == [(0, 1), (1, 0)]


def test_identical_duplicate_calls_tie_break_to_closest_in_order() -> None:
    c = score(ag(call("s", q=1), call("s", q=1)), gt(exp_call("s", q=1), exp_call("s", q=1)))
    assert c.matches == [MatchRow(0, 0, 1.0), MatchRow(1, 1, 1.0)]


def test_retry_is_one_match_plus_one_extra_call() -> None:
    c = score(
        ag(call("search", q="pariss"), call("search", q="paris")),
        gt(exp_call("search", q="paris")),
    )
    assert c.n_matched == 1 and c.extra == ["search"] and c.missing == []
    assert c.parameters == 1.0  # the good attempt is the match, not the first one
    assert c.selection == pytest.approx(2 / 3)  # precision 1/2, recall 1
    assert c.selection_ignore_extra == 1.0
    assert c.matches == [MatchRow(None, 0, 0.0), MatchRow(0, 1, 1.0)]
    assert any("retry" in d and "used call #1" in d for d in c.deductions)


def test_required_call_wins_the_match_over_an_optional_one() -> None:
    c = score(
        ag(call("search", q="b")),
        gt(exp_call("search", optional=True, q="b"), exp_call("search", q="a")),
    )
    assert c.n_matched_required == 1 and c.missing == []
    assert c.selection == 1.0
    assert c.parameters == 0.0  # the required call matched with a wrong query


def test_only_same_name_calls_match() -> None:
    c = score(ag(call("lookup", q="x")), gt(exp_call("search", q="x")))
    assert c.n_matched == 0 and c.missing == ["search"] and c.extra == ["lookup"]
    assert c.selection == 0.0 and c.parameters == 0.0


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
    assert c.selection == 0.0 and c.selection_ignore_extra == 1.0 and c.parameters == 1.0
    assert combine(c, DEFAULT, 1.0, ignore_extra=True).tool_selection_correct == 1.0


# ---------------------------------------------------------------------------------------------
# sequence and ordering
# ---------------------------------------------------------------------------------------------


def test_extra_call_in_front_of_correct_ordered_sequence() -> None:
    c = score(
        ag(call("lookup", 1, q="x"), call("search", 2, q="x"), call("book", 3, id=7)),
        gt(exp_call("search", 1, q="x"), exp_call("book", 2, id=7), matters=True),
    )
    assert c.sequence == 1.0 and c.sequence_checked
    assert c.selection == pytest.approx(0.8)  # precision 2/3, recall 1
    assert c.selection_ignore_extra == 1.0
    penalised = combine(c, DEFAULT, 1.0)
    ignored = combine(c, DEFAULT, 1.0, ignore_extra=True)
    assert penalised.tool_selection_correct < 1.0 and not penalised.is_correct
    assert ignored.tool_selection_correct == 1.0 and ignored.is_correct
    assert "ignored by option" in ignored.reasoning


def test_lcs_with_swapped_order() -> None:
    c = score(
        ag(call("a"), call("c"), call("b")),
        gt(exp_call("a"), exp_call("b"), exp_call("c"), matters=True),
    )
    assert c.sequence == pytest.approx(2 / 3)
    assert c.selection == 1.0 and c.parameters == 1.0
    assert any(d.startswith("Order differs: expected a -> b -> c, used a -> c -> b") for d in c.deductions)


def test_sequence_ignored_when_order_does_not_matter() -> None:
    c = score(ag(call("b"), call("a")), gt(exp_call("a"), exp_call("b")))
    assert c.sequence == 1.0 and not c.sequence_checked and c.deductions == []


def test_calls_are_ordered_by_step_when_all_have_one() -> None:
    expected = gt(exp_call("search", 1), exp_call("book", 2), matters=True)
    by_step = score(ag(call("book", 2), call("search", 1)), expected)
    assert by_step.sequence == 1.0
    # One step missing: list order is used, and book-before-search is out of order.
    by_list = score(ag(call("book", 2), call("search", None)), expected)
    assert by_list.sequence == 0.5


def test_expected_calls_are_ordered_by_step_too() -> None:
    c = score(ag(call("search"), call("book")), gt(exp_call("book", 2), exp_call("search", 1), matters=True))
    assert c.sequence == 1.0


def test_sequence_zero_when_order_matters_and_nothing_called() -> None:
    c = score(ag(), gt(exp_call("a"), exp_call("b"), matters=True))
    assert c.sequence == 0.0


def test_missing_call_shortens_sequence_without_blaming_order() -> None:
    c = score(ag(call("a"), call("c")), gt(exp_call("a"), exp_call("b"), exp_call("c"), matters=True))
    assert c.sequence == pytest.approx(2 / 3)
    assert any(d.startswith("Sequence incomplete (calls missing): expected a -> b -> c") for d in c.deductions)
    assert not any("Order differs" in d for d in c.deductions)


# ---------------------------------------------------------------------------------------------
# parameter comparison
# ---------------------------------------------------------------------------------------------


def test_key_order_is_irrelevant() -> None:
    assert agreement_of({"a": 1, "b": {"x": 1, "y": 2}}, {"b": {"y": 2, "x": 1}, "a": 1}) == 1.0


def test_nested_values_recurse() -> None:
    deep = {"filters": [{"field": "city", "in": ["Paris", "Rome"]}, {"n": [1, [2, 3]]}]}
    same = {"filters": [{"in": ["Paris", "Rome"], "field": "city"}, {"n": [1.0, [2, 3.0]]}]}
    different = {"filters": [{"field": "city", "in": ["Paris", "Roma"]}, {"n": [1, [2, 3]]}]}
    assert agreement_of(deep, same) == 1.0
    assert agreement_of(deep, different) == 0.0
    assert not values_agree([1, 2], [2, 1])  # list order does matter
    assert not values_agree({"a": 1}, {"a": 1, "b": 2})


def test_int_equals_float() -> None:
    assert agreement_of({"n": 5}, {"n": 5.0}) == 1.0


@pytest.mark.parametrize(("expected", "used"), [(1, True), (True, 1), (0, False), (False, 0), ([1], [True])])
def test_bool_is_not_a_number(expected: Any, used: Any) -> None:
    assert agreement_of({"flag": expected}, {"flag": used}) == 0.0
    assert not values_agree(expected, used, ParameterRule(rule="tolerance", abs_tol=1.0))


def test_bool_mismatch_reason() -> None:
    c = score(ag(call("t", flag=True)), gt(exp_call("t", flag=1)))
    assert c.param_errors[0].why == "a boolean is not a number"


def test_nan_never_equals_and_strings_are_exact() -> None:
    assert not values_agree(math.nan, math.nan)
    assert not values_agree([math.nan], [math.nan])
    assert not values_agree("Paris", "paris")
    assert not values_agree("5", 5)
    assert values_agree(None, None) and not values_agree(None, 0)


def test_parameter_agreement_is_share_of_names_with_missing_and_extra_counting() -> None:
    # names a, b, c, d: a agrees, b differs, c missing from the call, d not expected
    assert agreement_of({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 9, "d": 4}) == 0.25
    c = score(ag(call("t", a=1, b=9, d=4)), gt(exp_call("t", a=1, b=2, c=3)))
    assert [(e.param_name, e.why) for e in c.param_errors] == [
        ("b", "values differ"),
        ("c", "missing from the call"),
        ("d", "not an expected parameter"),
    ]


def test_two_empty_parameter_sets_agree_fully() -> None:
    assert agreement_of({}, {}) == 1.0


def test_rule_exact_is_the_default() -> None:
    rules = {"q": {"rule": "exact"}}
    assert agreement_of({"q": "Paris"}, {"q": "Paris"}, rules) == 1.0
    assert agreement_of({"q": "Paris"}, {"q": "paris"}, rules) == 0.0


def test_rule_ignore_removes_the_name_from_the_comparison() -> None:
    rules = {"trace_id": {"rule": "ignore"}}
    assert agreement_of({"q": "x", "trace_id": "abc"}, {"q": "x", "trace_id": "zzz"}, rules) == 1.0
    assert agreement_of({"q": "x"}, {"q": "x", "trace_id": "zzz"}, rules) == 1.0  # only in the call
    assert agreement_of({"q": "x", "trace_id": "abc"}, {"q": "y"}, rules) == 0.0  # q alone counts


def test_rule_any_of() -> None:
    rules = {"unit": {"rule": "any_of", "values": ["C", "celsius", {"u": "C"}]}}
    assert agreement_of({"unit": "C"}, {"unit": "celsius"}, rules) == 1.0
    assert agreement_of({"unit": "C"}, {"unit": {"u": "C"}}, rules) == 1.0
    assert agreement_of({"unit": "C"}, {"unit": "F"}, rules) == 0.0
    assert agreement_of({}, {"unit": "celsius"}, rules) == 1.0  # accepted values without an expected one
    assert agreement_of({}, {"unit": None}, rules) == 0.0
    c = score(ag(call("t", unit="F")), gt(exp_call("t", rules=rules, unit="C")))
    assert "allowed values" in c.param_errors[0].why


def test_rule_tolerance() -> None:
    absolute = {"x": {"rule": "tolerance", "abs_tol": 0.01}}
    relative = {"x": {"rule": "tolerance", "rel_tol": 0.1}}
    assert agreement_of({"x": 3.14159}, {"x": 3.14}, absolute) == 1.0
    assert agreement_of({"x": 3.14159}, {"x": 3.1}, absolute) == 0.0
    assert agreement_of({"x": 100}, {"x": 109}, relative) == 1.0
    assert agreement_of({"x": 100}, {"x": 111}, relative) == 0.0
    assert agreement_of({"x": [1.0, {"y": 2.0}]}, {"x": [1.001, {"y": 1.995}]}, absolute) == 1.0
    assert agreement_of({"x": 1}, {"x": True}, absolute) == 0.0
    assert agreement_of({"x": math.inf}, {"x": math.inf}, absolute) == 1.0
    assert agreement_of({"x": math.nan}, {"x": math.nan}, absolute) == 0.0
    assert agreement_of({"x": "1.0"}, {"x": "1.001"}, absolute) == 0.0  # strings stay exact


def test_rule_text() -> None:
    rules = {"city": {"rule": "text"}}
    assert agreement_of({"city": "New York, NY"}, {"city": "  new york   ny. "}, rules) == 1.0
    assert agreement_of({"city": "ＰＡＲＩＳ"}, {"city": "paris"}, rules) == 1.0  # NFKC full-width
    assert agreement_of({"city": ["Rome!"]}, {"city": ["rome"]}, rules) == 1.0
    assert agreement_of({"city": "Paris"}, {"city": "Rome"}, rules) == 0.0
    assert normalise_text("U.S.A.  Ｄｅｐｔ") == "usa dept"


def test_param_error_lists_both_values() -> None:
    c = score(ag(call("search", q="Pariss", n=5)), gt(exp_call("search", q="Paris", n=5)))
    assert c.param_errors == [("search", "q", "Paris", "Pariss", "values differ")]
    assert c.parameters == 0.5


# ---------------------------------------------------------------------------------------------
# utilization
# ---------------------------------------------------------------------------------------------


def _util(result: Any, answer: str, flag: bool | None = None) -> ToolComponents:
    return score(ag(call("calc", result=result, a=1), flag=flag), gt(exp_call("calc", a=1)), answer)


def test_utilization_flag_is_used_when_given() -> None:
    yes = _util(42, "no number here", flag=True)
    no = _util(42, "The answer is 42.", flag=False)
    assert (yes.utilization, yes.utilization_inferred) == (1.0, False)
    assert (no.utilization, no.utilization_inferred) == (0.0, False)
    assert any("final_answer_uses_tools is false" in d for d in no.deductions)


def test_utilization_inferred_from_evidence_says_inferred() -> None:
    c = _util(42, "Using the calculator, 15 + 27 = 42.")
    assert (c.utilization, c.utilization_inferred) == (1.0, True)
    result = combine(c, DEFAULT, 1.0)
    assert result.is_correct and "inferred" in result.reasoning


def test_utilization_inferred_absent_evidence_is_zero() -> None:
    c = _util(42, "I could not compute it.")
    assert (c.utilization, c.utilization_inferred) == (0.0, True)
    assert "inferred" in combine(c, DEFAULT, 1.0).reasoning


@pytest.mark.parametrize(
    ("result", "answer", "found"),
    [
        (42, "= 42.", True),
        (42, "It is 42.0 exactly", True),
        (1200, "about 1,200 people", True),
        (1200.0, "1200", True),
        (-5, "5 degrees below zero", True),
        (3.14159, "pi is about 3.14", True),
        (1234.56, "roughly 1,235", True),
        (3.4, "roughly 3", False),
        (42, "420 items", False),
        (42, "4.2 items", False),
        (42, "the 142nd", False),
        ("Paris", "You should visit PARIS.", True),
        ("ab", "about this", False),
        ("15", "it is 15.", True),
        ("1,200", "it is 1200", True),
        ({"temp": {"c": 23.9}, "ok": True}, "It is 23.9 C", True),
        ([None, "", "x", True], "x marks True", None),  # no usable leaf: not assessable
    ],
)
def test_utilization_evidence_matching(result: Any, answer: str, found: bool | None) -> None:
    expected = None if found is None else float(found)
    assert _util(result, answer).utilization == expected


def test_utilization_not_assessable_without_flag_and_results() -> None:
    c = score(ag(call("calc", a=1), flag=None), gt(exp_call("calc", a=1)), "answer")
    assert c.utilization is None and not c.utilization_inferred
    result = combine(c, SKEWED, 1.0)
    assert result.result_utilization is None
    assert result.overall_correctness == 1.0 and result.is_correct  # left out, weights renormalised
    assert "not assessable" in result.reasoning
    bad = score(ag(call("calc", a=2), flag=None), gt(exp_call("calc", a=1)), "answer")
    # selection 1, parameters 0, sequence 1, weights 0.2/0.4/0.3 renormalised over 0.9
    assert combine(bad, SKEWED, 1.0).overall_correctness == pytest.approx(0.5 / 0.9)


def test_utilization_zero_when_tools_expected_but_none_used_even_if_flag_true() -> None:
    c = score(ag(flag=True), gt(exp_call("calc")))
    assert c.utilization == 0.0


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
# combine, reasoning and the vectorised path
# ---------------------------------------------------------------------------------------------


def test_perfect_call_with_skewed_weights_is_correct_at_threshold_one() -> None:
    c = score(ag(call("calc", result=42, a=15, b=27)), gt(exp_call("calc", a=15, b=27)), "42")
    result = combine(c, SKEWED, 1.0)
    assert result.overall_correctness == 1.0 and result.is_correct
    assert result.reasoning == "All tools used correctly"
    overall = overall_vectorised(components_matrix([c]), SKEWED)
    assert overall[0] == 1.0 and tool_correct_vectorised(overall, 1.0)[0]


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
    with pytest.raises(SettingsError):
        tool_correct_vectorised(np.array([1.0]), -0.1)


def test_components_matrix_marks_not_applicable() -> None:
    c = score(ag(call("calc", a=1), flag=None), gt(exp_call("calc", a=1)))
    arrays = components_matrix([None, c])
    assert arrays["applicable"].tolist() == [False, True]
    assert np.isnan(arrays["selection"][0]) and arrays["selection"][1] == 1.0
    assert np.isnan(arrays["utilization"]).all()  # row 0 not applicable, row 1 not assessable
    overall = overall_vectorised(arrays, DEFAULT)
    assert np.isnan(overall[0]) and overall[1] == 1.0
    assert tool_correct_vectorised(overall, 1.0).tolist() == [False, True]


def test_components_matrix_of_nothing() -> None:
    arrays = components_matrix([])
    assert overall_vectorised(arrays, DEFAULT).shape == (0,)


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
        assert 0.0 <= value <= 1.0
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
    correct = tool_correct_vectorised(overall, threshold)
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
        assert bool(correct[i]) == scalar.is_correct


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
    from agentic_core.tools import _score_general

    expected_calls, used_calls, order_matters, flag = case
    agentic = Agentic.model_validate({"tools_used": used_calls, "final_answer_uses_tools": flag})
    truth = GroundTruthAgentic.model_validate(
        {"expected_tools": expected_calls, "tool_sequence_matters": order_matters}
    )
    fast = score_tools(agentic, truth, "answer")
    general = _score_general(agentic, truth, list(agentic.tools_used), "answer")
    assert fast == general
