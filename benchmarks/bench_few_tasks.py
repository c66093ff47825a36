"""Population intervals from 3 to 5 tasks: frequentist against Bayesian, by simulation (issue 36).

Run: ``.venv/bin/python benchmarks/bench_few_tasks.py [--sims 100] [--moved-sims 30] [--attempts 3,8]``.
The cells, shapes and truths are :mod:`bench_coverage`'s (T tasks, n attempts each, task success p from a
difficulty shape, c ~ Binomial(n, p); the target is the population's pass@k and pass^k for k in {1, 3, n}),
at T = 3, 4, 5.
Both intervals are ``dataset_curve``'s own (``mode="frequentist"`` and ``mode="bayesian"``, target
population, 95%), computed with seed 0, and again with seed 1 on the first ``--moved-sims`` datasets. Per
cell and mode:

- coverage: the lowest, over the six quantities, of how often the seed-0 interval holds the truth;
- width: the mean width of the six seed-0 intervals;
- [0, 1]: the share of the six intervals that are exactly [0, 1] (say nothing);
- moved: the share of the six intervals whose bounds move by more than 0.01 from seed 0 to seed 1 (first
  ``--moved-sims`` datasets).

A dataset's intervals depend only on its multiset of (n, c) pairs, so each is computed once per cell
(with 3 to 5 tasks many datasets repeat). Seeded: the same command prints the same tables. Results go to
benchmarks/RESULTS.md (section "Few tasks").
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats import dataset_curve
from benchmarks.bench_coverage import ATTEMPTS, SHAPES, draw_p, truths

TASKS = (3, 4, 5)
MODES = ("frequentist", "bayesian")
SEEDS = (0, 1)

Bounds = tuple[np.ndarray, np.ndarray]


def intervals(counts: tuple[int, ...], attempts: int, ks: list[int], mode: str, seed: int) -> Bounds:
    """The six population intervals (pass@k then pass^k) of one dataset, from ``dataset_curve``."""
    n = np.full(len(counts), attempts)
    points = dataset_curve(n, np.array(counts), ks, mode=mode, n_samples=1000, seed=seed)  # type: ignore[arg-type]
    low = [p.pass_at_k_ci[0] for p in points] + [p.pass_pow_k_ci[0] for p in points]  # type: ignore[index]
    high = [p.pass_at_k_ci[1] for p in points] + [p.pass_pow_k_ci[1] for p in points]  # type: ignore[index]
    return np.array(low), np.array(high)


def cell(args: tuple[str, int, int, int, int]) -> tuple[str, int, int, dict[str, dict[str, float]]]:
    """Coverage, width, share of [0, 1] and share moved by the seed, per mode, for one cell."""
    name, tasks, attempts, sims, moved_sims = args
    shape = SHAPES[name]
    ks = sorted({1, 3, attempts})
    truth = truths(shape, ks)
    rng = np.random.default_rng([2036, tasks, attempts, list(SHAPES).index(name)])
    cache: dict[tuple[tuple[int, ...], str, int], Bounds] = {}
    out: dict[str, dict[str, float]] = {}
    datasets = [tuple(sorted(rng.binomial(attempts, draw_p(rng, shape, tasks)).tolist())) for _ in range(sims)]
    for mode in MODES:
        hits = np.zeros(truth.size)
        width = full = moved = 0.0
        for i, counts in enumerate(datasets):
            got = []
            for seed in SEEDS[: 2 if i < moved_sims else 1]:
                key = (counts, mode, seed)
                if key not in cache:
                    cache[key] = intervals(counts, attempts, ks, mode, seed)
                got.append(cache[key])
            low, high = got[0]
            hits += (low - 1e-12 <= truth) & (truth <= high + 1e-12)
            width += float(np.mean(high - low))
            full += float(np.mean((low <= 1e-9) & (high >= 1 - 1e-9)))
            if len(got) == 2:
                low_b, high_b = got[1]
                moved += float(np.mean((np.abs(low - low_b) > 0.01) | (np.abs(high - high_b) > 0.01)))
        out[mode] = {
            "coverage": float(hits.min()) / sims,
            "width": width / sims,
            "full": full / sims,
            "moved": moved / min(moved_sims, sims),
        }
    return name, tasks, attempts, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=100, help="simulated datasets per cell (default 100)")
    parser.add_argument("--moved-sims", type=int, default=30, help="datasets per cell also run with seed 1 (30)")
    parser.add_argument(
        "--attempts", default="3,8", help=f"attempts per task, comma-separated (default 3,8; of {ATTEMPTS})"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args()
    attempts = [int(a) for a in args.attempts.split(",")]
    jobs = [(name, t, n, args.sims, args.moved_sims) for name in SHAPES for t in TASKS for n in attempts]
    print(f"95% population intervals, pass@k and pass^k for k in {{1, 3, n}}, {args.sims} datasets per cell")
    print(f"(seed 1 as well on the first {args.moved_sims})")
    print("each mode: lowest coverage of the six quantities / mean width / share [0, 1] / share moved by the seed\n")
    print("| task success p ~ | tasks T | attempts n | frequentist | Bayesian | width ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = []
    with Pool(args.jobs) as pool:
        for name, t, n, res in pool.imap(cell, jobs):
            rows.append((t, res))
            f, b = res["frequentist"], res["bayesian"]
            text = " | ".join(
                f"{r['coverage']:.3f} / {r['width']:.3f} / {r['full']:.2f} / {r['moved']:.2f}" for r in (f, b)
            )
            print(f"| {name} | {t} | {n} | {text} | {b['width'] / f['width']:.2f} |", flush=True)
    print("\n| tasks T | mode | lowest coverage | cells below 0.93 | mean width | share [0, 1] | moved by the seed |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for t in TASKS:
        for mode in MODES:
            cells = [res[mode] for tt, res in rows if tt == t]
            low = min(c["coverage"] for c in cells)
            below = sum(c["coverage"] < 0.93 for c in cells)
            mean = {key: float(np.mean([c[key] for c in cells])) for key in ("width", "full", "moved")}
            print(
                f"| {t} | {mode} | {low:.3f} | {below} of {len(cells)} | {mean['width']:.3f} | {mean['full']:.2f} | "
                f"{mean['moved']:.2f} |"
            )
    for t in TASKS:
        ratio = [res["bayesian"]["width"] / res["frequentist"]["width"] for tt, res in rows if tt == t]
        print(f"T = {t}: Bayesian width / frequentist width, mean over cells {np.mean(ratio):.2f} "
              f"(range {min(ratio):.2f}-{max(ratio):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
