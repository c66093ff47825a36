"""The Bayesian bootstrap over tasks (stats.task_bootstrap) that widens the Bayesian population interval."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import betaincinv

from agentic_core.stats import dataset_curve
from agentic_core.stats.counts import distinct_pairs
from agentic_core.stats.task_bootstrap import END_PRIOR, task_bootstrap_draws, task_values


def test_task_values_are_unbiased_where_k_fits_and_posterior_means_beyond() -> None:
    pairs = distinct_pairs(np.array([4, 2]), np.array([3, 1]))
    ks = np.array([1, 3])
    values = task_values(pairs, ks, (1.0, 1.0))
    row = {int(n): values[i] for i, n in enumerate(pairs.n)}
    # 3 of 4: pass@3 = 1 - C(1,3)/C(4,3) = 1, pass^3 = C(3,3)/C(4,3) = 1/4, c/n = 3/4.
    assert row[4] == pytest.approx([0.75, 1.0, 0.75, 0.25, 0.75])
    # 1 of 2 has no unbiased value at k = 3: Beta(2, 2) moments, E[p^3] = 2*3*4 / (4*5*6) = 1/5.
    assert row[2] == pytest.approx([0.5, 1.0 - 0.2, 0.5, 0.2, 0.5])


def test_draws_depend_on_the_seed_and_average_the_tasks() -> None:
    pairs = distinct_pairs(np.full(50, 8), np.arange(50) % 9)
    ks = np.array([1, 3])
    one = task_bootstrap_draws(pairs, ks, (1.0, 1.0), 4000, np.random.SeedSequence(1))
    assert one["pass_at"].shape == (4000, 2) and one["p"].shape == (4000, 1)
    again = task_bootstrap_draws(pairs, ks, (1.0, 1.0), 4000, np.random.SeedSequence(1))
    other = task_bootstrap_draws(pairs, ks, (1.0, 1.0), 4000, np.random.SeedSequence(2))
    assert np.array_equal(one["pass_pow"], again["pass_pow"])
    assert not np.array_equal(one["pass_pow"], other["pass_pow"])
    # The mean of the draws is the weighted mean of the 50 tasks and the two prior tasks (1/2 each).
    observed = float(np.mean((np.arange(50) % 9) / 8))
    expected = (50 * observed + END_PRIOR * 1.0) / (50 + 2 * END_PRIOR)
    assert one["p"].mean() == pytest.approx(expected, abs=0.005)


def test_thirty_tasks_cannot_rule_out_a_kind_of_task_none_of_them_was() -> None:
    # Thirty tasks, none solved more than 3 times in 16: the population may still hold always-solved
    # tasks, up to about the share Jeffreys' interval allows for 0 of 30 (the Beta(1/2, 30 + 1/2) upper
    # quantile), and the Bayesian population interval of pass^16 must reach that far. A Beta law fitted
    # to these tasks puts almost no mass near p = 1 (its interval alone ends below 1e-5 here).
    c = np.array([1, 0, 2, 1, 0, 0, 1, 0, 0, 3] * 3)
    [point] = dataset_curve(np.full(30, 16), c, [16], mode="bayesian")
    assert point.pass_pow_k_ci is not None
    jeffreys = float(betaincinv(END_PRIOR, 30 + END_PRIOR, 0.975))
    assert point.pass_pow_k_ci[1] >= 0.8 * jeffreys


def test_the_interval_does_not_depend_on_the_seed_or_the_order() -> None:
    rng = np.random.default_rng(5)
    n = np.full(20, 6)
    c = rng.binomial(6, np.where(rng.random(20) < 0.3, 1.0, 0.1))
    first = dataset_curve(n, c, [1, 3, 6], mode="bayesian", seed=1)
    order = rng.permutation(20)
    assert first == dataset_curve(n[order], c[order], [1, 3, 6], mode="bayesian", seed=2)
