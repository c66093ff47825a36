"""Does the planner keep its promises? Simulated runs of the planned tasks x attempts (docs/statistics.md).

Run: ``.venv/bin/python benchmarks/bench_planner.py [--sims 150] [--quick] [--fast-only]``. Seeded: the
same command prints the same tables.

*Half-width.* For each task population (U-shaped Beta(0.4, 0.4), skewed Beta(0.6, 2.5)), metric and mode,
:func:`~agentic_core.stats.planner.plan_evaluation` picks the cheapest tasks T x attempts n for a
95% interval of half-width 0.05. ``--sims`` benchmarks of T tasks are then drawn (p ~ the population,
c ~ Binomial(n, p)) and :func:`~agentic_core.stats.curve.dataset_curve` makes each one's real interval
(BCa bootstrap, or the hierarchical grid posterior). The table compares the promised half-width with the
mean achieved one (and its simulation standard error), and reports coverage of the population value.

*Power.* Two agents on the same tasks: A's task difficulty is the population, B's is a Beta of the
same concentration whose metric is ``difference`` higher, and the two are tied task by task by a Gaussian
copula (normal-scale correlation 0.7). The planner is given the correlation of the two agents' true
per-task values (computed from 2,000,000 draws: what a pilot of both agents estimates) and plans the
cheapest T x n for power 0.8 at a 5% two-sided level. Each simulated pair of benchmarks goes through
:func:`~agentic_core.stats.compare.compare_counts`; "detected" means its 95% interval for B - A excludes 0.
The table compares the promised power at the planned T with the share detected (standard error
sqrt(p (1 - p) / sims)). Frequentist ``compare_counts`` is the paired t, so a second table runs that
statistic directly with many more simulations (``--fast-power-sims``).

*Stopping early.* :func:`~agentic_core.stats.planner_sequential.sequential_decision` with 3 looks on the
planned comparison, with no difference (its error rate should be at most 5%) and with the planned difference
(power, and the mean tasks judged before it stopped).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr, stdtrit
from scipy.stats import beta as beta_dist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.settings import Mode
from agentic_core.stats.compare import compare_counts
from agentic_core.stats.curve import dataset_curve
from agentic_core.stats.kernels import estimates
from agentic_core.stats.planner import PlanMetric, Requirement, paired_power, plan_evaluation
from agentic_core.stats.planner_sequential import sequential_decision
from agentic_core.stats.planner_variance import beta_population

POPULATIONS = {"U-shaped Beta(0.4, 0.4)": (0.4, 0.4), "skewed Beta(0.6, 2.5)": (0.6, 2.5)}
METRICS: tuple[tuple[PlanMetric, int], ...] = (("pass^k", 2), ("pass@k", 3))
MODES: tuple[Mode, ...] = ("frequentist", "bayesian")
HALF_WIDTH = 0.05
DIFFERENCE = 0.08
COPULA = 0.7
ATTEMPTS = (1, 2, 3, 4, 5, 6, 8)


def g_of(p: np.ndarray, metric: PlanMetric, k: int) -> np.ndarray:
    return p**k if metric == "pass^k" else 1.0 - (1.0 - p) ** k


def truth(a: float, b: float, metric: PlanMetric, k: int) -> float:
    from agentic_core.stats.planner_variance import value_and_between

    return value_and_between(beta_population(a, b), metric, k)[0]


def half_width_rows(sims: int, quick: bool) -> list[str]:
    rows = [
        "| population | metric | mode | planned T x n | judge calls | promised ±hw | achieved mean ±hw (se) | "
        "coverage |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, (a, b) in POPULATIONS.items():
        for metric, k in METRICS[:1] if quick else METRICS:
            for mode in MODES:
                plan = plan_evaluation(
                    beta_population(a, b), metric=metric, k=k, mode=mode, attempts=ATTEMPTS, half_width=HALF_WIDTH
                )
                best = plan.cheapest_for_half_width
                assert best is not None and best.tasks is not None
                tasks, n = best.tasks, best.attempts
                rng = np.random.default_rng([int(a * 10), int(b * 10), k, len(mode)])
                true = truth(a, b, metric, k)
                widths, covered = [], 0
                for s in range(sims):
                    c = rng.binomial(n, rng.beta(a, b, tasks))
                    point = dataset_curve(np.full(tasks, n), c, [k], mode=mode, seed=s, n_samples=1000)[0]
                    lo, hi = point.pass_pow_k_ci if metric == "pass^k" else point.pass_at_k_ci  # type: ignore[misc]
                    widths.append((hi - lo) / 2)
                    covered += lo <= true <= hi
                w = np.array(widths)
                rows.append(
                    f"| {name} | {metric.replace('k', str(k))} | {mode} | {tasks} x {n} | {best.judge_calls:,} | "
                    f"{HALF_WIDTH:.3f} | {w.mean():.4f} ({w.std(ddof=1) / math.sqrt(sims):.4f}) | "
                    f"{covered / sims:.3f} |"
                )
                print(rows[-1], flush=True)
    return rows


def b_population(a: float, b: float, metric: PlanMetric, k: int) -> tuple[float, float]:
    """The Beta of the same concentration as Beta(a, b) whose metric is DIFFERENCE higher."""
    total, goal = a + b, truth(a, b, metric, k) + DIFFERENCE
    mean = brentq(lambda m: truth(m * total, (1 - m) * total, metric, k) - goal, 0.01, 0.99)
    return mean * total, (1 - mean) * total


def paired_p(rng: np.random.Generator, size: int, ab_a: tuple[float, float], ab_b: tuple[float, float]) -> np.ndarray:
    z = rng.standard_normal((2, size))
    z[1] = COPULA * z[0] + math.sqrt(1 - COPULA**2) * z[1]
    u = ndtr(z)
    return np.stack([beta_dist.ppf(u[0], *ab_a), beta_dist.ppf(u[1], *ab_b)])


def paired_truth(
    a: float, b: float, metric: PlanMetric, k: int, seed: int
) -> tuple[tuple[float, float], np.random.Generator, float]:
    """B's population, the seeded generator (drawn on from here) and the true per-task correlation of A and B."""
    ab_b = b_population(a, b, metric, k)
    rng = np.random.default_rng([int(a * 10), int(b * 10), k, seed])
    big = paired_p(rng, 2_000_000, (a, b), ab_b)
    rho = float(np.corrcoef(g_of(big[0], metric, k), g_of(big[1], metric, k))[0, 1])
    return ab_b, rng, rho


def planned_comparison(
    a: float, b: float, metric: PlanMetric, k: int, seed: int
) -> tuple[tuple[float, float], np.random.Generator, Requirement | None]:
    """:func:`paired_truth`, and the cheapest plan (frequentist) to detect :data:`DIFFERENCE` between A and B."""
    ab_b, rng, rho = paired_truth(a, b, metric, k, seed)
    plan = plan_evaluation(
        beta_population(a, b),
        population_b=beta_population(*ab_b),
        metric=metric,
        k=k,
        attempts=ATTEMPTS,
        difference=DIFFERENCE,
        correlation=rho,
    )
    return ab_b, rng, plan.cheapest_for_difference


def power_rows(sims: int, quick: bool) -> list[str]:
    rows = [
        "| population | metric | mode | correlation | planned T x n | judge calls (both) | promised power | "
        "detected (se) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, (a, b) in POPULATIONS.items():
        for metric, k in METRICS[:1] if quick else METRICS:
            ab_b, rng, rho = paired_truth(a, b, metric, k, 99)
            for mode in MODES:
                plan = plan_evaluation(
                    beta_population(a, b),
                    population_b=beta_population(*ab_b),
                    metric=metric,
                    k=k,
                    mode=mode,
                    attempts=ATTEMPTS,
                    difference=DIFFERENCE,
                    correlation=rho,
                )
                best = plan.cheapest_for_difference
                assert best is not None and best.tasks is not None and best.per_task_sd is not None
                tasks, n = best.tasks, best.attempts
                promised = paired_power(DIFFERENCE, best.per_task_sd, tasks, 0.95)
                detected = 0
                for s in range(sims):
                    p = paired_p(rng, tasks, (a, b), ab_b)
                    c = rng.binomial(n, p)
                    nn = np.full(tasks, n)
                    cmp = compare_counts(nn, c[0], nn, c[1], [k], mode=mode, seed=s, n_samples=1000)
                    wanted = "pass_pow_k" if metric == "pass^k" else "pass_at_k"
                    row = next(m for m in cmp.metrics if m.metric == wanted and m.k == k)
                    assert row.delta_ci is not None
                    detected += row.delta_ci[0] > 0 or row.delta_ci[1] < 0
                share = detected / sims
                se = math.sqrt(share * (1 - share) / sims)
                rows.append(
                    f"| {name} | {metric.replace('k', str(k))} | {mode} | {rho:.3f} | {tasks} x {n} | "
                    f"{best.judge_calls:,} | {promised:.3f} | {share:.3f} ({se:.3f}) |"
                )
                print(rows[-1], flush=True)
    return rows


def fast_power_rows(sims: int) -> list[str]:
    """Frequentist power with many simulations: the paired t on the per-task differences.

    ``compare_counts``' frequentist interval is exactly this paired t (Student-t on T - 1 degrees of freedom over
    the per-task differences of the unbiased estimates), so this is the same detection, computed directly.
    """
    rows = [
        "| population | metric | planned T x n | promised power | detected (se) |",
        "|---|---|---|---|---|",
    ]
    for name, (a, b) in POPULATIONS.items():
        for metric, k in METRICS:
            ab_b, rng, best = planned_comparison(a, b, metric, k, 55)
            assert best is not None and best.tasks is not None and best.per_task_sd is not None
            tasks, n = best.tasks, best.attempts
            critical = float(stdtrit(tasks - 1.0, 0.975))
            detected = 0
            for _ in range(sims):
                c = rng.binomial(n, paired_p(rng, tasks, (a, b), ab_b))
                at_k, pow_k = estimates(np.full(c.size, n), c.ravel(), np.array([k]), "unbiased")
                est = (pow_k if metric == "pass^k" else at_k)[:, 0].reshape(2, -1)
                d = est[1] - est[0]
                detected += abs(d.mean()) / (d.std(ddof=1) / math.sqrt(tasks)) >= critical
            share = detected / sims
            promised = paired_power(DIFFERENCE, best.per_task_sd, tasks, 0.95)
            rows.append(
                f"| {name} | {metric.replace('k', str(k))} | {tasks} x {n} | {promised:.3f} | "
                f"{share:.3f} ({math.sqrt(share * (1 - share) / sims):.3f}) |"
            )
            print(rows[-1], flush=True)
    return rows


def sequential_rows(sims: int) -> list[str]:
    """Error rate, power and tasks used of the early-stopping rule, 3 looks, on the planned comparison."""
    rows = [
        "| population | metric | boundary | planned T x n | truth | decided 'B better' or 'A better' (se) | "
        "mean tasks used |",
        "|---|---|---|---|---|---|---|",
    ]
    looks = 3
    for name, (a, b) in POPULATIONS.items():
        metric, k = METRICS[0]
        ab_b, rng, best = planned_comparison(a, b, metric, k, 7)
        assert best is not None and best.tasks is not None
        tasks, n = best.tasks, best.attempts
        batch = -(-tasks // looks)
        for truth_name, second in (("no difference", (a, b)), (f"+{DIFFERENCE}", ab_b)):
            for kind in ("obrien-fleming", "pocock"):
                decided, used = 0, 0
                for _ in range(sims):
                    p = paired_p(rng, batch * looks, (a, b), second)
                    c = rng.binomial(n, p)
                    est = estimates(np.full(c.size, n), c.ravel(), np.array([k]), "unbiased")[1][:, 0].reshape(2, -1)
                    d = est[1] - est[0]
                    for look in range(1, looks + 1):
                        verdict = sequential_decision(d[: look * batch], look, looks, kind=kind)
                        if verdict != "continue":
                            break
                    decided += verdict in ("B better", "A better")
                    used += look * batch
                share = decided / sims
                rows.append(
                    f"| {name} | {metric.replace('k', str(k))} | {kind} | {batch * looks} x {n} | {truth_name} | "
                    f"{share:.3f} ({math.sqrt(share * (1 - share) / sims):.3f}) | {used / sims:.0f} |"
                )
                print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=150, help="simulated benchmarks per row")
    parser.add_argument("--quick", action="store_true", help="pass^2 only")
    parser.add_argument("--sequential-sims", type=int, default=2000, help="simulated comparisons per early-stop row")
    parser.add_argument(
        "--fast-only", action="store_true", help="only the fast tables (paired-t power, early stopping)"
    )
    parser.add_argument("--fast-power-sims", type=int, default=3000, help="simulations per fast paired-t power row")
    args = parser.parse_args()
    start = time.perf_counter()
    hw = [] if args.fast_only else half_width_rows(args.sims, args.quick)
    pw = [] if args.fast_only else power_rows(args.sims, args.quick)
    fast = fast_power_rows(args.fast_power_sims)
    seq = sequential_rows(args.sequential_sims)
    print()
    if hw:
        print(f"Half-width {HALF_WIDTH} at 95% ({args.sims} simulations per row):\n")
        print("\n".join(hw))
        print(f"\nPower 0.8 to detect +{DIFFERENCE} at a 5% two-sided level ({args.sims} simulations per row):\n")
        print("\n".join(pw))
    print(f"\nFrequentist power by the paired t directly ({args.fast_power_sims} simulations per row):\n")
    print("\n".join(fast))
    print(f"\nStopping early, 3 looks, 5% two-sided ({args.sequential_sims} simulated comparisons per row):\n")
    print("\n".join(seq))
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
