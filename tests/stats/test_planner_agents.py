"""The planner's second agent (described, or A shifted by the difference) and the attempts a judge leaves unscored."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from agentic_core import aggregate, evaluate, make_settings, plan_evaluation, rates_population
from agentic_core.stats.kernels import estimates
from agentic_core.stats.planner_variance import (
    beta_population,
    per_task_variance,
    pilot_population,
    shifted_population,
    task_variance,
    value_and_between,
)
from tests.datasets import conv, convs

FREQ = {"mode": "frequentist", "target": "population"}


@pytest.mark.parametrize(("a", "b", "n", "scored"), [(2.0, 3.0, 5, 0.7), (0.5, 0.5, 3, 0.4), (0.3, 2.0, 8, 0.9)])
def test_success_rate_with_abstentions_is_the_binomial_mixture(a: float, b: float, n: int, scored: float) -> None:
    # A task keeps m ~ Binomial(n, scored) attempts and is left out at m = 0; its success rate c / m has
    # variance between + E[p (1 - p)] / m (Beta-Binomial, as in test_planner.py), so over the tasks kept
    # Var = mu (1 - mu) / (a + b + 1) + mu (1 - mu) (a + b) / (a + b + 1) E[1 / m | m >= 1].
    mu = a / (a + b)
    m = np.arange(1, n + 1)
    chance = binom.pmf(m, n, scored)
    inverse = float((chance / m).sum() / chance.sum())
    expected = mu * (1 - mu) / (a + b + 1) + mu * (1 - mu) * (a + b) / (a + b + 1) * inverse
    tv = task_variance(beta_population(a, b), "pass@k", 1, n, **FREQ, scored=scored)  # type: ignore[arg-type]
    assert tv.kept == pytest.approx(1 - (1 - scored) ** n, rel=1e-9)
    assert tv.variance == pytest.approx(expected, rel=1e-9)
    assert tv.per_task_run == pytest.approx(expected / tv.kept, rel=1e-9)


@pytest.mark.parametrize(("metric", "k", "n", "scored"), [("pass^k", 2, 4, 0.7), ("pass@k", 3, 5, 0.5)])
def test_unbiased_pass_k_with_abstentions_matches_a_simulation(metric: str, k: int, n: int, scored: float) -> None:
    # Tasks ~ Beta(0.6, 1.4), n attempts, each scored with probability `scored`; a task with fewer than k scored
    # attempts has no unbiased estimate and is left out. Share kept and variance of the estimates kept.
    rng = np.random.default_rng(17)
    tasks = 400_000
    p = rng.beta(0.6, 1.4, tasks)
    m = rng.binomial(n, scored, tasks)
    c = rng.binomial(m, p)
    keep = m >= k
    at_k, pow_k = estimates(m[keep], c[keep], np.array([k]), "unbiased")
    values = (pow_k if metric == "pass^k" else at_k)[:, 0]
    tv = task_variance(beta_population(0.6, 1.4), metric, k, n, **FREQ, scored=scored)  # type: ignore[arg-type]
    assert tv.kept == pytest.approx(keep.mean(), abs=4 * math.sqrt(0.25 / tasks))
    # Standard error of a sample variance: about sqrt(2 / N) of it for these bounded values (generous: 5%).
    assert tv.variance == pytest.approx(float(values.var()), rel=0.05)


@pytest.mark.parametrize(("mode", "target"), [("frequentist", "population"), ("bayesian", "these-tasks")])
def test_one_attempt_with_abstentions_keeps_the_one_attempt_variance(mode: str, target: str) -> None:
    # With one attempt, a task is kept exactly when that attempt is scored: the kept tasks have the n = 1
    # variance, and a share `scored` of them is kept.
    pop = rates_population(0.4, 0.2)
    tv = task_variance(pop, "pass^k", 1, 1, mode=mode, target=target, scored=0.6)  # type: ignore[arg-type]
    one = per_task_variance(pop, "pass^k", 1, 1, mode=mode, target=target)[0]  # type: ignore[arg-type]
    assert tv.kept == pytest.approx(0.6) and tv.variance == pytest.approx(one, rel=1e-9)
    # The Bayesian population model: the information per task run is the scored share of one attempt's.
    bayes = task_variance(pop, "pass^k", 1, 1, mode="bayesian", target="population", scored=0.6)
    full = per_task_variance(pop, "pass^k", 1, 1, mode="bayesian", target="population")[0]
    assert bayes.per_task_run == pytest.approx(full / 0.6, rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(
    st.floats(0.1, 0.9),
    st.floats(0.2, 0.6),
    st.integers(1, 3),
    st.integers(0, 6),
    st.floats(0.2, 0.95),
    st.sampled_from(["pass@k", "pass^k"]),
)
def test_fewer_scored_attempts_never_narrow_the_plan(
    mean: float, share: float, k: int, extra: int, scored: float, metric: str
) -> None:
    pop = rates_population(mean, share * math.sqrt(mean * (1 - mean)))
    n = k + extra
    full = task_variance(pop, metric, k, n, **FREQ).per_task_run  # type: ignore[arg-type]
    lossy = task_variance(pop, metric, k, n, **FREQ, scored=scored).per_task_run  # type: ignore[arg-type]
    assert lossy >= full * (1 - 1e-9)


def test_the_plan_counts_abstentions_in_tasks_not_in_calls_per_task() -> None:
    pop = rates_population(0.6, 0.25)
    none = plan_evaluation(pop, k=2, attempts=[4], tasks=[100], half_width=0.05, unscored_share=0.0)
    lossy = plan_evaluation(pop, k=2, attempts=[4], tasks=[100], half_width=0.05, unscored_share=0.3)
    assert none.for_half_width and lossy.for_half_width
    assert lossy.for_half_width[0].tasks > none.for_half_width[0].tasks  # type: ignore[operator]
    assert lossy.cells[0].judge_calls == none.cells[0].judge_calls == 100 * 4  # calls per task x attempt unchanged
    assert lossy.for_half_width[0].scored_attempts == pytest.approx(4 * 0.7)
    assert lossy.scored_attempt_share == pytest.approx(0.7) and lossy.unscored_source == "given"
    assert any("30% of judge calls expected unscored" in note for note in lossy.notes)
    assert any("every judge call assumed scored" in note for note in plan_evaluation(pop).notes)
    # Three calls an attempt: the attempt is scored only when all three are.
    three = plan_evaluation(pop, attempts=[2], tasks=[10], unscored_share=0.3, interactions_per_attempt=3)
    assert three.scored_attempt_share == pytest.approx(0.7**3)


def test_a_pilot_run_plans_with_its_own_unscored_share() -> None:
    # The dataset judge leaves an interaction without a score unscored: one in four here.
    records = [conv(f"s{i}-{j}", [1.0 if (i + j) % 3 else 0.0], task=f"t{i}") for i in range(8) for j in range(4)]
    for record in records[::4]:
        record["conversation"][0]["score"] = None
    agg = aggregate(evaluate(convs(records), "dataset"), make_settings(unit="task"))
    plan = plan_evaluation(agg, attempts=[3], tasks=[10])
    assert plan.unscored_share == pytest.approx(0.25) and plan.unscored_source.startswith("measured on the pilot")
    assert plan_evaluation(agg, attempts=[3], tasks=[10], unscored_share=0.0).unscored_share == 0.0


@pytest.mark.parametrize(("a", "b", "d"), [(2.0, 3.0, 0.1), (0.5, 0.5, -0.2), (0.3, 2.0, 0.05)])
def test_shifted_population_keeps_the_concentration(a: float, b: float, d: float) -> None:
    # pass^1 is the mean success a / (a + b): shifted by d with the same a + b, B is Beta((mu + d) s, (1 - mu - d) s).
    shifted = shifted_population(beta_population(a, b), "pass^k", 1, d)
    total = a + b
    mu = a / total
    assert shifted.alpha[0] == pytest.approx((mu + d) * total, rel=1e-9)
    assert shifted.beta[0] == pytest.approx((1 - mu - d) * total, rel=1e-9)
    for metric, k in (("pass^k", 3), ("pass@k", 4)):
        value = value_and_between(beta_population(a, b), metric, k)[0]
        moved = shifted_population(beta_population(a, b), metric, k, d / 2)
        assert value_and_between(moved, metric, k)[0] == pytest.approx(value + d / 2, abs=1e-9)


def test_shifting_a_pilot_moves_its_value() -> None:
    rng = np.random.default_rng(3)
    pilot = pilot_population(np.full(60, 5), rng.binomial(5, rng.beta(2.0, 3.0, 60)))
    value = value_and_between(pilot, "pass^k", 2)[0]
    shifted = shifted_population(pilot, "pass^k", 2, 0.1)
    assert len(shifted.weight) == len(pilot.weight) > 1
    assert value_and_between(shifted, "pass^k", 2)[0] == pytest.approx(value + 0.1, abs=1e-9)


def test_agent_b_defaults_to_a_shifted_and_says_so() -> None:
    pop = rates_population(0.6, 0.25)
    plan = plan_evaluation(pop, k=2, difference=0.1, unscored_share=0.0)
    same = plan_evaluation(
        pop, k=2, difference=0.1, unscored_share=0.0, population_b=shifted_population(pop, "pass^k", 2, 0.1)
    )
    assert plan.for_difference == same.for_difference
    assert plan.agent_b is not None and "shifted by +0.1" in plan.agent_b
    assert plan.value_b == pytest.approx(plan.value + 0.1) and plan.spread_b is not None
    # B as A itself (main's assumption before): another plan, and the model is no longer silent.
    as_a = plan_evaluation(pop, k=2, difference=0.1, unscored_share=0.0, population_b=pop)
    assert as_a.for_difference != plan.for_difference and as_a.agent_b is not None
    assert any("not the +0.1 to detect" in note for note in as_a.notes)
    assert plan_evaluation(pop, k=2, half_width=0.05).agent_b is None
