"""Tests of agentic_core.stats.bootstrap: BCa over groups (checked against scipy), within-group resampling."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from agentic_core.stats import dataset_curve, pass_pow_k
from agentic_core.stats.bootstrap import _expanded_tail, bca_bounds, bootstrap_means
from agentic_core.stats.counts import distinct_pairs
from tests.stats.conftest import quantile_tolerance


def test_bootstrap_means_match_brute_force_resampling_of_groups() -> None:
    # Multinomial counts over distinct (n, c) pairs are the same law as resampling groups.
    n = np.array([1, 5, 5, 2, 8, 3, 5, 6, 2, 9] * 5)
    c = np.array([1, 3, 4, 0, 8, 1, 5, 2, 2, 7] * 5)
    dist = distinct_pairs(n, c)
    values = (dist.c / dist.n)[:, None]
    draws = 20_000
    ours = bootstrap_means(dist, values, seed=1, draws=draws)[:, 0]
    picks = np.random.default_rng(99).integers(0, len(n), (draws, len(n)))
    reference = (c / n)[picks].mean(axis=1)
    for tail in (0.025, 0.5, 0.975):
        assert abs(np.quantile(ours, tail) - np.quantile(reference, tail)) <= quantile_tolerance(reference, tail, draws)


def test_bca_matches_scipy_without_the_expansion(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reference: scipy.stats.bootstrap(method="BCa") on the per-group values (Efron 1987). With the
    # small-sample expansion switched off our closed-form jackknife must give the same interval up
    # to Monte Carlo error.
    rng = np.random.default_rng(5)
    n = np.full(40, 6)
    c = rng.binomial(6, rng.beta(0.5, 0.5, 40))
    dist = distinct_pairs(n, c)
    values = np.column_stack([dist.c / dist.n, (dist.c / dist.n) ** 3])
    draws = 40_000
    monkeypatch.setattr("agentic_core.stats.bootstrap._expanded_tail", lambda level, groups: (1 - level) / 2)
    low, high = bca_bounds(dist, values, bootstrap_means(dist, values, seed=3, draws=draws), 0.95)
    per_group = np.column_stack([c / n, (c / n) ** 3])
    for j in range(2):
        ref = sps.bootstrap(
            (np.sort(per_group[:, j]),), np.mean, method="BCa", n_resamples=draws, rng=np.random.default_rng(7)
        ).confidence_interval
        assert low[j] == pytest.approx(ref.low, abs=0.01)
        assert high[j] == pytest.approx(ref.high, abs=0.01)


def test_the_expansion_widens_most_with_few_groups() -> None:
    # Hesterberg (2015): z -> sqrt(T/(T-1)) t_(T-1). At T = 10 the 2.5% tail becomes ~1.1%; at 1000 ~2.5%.
    assert _expanded_tail(0.95, 10) == pytest.approx(sps.norm.cdf(np.sqrt(10 / 9) * sps.t.ppf(0.025, 9)))
    assert _expanded_tail(0.95, 10) < 0.012
    assert _expanded_tail(0.95, 1000) == pytest.approx(0.025, abs=2e-4)


def test_groups_all_with_the_same_value_get_wilson_over_the_groups() -> None:
    # Every task passes at k = 5: the bootstrap has no spread, the interval is Wilson for 30 of 30.
    [point] = dataset_curve([8] * 30, [4] * 15 + [6] * 15, [5], mode="frequentist")
    assert point.pass_at_k == 1.0
    assert point.pass_at_k_ci is not None
    assert point.pass_at_k_ci[0] == pytest.approx(30 / (30 + 1.959963984540054**2), abs=1e-9)
    assert any("Wilson" in note for note in point.notes)


def test_within_task_resampling_gives_tasks_seen_all_right_some_spread() -> None:
    # Every task 5 of 5: "these tasks" are not known to be perfect; the smoothed rate (c+1/2)/(n+1)
    # lets their redrawn attempts fail sometimes.
    [point] = dataset_curve([5] * 20, [5] * 20, [1], mode="frequentist", target="these-tasks")
    assert point.interval_method == "within-task-bootstrap"
    assert point.pass_pow_k == 1.0
    assert point.pass_pow_k_ci is not None and point.pass_pow_k_ci[0] < 0.99
    assert point.pass_pow_k_ci[1] == 1.0
    assert pass_pow_k(5, 5, 1) == 1.0
