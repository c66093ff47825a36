"""Tests of agentic_core.tools.matching: one-to-one matching, ordering, sequence and parameter agreement.

The reference compared every expected call with the FIRST used call of that name.
"""

from __future__ import annotations

import pytest

from agentic_core.tools import (
    MatchRow,
    combine,
)
from tests.tools.conftest import DEFAULT, ag, agreement_of, call, exp_call, gt, score

# ---------------------------------------------------------------------------------------------
# matching
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
# parameter agreement of a matched pair
# ---------------------------------------------------------------------------------------------


def test_parameter_agreement_is_share_of_names_with_missing_and_extra_counting() -> None:
    # names a, b, c, d: a agrees, b differs, c missing from the call, d not expected
    assert agreement_of({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 9, "d": 4}) == 0.25
    c = score(ag(call("t", a=1, b=9, d=4)), gt(exp_call("t", a=1, b=2, c=3)))
    assert [(e.param_name, e.why) for e in c.param_errors] == [
        ("b", "values differ"),
        ("c", "missing from the call"),
        ("d", "not an expected parameter"),
    ]


def test_param_error_lists_both_values() -> None:
    c = score(ag(call("search", q="Pariss", n=5)), gt(exp_call("search", q="Paris", n=5)))
    assert c.param_errors == [("search", "q", "Paris", "Pariss", "values differ")]
    assert c.parameters == 0.5


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
