"""Coverage by simulation (seeded, seconds): an interval is only as good as how often it holds the truth.

Task difficulty is U-shaped, p_i ~ Beta(0.5, 0.5), or mostly hard (Beta(2, 5), issue 30). The full tables (more
cells, more simulations, six difficulty shapes) come from ``benchmarks/bench_coverage.py`` and are
in benchmarks/RESULTS.md. Here a few cells with enough simulations that a method covering 0.70 (the old
Bayesian "these tasks" default read as the population's interval) fails for certain.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from agentic_core.stats import dataset_curve


def _coverage(tasks: int, attempts: int, mode: str, target: str, sims: int, k: int = 3) -> float:
    rng = np.random.default_rng([11, tasks, attempts, len(mode), len(target)])
    population = math.prod((0.5 + i) / (1.0 + i) for i in range(k))  # E[p^k] for p ~ Beta(0.5, 0.5)
    hits = 0
    for sim in range(sims):
        p = rng.beta(0.5, 0.5, tasks)
        c = rng.binomial(attempts, p)
        truth = population if target == "population" else float(np.mean(p**k))
        [point] = dataset_curve(
            np.full(tasks, attempts),
            c,
            [k],
            mode=mode,
            target=target,
            n_samples=800,
            seed=sim,  # type: ignore[arg-type]
        )
        assert point.pass_pow_k_ci is not None
        hits += point.pass_pow_k_ci[0] <= truth <= point.pass_pow_k_ci[1]
    return hits / sims


@pytest.mark.parametrize(
    ("tasks", "mode", "target", "sims", "floor"),
    [
        # floor: the 0.95 target minus about two standard errors of the simulation.
        (20, "frequentist", "population", 200, 0.90),
        (10, "frequentist", "population", 200, 0.86),
        (20, "bayesian", "population", 60, 0.85),
        (20, "frequentist", "these-tasks", 200, 0.88),
    ],
)
def test_95_percent_intervals_cover_the_truth(tasks: int, mode: str, target: str, sims: int, floor: float) -> None:
    assert _coverage(tasks, 5, mode, target, sims) >= floor


def test_the_population_interval_covers_where_the_these_tasks_one_would_not() -> None:
    # Read as an interval for the population, the per-task (these tasks) posterior under-covers:
    # it ignores which tasks happened to be drawn.
    rng = np.random.default_rng(4)
    population = math.prod((0.5 + i) / (1.0 + i) for i in range(3))
    misses = {"population": 0, "these-tasks": 0}
    for sim in range(60):
        c = rng.binomial(5, rng.beta(0.5, 0.5, 20))
        for target in misses:
            [point] = dataset_curve(np.full(20, 5), c, [3], mode="bayesian", target=target, n_samples=800, seed=sim)  # type: ignore[arg-type]
            assert point.pass_pow_k_ci is not None
            misses[target] += not point.pass_pow_k_ci[0] <= population <= point.pass_pow_k_ci[1]
    assert misses["these-tasks"] >= 2 * misses["population"] + 5


def test_population_interval_covers_when_most_tasks_are_hard() -> None:
    # Issue 30's worst cell: p ~ Beta(2, 5), 10 tasks x 8 attempts, pass^3. The BCa bootstrap alone
    # covered 0.71-0.82 here (its intervals lay wholly below the truth); the interval now holds the
    # hierarchical model's too and covered 0.97 in benchmarks/bench_coverage.py (200 datasets).
    # Floor 0.90: more than three standard errors of 80 simulations below the 0.97 measured, and
    # about two above the BCa bootstrap's 0.82 (it fails here: 66 of 80).
    rng = np.random.default_rng(30)
    truth = math.prod((2.0 + i) / (7.0 + i) for i in range(3))  # E[p^3] for p ~ Beta(2, 5)
    hits = 0
    sims = 80
    for sim in range(sims):
        c = rng.binomial(8, rng.beta(2.0, 5.0, 10))
        [point] = dataset_curve(np.full(10, 8), c, [3], mode="frequentist", n_samples=800, seed=sim)
        assert point.pass_pow_k_ci is not None
        hits += point.pass_pow_k_ci[0] <= truth <= point.pass_pow_k_ci[1]
    assert hits / sims >= 0.90


def test_bayesian_population_interval_covers_a_mixture_of_easy_and_hard_tasks() -> None:
    # Issue 30's worst Bayesian cell: 30% of tasks always solved, the rest solved 5% of the time, 100
    # tasks x 16 attempts. One Beta law cannot fit that mixture, and the hierarchical interval alone
    # covered 0.13 here (benchmarks/RESULTS.md, 200 datasets); widened to hold the Bayesian bootstrap's
    # it covers about 0.95. Floor 0.85 on 30 datasets: about two and a half standard errors below
    # 0.95 (it measured 0.93-1.00 on these datasets); the Beta model's interval alone covered
    # 0.13-0.77 of them on five of the six quantities, so this fails without the widening.
    rng = np.random.default_rng(3030)
    ks = [1, 3, 16]
    truth = np.array([0.3 + 0.7 * (1.0 - 0.95**k) for k in ks] + [0.3 + 0.7 * 0.05**k for k in ks])
    hits = np.zeros(truth.size)
    sims = 30
    for sim in range(sims):
        p = np.where(rng.random(100) < 0.3, 1.0, 0.05)
        c = rng.binomial(16, p)
        points = dataset_curve(np.full(100, 16), c, ks, mode="bayesian", seed=sim)
        low = [pt.pass_at_k_ci[0] for pt in points] + [pt.pass_pow_k_ci[0] for pt in points]  # type: ignore[index]
        high = [pt.pass_at_k_ci[1] for pt in points] + [pt.pass_pow_k_ci[1] for pt in points]  # type: ignore[index]
        hits += (np.array(low) <= truth) & (truth <= np.array(high))
    assert hits.min() / sims >= 0.85
