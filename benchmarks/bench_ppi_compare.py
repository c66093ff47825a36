"""Coverage of the corrected paired difference B - A (Compare, issue 37) by simulation, with a judge that errs.

Run: ``.venv/bin/python -m benchmarks.bench_ppi_compare [--sims 300] [--jobs 2] [--write-results]``.

Known truth. T tasks, task success probabilities p_i (A) from the coverage grid's laws (Beta(2,5), Beta(5,2),
Beta(0.5,0.5)); B improves every task unevenly: p_B = 1 - (1 - p_A)^1.5. The truth is the population mean
difference E[p_B] - E[p_A] = (1 - E[(1 - p)^1.5]) - E[p], exactly from the Beta law. n attempts per task and
run (1 and 4). The same judge (sensitivity / specificity from the ppi coverage benchmark's three judges,
abstaining with a probability on 30% of attempts) judges both runs. Humans label every attempt of a uniform
random sample of tasks in both runs (the same tasks, as one review queue's seed gives).

Per cell: coverage and mean width of :func:`agentic_core.stats.corrected_difference` (power-tuned lambda), of
the labels-only interval (lambda = 0, same rules) and coverage of the judge-only paired interval (the mean of
jB - jA +- t s / sqrt(T), which knows nothing of the judge's errors). Seeded: the same command prints the
same table.
"""

from __future__ import annotations

import argparse
import math
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from scipy.special import beta as beta_fn
from scipy.special import stdtrit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats.corrected_compare import corrected_difference
from benchmarks.bench_coverage import SHAPES, draw_p
from benchmarks.bench_ppi_coverage import ABSTAIN, FEW_JUDGES, LAWS, judge_values
from benchmarks.results_file import Recorder, add_results_arguments

DESIGNS = ((60, 0.5), (200, 0.10), (200, 0.30))
"""(tasks, share of tasks labelled in both runs): 30, 20 and 60 labelled tasks."""
ATTEMPTS = (1, 4)
EXPONENT = 1.5
"""B's task probability 1 - (1 - p_A)^EXPONENT: an uneven improvement, largest on the hard tasks."""

Cell = tuple[str, int, float, int, float, float, int]


def truth(law: str) -> float:
    """E[p_B] - E[p_A] under the Beta law of p_A."""
    a, b, _ = SHAPES[law]
    assert isinstance(a, float)
    e_p = a / (a + b)
    e_fail = float(beta_fn(a, b + EXPONENT) / beta_fn(a, b))
    return (1.0 - e_fail) - e_p


def run_cell(cell: Cell) -> tuple[Cell, np.ndarray]:
    """Per simulated run: covered / width of the corrected and labels-only intervals, judge-only covered."""
    law, tasks, share, attempts, sens, spec, sims = cell
    rng = np.random.default_rng([tasks, attempts, int(share * 100), int(sens * 100), int(spec * 100), LAWS.index(law)])
    target = truth(law)
    out = np.full((sims, 5), np.nan)
    t_q = float(stdtrit(tasks - 1, 0.975))
    for s in range(sims):
        p_a = draw_p(rng, SHAPES[law], tasks)
        p_b = 1.0 - (1.0 - p_a) ** EXPONENT
        y_a = (rng.random((tasks, attempts)) < p_a[:, None]).astype(float)
        y_b = (rng.random((tasks, attempts)) < p_b[:, None]).astype(float)
        j_a = judge_values(rng, y_a.ravel(), sens, spec).reshape(tasks, attempts).mean(axis=1)
        j_b = judge_values(rng, y_b.ravel(), sens, spec).reshape(tasks, attempts).mean(axis=1)
        mask = np.zeros(tasks, dtype=bool)
        mask[rng.choice(tasks, size=round(share * tasks), replace=False)] = True
        h_a = np.where(mask, y_a.mean(axis=1), np.nan)
        h_b = np.where(mask, y_b.mean(axis=1), np.nan)
        n = np.full(tasks, attempts)
        corrected = corrected_difference(j_a, j_b, h_a, h_b, attempts_a=n, attempts_b=n)
        alone = corrected_difference(j_a, j_b, h_a, h_b, attempts_a=n, attempts_b=n, lam=0.0)
        assert corrected.ci is not None and alone.ci is not None
        d = j_b - j_a
        half = t_q * float(np.std(d, ddof=1)) / math.sqrt(tasks)
        out[s] = (
            corrected.ci[0] <= target <= corrected.ci[1],
            corrected.ci[1] - corrected.ci[0],
            alone.ci[0] <= target <= alone.ci[1],
            alone.ci[1] - alone.ci[0],
            abs(float(d.mean()) - target) <= half,
        )
    return cell, out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sims", type=int, default=300, help="simulated runs per cell (default 300)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_ppi_compare", "Corrected paired difference B - A: coverage (issue 37, Compare)")
    cells = [
        (law, tasks, share, attempts, sens, spec, args.sims)
        for law in LAWS
        for tasks, share in DESIGNS
        for attempts in ATTEMPTS
        for sens, spec in FEW_JUDGES
    ]
    se = math.sqrt(0.95 * 0.05 / args.sims)
    print(
        f"Corrected 95% intervals of the success rate's paired difference B - A (`corrected_difference`), "
        f"{args.sims} simulated pairs of runs per cell (+-{se:.3f} at 0.95). The judge abstains on {ABSTAIN:.0%} of "
        "attempts. Widths are full widths (high - low).\n"
    )
    print("| law | T | labelled | n | judge (sens, spec) | corrected cov. | width | labels-only cov. | width | "
          "judge-only cov. |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    with Pool(args.jobs) as pool:
        results = list(pool.imap(run_cell, cells))
    lowest, narrower = 1.0, 0
    for (law, tasks, share, attempts, sens, spec, _), out in results:
        cov, width, cov0, width0, judge = out.mean(axis=0)
        lowest = min(lowest, cov)
        narrower += width < width0
        print(
            f"| {law} | {tasks} | {round(share * tasks)} | {attempts} | {sens:.2f}, {spec:.2f} | {cov:.3f} | "
            f"{width:.3f} | {cov0:.3f} | {width0:.3f} | {judge:.3f} |"
        )
    print(f"\nLowest corrected coverage over the {len(results)} cells: {lowest:.3f}; the corrected interval is "
          f"narrower than the labels-only one in {narrower} of {len(results)} cells.")  # fmt: skip
    recorder.finish()


if __name__ == "__main__":
    main()
