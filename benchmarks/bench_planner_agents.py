"""Does the planner's promised power hold when B's tasks differ from A's, and when the judge abstains?

Run: ``.venv/bin/python benchmarks/bench_planner_agents.py [--sims 2000]``. Seeded: the same command prints the
same tables. Part of the planner's benchmark (``bench_planner.py``, whose populations, copula and detection by
the paired t it reuses; docs/statistics.md, "Planning a run").

*Agent B's spread.* A's tasks are U-shaped Beta(0.4, 0.4) or skewed Beta(0.6, 2.5); B's truly have a metric
``DIFFERENCE`` higher and a different concentration (tasks more alike: a + b x 3; more spread: a + b / 3), tied
to A's task by task by the Gaussian copula. Three plans for power 0.8 at a 5% two-sided level, each told the true
correlation of the per-task values: B taken as A itself (what the CLI and the dashboard did on main before, with
only A's population), B as A shifted by the difference (the default now), and B described (its true population).
Each plan's cheapest T x n is then simulated: "detected" is the share of simulated pairs whose paired t on the
per-task differences of the unbiased estimates rejects at 5% (the frequentist ``compare_counts``).

*Abstentions.* B is A shifted (the model holds); every judge call is unscored with probability u independently,
an attempt of several calls is scored only when all are, a task keeps the attempts scored and is left out with
fewer than k, and a pair counts when both tasks are kept. Plans that ignore abstentions (main before) and that
count them (``unscored_share=u``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import brentq
from scipy.special import stdtrit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats.kernels import estimates
from agentic_core.stats.planner import PlanMetric, Requirement, paired_power, plan_evaluation
from agentic_core.stats.planner_variance import beta_population
from benchmarks.bench_planner import ATTEMPTS, DIFFERENCE, METRICS, POPULATIONS, g_of, paired_p, truth

SPREADS = {"more alike (a + b x 3)": 3.0, "more spread (a + b / 3)": 1 / 3}
UNSCORED = ((0.3, 1), (0.2, 3))
"""(share of judge calls unscored, judge calls per attempt): the learned judge's 30%; 20% of 3-call attempts."""
_CHUNK = 200


def b_of(a: float, b: float, metric: PlanMetric, k: int, factor: float) -> tuple[float, float]:
    """B's Beta: concentration (a + b) x factor, its metric DIFFERENCE above A's."""
    total, goal = (a + b) * factor, truth(a, b, metric, k) + DIFFERENCE
    mean = brentq(lambda m: truth(m * total, (1 - m) * total, metric, k) - goal, 0.01, 0.99)
    return mean * total, (1 - mean) * total


def correlation(rng: np.random.Generator, ab_a: tuple[float, float], ab_b: tuple[float, float], metric: PlanMetric,
                k: int) -> float:  # fmt: skip
    """The true correlation of the two agents' per-task values (what a pilot of both estimates)."""
    big = paired_p(rng, 400_000, ab_a, ab_b)
    return float(np.corrcoef(g_of(big[0], metric, k), g_of(big[1], metric, k))[0, 1])


def detected(
    rng: np.random.Generator,
    sims: int,
    best: Requirement,
    metric: PlanMetric,
    k: int,
    ab_a: tuple[float, float],
    ab_b: tuple[float, float],
    scored: float = 1.0,
) -> float:
    """The share of simulated pairs of benchmarks (T x n of the plan) whose paired t rejects at 5%."""
    assert best.tasks is not None
    tasks, n, hits = best.tasks, best.attempts, 0
    for start in range(0, sims, _CHUNK):
        size = min(_CHUNK, sims - start)
        p = paired_p(rng, size * tasks, ab_a, ab_b)
        m = rng.binomial(n, scored, p.shape) if scored < 1.0 else np.full(p.shape, n)
        c = rng.binomial(m, p)
        kept = m >= k
        at_k, pow_k = estimates(np.maximum(m, k).ravel(), np.minimum(c, np.maximum(m, k)).ravel(), np.array([k]),
                                "unbiased")  # fmt: skip
        value = (pow_k if metric == "pass^k" else at_k)[:, 0].reshape(p.shape)
        both = (kept[0] & kept[1]).reshape(size, tasks)
        d = np.where(both, (value[1] - value[0]).reshape(size, tasks), 0.0)
        count = both.sum(axis=1)
        mean = d.sum(axis=1) / np.maximum(count, 1)
        var = (np.square(d).sum(axis=1) - count * mean**2) / np.maximum(count - 1, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.abs(mean) / np.sqrt(var / count)
        hits += int(np.count_nonzero((count >= 2) & (t >= stdtrit(np.maximum(count - 1, 1), 0.975))))
    return hits / sims


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def agent_b_rows(sims: int) -> list[str]:
    rows = [
        "| A's tasks | metric | B's tasks (true) | plan's B | planned T x n | promised power | detected (se) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, (a, b) in POPULATIONS.items():
        for metric, k in METRICS:
            for spread_name, factor in SPREADS.items():
                ab_b = b_of(a, b, metric, k, factor)
                rng = np.random.default_rng([int(a * 10), int(b * 10), k, int(factor * 3)])
                rho = correlation(rng, (a, b), ab_b, metric, k)
                pop_a = beta_population(a, b)
                for plan_name, pop_b in (
                    ("A itself (before)", pop_a),
                    ("A shifted (default)", None),
                    ("described", beta_population(*ab_b)),
                ):
                    plan = plan_evaluation(
                        pop_a, metric=metric, k=k, attempts=ATTEMPTS, difference=DIFFERENCE, correlation=rho,
                        population_b=pop_b, unscored_share=0.0,
                    )  # fmt: skip
                    best = plan.cheapest_for_difference
                    assert best is not None and best.tasks is not None and best.per_task_sd is not None
                    promised = paired_power(DIFFERENCE, best.per_task_sd, best.tasks, 0.95)
                    share = detected(rng, sims, best, metric, k, (a, b), ab_b)
                    se = math.sqrt(share * (1 - share) / sims)
                    rows.append(_row([
                        name, metric.replace("k", str(k)), spread_name, plan_name, f"{best.tasks} x {best.attempts}",
                        f"{promised:.3f}", f"{share:.3f} ({se:.3f})",
                    ]))  # fmt: skip
                    print(rows[-1], flush=True)
    return rows


def abstention_rows(sims: int) -> list[str]:
    rows = [
        "| A's tasks | metric | unscored calls | calls per attempt | plan | planned T x n (judge calls) | "
        "promised power | detected (se) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, (a, b) in POPULATIONS.items():
        for metric, k in METRICS:
            ab_b = b_of(a, b, metric, k, 1.0)  # B is A shifted: the default model holds
            rng = np.random.default_rng([int(a * 10), int(b * 10), k, 77])
            rho = correlation(rng, (a, b), ab_b, metric, k)
            for share, calls in UNSCORED:
                for plan_name, planned_share in (("ignores them (before)", 0.0), ("counts them", share)):
                    plan = plan_evaluation(
                        beta_population(a, b), metric=metric, k=k, attempts=ATTEMPTS, difference=DIFFERENCE,
                        correlation=rho, interactions_per_attempt=calls, unscored_share=planned_share,
                    )  # fmt: skip
                    best = plan.cheapest_for_difference
                    assert best is not None and best.tasks is not None and best.per_task_sd is not None
                    promised = paired_power(DIFFERENCE, best.per_task_sd, best.tasks, 0.95)
                    got = detected(rng, sims, best, metric, k, (a, b), ab_b, (1 - share) ** calls)
                    se = math.sqrt(got * (1 - got) / sims)
                    rows.append(_row([
                        name, metric.replace("k", str(k)), f"{share:.0%}", str(calls), plan_name,
                        f"{best.tasks} x {best.attempts} ({best.judge_calls:,})", f"{promised:.3f}",
                        f"{got:.3f} ({se:.3f})",
                    ]))  # fmt: skip
                    print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=2000, help="simulated pairs of benchmarks per row")
    args = parser.parse_args()
    start = time.perf_counter()
    spread = agent_b_rows(args.sims)
    lost = abstention_rows(args.sims)
    print(f"\nPower 0.8 to detect +{DIFFERENCE}, B's spread unlike A's ({args.sims:,} simulated pairs per row):\n")
    print("\n".join(spread))
    print(f"\nPower 0.8 to detect +{DIFFERENCE} when the judge abstains ({args.sims:,} simulated pairs per row):\n")
    print("\n".join(lost))
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
