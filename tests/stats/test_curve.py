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
@given(
    data=groups,
    mode=st.sampled_from(["frequentist", "bayesian"]),
    target=st.sampled_from(["population", "these-tasks"]),
    estimator=st.sampled_from(ESTIMATORS),
)
def test_dataset_curve_invariants(data: list[tuple[int, int]], mode: str, target: str, estimator: str) -> None:
    n = np.array([x for x, _ in data])
    c = np.array([y for _, y in data])
    curve = dataset_curve(n, c, range(1, 8), mode=mode, target=target, estimator=estimator, n_samples=200)  # type: ignore[arg-type]
    # Monotone in k: one set of groups for the whole curve.
    points = [p for p in curve if p.pass_at_k is not None]
    assert [p.pass_at_k for p in points] == sorted(p.pass_at_k for p in points)  # type: ignore[misc]
    assert [p.pass_pow_k for p in points] == sorted((p.pass_pow_k for p in points), reverse=True)  # type: ignore[misc]
    assert len({(p.n_groups, p.n_excluded) for p in curve}) == 1
    for point in curve:
        assert point.n_groups + point.n_excluded == len(data)
        if point.n_groups == 0:
            assert point.pass_at_k is None
            assert point.excluded_reason
            continue
        assert point.pass_pow_k is not None
        assert point.pass_at_k is not None
        assert point.success_rate is not None
        # The curve's own pass@1 bounds it; the success rate is the same only when no group is left
        # out (it uses every group with an attempt, issue 30).
        first = curve[0].pass_at_k
        assert first is not None
        assert 0.0 <= point.pass_pow_k <= first + 1e-12
        assert first <= point.pass_at_k + 1e-12 <= 1.0 + 1e-12
        for value, ci in (
            (point.pass_at_k, point.pass_at_k_ci),
            (point.pass_pow_k, point.pass_pow_k_ci),
            (point.success_rate, point.success_rate_ci),
        ):
            assert ci is not None
            assert 0.0 <= ci[0] <= value <= ci[1] <= 1.0  # every point inside its own interval
        assert curve[0].pass_at_k == curve[0].pass_pow_k
        if point.n_excluded == int(np.count_nonzero(n == 0)):
            assert curve[0].pass_at_k == curve[0].success_rate


def test_dataset_value_is_the_mean_over_groups_of_the_group_value() -> None:
    n = [10, 10, 4, 6]
    c = [7, 3, 4, 0]
    [point] = dataset_curve(n, c, [3], mode="frequentist", estimator="unbiased")
    assert point.pass_at_k == pytest.approx(np.mean([pass_at_k(a, b, 3) for a, b in zip(n, c, strict=True)]))
    assert point.pass_pow_k == pytest.approx(
        np.mean([pass_pow_k(a, b, 3) for a, b in zip(n, c, strict=True)])
    )
    [bayes] = dataset_curve(n, c, [3], mode="bayesian", target="these-tasks")
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


def test_unbiased_groups_with_too_few_attempts_are_excluded_from_the_whole_curve() -> None:
    n = [1, 5, 5, 2]
    c = [1, 3, 4, 0]
    curve = dataset_curve(n, c, [1, 3], mode="frequentist", estimator="unbiased")
    # One set of groups for every k: the two groups with n < K = 3 are out at k = 1 too.
    for point in curve:
        assert (point.n_groups, point.n_excluded) == (2, 2)
        assert point.excluded_reason is not None
        assert "2 groups with fewer than 3 attempts" in point.excluded_reason
    k1, k3 = curve
    assert k1.pass_pow_k == pytest.approx((3 / 5 + 4 / 5) / 2)
    assert k3.pass_pow_k == pytest.approx((pass_pow_k(5, 3, 3) + pass_pow_k(5, 4, 3)) / 2)
    # The success rate is over every group with an attempt, whatever K leaves out (issue 30).
    assert k3.observed_success_rate == pytest.approx((1 + 3 / 5 + 4 / 5 + 0) / 4)
    assert k3.success_rate == k1.success_rate == pytest.approx((1 + 3 / 5 + 4 / 5 + 0) / 4)
    # plug-in and Bayesian keep every group
    assert dataset_curve(n, c, [3], mode="frequentist", estimator="plug-in")[0].n_groups == 4
    assert dataset_curve(n, c, [3], mode="bayesian", estimator="unbiased")[0].n_groups == 4
    assert dataset_curve(n, c, [3], mode="frequentist", target="these-tasks")[0].n_groups == 2


def test_the_curve_is_monotone_when_groups_would_drop_out_k_by_k() -> None:
    # Two tasks, 0/2 and 5/5. Dropping groups k by k made pass^k climb 0.5, 0.5, 1.0; on one set
    # of groups (n >= K = 3) only the 5/5 task remains, for every k.
    curve = dataset_curve([2, 5], [0, 5], [1, 2, 3], mode="frequentist", estimator="unbiased")
    assert [p.pass_pow_k for p in curve] == [1.0, 1.0, 1.0]
    assert all(p.n_groups == 1 and p.n_excluded == 1 for p in curve)


def test_no_usable_group_gives_none_with_the_reason() -> None:
    [point] = dataset_curve([2, 3], [1, 3], [5], mode="frequentist", estimator="unbiased")
    assert point.pass_at_k is None
    assert point.pass_pow_k_ci is None
    assert point.success_rate == pytest.approx((1 / 2 + 3 / 3) / 2)  # every group with an attempt (issue 30)
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


THESE_TASKS_METHOD = {"frequentist": "within-task-bootstrap"}
POPULATION_METHOD = {"frequentist": "bca-bootstrap", "bayesian": "hierarchical-grid"}


@pytest.mark.parametrize(
    ("data", "method"), [(FEW, "monte-carlo"), (MANY, "cornish-fisher"), (MIXED, "monte-carlo")]
)
@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
@pytest.mark.parametrize("target", ["population", "these-tasks"])
def test_shuffling_groups_never_changes_a_number(
    data: tuple[list[int], list[int]], method: str, mode: str, target: str
) -> None:
    n, c = data
    options = {"mode": mode, "target": target, "estimator": "unbiased", "seed": 7}
    reference = dataset_curve(n, c, range(1, 6), **options)  # type: ignore[arg-type]
    expected = POPULATION_METHOD[mode] if target == "population" else THESE_TASKS_METHOD.get(mode, method)
    assert reference[0].interval_method == expected
    for shuffle_seed in (1, 2):
        sn, sc = shuffled(n, c, shuffle_seed)
        again = dataset_curve(sn, sc, range(1, 6), **options)  # type: ignore[arg-type]
        assert again == reference  # exact equality, every field


@settings(max_examples=25, deadline=None)
@given(
    data=groups,
    permutation_seed=st.integers(0, 10**6),
    mode=st.sampled_from(["frequentist", "bayesian"]),
    target=st.sampled_from(["population", "these-tasks"]),
)
def test_order_independence_property(
    data: list[tuple[int, int]], permutation_seed: int, mode: str, target: str
) -> None:
    n = [x for x, _ in data]
    c = [y for _, y in data]
    sn, sc = shuffled(n, c, permutation_seed)
    options = {"mode": mode, "target": target, "estimator": "plug-in", "n_samples": 200, "seed": 3}
    first = dataset_curve(n, c, [1, 2, 5], **options)  # type: ignore[arg-type]
    second = dataset_curve(sn, sc, [1, 2, 5], **options)  # type: ignore[arg-type]
    assert first == second


def test_same_seed_same_numbers_other_seed_other_numbers() -> None:
    n, c = FEW
    for mode, target in (("frequentist", "population"), ("frequentist", "these-tasks"), ("bayesian", "these-tasks")):
        one = dataset_curve(n, c, [3], mode=mode, target=target, seed=11)  # type: ignore[arg-type]
        assert one == dataset_curve(n, c, [3], mode=mode, target=target, seed=11)  # type: ignore[arg-type]
        assert one != dataset_curve(n, c, [3], mode=mode, target=target, seed=12)  # type: ignore[arg-type]
    # The hierarchical posterior is exact on its grid: no seed enters it.
    population = dataset_curve(n, c, [3], mode="bayesian", seed=11)
    assert population == dataset_curve(n, c, [3], mode="bayesian", seed=12)
    # any integer is a valid seed
    assert dataset_curve(n, c, [3], mode="bayesian", seed=-5)[0].pass_at_k_ci is not None
    assert dataset_curve(n, c, [3], mode="bayesian", seed=2**80)[0].pass_at_k_ci is not None


def test_few_tasks_say_the_frequentist_population_interval_is_uninformative() -> None:
    # Issue 36: with 3 tasks the frequentist population interval is exactly [0, 1], and the note said only that
    # it "may cover less often". It now says what it is, counts the [0, 1] intervals, and points to Bayesian mode.
    n, c = [5, 5, 5], [0, 2, 5]
    points = dataset_curve(n, c, [1, 3, 5], mode="frequentist", seed=0)
    cis = [ci for p in points for ci in (p.pass_at_k_ci, p.pass_pow_k_ci)]
    full = sum(ci == (0.0, 1.0) for ci in cis)
    assert full == 6  # independently: every interval of this curve says nothing
    note = points[0].notes[-1]
    assert note.startswith("only 3 groups: with 5 or fewer tasks the task population is not pinned down")
    assert f"often [0, 1] (here {full} of its 6 intervals)" in note and "Bayesian mode" in note
    assert "unreliable" in note  # the Overview shows it as a warning
    # Bayesian mode's own note (it is never [0, 1] here); from 6 tasks on both modes keep the general one.
    [bayes] = dataset_curve(n, c, [3], mode="bayesian", seed=0)
    assert bayes.pass_at_k_ci != (0.0, 1.0) and "[0, 1]" not in bayes.notes[-1]
    assert "leans on the model of task difficulty" in bayes.notes[-1] and "unreliable" in bayes.notes[-1]
    [six] = dataset_curve([5] * 6, [0, 2, 5, 1, 4, 3], [3], mode="frequentist", seed=0)
    assert "fewer than 10 tasks is unreliable" in six.notes[-1] and "[0, 1]" not in six.notes[-1]
