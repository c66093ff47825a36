"""The exact sign-flip test: against the sign test, full enumeration and scipy's permutation test."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest, permutation_test

from agentic_core.stats.sign_flip import ENUMERATE, sign_flip_p


def _summed(x: np.ndarray, axis: int) -> np.ndarray:
    return np.sum(x, axis=axis)


def brute_force(d: np.ndarray) -> float:
    """Every sign pattern counted: the 2**n signed sums built one difference at a time (each sum once)."""
    observed = abs(float(d.sum()))
    sums = np.zeros(1)
    for x in d.tolist():
        sums = np.concatenate((sums + x, sums - x))
    return float(np.count_nonzero(np.abs(sums) >= observed - 1e-9)) / 2**d.size


def test_the_enumeration_is_every_sign_pattern() -> None:
    # The vectorised enumeration against the plain one, on a few differences (2**8 patterns).
    d = np.array([1.0, -0.5, 1 / 6, 0.0, 1 / 3, -1.0, 0.5, 1 / 6])
    observed = abs(float(d.sum()))
    hits = sum(abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed - 1e-9 for signs in
               itertools.product((1, -1), repeat=d.size))  # fmt: skip
    assert brute_force(d) == hits / 2**d.size


@pytest.mark.parametrize(("plus", "minus", "zeros"), [(14, 4, 10), (40, 22, 5), (3, 3, 0), (25, 0, 3)])
def test_zeros_and_ones_are_the_exact_sign_test(plus: int, minus: int, zeros: int) -> None:
    # McNemar's exact test: the non-zero differences' signs are Binomial(plus + minus, 1/2).
    d = np.array([1.0] * plus + [-1.0] * minus + [0.0] * zeros)
    assert sign_flip_p(d) == pytest.approx(binomtest(plus, plus + minus, 0.5).pvalue, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([-1.0, -0.5, -1 / 6, 0.0, 1 / 6, 1 / 3, 0.5, 1.0]), min_size=1, max_size=20))
def test_lattice_differences_match_enumeration(values: list[float]) -> None:
    d = np.array(values)
    # Above ENUMERATE non-zero values the lattice convolution answers; below, the enumeration.
    assert sign_flip_p(d) == pytest.approx(brute_force(d), abs=1e-9)


def test_continuous_differences_match_scipys_exact_permutation_test() -> None:
    rng = np.random.default_rng(4)
    d = rng.standard_normal(ENUMERATE) + 0.5
    exact = permutation_test((d,), _summed, permutation_type="samples", n_resamples=np.inf).pvalue
    assert sign_flip_p(d) == pytest.approx(exact, rel=1e-9)


def test_many_continuous_differences_get_a_seeded_monte_carlo_p() -> None:
    rng = np.random.default_rng(5)
    d = rng.standard_normal(60) + 0.25
    reference = permutation_test((d,), _summed, permutation_type="samples", n_resamples=200_000, random_state=1)
    p = sign_flip_p(d)
    assert p == sign_flip_p(d.copy())  # the same differences, the same P
    assert p == pytest.approx(reference.pvalue, abs=4 * (reference.pvalue / 2**15) ** 0.5 + 0.002)


def test_all_zero_and_identical_differences() -> None:
    assert sign_flip_p(np.zeros(5)) == 1.0
    assert sign_flip_p(np.full(4, 0.5)) == pytest.approx(2.0**-3)
    assert sign_flip_p(np.full(30, -0.25)) == pytest.approx(2.0**-29)


def test_twenty_lattice_differences_take_the_convolution() -> None:
    # 20 non-zero values: past the enumeration, on the lattice of sixths. Enumerated here with numpy.
    d = np.array([6, -1, 3, 2, -3, 6, 1, 1, 3, -6, 2, 3, 6, 1, -2, 6, 3, 6, 1, 4]) / 6
    signs = 1 - 2 * ((np.arange(1 << d.size)[:, None] >> np.arange(d.size)) & 1)
    expected = float(np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-9))
    assert d.size > ENUMERATE and sign_flip_p(d) == pytest.approx(expected, abs=1e-12)
