"""Coverage of the paired comparison's 95% intervals for B - A, by simulation (docs/compare.md).

Run: ``.venv/bin/python benchmarks/bench_compare_coverage.py [--sims 400] [--quick]``. For each cell,
T tasks with n attempts per side. Task difficulty for A is U-shaped, p_A ~ Beta(0.5, 0.5) (like real
agent benchmarks), and B is paired with A task by task:

- *null* (no difference, strongly paired): on a share 0.7 of the tasks p_B = p_A, on the others p_B is a
  fresh draw of the same Beta(0.5, 0.5), so A and B have the same population and the truth is 0;
- *improve*: B fixes a share g = 0.3 of A's failures on every task, p_B = p_A + g (1 - p_A).

c_A ~ Binomial(n, p_A) and c_B ~ Binomial(n, p_B) independently given the task. The truth is the
population difference E[f(p_B)] - E[f(p_A)] of each metric (success rate f(p) = p, pass@k, pass^k at
k = min(3, n)): 0 under the null, from 2,000,000 seeded draws otherwise. The table reports how often
the 95% interval for delta contains it, and how often P(B > A) >= 0.95 ("P>=.95"; under the null a
well-calibrated P should reach it in about 5% of the simulations, with the improvement as often as
possible; no P(B > A) is given for two runs with the same verdicts). Seeded: the same command prints
the same table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats.compare import compare_counts

SHARE_SAME = 0.7
FIX = 0.3
CELLS = ((10, 1), (10, 3), (30, 1), (30, 3), (30, 5), (100, 3))
QUICK_CELLS = ((10, 3), (30, 1), (30, 3))


def paired_difficulty(rng: np.random.Generator, tasks: int, scenario: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-task success probabilities (p_A, p_B) of one simulated benchmark."""
    p_a = rng.beta(0.5, 0.5, tasks)
    if scenario == "null":
        fresh = rng.beta(0.5, 0.5, tasks)
        return p_a, np.where(rng.random(tasks) < SHARE_SAME, p_a, fresh)
    return p_a, p_a + FIX * (1.0 - p_a)


def metric_values(p: np.ndarray, k: int) -> np.ndarray:
    """Per task: success rate p, pass@k = 1 - (1 - p)^k, pass^k = p^k (columns)."""
    return np.stack([p, 1.0 - (1.0 - p) ** k, p**k], axis=-1)


def truth(scenario: str, k: int) -> np.ndarray:
    """Population difference of each metric: 0 under the null (one population), else from 2,000,000 seeded draws."""
    if scenario == "null":
        # Exactly 0, not its Monte-Carlo estimate (about 1e-4 off): the interval of two runs with the same
        # verdicts is the point [0, 0], which holds the truth and would miss its estimate.
        return np.zeros(3)
    p_a, p_b = paired_difficulty(np.random.default_rng(2026), 2_000_000, scenario)
    return metric_values(p_b, k).mean(axis=0) - metric_values(p_a, k).mean(axis=0)


def cell(tasks: int, attempts: int, scenario: str, mode: str, sims: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Coverage of each metric's interval and the share of P(B > A) >= 0.95, over ``sims`` simulations."""
    k = min(3, attempts)
    true = truth(scenario, k)
    rng = np.random.default_rng([seed, tasks, attempts, len(scenario), len(mode)])
    hits = np.zeros(3)
    sure = np.zeros(3)
    n = np.full(tasks, attempts)
    for sim in range(sims):
        p_a, p_b = paired_difficulty(rng, tasks, scenario)
        c_a, c_b = rng.binomial(attempts, p_a), rng.binomial(attempts, p_b)
        result = compare_counts(n, c_a, n, c_b, [k], mode=mode, seed=sim, n_samples=1000)  # type: ignore[arg-type]
        for j, row in enumerate(result.metrics):
            assert row.delta_ci is not None
            hits[j] += row.delta_ci[0] <= true[j] <= row.delta_ci[1]
            # No P(B > A) where no paired task differs (the interval is [0, 0]): not sure B is better.
            sure[j] += row.p_b_better is not None and row.p_b_better >= 0.95
    return hits / sims, sure / sims


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sims", type=int, default=400, help="simulations per cell (frequentist)")
    parser.add_argument("--bayes-sims", type=int, default=200, help="simulations per cell (Bayesian, slower)")
    parser.add_argument("--quick", action="store_true", help="fewer cells")
    args = parser.parse_args()
    cells = QUICK_CELLS if args.quick else CELLS
    print("coverage of the 95% interval for delta = B - A (success rate, pass@k, pass^k at k = min(3, n))")
    print(f"{'mode':<12} {'scenario':<8} {'T':>4} {'n':>2} {'sims':>5}  {'success':>7} {'pass@k':>7} {'pass^k':>7}"
          f"  {'P>=.95 (success)':>16}  seconds")
    for mode, sims in (("frequentist", args.sims), ("bayesian", args.bayes_sims)):
        for scenario in ("null", "improve"):
            for tasks, attempts in cells:
                start = time.perf_counter()
                cover, sure = cell(tasks, attempts, scenario, mode, sims, seed=7)
                print(
                    f"{mode:<12} {scenario:<8} {tasks:>4} {attempts:>2} {sims:>5}  {cover[0]:>7.3f} {cover[1]:>7.3f} "
                    f"{cover[2]:>7.3f}  {sure[0]:>16.3f}  {time.perf_counter() - start:>6.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
