"""Tests of the label planner (agentic_core.stats.label_plan): exact task moments, the plan's arithmetic, and
that the planned number of labels gives the promised half-width (issue 37 section 3)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agentic_core.errors import SettingsError
from agentic_core.stats.corrected import corrected_curve
from agentic_core.stats.label_plan import labels_needed, task_moments
from agentic_core.stats.planner_variance import beta_population, rates_population
from agentic_core.stats.symmetric import expected_values


def test_one_attempt_moments_by_hand() -> None:
    # One attempt, mean mu: Y ~ Bernoulli(mu); the judge's value v has E[v | Y=1] = m1, E[v | Y=0] = m0 and
    # second moments m1', m0'. Then E[Yhat] = mu m1 + (1 - mu) m0, E[Yhat^2] = mu m1' + (1 - mu) m0',
    # Cov(Y, Yhat) = E[Y v] - mu E[v] = mu m1 - mu E[v].
    mu, judge = 0.3, (0.8, 0.75, 0.25, 0.2)
    e_y, var_y, e_h, var_h, cov = task_moments(beta_population(3.0, 7.0), 1, "success rate", 1, judge)
    e_v = mu * 0.8 + 0.7 * 0.25
    assert e_y == pytest.approx(mu) and var_y == pytest.approx(mu * (1 - mu))
    assert e_h == pytest.approx(e_v)
    assert var_h == pytest.approx(mu * 0.75 + 0.7 * 0.2 - e_v**2)
    assert cov == pytest.approx(mu * 0.8 - mu * e_v)


@pytest.mark.parametrize("metric", ["success rate", "pass@k", "pass^k"])
def test_task_moments_match_a_monte_carlo(metric: str) -> None:
    """Four attempts, k = 2, judge with abstentions as Beta-distributed probabilities: the exact moments agree
    with 200,000 simulated tasks (seeded) within four standard errors."""
    sens, spec, abstain = 0.85, 0.7, 0.3
    laws = ((5.0, 3.0), (3.0, 5.0))
    m1 = (1 - abstain) * sens + abstain * 5 / 8
    m1_sq = (1 - abstain) * sens + abstain * (5 / 8) * (6 / 9)
    m0 = (1 - abstain) * (1 - spec) + abstain * 3 / 8
    m0_sq = (1 - abstain) * (1 - spec) + abstain * (3 / 8) * (4 / 9)
    exact = task_moments(beta_population(2.0, 3.0), 4, metric, 2, (m1, m1_sq, m0, m0_sq))  # type: ignore[arg-type]
    rng = np.random.default_rng(37)
    size = 200_000
    p = rng.beta(2.0, 3.0, size)
    y = (rng.random((size, 4)) < p[:, None]).astype(float)
    verdict = np.where(y == 1, rng.random(y.shape) < sens, rng.random(y.shape) >= spec).astype(float)
    prob = np.where(y == 1, rng.beta(*laws[0], y.shape), rng.beta(*laws[1], y.shape))
    v = np.where(rng.random(y.shape) < abstain, prob, verdict)
    col = {"success rate": 0, "pass@k": 1, "pass^k": 2}[metric]
    human, judge = expected_values(y, [2])[:, col], expected_values(v, [2])[:, col]
    simulated = (human.mean(), human.var(), judge.mean(), judge.var(), np.cov(human, judge)[0, 1])
    # Values lie in [0, 1], so each simulated moment's standard error is below 0.5 / sqrt(200,000) = 0.0011.
    tolerance = 4 * 0.5 / math.sqrt(size)
    for got, want in zip(exact, simulated, strict=True):
        assert got == pytest.approx(want, abs=tolerance)


def test_more_precision_or_a_worse_judge_needs_more_labels() -> None:
    common = {"success_rate": 0.4, "tasks": 2000, "abstention_rate": 0.2}
    good = labels_needed(sensitivity=0.95, specificity=0.95, half_width=0.05, **common)
    worse = labels_needed(sensitivity=0.75, specificity=0.6, half_width=0.05, **common)
    tighter = labels_needed(sensitivity=0.95, specificity=0.95, half_width=0.03, **common)
    assert good.labels is not None and worse.labels is not None and tighter.labels is not None
    assert good.labels < worse.labels and good.labels < tighter.labels
    assert good.half_width <= 0.05 and good.half_width_labels_only > good.half_width
    assert good.unit == "tasks" and 0.0 < good.lam <= 1.0


def test_an_unreachable_half_width_says_so() -> None:
    plan = labels_needed(sensitivity=0.8, specificity=0.8, success_rate=0.5, tasks=100, half_width=0.01)
    assert plan.labels is None
    assert plan.half_width == plan.half_width_all_labelled or plan.half_width > 0.01
    assert any("more tasks are needed" in note for note in plan.notes)


def test_the_planned_labels_give_the_half_width() -> None:
    """Plan the labelled tasks for +-0.06 on a flat run, label that many in 60 seeded runs: the mean half-width
    is within 10% of the target (the full check is in benchmarks/bench_ppi_coverage.py)."""
    plan = labels_needed(
        sensitivity=0.85, specificity=0.75, success_rate=0.4, tasks=600, half_width=0.06, abstention_rate=0.0
    )
    assert plan.labels is not None
    rng = np.random.default_rng(5)
    halves = []
    for _ in range(60):
        y = (rng.random(600) < 0.4).astype(float)
        judge = np.where(y == 1, rng.random(600) < 0.85, rng.random(600) >= 0.75).astype(float)
        human = np.full(600, np.nan)
        chosen = rng.choice(600, plan.labels, replace=False)
        human[chosen] = y[chosen]
        ci = corrected_curve(judge, human, np.arange(600), [1], design="tasks").points[0].success_rate_ci
        assert ci is not None
        halves.append((ci[1] - ci[0]) / 2)
    assert np.mean(halves) == pytest.approx(0.06, rel=0.1)


def test_attempt_design_plans_attempts_for_the_success_rate_only() -> None:
    pop = rates_population(0.6, 0.25)
    plan = labels_needed(
        sensitivity=0.9, specificity=0.8, population=pop, tasks=300, attempts=4, half_width=0.05, design="attempts"
    )
    assert plan.unit == "attempts" and plan.labels is not None and plan.labels <= 1200
    with pytest.raises(SettingsError) as info:
        labels_needed(
            sensitivity=0.9,
            specificity=0.8,
            population=pop,
            tasks=300,
            attempts=4,
            half_width=0.05,
            design="attempts",
            metric="pass^k",
            k=2,
        )
    assert info.value.place == "design"


@pytest.mark.parametrize(
    ("kwargs", "place"),
    [
        ({"sensitivity": 1.2}, "sensitivity"),
        ({"half_width": 0.0}, "half_width"),
        ({"tasks": 5}, "tasks"),
        ({"attempts": 3, "success_rate": 0.5}, "spread"),
        ({"metric": "pass^k", "k": 3}, "k"),
    ],
)
def test_bad_plans_are_settings_errors(kwargs: dict[str, object], place: str) -> None:
    base: dict[str, object] = {
        "sensitivity": 0.9,
        "specificity": 0.8,
        "success_rate": 0.5,
        "tasks": 200,
        "half_width": 0.05,
    }
    base.update(kwargs)
    with pytest.raises(SettingsError) as info:
        labels_needed(**base)  # type: ignore[arg-type]
    assert info.value.place == place
