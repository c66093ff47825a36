"""The review queue's designs stay unbiased: the corrected success rate over many seeded queue draws.

One fixed run of known truth (T tasks x n attempts; task success rates from a Beta law; a judge of given
sensitivity and specificity that abstains with an uninformative probability 0.5 on a share of attempts, far more
often on hard tasks, so uncertain tasks are the failing ones). For each seed the review queue's draw picks the
tasks to label (:func:`agentic_core.stats.label_sample.draw_tasks`: random tasks, or uncertain first weighted
like the dashboard's queue), every attempt of a drawn task is labelled with the truth, and the corrected success
rate (:func:`agentic_core.stats.corrected_curve`) is computed, population target. The estimand is the run's
own mean over tasks of the true success share (the design's finite population; the draws are the only randomness).

Reported per design: the mean estimate minus the truth (bias) with its Monte Carlo standard error, the coverage of
the 95% interval, the mean half-width, and the same uncertain-first labels read *without* their inclusion
probabilities (what ignoring the weights would give: biased).

Run: ``.venv/bin/python -m benchmarks.bench_label_queue [--draws 2000] [--tasks 300]``
(figures in benchmarks/RESULTS.md, "Review queue designs").
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from agentic_core.stats import corrected_curve
from agentic_core.stats.label_sample import draw_tasks

FLOOR = 0.25  # the dashboard's uncertain-first weight floor (agentic_core.analysis.label_queue.UNCERTAIN_FLOOR)


@dataclass(frozen=True)
class Run:
    """One simulated run: per conversation the judge value, truth and task code; per task its weight."""

    judge: np.ndarray
    truth: np.ndarray
    codes: np.ndarray
    weights: np.ndarray
    tasks: int

    @property
    def true_rate(self) -> float:
        """The mean over tasks of the share of correct attempts."""
        return float(np.mean(np.bincount(self.codes, weights=self.truth) / np.bincount(self.codes)))


def make_run(tasks: int, attempts: int, sensitivity: float, specificity: float, seed: int = 0) -> Run:
    """A run whose judge abstains mostly on hard tasks (abstention correlated with failure)."""
    rng = np.random.default_rng(seed)
    p = rng.beta(1.2, 1.0, tasks)
    codes = np.repeat(np.arange(tasks), attempts)
    truth = (rng.random(codes.size) < p[codes]).astype(float)
    says = np.where(truth == 1.0, rng.random(codes.size) < sensitivity, rng.random(codes.size) >= specificity)
    abstain = rng.random(codes.size) < 0.6 * (1.0 - p[codes])  # hard tasks: the judge is often unsure
    judge = np.where(abstain, 0.5, says.astype(float))
    share = np.bincount(codes, weights=abstain) / attempts
    return Run(judge=judge, truth=truth, codes=codes, weights=FLOOR + share, tasks=tasks)


def one_draw(run: Run, size: int, seed: int, design: str, use_weights: bool = True) -> tuple[float, float, float]:
    """(estimate, low, high) of the corrected success rate for one seeded queue of ``size`` tasks, all labelled."""
    weighted = design == "uncertain-first"
    draw = draw_tasks(run.tasks, size, seed, run.weights if weighted else None)
    chosen = np.zeros(run.tasks, dtype=bool)
    chosen[list(draw.tasks)] = True
    human = np.where(chosen[run.codes], run.truth, np.nan)
    inclusion = np.asarray(draw.inclusion) if weighted and use_weights else None
    curve = corrected_curve(run.judge, human, run.codes, [1], design="tasks", inclusion=inclusion, seed=seed)
    point = curve.points[0]
    if point.success_rate is None or point.success_rate_ci is None:
        return float("nan"), float("nan"), float("nan")
    return point.success_rate, point.success_rate_ci[0], point.success_rate_ci[1]


def simulate(run: Run, size: int, draws: int, design: str, use_weights: bool = True) -> dict[str, float]:
    """Bias (and its Monte Carlo s.e.), coverage and mean half-width over ``draws`` seeded queues."""
    rows = np.array([one_draw(run, size, s, design, use_weights) for s in range(draws)])
    ok = np.isfinite(rows[:, 0])
    est, low, high = rows[ok, 0], rows[ok, 1], rows[ok, 2]
    truth = run.true_rate
    return {
        "bias": float(est.mean() - truth),
        "se": float(est.std(ddof=1) / np.sqrt(est.size)),
        "coverage": float(np.mean((low <= truth) & (truth <= high))),
        "half_width": float(np.mean((high - low) / 2.0)),
        "draws": float(est.size),
    }


def main() -> None:
    """Print the table for benchmarks/RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=300)
    parser.add_argument("--attempts", type=int, default=2)
    parser.add_argument("--size", type=int, default=60)
    args = parser.parse_args()
    print(f"{args.tasks} tasks x {args.attempts} attempts, {args.size} tasks labelled per queue, {args.draws} draws")
    print("| judge (sens, spec) | design | bias | MC s.e. | coverage | mean half-width |")
    print("|---|---|---|---|---|---|")
    for sens, spec in ((0.9, 0.9), (0.8, 0.6)):
        run = make_run(args.tasks, args.attempts, sens, spec)
        cases = (
            ("random tasks", "random-tasks", True),
            ("uncertain first", "uncertain-first", True),
            ("uncertain first, weights ignored", "uncertain-first", False),
        )
        for name, design, use in cases:
            r = simulate(run, args.size, args.draws, design, use)
            print(
                f"| {sens:.2f}, {spec:.2f} | {name} | {r['bias']:+.4f} | {r['se']:.4f} | {r['coverage']:.3f} | "
                f"{r['half_width']:.3f} |"
            )


if __name__ == "__main__":
    main()
