"""Issue 36: any_of values looked up in a set of keys, and the matching's matrix without explanations.

The references are the definitions, written naively: a used value is allowed when it structurally
equals one of the rule's values (a scan of the list), and a pair's agreement is the share
:func:`pair_agreement` computes while it explains every disagreement. Scoring with the references
patched in is how scoring worked before the issue; hypothesis compares both on small inputs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.data.schemas import ExpectedTool, ParameterRule, ToolCall
from agentic_core.tools import dimensions, matching, score_tools, values
from agentic_core.tools.matching import agreement_only, pair_agreement
from agentic_core.tools.values import in_values, num_exact, str_exact, structural_equal
from tests.tools.conftest import ag, call, exp_call, gt

# Small domains, so that equal values (5 and 5.0, [1] and (1,), dicts in another key order) meet often.
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.sampled_from([0.0, -0.0, 1.0, 2.5, float("nan"), float("inf"), 2.0**64]),
    st.just(2**64),
    st.sampled_from(["a", "b", "A", "a ", ""]),
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.sampled_from(["k", "m", "n"]), inner, max_size=3),
    ),
    max_leaves=6,
)


def variant(value: Any, flips: Iterator[bool]) -> Any:
    """A value structurally equal to ``value`` (when it holds no NaN) but written otherwise: an int as
    a float and back, a list as a tuple, a dict's keys in another order; ``flips`` picks which."""
    kind = type(value)
    if kind is int and next(flips):
        return float(value)
    if kind is float and value.is_integer() and next(flips):
        return int(value)
    if kind in (list, tuple):
        items = [variant(v, flips) for v in value]
        return tuple(items) if next(flips) else items
    if kind is dict:
        pairs = [(k, variant(v, flips)) for k, v in value.items()]
        return dict(reversed(pairs) if next(flips) else pairs)
    return value


@st.composite
def twins(draw: st.DrawFn, values: st.SearchStrategy[Any]) -> tuple[Any, Any]:
    """Two values: often one and a variant of it (equal ones rarely meet by chance), else two drawn."""
    a = draw(values)
    if draw(st.booleans()):
        return a, draw(values)
    flips = iter(draw(st.lists(st.booleans(), min_size=64, max_size=64)) * 8)
    return a, variant(a, flips)


# Values only Python code can pass (no JSON kind): compared one by one, by their own equality.
EXOTIC = st.sampled_from([Decimal(1), complex(1, 0), frozenset({1})])
ANY = st.one_of(JSON, EXOTIC, st.lists(st.one_of(JSON, EXOTIC), max_size=2))


def naive_in_values(used: Any, rule: ParameterRule) -> bool:
    return any(structural_equal(v, used, num_exact, str_exact) for v in rule.values or [])


def naive_agreement(expected: ExpectedTool, used: ToolCall) -> float:
    return pair_agreement(expected, used)[0]


@settings(max_examples=300, deadline=None)
@given(pair=twins(ANY), allowed=st.lists(ANY, max_size=12), at=st.integers(0, 12))
def test_the_lookup_answers_as_a_scan_of_the_values(pair: tuple[Any, Any], allowed: list[Any], at: int) -> None:
    used, twin = pair
    allowed.insert(at, twin)
    rule = ParameterRule(rule="any_of", values=allowed)
    assert in_values(used, rule) is naive_in_values(used, rule)
    assert in_values(used, rule) is naive_in_values(used, rule)  # the index, now built, answers alike


@settings(max_examples=300, deadline=None)
@given(pair=twins(JSON))
def test_one_value_rule_agrees_exactly_when_the_values_are_structurally_equal(pair: tuple[Any, Any]) -> None:
    a, b = pair
    assert in_values(b, ParameterRule(rule="any_of", values=[a])) is structural_equal(a, b, num_exact, str_exact)


PARAMS = st.dictionaries(st.sampled_from(["x", "y", "z"]), JSON, max_size=3)
RULES = st.dictionaries(
    st.sampled_from(["x", "y", "z"]),
    st.one_of(
        st.builds(lambda vs: {"rule": "any_of", "values": vs}, st.lists(JSON, min_size=1, max_size=40)),
        st.just({"rule": "ignore"}),
        st.just({"rule": "text"}),
        st.just({"rule": "tolerance", "abs_tol": 0.5}),
        st.just({"rule": "exact"}),
    ),
    max_size=2,
)


@settings(max_examples=300, deadline=None)
@given(expected=PARAMS, used=PARAMS, rules=RULES)
def test_a_cell_of_the_matrix_is_the_pairs_agreement(
    expected: dict[str, Any], used: dict[str, Any], rules: dict[str, Any]
) -> None:
    e = ExpectedTool.model_validate(exp_call("t", rules=rules, **expected))
    u = ToolCall.model_validate(call("t", **used))
    assert agreement_only(e, u) == naive_agreement(e, u)


@contextlib.contextmanager
def naive_scoring() -> Iterator[None]:
    """Scoring as before issue 36: every lookup a scan, every cell of the matrix explained."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(values, "in_values", naive_in_values))
        stack.enter_context(mock.patch.object(matching, "in_values", naive_in_values))
        stack.enter_context(mock.patch.object(matching, "agreement_only", naive_agreement))
        stack.enter_context(mock.patch.object(dimensions, "agreement_only", naive_agreement))
        yield


CALL = st.tuples(st.sampled_from(["a", "b"]), PARAMS)
EXPECTED = st.tuples(st.sampled_from(["a", "b"]), PARAMS, RULES, st.booleans())


@settings(max_examples=150, deadline=None)
@given(
    used=st.lists(CALL, max_size=5),
    expected=st.lists(EXPECTED, min_size=1, max_size=5),
    flag=st.sampled_from([True, False, None]),
    matters=st.booleans(),
)
def test_scoring_is_what_the_naive_lookups_give(
    used: list[tuple[str, dict[str, Any]]],
    expected: list[tuple[str, dict[str, Any], dict[str, Any], bool]],
    flag: bool | None,
    matters: bool,
) -> None:
    def build() -> tuple[Any, Any]:  # fresh models each time: no index is shared between the two
        agentic = ag(*(call(name, result="r", **p) for name, p in used), flag=flag)
        truth = gt(*(exp_call(n, optional=o, rules=r, **p) for n, p, r, o in expected), matters=matters)
        return agentic, truth

    fast = score_tools(*build(), "the answer")
    with naive_scoring():
        naive = score_tools(*build(), "the answer")
    assert fast == naive


def _many_values_interaction(n_calls: int, n_values: int) -> tuple[Any, Any]:
    rule = {"x": {"rule": "any_of", "values": [f"v{j}" for j in range(n_values)]}}
    used = [call("t", step=i, x=f"w{i}") for i in range(n_calls)]
    expected = [exp_call("t", step=i, rules=rule, x="none") for i in range(n_calls)]
    return ag(*used), gt(*expected)


def test_the_matrix_compares_without_scanning_or_quoting_the_values() -> None:
    # Was: every one of the n x n pairs quoted its rule's whole list (27 s of CPU for 200 x 200 calls
    # with 1,000 values each); the pairs chosen are explained, once each.
    counted = {"compare": 0, "explain": 0}
    real_equal, real_why = values.structural_equal, matching.why_differ

    def counting_equal(*args: Any) -> bool:
        counted["compare"] += 1
        return real_equal(*args)

    def counting_why(*args: Any) -> str:
        counted["explain"] += 1
        return real_why(*args)

    def cost(n_values: int) -> dict[str, int]:
        counted.update(compare=0, explain=0)
        with (
            mock.patch.object(values, "structural_equal", counting_equal),
            mock.patch.object(matching, "structural_equal", counting_equal),
            mock.patch.object(matching, "why_differ", counting_why),
        ):
            c = score_tools(*_many_values_interaction(30, n_values), "")
        assert c is not None and c.n_matched == 30 and c.parameters == 0.0
        return dict(counted)

    small, large = cost(50), cost(2_000)
    assert small == large  # no comparison per value
    assert large["explain"] == 30  # one per chosen pair, not 900
