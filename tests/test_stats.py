"""Tests of agentic_core.stats: reference values with their sources, properties, errors, determinism."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.stats import beta as beta_dist
from scipy.stats import kstest, norm

from agentic_core.errors import SettingsError, UndefinedEstimateError
from agentic_core.stats import (
    EXACT_DRAWS_MAX_M,
    CurvePoint,
    check_k,
    dataset_curve,
    explain,
    group_table,
    interpret,
    pass_at_k,
    pass_at_k_array,
    pass_pow_k,
    pass_pow_k_array,
    posterior_estimate,
    posterior_samples,
    prob_pass_pow_exceeds,
    success_rate_interval,
    wilson_interval,
)

ESTIMATORS = ("unbiased", "plug-in")

# (n, c) pairs with c <= n.
counts = st.integers(min_value=1, max_value=60).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=n))
)
groups = st.lists(counts, min_size=1, max_size=40)


# ------------------------------------------------------------------------------------------
# Reference values (source beside each)
# ------------------------------------------------------------------------------------------


def test_unbiased_reference_chen_et_al_2021() -> None:
    # Chen et al. 2021 (Codex paper), pass@k = 1 - C(n-c, k) / C(n, k); pass^k = C(c, k) / C(n, k).
    # n=10, c=7, k=3: C(3,3)/C(10,3) = 1/120 and C(7,3)/C(10,3) = 35/120.
    assert pass_at_k(10, 7, 3) == pytest.approx(1 - 1 / 120, abs=1e-15)
    assert pass_pow_k(10, 7, 3) == pytest.approx(35 / 120, abs=1e-15)
    assert 1 - math.comb(3, 3) / math.comb(10, 3) == pytest.approx(1 - 1 / 120)


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
    # DESIGN.md §4: 7 of 10 correct, k=3, uniform prior: pass@3 = 0.945 [0.773, 0.999],
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


def test_dataset_curve_single_group_matches_the_per_group_formulas() -> None:
    [bayes] = dataset_curve([10], [7], [3], mode="bayesian")
    exact = posterior_estimate(10, 7, 3, "pass@k")
    assert bayes.pass_at_k == exact.value
    assert bayes.pass_at_k_ci == (exact.low, exact.high)
    assert bayes.interval_method == "beta-quantiles"
    assert bayes.success_rate == pytest.approx(8 / 12)  # posterior mean of p
    assert bayes.observed_success_rate == pytest.approx(0.7)

    [freq] = dataset_curve([10], [7], [3], mode="frequentist", estimator="plug-in")
    lo, hi = wilson_interval(10, 7)
    assert freq.pass_at_k == pytest.approx(0.973)
    assert freq.pass_pow_k_ci == pytest.approx((lo**3, hi**3))
    assert freq.pass_at_k_ci == pytest.approx((1 - (1 - lo) ** 3, 1 - (1 - hi) ** 3))
    assert freq.success_rate_ci == pytest.approx((lo, hi))
    assert freq.interval_method == "wilson"


def test_prob_pass_pow_exceeds_single_group_is_exact() -> None:
    # P(p^3 > 0.2) for p ~ Beta(8, 4), by direct integration of the density.
    reference, _ = integrate.quad(beta_dist(8, 4).pdf, 0.2 ** (1 / 3), 1.0)
    assert prob_pass_pow_exceeds(10, 7, 3, 0.2) == pytest.approx(reference, abs=1e-9)
    assert prob_pass_pow_exceeds(10, 7, 3, 0.0) == 1.0
    assert prob_pass_pow_exceeds(10, 7, 3, 1.0) == 0.0


def test_prob_pass_pow_exceeds_many_groups_is_a_decreasing_probability() -> None:
    n, c = [5, 5, 8, 3, 10], [4, 5, 6, 1, 9]
    probs = [prob_pass_pow_exceeds(n, c, 3, t, seed=1) for t in (0.0, 0.2, 0.4, 0.6, 1.0)]
    assert probs[0] == 1.0
    assert probs[-1] == 0.0
    assert probs == sorted(probs, reverse=True)
    assert 0.0 < probs[2] < 1.0


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


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_dataset_intervals_widen_with_level(mode: str) -> None:
    n = [3, 5, 5, 8, 2, 10, 4]
    c = [2, 5, 1, 6, 2, 7, 0]
    narrow = dataset_curve(n, c, [1, 3], mode=mode, level=0.80, seed=3)  # type: ignore[arg-type]
    wide = dataset_curve(n, c, [1, 3], mode=mode, level=0.99, seed=3)  # type: ignore[arg-type]
    for a, b in zip(narrow, wide, strict=True):
        for field in ("pass_at_k_ci", "pass_pow_k_ci", "success_rate_ci"):
            lo_a, hi_a = getattr(a, field)
            lo_b, hi_b = getattr(b, field)
            assert lo_b <= lo_a
            assert hi_a <= hi_b
            assert lo_b < hi_b


@settings(max_examples=40, deadline=None)
@given(data=groups, mode=st.sampled_from(["frequentist", "bayesian"]), estimator=st.sampled_from(ESTIMATORS))
def test_dataset_curve_invariants(data: list[tuple[int, int]], mode: str, estimator: str) -> None:
    n = np.array([x for x, _ in data])
    c = np.array([y for _, y in data])
    curve = dataset_curve(n, c, range(1, 8), mode=mode, estimator=estimator, n_samples=200)  # type: ignore[arg-type]
    for point in curve:
        assert point.n_groups + point.n_excluded == len(data)
        if point.n_groups == 0:
            assert point.pass_at_k is None
            assert point.excluded_reason
            continue
        assert point.pass_pow_k is not None
        assert point.pass_at_k is not None
        assert point.success_rate is not None
        assert 0.0 <= point.pass_pow_k <= point.success_rate + 1e-12
        assert point.success_rate <= point.pass_at_k + 1e-12 <= 1.0 + 1e-12
        for ci in (point.pass_at_k_ci, point.pass_pow_k_ci, point.success_rate_ci):
            assert ci is not None
            assert 0.0 <= ci[0] <= ci[1] <= 1.0


def test_dataset_value_is_the_mean_over_groups_of_the_group_value() -> None:
    n = [10, 10, 4, 6]
    c = [7, 3, 4, 0]
    [point] = dataset_curve(n, c, [3], mode="frequentist", estimator="unbiased")
    assert point.pass_at_k == pytest.approx(np.mean([pass_at_k(a, b, 3) for a, b in zip(n, c, strict=True)]))
    assert point.pass_pow_k == pytest.approx(
        np.mean([pass_pow_k(a, b, 3) for a, b in zip(n, c, strict=True)])
    )
    [bayes] = dataset_curve(n, c, [3], mode="bayesian")
    means = [posterior_estimate(a, b, 3, "pass^k").value for a, b in zip(n, c, strict=True)]
    assert bayes.pass_pow_k == pytest.approx(np.mean(means))


def test_curve_is_monotone_in_k_when_every_group_is_included() -> None:
    n = [10, 12, 15, 10, 11]
    c = [7, 3, 15, 0, 9]
    for mode in ("frequentist", "bayesian"):
        for estimator in ESTIMATORS:
            curve = dataset_curve(n, c, range(1, 11), mode=mode, estimator=estimator)  # type: ignore[arg-type]
            at = [p.pass_at_k for p in curve]
            pw = [p.pass_pow_k for p in curve]
            assert at == sorted(at)  # type: ignore[type-var]
            assert pw == sorted(pw, reverse=True)  # type: ignore[type-var]


# ------------------------------------------------------------------------------------------
# Undefined and invalid inputs
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


@pytest.mark.parametrize("bad", [0, -1, 2.5, 3.0, True, False, "3", None])
def test_invalid_k_is_a_settings_error(bad: object) -> None:
    with pytest.raises(SettingsError, match=r"^k: must be a whole number >= 1") as info:
        check_k(bad)
    assert "Fix:" in str(info.value)
    with pytest.raises(SettingsError):
        pass_at_k(10, 7, bad)  # type: ignore[arg-type]
    with pytest.raises(SettingsError):
        dataset_curve([10], [7], [1, bad], mode="bayesian")  # type: ignore[list-item]


def test_check_k_accepts_numpy_integers() -> None:
    assert check_k(np.int64(4)) == 4


@pytest.mark.parametrize(
    ("n", "c", "place"),
    [(5, 6, "c"), (-1, 0, "n"), (5, -1, "c"), (5.0, 2, "n"), (5, True, "c"), ("5", 2, "n")],
)
def test_invalid_counts_are_settings_errors(n: object, c: object, place: str) -> None:
    with pytest.raises(SettingsError, match=rf"^{place}"):
        pass_at_k(n, c, 1)  # type: ignore[arg-type]


def test_invalid_count_arrays_name_the_group() -> None:
    with pytest.raises(SettingsError, match=r"^c\[2\]: must be at most n\[2\] = 3"):
        dataset_curve([5, 5, 3], [1, 2, 4], [1], mode="bayesian")
    with pytest.raises(SettingsError, match=r"^n\[1\]"):
        pass_at_k_array([5, 2.5], [1, 1], 1)
    with pytest.raises(SettingsError, match=r"^n\[0\]"):
        pass_at_k_array([-1], [0], 1)
    with pytest.raises(SettingsError, match=r"^n"):
        pass_at_k_array(np.array([True, False]), [0, 0], 1)
    with pytest.raises(SettingsError, match="one count per group"):
        pass_at_k_array([5, 5], [1], 1)


@pytest.mark.parametrize(
    ("kwargs", "place"),
    [
        ({"level": 1.0}, "ci_level"),
        ({"level": 0}, "ci_level"),
        ({"prior": (0.0, 1.0)}, "prior_a"),
        ({"prior": (1.0, float("nan"))}, "prior_b"),
        ({"prior": (1.0,)}, "prior"),
        ({"n_samples": 10}, "n_samples"),
        ({"seed": 1.5}, "seed"),
        ({"mode": "bayes"}, "mode"),
        ({"estimator": "biased"}, "estimator"),
    ],
)
def test_invalid_settings_are_settings_errors(kwargs: dict[str, object], place: str) -> None:
    args: dict[str, object] = {"mode": "bayesian", **kwargs}
    with pytest.raises(SettingsError, match=rf"^{place}"):
        dataset_curve([10, 5], [7, 2], [1, 3], **args)  # type: ignore[arg-type]


def test_unbiased_groups_with_too_few_attempts_are_excluded_and_counted() -> None:
    n = [1, 5, 5, 2]
    c = [1, 3, 4, 0]
    curve = dataset_curve(n, c, [1, 3], mode="frequentist", estimator="unbiased")
    assert (curve[0].n_groups, curve[0].n_excluded, curve[0].excluded_reason) == (4, 0, None)
    k3 = curve[1]
    assert (k3.n_groups, k3.n_excluded) == (2, 2)
    assert k3.excluded_reason is not None
    assert "2 groups with fewer than 3 attempts" in k3.excluded_reason
    assert k3.pass_pow_k == pytest.approx((pass_pow_k(5, 3, 3) + pass_pow_k(5, 4, 3)) / 2)
    assert k3.observed_success_rate == pytest.approx((3 / 5 + 4 / 5) / 2)
    # plug-in and Bayesian keep every group
    assert dataset_curve(n, c, [3], mode="frequentist", estimator="plug-in")[0].n_groups == 4
    assert dataset_curve(n, c, [3], mode="bayesian", estimator="unbiased")[0].n_groups == 4


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


def test_vectorised_marks_undefined_groups() -> None:
    values, defined = pass_pow_k_array([0, 2, 5], [0, 1, 3], 3)
    assert defined.tolist() == [False, False, True]
    assert np.isnan(values[:2]).all()
    assert values[2] == pytest.approx(1 / 10)


def test_no_usable_group_gives_none_with_the_reason() -> None:
    [point] = dataset_curve([2, 3], [1, 3], [5], mode="frequentist", estimator="unbiased")
    assert point.pass_at_k is None
    assert point.pass_pow_k_ci is None
    assert point.success_rate is None
    assert (point.n_groups, point.n_excluded) == (0, 2)
    assert point.excluded_reason is not None
    assert "no group can be used" in point.excluded_reason
    assert "largest group here has n = 3" in point.excluded_reason


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_empty_dataset_and_no_attempts(mode: str) -> None:
    [empty] = dataset_curve([], [], [3], mode=mode)  # type: ignore[arg-type]
    assert empty.pass_at_k is None
    assert empty.excluded_reason == "no groups: the dataset is empty"
    [zero] = dataset_curve([0, 0], [0, 0], [1], mode=mode)  # type: ignore[arg-type]
    assert zero.pass_at_k is None
    assert zero.n_excluded == 2
    assert zero.excluded_reason is not None
    assert "no attempts (n = 0)" in zero.excluded_reason


def test_groups_without_attempts_are_excluded_in_bayesian_mode() -> None:
    [point] = dataset_curve([0, 10], [0, 7], [3], mode="bayesian")
    assert (point.n_groups, point.n_excluded) == (1, 1)
    assert point.pass_at_k == posterior_estimate(10, 7, 3, "pass@k").value
    assert point.excluded_reason is not None
    assert "1 group with no attempts" in point.excluded_reason
    with pytest.raises(UndefinedEstimateError):
        posterior_samples([0], [0], 3)
    with pytest.raises(UndefinedEstimateError):
        posterior_estimate(0, 0, 3, "pass@k")


def test_ks_are_sorted_and_deduplicated() -> None:
    curve = dataset_curve([10, 4], [7, 2], [3, 1, 3], mode="bayesian")
    assert [p.k for p in curve] == [1, 3]
    assert all(isinstance(p, CurvePoint) for p in curve)


# ------------------------------------------------------------------------------------------
# Per-group table
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


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_success_rate_interval(mode: str) -> None:
    rate, low, high = success_rate_interval(10, 7, mode=mode)  # type: ignore[arg-type]
    assert rate == pytest.approx(0.7)
    if mode == "frequentist":
        assert (low, high) == wilson_interval(10, 7)
    else:
        assert (low, high) == pytest.approx(tuple(beta_dist(8, 4).ppf([0.025, 0.975])), rel=1e-12)
    assert success_rate_interval(0, 0, mode=mode) == (None, None, None)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# Determinism, order independence, accuracy of the resampling
# ------------------------------------------------------------------------------------------


def _shuffled(n: list[int], c: list[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.random.default_rng(seed).permutation(len(n))
    return np.asarray(n)[order], np.asarray(c)[order]


# Datasets that exercise each interval regime.
FEW = ([10, 3, 5, 2, 8, 5], [7, 1, 5, 0, 4, 5])  # <= 64 groups: exact Beta draws
MANY = ([1, 2, 3, 4, 5] * 40, [1, 1, 2, 3, 4] * 40)  # 200 groups: Cornish-Fisher from exact cumulants
MIXED = ([1000] * 100 + [1], [700] * 100 + [0])  # 101 groups: one dominant group drawn exactly
# 200 groups, Cornish-Fisher with a visible skew: (1-p)^10 summed has skewness ~0.5.
SKEWED = ([1, 2, 3, 4, 5] * 40, [1, 1, 2, 3, 4] * 40)


def test_the_regimes_are_the_ones_the_datasets_are_meant_to_exercise() -> None:
    few = posterior_samples(*FEW, [1, 3, 5])
    assert (few.method, few.exact_groups) == ("monte-carlo", 6)
    many = posterior_samples(*MANY, [1, 3, 5])
    assert (many.method, many.exact_groups) == ("cornish-fisher", 0)
    mixed = posterior_samples(*MIXED, [1, 3, 5])
    assert (mixed.method, mixed.exact_groups, mixed.n_groups) == ("monte-carlo", 1, 101)
    skewed = posterior_samples(*SKEWED, [1, 5, 10])
    assert (skewed.method, skewed.exact_groups) == ("cornish-fisher", 0)


@pytest.mark.parametrize(
    ("data", "method"), [(FEW, "monte-carlo"), (MANY, "cornish-fisher"), (MIXED, "monte-carlo")]
)
@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_shuffling_groups_never_changes_a_number(
    data: tuple[list[int], list[int]], method: str, mode: str
) -> None:
    n, c = data
    reference = dataset_curve(n, c, range(1, 6), mode=mode, estimator="unbiased", seed=7)  # type: ignore[arg-type]
    assert reference[0].interval_method == ("bootstrap" if mode == "frequentist" else method)
    for shuffle_seed in (1, 2):
        sn, sc = _shuffled(n, c, shuffle_seed)
        again = dataset_curve(sn, sc, range(1, 6), mode=mode, estimator="unbiased", seed=7)  # type: ignore[arg-type]
        assert again == reference  # exact equality, every field


@settings(max_examples=25, deadline=None)
@given(data=groups, permutation_seed=st.integers(0, 10**6), mode=st.sampled_from(["frequentist", "bayesian"]))
def test_order_independence_property(data: list[tuple[int, int]], permutation_seed: int, mode: str) -> None:
    n = [x for x, _ in data]
    c = [y for _, y in data]
    sn, sc = _shuffled(n, c, permutation_seed)
    first = dataset_curve(n, c, [1, 2, 5], mode=mode, estimator="plug-in", n_samples=200, seed=3)  # type: ignore[arg-type]
    second = dataset_curve(sn, sc, [1, 2, 5], mode=mode, estimator="plug-in", n_samples=200, seed=3)  # type: ignore[arg-type]
    assert first == second


@pytest.mark.parametrize("data", [FEW, MANY, MIXED])
def test_posterior_samples_are_order_independent_and_seeded(data: tuple[list[int], list[int]]) -> None:
    n, c = data
    a = posterior_samples(n, c, [1, 3], seed=5)
    b = posterior_samples(*_shuffled(n, c, 9), [1, 3], seed=5)
    other = posterior_samples(n, c, [1, 3], seed=6)
    assert np.array_equal(a.pass_pow_k, b.pass_pow_k)
    assert np.array_equal(a.pass_at_k, b.pass_at_k)
    assert np.array_equal(a.p, b.p)
    assert not np.array_equal(a.pass_pow_k, other.pass_pow_k)
    assert a.pass_pow_k.shape == (4000, 2)


def test_same_seed_same_numbers_other_seed_other_numbers() -> None:
    n, c = FEW
    for mode in ("frequentist", "bayesian"):
        one = dataset_curve(n, c, [3], mode=mode, seed=11)
        assert one == dataset_curve(n, c, [3], mode=mode, seed=11)
        assert one != dataset_curve(n, c, [3], mode=mode, seed=12)
    # any integer is a valid seed
    assert dataset_curve(n, c, [3], mode="bayesian", seed=-5)[0].pass_at_k_ci is not None
    assert dataset_curve(n, c, [3], mode="bayesian", seed=2**80)[0].pass_at_k_ci is not None


def test_a_groups_exact_draws_do_not_depend_on_the_other_groups() -> None:
    # Each distinct (n, c) pair has its own generator seeded by (seed, n, c, m): the draws of a
    # dataset's total are the sum of the draws each pair gets on its own.
    together = posterior_samples([10, 10, 3], [7, 7, 1], [1, 4], seed=2)
    first = posterior_samples([10, 10], [7, 7], [1, 4], seed=2)
    second = posterior_samples([3], [1], [1, 4], seed=2)
    assert np.allclose(3 * together.pass_pow_k, 2 * first.pass_pow_k + second.pass_pow_k, rtol=1e-12)


def test_single_group_samples_are_exact_beta_draws() -> None:
    samples = posterior_samples([10], [7], [1, 3], seed=4)
    assert samples.method == "monte-carlo"
    # Seeded, so this p-value is fixed; it would be ~0 for draws from the wrong law.
    assert kstest(samples.p, beta_dist(8, 4).cdf).pvalue > 0.01
    assert np.allclose(samples.pass_pow_k[:, 1], samples.p**3)
    assert np.allclose(samples.pass_at_k[:, 1], 1 - (1 - samples.p) ** 3)


def _quantile_tolerance(reference: np.ndarray, tail: float, ours_draws: int) -> float:
    """Allowed gap between our bound and the brute-force bound at one tail probability.

    Five standard errors of the difference of two Monte Carlo quantiles (SE of a sample quantile:
    sqrt(q(1-q)/S) / density, the density estimated from the reference's own quantiles), plus
    0.05 sd for the moment-based (Cornish-Fisher) shortcut, whose systematic error was measured at
    <= 0.04 sd against 400k-draw brute force.
    """
    h = 0.01
    lo, hi = np.quantile(reference, [max(tail - h, 0.0), min(tail + h, 1.0)])
    inverse_density = (hi - lo) / (min(tail + h, 1.0) - max(tail - h, 0.0))
    se = math.sqrt(tail * (1 - tail)) * inverse_density * math.sqrt(1 / ours_draws + 1 / reference.size)
    return float(5 * se + 0.05 * reference.std())


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
    curve = dataset_curve(n, c, ks, mode="bayesian", n_samples=draws, seed=1)
    for j, point in enumerate(curve):
        for ref, value, ci in (
            (ref_at[:, j], point.pass_at_k, point.pass_at_k_ci),
            (ref_pw[:, j], point.pass_pow_k, point.pass_pow_k_ci),
        ):
            assert ci is not None
            assert value == pytest.approx(ref.mean(), abs=5 * ref.std() / math.sqrt(draws))
            for bound, tail in zip(ci, (0.025, 0.975), strict=True):
                assert abs(bound - np.quantile(ref, tail)) <= _quantile_tolerance(ref, tail, draws)


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
            assert abs(bound - np.quantile(ref, tail)) <= _quantile_tolerance(ref, tail, draws)


def test_exact_draws_below_the_threshold_and_moments_above() -> None:
    few = posterior_samples([5] * EXACT_DRAWS_MAX_M, [3] * EXACT_DRAWS_MAX_M, 3)
    many = posterior_samples([5] * 400 + [6] * 400, [3] * 400 + [5] * 400, 3)
    assert few.method == "monte-carlo"
    assert many.method == "cornish-fisher"
    assert many.n_groups == 800


# ------------------------------------------------------------------------------------------
# Interpretation (seed 001)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("at", "pw", "label"),
    [
        (0.951, 0.701, "reliable"),
        (1.0, 1.0, "reliable"),
        (0.95, 0.99, "functional"),  # pass@K must be > 0.95, not >=
        (0.96, 0.70, "functional"),  # pass^K must be > 0.70
        (0.96, 0.50, "functional"),  # between 0.50 and 0.70
        (0.96, 0.4999, "inconsistent"),
        (0.99, 0.0, "inconsistent"),
        (0.70, 0.0, "functional"),  # needs_improvement is < 0.70
        (0.6999, 0.6, "needs_improvement"),
        (0.0, 0.0, "needs_improvement"),
    ],
)
def test_interpretation_boundaries(at: float, pw: float, label: str) -> None:
    assert interpret(at, pw) == label
    text = explain(label, at, pw, 3)
    assert text.lower().startswith(label.replace("_", " "))
    assert "pass@3" in text
    assert explain(label).lower().startswith(label.replace("_", " "))


def test_explain_shows_enough_digits_near_a_threshold() -> None:
    assert "0.950400 > 0.95" in explain("reliable", 0.9504, 0.9, 5)


def test_explain_rejects_unknown_or_contradicted_labels() -> None:
    with pytest.raises(SettingsError, match=r"^label"):
        explain("great")
    with pytest.raises(SettingsError, match="needs_improvement"):
        explain("reliable", 0.5, 0.1, 3)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), None, "0.9"])
def test_interpret_rejects_non_probabilities(bad: object) -> None:
    with pytest.raises(SettingsError):
        interpret(bad, 0.5)  # type: ignore[arg-type]
