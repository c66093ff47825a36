"""Wording helpers: the decimals at which numbers that differ print differently."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentic_core.common.wording import decimals_apart


def test_two_decimals_unless_more_are_needed() -> None:
    assert decimals_apart([0.0683, 0.62, 0.9317]) == 2
    assert decimals_apart([0.0683, 0.9301, 0.9317]) == 3  # 0.93 and 0.93 at two
    assert decimals_apart([0.5, 0.5]) == 2  # equal values may print alike
    assert decimals_apart([0.1, 0.1000001], most=6) == 6  # closer than the most: the most


@given(st.lists(st.integers(0, 10**5), min_size=1, max_size=6))
def test_values_that_differ_print_in_their_order(ints: list[int]) -> None:
    values = [v / 10**5 for v in ints]
    d = decimals_apart(values)
    for a in values:
        for b in values:
            if a < b:
                assert float(f"{a:.{d}f}") < float(f"{b:.{d}f}")
