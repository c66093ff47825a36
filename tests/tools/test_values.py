"""Tests of agentic_core.tools.values: parameter value comparison and its rules (docs/data-format.md)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from agentic_core.data.schemas import ParameterRule
from agentic_core.tools import (
    normalise_text,
    values_agree,
)
from tests.tools.conftest import ag, agreement_of, call, exp_call, gt, score


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
