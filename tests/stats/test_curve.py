"""Tests of agentic_core.stats.curve: the dataset curve, its exclusions, settings and determinism."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.errors import SettingsError, UndefinedEstimateError
from agentic_core.stats import (
    CurvePoint,
    dataset_curve,
    pass_at_k,
    pass_pow_k,
    posterior_estimate,
    posterior_samples,
    wilson_interval,
)
from tests.stats.conftest import (
    ESTIMATORS,
    FEW,
    MANY,
    MIXED,
    groups,
    shuffled,
)

# ------------------------------------------------------------------------------------------
# Values and properties
# ------------------------------------------------------------------------------------------


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
# Determinism and order independence
# ------------------------------------------------------------------------------------------


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
        sn, sc = shuffled(n, c, shuffle_seed)
        again = dataset_curve(sn, sc, range(1, 6), mode=mode, estimator="unbiased", seed=7)  # type: ignore[arg-type]
        assert again == reference  # exact equality, every field


@settings(max_examples=25, deadline=None)
@given(data=groups, permutation_seed=st.integers(0, 10**6), mode=st.sampled_from(["frequentist", "bayesian"]))
def test_order_independence_property(data: list[tuple[int, int]], permutation_seed: int, mode: str) -> None:
    n = [x for x, _ in data]
    c = [y for _, y in data]
    sn, sc = shuffled(n, c, permutation_seed)
    first = dataset_curve(n, c, [1, 2, 5], mode=mode, estimator="plug-in", n_samples=200, seed=3)  # type: ignore[arg-type]
    second = dataset_curve(sn, sc, [1, 2, 5], mode=mode, estimator="plug-in", n_samples=200, seed=3)  # type: ignore[arg-type]
    assert first == second


def test_same_seed_same_numbers_other_seed_other_numbers() -> None:
    n, c = FEW
    for mode in ("frequentist", "bayesian"):
        one = dataset_curve(n, c, [3], mode=mode, seed=11)
        assert one == dataset_curve(n, c, [3], mode=mode, seed=11)
        assert one != dataset_curve(n, c, [3], mode=mode, seed=12)
    # any integer is a valid seed
    assert dataset_curve(n, c, [3], mode="bayesian", seed=-5)[0].pass_at_k_ci is not None
    assert dataset_curve(n, c, [3], mode="bayesian", seed=2**80)[0].pass_at_k_ci is not None
