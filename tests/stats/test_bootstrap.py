"""Tests of agentic_core.stats.bootstrap (through the frequentist dataset curve): resampling of groups."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.stats import (
    dataset_curve,
    pass_pow_k,
)
from tests.stats.conftest import (
    quantile_tolerance,
)


def test_bootstrap_with_few_included_groups_among_many() -> None:
    # 2 of 202 groups have n >= 3: many bootstrap replicates contain neither; they are left out of
    # the percentiles instead of turning the interval into NaN.
    n = [1] * 200 + [5, 5]
    c = [1] * 200 + [1, 4]
    [point] = dataset_curve(n, c, [3], mode="frequentist", estimator="unbiased", seed=0)
    assert point.n_groups == 2
    assert point.pass_pow_k_ci is not None
    low, high = point.pass_pow_k_ci
    assert low == pytest.approx(pass_pow_k(5, 1, 3))
    assert high == pytest.approx(pass_pow_k(5, 4, 3))


def test_bootstrap_matches_brute_force_resampling_of_groups() -> None:
    # Multinomial counts over distinct (n, c) pairs are the same law as resampling groups.
    n = [1, 5, 5, 2, 8, 3, 5, 6, 2, 9] * 5
    c = [1, 3, 4, 0, 8, 1, 5, 2, 2, 7] * 5
    ks = [1, 3, 6]
    draws = 20_000
    per_group = np.array(
        [[pass_pow_k(a, b, k) if k <= a else np.nan for k in ks] for a, b in zip(n, c, strict=True)]
    )
    picks = np.random.default_rng(99).integers(0, len(n), (draws, len(n)))
    # A replicate resamples the whole dataset, then averages over its groups with n >= k.
    reference = np.nanmean(per_group[picks], axis=1)
    curve = dataset_curve(n, c, ks, mode="frequentist", estimator="unbiased", n_samples=draws, seed=1)
    for j, point in enumerate(curve):
        assert point.interval_method == "bootstrap"
        assert point.pass_pow_k_ci is not None
        ref = reference[:, j]
        for bound, tail in zip(point.pass_pow_k_ci, (0.025, 0.975), strict=True):
            assert abs(bound - np.quantile(ref, tail)) <= quantile_tolerance(ref, tail, draws)
