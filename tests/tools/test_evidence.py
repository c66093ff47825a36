"""Tests of agentic_core.tools.evidence: result utilization, from the flag or inferred from the answer."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.tools import (
    ToolComponents,
    combine,
)
from tests.tools.conftest import DEFAULT, SKEWED, ag, call, exp_call, gt, score


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
