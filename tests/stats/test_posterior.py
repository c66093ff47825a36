"""Tests of agentic_core.stats.posterior: Bayesian draws of the dataset mean, their regimes and accuracy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import beta as beta_dist
from scipy.stats import kstest

from agentic_core.stats import (
    dataset_curve,
    posterior_samples,
    prob_pass_pow_exceeds,
)
from agentic_core.stats.posterior import EXACT_DRAWS_MAX_M
from tests.stats.conftest import (
    FEW,
    MANY,
    MIXED,
    SKEWED,
    quantile_tolerance,
    shuffled,
)


def test_prob_pass_pow_exceeds_single_group_is_exact() -> None:
    # P(p^3 > 0.2) for p ~ Beta(8, 4), by direct integration of the density.
    reference, _ = integrate.quad(beta_dist(8, 4).pdf, 0.2 ** (1 / 3), 1.0)
    assert prob_pass_pow_exceeds(10, 7, 3, 0.2) == pytest.approx(reference, abs=1e-9)
    assert prob_pass_pow_exceeds(10, 7, 3, 0.0) == 1.0
    assert prob_pass_pow_exceeds(10, 7, 3, 1.0) == 0.0


@pytest.mark.parametrize("population", [True, False])
def test_prob_pass_pow_exceeds_many_groups_is_a_decreasing_probability(population: bool) -> None:
    n, c = [5, 5, 8, 3, 10], [4, 5, 6, 1, 9]
    probs = [prob_pass_pow_exceeds(n, c, 3, t, seed=1, population=population) for t in (0.0, 0.2, 0.4, 0.6, 1.0)]
    assert probs[0] == 1.0
    assert probs[-1] == 0.0
    assert probs == sorted(probs, reverse=True)
    assert 0.0 < probs[2] < 1.0


def test_the_regimes_are_the_ones_the_datasets_are_meant_to_exercise() -> None:
    few = posterior_samples(*FEW, [1, 3, 5], target="these-tasks")
    assert (few.method, few.exact_groups) == ("monte-carlo", 6)
    many = posterior_samples(*MANY, [1, 3, 5], target="these-tasks")
    assert (many.method, many.exact_groups) == ("cornish-fisher", 0)
    mixed = posterior_samples(*MIXED, [1, 3, 5], target="these-tasks")
    assert (mixed.method, mixed.exact_groups, mixed.n_groups) == ("monte-carlo", 1, 101)
    skewed = posterior_samples(*SKEWED, [1, 5, 10], target="these-tasks")
    assert (skewed.method, skewed.exact_groups) == ("cornish-fisher", 0)


def test_exact_draws_below_the_threshold_and_moments_above() -> None:
    few = posterior_samples([5] * EXACT_DRAWS_MAX_M, [3] * EXACT_DRAWS_MAX_M, 3, target="these-tasks")
    many = posterior_samples([5] * 400 + [6] * 400, [3] * 400 + [5] * 400, 3, target="these-tasks")
    assert few.method == "monte-carlo"
    assert many.method == "cornish-fisher"
    assert many.n_groups == 800


@pytest.mark.parametrize("data", [FEW, MANY, MIXED])
def test_posterior_samples_are_order_independent_and_seeded(data: tuple[list[int], list[int]]) -> None:
    n, c = data
    a = posterior_samples(n, c, [1, 3], seed=5, target="these-tasks")
    b = posterior_samples(*shuffled(n, c, 9), [1, 3], seed=5, target="these-tasks")
    other = posterior_samples(n, c, [1, 3], seed=6, target="these-tasks")
    assert np.array_equal(a.pass_pow_k, b.pass_pow_k)
    assert np.array_equal(a.pass_at_k, b.pass_at_k)
    assert np.array_equal(a.p, b.p)
    assert not np.array_equal(a.pass_pow_k, other.pass_pow_k)
    assert a.pass_pow_k.shape == (4000, 2)


def test_a_groups_exact_draws_do_not_depend_on_the_other_groups() -> None:
    # Each distinct (n, c) pair has its own generator seeded by (seed, n, c, m): the draws of a
    # dataset's total are the sum of the draws each pair gets on its own.
    together = posterior_samples([10, 10, 3], [7, 7, 1], [1, 4], seed=2, target="these-tasks")
    first = posterior_samples([10, 10], [7, 7], [1, 4], seed=2, target="these-tasks")
    second = posterior_samples([3], [1], [1, 4], seed=2, target="these-tasks")
    assert np.allclose(3 * together.pass_pow_k, 2 * first.pass_pow_k + second.pass_pow_k, rtol=1e-12)


def test_single_group_samples_are_exact_beta_draws() -> None:
    samples = posterior_samples([10], [7], [1, 3], seed=4, target="these-tasks")
    assert samples.method == "monte-carlo"
    # Seeded, so this p-value is fixed; it would be ~0 for draws from the wrong law.
    assert kstest(samples.p, beta_dist(8, 4).cdf).pvalue > 0.01
    assert np.allclose(samples.pass_pow_k[:, 1], samples.p**3)
    assert np.allclose(samples.pass_at_k[:, 1], 1 - (1 - samples.p) ** 3)


def _brute_force_posterior(
    n: list[int], c: list[int], ks: list[int], draws: int
) -> tuple[np.ndarray, np.ndarray]:
    """Draws of the mean over groups of pass@k and pass^k, one independent Beta draw per group."""
    rng = np.random.default_rng(12345)
    at = np.zeros((draws, len(ks)))
    pw = np.zeros((draws, len(ks)))
    for ni, ci in zip(n, c, strict=True):
        p = rng.beta(1 + ci, 1 + ni - ci, draws)[:, None]
        at += 1 - (1 - p) ** np.asarray(ks)
        pw += p ** np.asarray(ks)
    return at / len(n), pw / len(n)


@pytest.mark.parametrize(
    ("data", "ks", "draws"),
    [
        (FEW, [1, 3, 5], 20_000),
        (MANY, [1, 3, 5], 20_000),
        (MIXED, [1, 3, 5], 20_000),
        (SKEWED, [1, 5, 10], 60_000),
    ],
    ids=["exact", "cornish-fisher", "mixed", "skewed"],
)
def test_bayesian_intervals_match_brute_force_monte_carlo(
    data: tuple[list[int], list[int]], ks: list[int], draws: int
) -> None:
    n, c = data
    ref_at, ref_pw = _brute_force_posterior(n, c, ks, draws)
    curve = dataset_curve(n, c, ks, mode="bayesian", target="these-tasks", n_samples=draws, seed=1)
    for j, point in enumerate(curve):
        for ref, value, ci in (
            (ref_at[:, j], point.pass_at_k, point.pass_at_k_ci),
            (ref_pw[:, j], point.pass_pow_k, point.pass_pow_k_ci),
        ):
            assert ci is not None
            assert value == pytest.approx(ref.mean(), abs=5 * ref.std() / math.sqrt(draws))
            for bound, tail in zip(ci, (0.025, 0.975), strict=True):
                assert abs(bound - np.quantile(ref, tail)) <= quantile_tolerance(ref, tail, draws)
