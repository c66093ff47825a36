"""Tests of agentic_core.stats.intervals: Wilson and Beta intervals of one group, per-group tables, pool rates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import beta as beta_dist
from scipy.stats import norm

from agentic_core.stats import (
    group_table,
    pass_at_k,
    posterior_estimate,
    wilson_interval,
)
from tests.stats.conftest import (
    counts,
)

# ------------------------------------------------------------------------------------------
# Reference values (source beside each)
# ------------------------------------------------------------------------------------------


def test_wilson_reference_7_of_10() -> None:
    # Wilson (1927) score interval; statsmodels proportion_confint(7, 10, method="wilson") gives
    # (0.39678, 0.89221).
    lo, hi = wilson_interval(10, 7, 0.95)
    assert lo == pytest.approx(0.3968, abs=5e-5)
    assert hi == pytest.approx(0.8922, abs=5e-5)
    # Independent check of the definition: the bounds are the p where |p_hat - p| = z*sqrt(p(1-p)/n).
    z = norm.ppf(0.975)
    for bound in (lo, hi):
        assert (0.7 - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / 10, abs=1e-12)


def test_wilson_extremes_are_exact_zero_and_one() -> None:
    assert wilson_interval(5, 0)[0] == 0.0
    assert wilson_interval(5, 5)[1] == 1.0


def test_bayesian_reference_design_section_4() -> None:
    # Worked example (docs/statistics.md): 7 of 10 correct, k=3, uniform prior: pass@3 = 0.945 [0.773, 0.999],
    # pass^3 = 0.330 [0.059, 0.707]. Posterior Beta(8, 4).
    at = posterior_estimate(10, 7, 3, "pass@k")
    pw = posterior_estimate(10, 7, 3, "pass^k")
    assert (at.value, at.low, at.high) == pytest.approx((0.945, 0.773, 0.999), abs=5e-4)
    assert (pw.value, pw.low, pw.high) == pytest.approx((0.330, 0.059, 0.707), abs=5e-4)
    # Independent check: means by numerical integration, bounds by the Beta CDF (not its quantile).
    post = beta_dist(8, 4)
    assert at.value == pytest.approx(post.expect(lambda p: 1 - (1 - p) ** 3), abs=1e-10)
    assert pw.value == pytest.approx(post.expect(lambda p: p**3), abs=1e-10)
    # P(pass@3 <= low) = P(p <= 1 - (1-low)^(1/3)) must be 2.5%, and so on.
    assert post.cdf(1 - (1 - at.low) ** (1 / 3)) == pytest.approx(0.025, abs=1e-9)
    assert post.cdf(1 - (1 - at.high) ** (1 / 3)) == pytest.approx(0.975, abs=1e-9)
    assert post.cdf(pw.low ** (1 / 3)) == pytest.approx(0.025, abs=1e-9)
    assert post.cdf(pw.high ** (1 / 3)) == pytest.approx(0.975, abs=1e-9)


# ------------------------------------------------------------------------------------------
# Properties
# ------------------------------------------------------------------------------------------


@given(
    nc=st.integers(min_value=1, max_value=200).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=n))
    ),
    k=st.integers(min_value=1, max_value=5),
    prior=st.sampled_from([(1.0, 1.0), (0.5, 0.5)]),
    metric=st.sampled_from(["pass@k", "pass^k"]),
)
def test_credible_bounds_contain_posterior_mean_and_median(
    nc: tuple[int, int], k: int, prior: tuple[float, float], metric: str
) -> None:
    # For k <= 5 the equal-tailed interval contains the mean (checked exhaustively for n < 200 when
    # writing this); the median always lies inside (it is f(median of p), f increasing).
    n, c = nc
    est = posterior_estimate(n, c, k, metric, prior=prior)  # type: ignore[arg-type]
    assert est.low <= est.value <= est.high
    median_p = beta_dist.median(prior[0] + c, prior[1] + n - c)
    median = median_p**k if metric == "pass^k" else 1 - (1 - median_p) ** k
    assert est.low <= median <= est.high


def test_equal_tailed_interval_can_exclude_the_mean_for_very_skewed_posteriors() -> None:
    # Documented behaviour, not a bug: with 0 of 12 correct, E[p^10] is dominated by the rare large
    # p (mean 1.9e-10) while 97.5% of the posterior gives p^10 < 3.5e-11.
    est = posterior_estimate(12, 0, 10, "pass^k")
    assert est.value > est.high
    assert est.value == pytest.approx(math.factorial(10) / math.prod(range(14, 24)), rel=1e-12)


@given(nc=counts, k=st.integers(min_value=1, max_value=10))
def test_bayesian_means_keep_the_ordering(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    at = posterior_estimate(n, c, k, "pass@k")
    pw = posterior_estimate(n, c, k, "pass^k")
    mean_p = (1 + c) / (2 + n)
    assert 0.0 <= pw.value <= mean_p + 1e-12
    assert mean_p <= at.value + 1e-12
    assert at.value <= 1.0


@given(nc=counts, k=st.integers(min_value=1, max_value=10))
def test_intervals_widen_with_level(nc: tuple[int, int], k: int) -> None:
    n, c = nc
    w90, w99 = wilson_interval(n, c, 0.90), wilson_interval(n, c, 0.99)
    assert w99[0] <= w90[0]
    assert w90[1] <= w99[1]
    for metric in ("pass@k", "pass^k"):
        b90 = posterior_estimate(n, c, k, metric, level=0.90)
        b99 = posterior_estimate(n, c, k, metric, level=0.99)
        assert b99.low <= b90.low
        assert b90.high <= b99.high


# ------------------------------------------------------------------------------------------
# Per-group table and pool rate
# ------------------------------------------------------------------------------------------


def test_group_table_frequentist_keeps_input_order_and_matches_scalars() -> None:
    n = [10, 2, 10, 0, 5]
    c = [7, 1, 7, 0, 5]
    table = group_table(n, c, 3, mode="frequentist", estimator="unbiased")
    assert list(table["n"]) == n
    assert table["defined"].tolist() == [True, False, True, False, True]
    assert table["pass_at_k"][0] == pass_at_k(10, 7, 3)
    assert table["pass_pow_k"][4] == 1.0
    assert np.isnan(table["pass_at_k"][1])
    assert np.isnan(table["pass_pow_k_ci_low"][3])
    lo, hi = wilson_interval(10, 7)
    assert table["pass_pow_k_ci_low"][2] == pytest.approx(lo**3)
    assert table["pass_at_k_ci_high"][2] == pytest.approx(1 - (1 - hi) ** 3)
    assert table["success_rate"][0] == table["observed_success_rate"][0] == pytest.approx(0.7)
    assert table.attrs == {"k": 3, "mode": "frequentist", "estimator": "unbiased", "level": 0.95}


def test_group_table_bayesian_is_exact_per_group() -> None:
    table = group_table([10, 3, 0], [7, 0, 0], 3, mode="bayesian")
    for i, (n, c) in enumerate([(10, 7), (3, 0)]):
        for metric, column in (("pass@k", "pass_at_k"), ("pass^k", "pass_pow_k")):
            est = posterior_estimate(n, c, 3, metric)  # type: ignore[arg-type]
            row = (table[column][i], table[f"{column}_ci_low"][i], table[f"{column}_ci_high"][i])
            assert row == pytest.approx((est.value, est.low, est.high), rel=1e-12)
    assert table["defined"].tolist() == [True, True, False]
    assert table["success_rate"][0] == pytest.approx(8 / 12)  # posterior mean of p
    assert table["observed_success_rate"][0] == pytest.approx(0.7)


def test_group_table_widens_intervals_to_contain_their_points() -> None:
    # 7 of 10 at k = 8 (frequentist, unbiased): pass^8 = C(7,8)/C(10,8) = 0 exactly, while Wilson's
    # interval for p pushed through p^8 starts at 0.0010; the table widens it down to the point.
    table = group_table([10], [7], 8, mode="frequentist")
    assert table["pass_pow_k"][0] == 0.0
    low, _ = wilson_interval(10, 7)
    assert low**8 > 0.0 and table["pass_pow_k_ci_low"][0] == 0.0
    # pass@8 = 1 exactly, above the transformed upper bound 1 - (1 - high)^8 < 1.
    assert table["pass_at_k"][0] == 1.0 and table["pass_at_k_ci_high"][0] == 1.0


@given(counts, st.integers(min_value=1, max_value=12), st.sampled_from(["frequentist", "bayesian"]))
def test_every_group_point_lies_inside_its_interval(nc: tuple[int, int], k: int, mode: str) -> None:
    n, c = nc
    table = group_table([n], [c], k, mode=mode, estimator="plug-in")  # type: ignore[arg-type]
    for column in ("success_rate", "pass_at_k", "pass_pow_k"):
        point = table[column][0]
        assert table[f"{column}_ci_low"][0] <= point <= table[f"{column}_ci_high"][0]
