"""The planner: reference values with their sources, monotonicity, a fast simulation, pilots and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtri

from agentic_core import aggregate, evaluate, make_settings, plan_evaluation, rates_population
from agentic_core.errors import SettingsError
from agentic_core.stats.kernels import estimates
from agentic_core.stats.planner import paired_power, tasks_for_half_width, tasks_for_power
from agentic_core.stats.planner_variance import beta_population, per_task_variance, pilot_population
from tests.datasets import conv, convs

FREQ = {"mode": "frequentist", "target": "population"}


def test_one_attempt_success_rate_has_the_bernoulli_variance() -> None:
    # One attempt per task: each task's outcome is Bernoulli(mean), variance mean (1 - mean),
    # whatever the spread of task difficulty.
    for mean, spread in ((0.6, 0.2), (0.1, 0.05), (0.5, 0.45)):
        var, between, within = per_task_variance(rates_population(mean, spread), "pass^k", 1, 1, **FREQ)
        assert var == pytest.approx(mean * (1 - mean), rel=1e-9)
        assert between == pytest.approx(spread**2, rel=1e-9)
        assert between + within == pytest.approx(var, rel=1e-9)


@pytest.mark.parametrize(("a", "b", "n"), [(2.0, 3.0, 5), (0.5, 0.5, 4), (0.3, 2.0, 10)])
def test_success_rate_variance_is_the_beta_binomial_variance(a: float, b: float, n: int) -> None:
    # Beta-Binomial: Var(c) = n mu (1 - mu) (a + b + n) / (a + b + 1) (e.g. Johnson, Kemp and Kotz,
    # Univariate Discrete Distributions, 3rd ed., 6.9.2); the per-task success rate is c / n.
    mu = a / (a + b)
    expected = mu * (1 - mu) * (a + b + n) / (a + b + 1) / n
    var, between, within = per_task_variance(beta_population(a, b), "pass@k", 1, n, **FREQ)
    assert var == pytest.approx(expected, rel=1e-9)
    # Law of total variance: between = Var(p) = mu (1 - mu) / (a + b + 1); within = E[p (1 - p)] / n.
    assert between == pytest.approx(mu * (1 - mu) / (a + b + 1), rel=1e-9)
    assert within == pytest.approx(mu * (1 - mu) * (a + b) / (a + b + 1) / n, rel=1e-9)


def test_these_tasks_keeps_only_the_within_variance() -> None:
    pop = beta_population(0.5, 0.5)
    var_pop, between, within = per_task_variance(pop, "pass^k", 2, 4, **FREQ)
    var_these = per_task_variance(pop, "pass^k", 2, 4, mode="frequentist", target="these-tasks")[0]
    assert var_these == pytest.approx(within)
    assert var_pop == pytest.approx(between + within)


def test_normal_sample_size_reference() -> None:
    # The textbook normal-approximation sample size for a paired mean difference, two-sided 5%, power
    # 80%: T = (1.959964 + 0.841621)^2 sd^2 / d^2 = 7.8489 sd^2 / d^2; sd = 1, d = 0.1 gives 784.9 -> 785.
    assert tasks_for_power(0.1, 1.0, 0.95, 0.8) == 785
    assert paired_power(0.1, 1.0, 785, 0.95) >= 0.8 > paired_power(0.1, 1.0, 784, 0.95)
    # Half-width z sd / sqrt(T) <= h: (1.959964 * 0.5 / 0.05)^2 = 384.1 -> 385 (the +-5 points of a poll).
    assert tasks_for_half_width(0.5, 0.05, 0.95) == 385


def test_one_attempt_comparison_matches_mcnemar_sample_size() -> None:
    # n = 1, k = 1: the paired comparison of two success rates is McNemar's setting. The normal
    # approximation's sample size (Connor 1987, Biometrics 43:207) is
    # T = (z_{a/2} + z_b)^2 (psi - delta^2) / delta^2, with psi = p01 + p10 the discordant share.
    mean_a, mean_b, spread, rho = 0.55, 0.65, 0.25, 0.6
    pa, pb = rates_population(mean_a, spread), rates_population(mean_b, spread)
    plan = plan_evaluation(
        pa, population_b=pb, k=1, attempts=[1], difference=mean_b - mean_a, correlation=rho, power=0.9
    )
    both = mean_a * mean_b + rho * spread * spread  # E[pA pB] = mu_A mu_B + Cov
    psi = (mean_a - both) + (mean_b - both)
    delta = mean_b - mean_a
    connor = (float(ndtri(0.975)) + float(ndtri(0.9))) ** 2 * (psi - delta**2) / delta**2
    assert plan.for_difference is not None
    assert plan.for_difference[0].tasks in (math.ceil(connor), math.ceil(connor) + 1)
    assert plan.for_difference[0].judge_calls == 2 * plan.for_difference[0].tasks  # both agents, one call each


@settings(max_examples=30, deadline=None)
@given(
    mean=st.floats(0.05, 0.95),
    share=st.floats(0.05, 0.95),
    k=st.integers(1, 4),
    metric=st.sampled_from(["pass@k", "pass^k"]),
    mode=st.sampled_from(["frequentist", "bayesian"]),
)
def test_half_width_shrinks_with_tasks_and_attempts(mean: float, share: float, k: int, metric: str, mode: str) -> None:
    pop = rates_population(mean, share * math.sqrt(mean * (1 - mean)))
    plan = plan_evaluation(
        pop, metric=metric, k=k, mode=mode, tasks=[10, 40, 160], attempts=[k, k + 1, 2 * k + 2], half_width=0.05
    )  # type: ignore[arg-type]
    width = {(c.tasks, c.attempts): c.half_width for c in plan.cells}
    for n in (k + 1, 2 * k + 2):
        for t in (10, 40, 160):
            assert width[(t, n)] is not None
        assert width[(10, n)] > width[(40, n)] > width[(160, n)]  # type: ignore[operator]
    for t in (10, 40, 160):
        assert width[(t, 2 * k + 2)] <= width[(t, k + 1)] * (1 + 1e-9)  # type: ignore[operator]
    assert plan.for_half_width is not None
    needed = [r.tasks for r in plan.for_half_width if r.attempts > k]
    assert all(x is not None for x in needed) and needed == sorted(needed, reverse=True)  # type: ignore[type-var]


@settings(max_examples=30, deadline=None)
@given(d=st.floats(0.01, 0.5), sd=st.floats(0.05, 2.0), t=st.integers(1, 5000))
def test_power_grows_with_tasks(d: float, sd: float, t: int) -> None:
    assert paired_power(d, sd, t + 1, 0.95) >= paired_power(d, sd, t, 0.95)
    needed = tasks_for_power(d, sd, 0.95, 0.8)
    assert needed is not None and paired_power(d, sd, needed, 0.95) >= 0.8


@pytest.mark.parametrize(("a", "b", "n", "k", "metric"), [(0.5, 0.5, 4, 2, "pass^k"), (0.4, 1.6, 6, 3, "pass@k")])
def test_promised_sd_matches_a_simulation(a: float, b: float, n: int, k: int, metric: str) -> None:
    # U-shaped and skewed task difficulties; the unbiased estimator's mean over T tasks, simulated.
    rng = np.random.default_rng(7)
    reps, tasks = 3000, 40
    c = rng.binomial(n, rng.beta(a, b, (reps, tasks)))
    at_k, pow_k = estimates(np.full(reps * tasks, n), c.ravel(), np.array([k]), "unbiased")
    values = (pow_k if metric == "pass^k" else at_k)[:, 0].reshape(reps, tasks).mean(axis=1)
    promised = math.sqrt(per_task_variance(beta_population(a, b), metric, k, n, **FREQ)[0] / tasks)
    # The sample sd of `reps` draws has a relative standard error about 1 / sqrt(2 reps) (1.3%).
    assert values.std(ddof=1) == pytest.approx(promised, rel=4 / math.sqrt(2 * reps))


def test_bayesian_these_tasks_is_the_expected_posterior_variance() -> None:
    # One attempt, uniform prior: the posterior is Beta(2, 1) or Beta(1, 2), both of variance 1/18.
    var = per_task_variance(rates_population(0.3, 0.2), "pass^k", 1, 1, mode="bayesian", target="these-tasks")[0]
    assert var == pytest.approx(1 / 18)


def test_bayesian_population_plans_only_with_k_attempts() -> None:
    pop = rates_population(0.6, 0.2)
    assert math.isnan(per_task_variance(pop, "pass^k", 2, 1, mode="bayesian", target="population")[0])
    # k = 1 is the mean, identified from one attempt: the Bernoulli variance (the MLE is the sample mean).
    assert per_task_variance(pop, "pass^k", 1, 1, mode="bayesian", target="population")[0] == pytest.approx(0.24)
    # n >= k: the delta method on the Beta-Binomial model is at most the unbiased estimator's variance
    # (the maximum-likelihood estimate is efficient), and close to it.
    for n in (2, 4, 8):
        bayes = per_task_variance(pop, "pass^k", 2, n, mode="bayesian", target="population")[0]
        freq = per_task_variance(pop, "pass^k", 2, n, **FREQ)[0]
        assert 0.8 * freq < bayes <= freq * (1 + 1e-9)
    plan = plan_evaluation(pop, k=2, mode="bayesian", attempts=[1, 2], half_width=0.05)
    assert plan.for_half_width is not None and plan.for_half_width[0].tasks is None
    assert plan.for_half_width[1].tasks is not None
    assert any("the model extrapolates pass^2" in note for note in plan.notes)


def test_pilot_counts_recover_the_population() -> None:
    rng = np.random.default_rng(3)
    n = np.full(400, 6)
    pop = pilot_population(n, rng.binomial(6, rng.beta(2.0, 3.0, 400)))
    assert pop.mean() == pytest.approx(0.4, abs=0.03)
    assert pop.spread() == pytest.approx(0.2, abs=0.04)
    assert pop.source == "pilot of 400 tasks"


def test_a_pilot_aggregate_plans_with_its_interactions() -> None:
    records = [conv(f"s{i}-{j}", [1.0 if (i + j) % 3 else 0.0, 1.0], task=f"t{i}") for i in range(8) for j in range(3)]
    agg = aggregate(evaluate(convs(records), "dataset"), make_settings(unit="task"))
    plan = plan_evaluation(agg, k=2, attempts=[3], tasks=[10], half_width=0.1)
    assert plan.interactions_per_attempt == 2.0  # two interactions per conversation
    assert plan.cells[0].judge_calls == 10 * 3 * 2
    assert plan.population == "pilot of 8 tasks"


@pytest.mark.parametrize(
    ("call", "place"),
    [
        (lambda: rates_population(1.2, 0.1), "mean success rate"),
        (lambda: rates_population(0.5, 0.6), "spread of task difficulty"),
        (lambda: beta_population(0.0, 1.0), "task population Beta(a)"),
        (lambda: pilot_population([3], [1]), "pilot"),
        (lambda: plan_evaluation(beta_population(1, 1), half_width=1.5), "half-width"),
        (lambda: plan_evaluation(beta_population(1, 1), power=0.01), "power"),
        (lambda: plan_evaluation(beta_population(1, 1), attempts=[0]), "attempts"),
        (lambda: plan_evaluation(beta_population(1, 1), attempts=[2.5]), "attempts"),
        (lambda: plan_evaluation(beta_population(1, 1), tasks=["10"]), "tasks"),
        (
            lambda: plan_evaluation(beta_population(1, 1), interactions_per_attempt=float("inf")),
            "interactions per attempt",
        ),
        (lambda: plan_evaluation(beta_population(1, 1), correlation=float("nan")), "correlation"),
        (lambda: plan_evaluation("runs.json"), "population"),
        # A second agent at 0.5 + 0.6 = 1.1 is no agent: refused, not planned for.
        (lambda: plan_evaluation(rates_population(0.5, 0.1), k=1, difference=0.6), "difference"),
        (lambda: plan_evaluation(rates_population(0.5, 0.1), k=1, difference=-0.55), "difference"),
    ],
)
def test_errors_name_the_place_and_the_fix(call, place: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SettingsError) as info:
        call()
    assert info.value.place == place and info.value.fix
