"""Tests of agentic_core.stats.estimators: pass@k and pass^k per group, scalar and vectorised."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.errors import UndefinedEstimateError
from agentic_core.stats import (
    interpret,
    pass_at_k,
    pass_at_k_array,
    pass_pow_k,
    pass_pow_k_array,
)
from tests.stats.conftest import (
    ESTIMATORS,
    counts,
    groups,
)

# ------------------------------------------------------------------------------------------
# Reference values (source beside each)
# ------------------------------------------------------------------------------------------


def test_unbiased_reference_chen_et_al_2021() -> None:
    # Chen et al. 2021 (Codex paper), pass@k = 1 - C(n-c, k) / C(n, k); pass^k = C(c, k) / C(n, k).
    # n=10, c=7, k=3: C(3,3)/C(10,3) = 1/120 and C(7,3)/C(10,3) = 35/120.
    assert pass_at_k(10, 7, 3) == pytest.approx(1 - 1 / 120, abs=1e-15)
    assert pass_pow_k(10, 7, 3) == pytest.approx(35 / 120, abs=1e-15)


def test_unbiased_product_form_matches_exact_binomials_for_large_n() -> None:
    # Exact rational reference with Python's big integers; the product form must not lose precision.
    n, c, k = 200, 150, 50
    exact_pow = Fraction(math.comb(c, k), math.comb(n, k))
    exact_miss = Fraction(math.comb(n - c, k), math.comb(n, k))
    assert pass_pow_k(n, c, k) == pytest.approx(float(exact_pow), rel=1e-12)
    assert pass_at_k(n, c, k) == pytest.approx(float(1 - exact_miss), rel=1e-12)
    # Huge n: C(10^6, 1000) has thousands of digits; the product form still gives k/n for c = 1.
    assert pass_at_k(10**6, 1, 1000) == pytest.approx(1000 / 10**6, rel=1e-9)
    assert pass_pow_k(10**6, 10**6, 1000) == 1.0


def test_plug_in_reference_seed_003() -> None:
    # Seed 003 (Fair-Forge docs): 7 of 10 correct, k=3: pass@3 = 0.973, pass^3 = 0.343.
    assert pass_at_k(10, 7, 3, estimator="plug-in") == pytest.approx(0.973, abs=5e-4)
    assert pass_pow_k(10, 7, 3, estimator="plug-in") == pytest.approx(0.343, abs=5e-4)


def test_seed_001_example_two_of_three_conversations() -> None:
    # Seed 001 (Fair-Forge Lambda README): 2 of 3 conversations correct, k=3:
    # pass@3 = 0.9630, pass^3 = 0.2963 (p = c/n), interpretation "inconsistent".
    at = pass_at_k(3, 2, 3, estimator="plug-in")
    pw = pass_pow_k(3, 2, 3, estimator="plug-in")
    assert at == pytest.approx(0.9630, abs=5e-5)
    assert pw == pytest.approx(0.2963, abs=5e-5)
    assert interpret(at, pw) == "inconsistent"


# ------------------------------------------------------------------------------------------
# Properties
# ------------------------------------------------------------------------------------------


@given(nc=counts, k=st.integers(min_value=1, max_value=60), estimator=st.sampled_from(ESTIMATORS))
def test_ordering_pass_pow_le_rate_le_pass_at(nc: tuple[int, int], k: int, estimator: str) -> None:
    n, c = nc
    if estimator == "unbiased" and k > n:
        k = n
    at = pass_at_k(n, c, k, estimator)  # type: ignore[arg-type]
    pw = pass_pow_k(n, c, k, estimator)  # type: ignore[arg-type]
    assert 0.0 <= pw <= c / n + 1e-12
    assert c / n <= at + 1e-12
    assert at <= 1.0


@given(nc=counts, estimator=st.sampled_from(ESTIMATORS))
def test_monotone_in_k_and_k1_is_the_success_rate(nc: tuple[int, int], estimator: str) -> None:
    n, c = nc
    top = n if estimator == "unbiased" else n + 10
    at = [pass_at_k(n, c, k, estimator) for k in range(1, top + 1)]  # type: ignore[arg-type]
    pw = [pass_pow_k(n, c, k, estimator) for k in range(1, top + 1)]  # type: ignore[arg-type]
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(at))
    assert all(a >= b - 1e-12 for a, b in itertools.pairwise(pw))
    assert at[0] == pytest.approx(c / n, abs=1e-15)
    assert pw[0] == pytest.approx(c / n, abs=1e-15)


@given(data=groups, k=st.integers(min_value=1, max_value=12), estimator=st.sampled_from(ESTIMATORS))
def test_vectorised_equals_scalar(data: list[tuple[int, int]], k: int, estimator: str) -> None:
    n = np.array([x for x, _ in data])
    c = np.array([y for _, y in data])
    at, at_ok = pass_at_k_array(n, c, k, estimator)  # type: ignore[arg-type]
    pw, pw_ok = pass_pow_k_array(n, c, k, estimator)  # type: ignore[arg-type]
    assert np.array_equal(at_ok, pw_ok)
    for i, (ni, ci) in enumerate(data):
        if estimator == "unbiased" and k > ni:
            assert not at_ok[i]
            assert np.isnan(at[i])
            assert np.isnan(pw[i])
        else:
            assert at_ok[i]
            assert at[i] == pass_at_k(ni, ci, k, estimator)  # type: ignore[arg-type]
            assert pw[i] == pass_pow_k(ni, ci, k, estimator)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# Undefined inputs
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("fn", [pass_at_k, pass_pow_k])
def test_no_attempts_is_undefined_never_zero(fn: object, estimator: str) -> None:
    with pytest.raises(UndefinedEstimateError, match="no attempts"):
        fn(0, 0, 1, estimator)  # type: ignore[operator]


def test_unbiased_k_above_n_is_undefined_with_the_numbers_and_a_fix() -> None:
    with pytest.raises(UndefinedEstimateError) as info:
        pass_at_k(3, 2, 5)
    message = str(info.value)
    assert "pass@5" in message
    assert "at least 5 attempts" in message
    assert "has 3" in message
    assert "plug-in" in message
    assert "k <= 3" in message
    with pytest.raises(UndefinedEstimateError, match=r"pass\^5"):
        pass_pow_k(3, 2, 5)
    # plug-in handles any k
    assert pass_pow_k(3, 2, 5, "plug-in") == pytest.approx((2 / 3) ** 5)


def test_vectorised_marks_undefined_groups() -> None:
    values, defined = pass_pow_k_array([0, 2, 5], [0, 1, 3], 3)
    assert defined.tolist() == [False, False, True]
    assert np.isnan(values[:2]).all()
    assert values[2] == pytest.approx(1 / 10)
