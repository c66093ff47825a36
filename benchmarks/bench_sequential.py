"""Does the early-stopping rule keep its 5% error rate for every batch size? (docs/statistics.md, "Stopping early").

Run: ``.venv/bin/python benchmarks/bench_sequential.py [--sims 20000] [--batches 2,3,4,...] [--looks 3,10]``.
Seeded: the same command prints the same table.

A true null: two agents with the same task population, tied task by task (a Gaussian copula of normal-scale
correlation 0.7, as in ``bench_planner.py``), each with n attempts per task; the per-task difference of their
unbiased pass^k estimates is what :func:`~agentic_core.stats.planner_sequential.sequential_decision` reads. The
comparison is judged in ``looks`` equal batches and stops at the first look whose boundary is crossed; the share
of comparisons that decide "A better" or "B better" is the error rate (goal: 0.05, two-sided), with its
Monte-Carlo standard error sqrt(p (1 - p) / sims). Three kinds of differences:

- ``normal``: N(0, 1) differences (the t statistic's own model: the new rule is exact for them);
- ``pass^1, n=1``: the CLI's own plan ``plan --mean 0.6 --spread 0.25 --difference 0.3 --looks 10`` (37 tasks x
  1 attempt, 4 tasks a look): differences in {-1, 0, 1}, often all equal in a small batch;
- ``pass^2, n=2``: U-shaped Beta(0.4, 0.4) tasks, differences in {-1, -0.5, 0, 0.5, 1}.

"before" is the rule of main before this benchmark (commit d5bab96): z = mean / (sd / sqrt(m)) against the normal
boundaries, infinite when a batch's differences are all equal; "t only" is the t against the t boundaries of the
batch's degrees of freedom (identical differences left to the sign-flip test); "after" is the product's rule
(:func:`~agentic_core.stats.planner_sequential.look_verdicts`, which ``sequential_decision`` applies): the t
boundaries and the exact sign-flip test together.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.special import ndtr
from scipy.stats import beta as beta_dist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats.kernels import estimates
from agentic_core.stats.planner_sequential import Boundary, look_verdicts, nominal_levels, sequential_bounds
from agentic_core.stats.planner_variance import rates_population

COPULA = 0.7
KINDS: tuple[Boundary, ...] = ("obrien-fleming", "pocock")
BATCHES = (2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40, 60)
Draw = Callable[[np.random.Generator, int, int], np.ndarray]


def pass_k_draw(a: float, b: float, n: int, k: int) -> Draw:
    """Per-task differences of two agents with the same Beta(a, b) tasks (copula-tied), n attempts, pass^k."""

    def draw(rng: np.random.Generator, sims: int, tasks: int) -> np.ndarray:
        z = rng.standard_normal((2, sims, tasks))
        z[1] = COPULA * z[0] + math.sqrt(1 - COPULA**2) * z[1]
        p = beta_dist.ppf(ndtr(z), a, b)
        c = rng.binomial(n, p).ravel()
        pow_k = estimates(np.full(c.size, n), c, np.array([k]), "unbiased")[1][:, 0].reshape(2, sims, tasks)
        return np.asarray(pow_k[1] - pow_k[0])

    return draw


def normal_draw(rng: np.random.Generator, sims: int, tasks: int) -> np.ndarray:
    return rng.standard_normal((sims, tasks))


def _rates_beta(mean: float, spread: float) -> tuple[float, float]:
    pop = rates_population(mean, spread)
    return float(pop.alpha[0]), float(pop.beta[0])


DATA: dict[str, Draw] = {
    "normal": normal_draw,
    "pass^1, n=1 (mean 0.6, spread 0.25)": pass_k_draw(*_rates_beta(0.6, 0.25), 1, 1),
    "pass^2, n=2 (Beta(0.4, 0.4))": pass_k_draw(0.4, 0.4, 2, 2),
}


def before_verdicts(d: np.ndarray, look: int, looks: int, kind: Boundary) -> np.ndarray:
    """The rule before: the paired z against the normal boundaries; infinite when the differences are all equal."""
    bound = sequential_bounds(looks, 0.95, kind)[look - 1]
    mean, sd = d.mean(axis=1), d.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        infinite = np.where(mean == 0.0, 0.0, np.copysign(np.inf, mean))
        z = np.where(sd == 0.0, infinite, mean / sd * math.sqrt(d.shape[1]))
    return np.where(np.abs(z) >= bound, np.sign(mean), 0)


def t_only_verdicts(d: np.ndarray, look: int, looks: int, kind: Boundary, batch: int) -> np.ndarray:
    """The t against the t boundaries alone; identical differences by their sign-flip P = 2^(1 - m)."""
    bound = sequential_bounds(looks, 0.95, kind, batch)[look - 1]
    nominal = nominal_levels(looks, 0.95, kind, batch)[look - 1]
    mean, sd, m = d.mean(axis=1), d.std(axis=1, ddof=1), d.shape[1]
    same = np.ptp(d, axis=1) == 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        crossed = np.where(same, 2.0 ** (1 - m) <= nominal, np.abs(mean) / sd * math.sqrt(m) >= bound)
    return np.where(crossed & (mean != 0.0), np.sign(mean), 0)


def error_rate(d: np.ndarray, looks: int, batch: int, kind: Boundary, rule: str) -> float:
    """The share of simulated comparisons (rows of d) that stop with a decision at some look.

    Args:
        d: One row of per-task differences per simulated comparison.
        looks: Looks.
        batch: Tasks per look.
        kind: The boundary.
        rule: ``before``, ``t only`` or ``after`` (the product's).
    """
    running = np.ones(d.shape[0], dtype=bool)
    decided = 0
    for look in range(1, looks + 1):
        part = d[running, : look * batch]
        if rule == "after":
            verdict = look_verdicts(part, look, looks, 0.95, kind, batch)
        elif rule == "t only":
            verdict = t_only_verdicts(part, look, looks, kind, batch)
        else:
            verdict = before_verdicts(part, look, looks, kind)
        stop = verdict != 0
        decided += int(stop.sum())
        running[np.flatnonzero(running)[stop]] = False
    return decided / d.shape[0]


RULES = ("before", "t only", "after")


def rows(sims: int, normal_sims: int, batches: tuple[int, ...], looks_list: tuple[int, ...]) -> list[str]:
    out = [
        "| differences | looks | tasks per look | boundary | sims | error before (se) | t only (se) | after (se) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, draw in DATA.items():
        # Normal differences take the sign-flip test's Monte Carlo path (no lattice): fewer simulations.
        count = normal_sims if name == "normal" else sims
        for looks in looks_list:
            for batch in batches:
                rng = np.random.default_rng([len(name), looks, batch])
                d = draw(rng, count, looks * batch)
                for kind in KINDS:
                    shares = [error_rate(d, looks, batch, kind, rule) for rule in RULES]
                    cells = " | ".join(f"{p:.4f} ({math.sqrt(p * (1 - p) / count):.4f})" for p in shares)
                    out.append(f"| {name} | {looks} | {batch} | {kind} | {count:,} | {cells} |")
                    print(out[-1], flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=20_000, help="simulated comparisons per row")
    parser.add_argument("--normal-sims", type=int, default=5_000, help="simulated comparisons per normal row")
    parser.add_argument("--batches", default=",".join(map(str, BATCHES)), help="tasks per look")
    parser.add_argument("--looks", default="3,10", help="looks")
    args = parser.parse_args()
    start = time.perf_counter()
    batches = tuple(int(x) for x in args.batches.split(","))
    table = rows(args.sims, args.normal_sims, batches, tuple(int(x) for x in args.looks.split(",")))
    print("\nTrue null, 5% two-sided (error rate: the share of simulated comparisons deciding either way):\n")
    print("\n".join(table))
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
