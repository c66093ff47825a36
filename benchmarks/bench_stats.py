"""Benchmark of ``agentic_core.stats.dataset_curve`` (the aggregate must stay interactive).

Run: ``.venv/bin/python benchmarks/bench_stats.py [--repeat 15]``. Prints the median and the best
wall time per call in milliseconds, for the default target (the task population). Target: <= 40 ms per
call for 20k groups, k = 1..10, with intervals (the whole aggregator's budget is 100 ms).

The data are synthetic: n ~ uniform 1..10 attempts per group, each group's success probability drawn
from Beta(3, 1.5), c ~ Binomial(n, p). Extra scenarios show how the hierarchical posterior's cost depends on
the regime (few groups give a broad posterior and a finer grid; many k values more quantiles).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.stats import dataset_curve


def _data(groups: int, max_n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = rng.integers(1, max_n + 1, groups)
    c = rng.binomial(n, rng.beta(3.0, 1.5, groups))
    return n, c


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    fn()  # warm-up: imports, scipy's first-call setup
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), min(times)


def main() -> None:
    """Time every scenario and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per scenario")
    args = parser.parse_args()

    scenarios: list[tuple[str, int, int, int, str, str]] = [
        # label, groups, max n, K, mode, estimator
        ("20k groups, k=1..10", 20_000, 10, 10, "bayesian", "unbiased"),
        ("20k groups, k=1..10", 20_000, 10, 10, "frequentist", "unbiased"),
        ("20k groups, k=1..10", 20_000, 10, 10, "frequentist", "plug-in"),
        ("100k groups, k=1..10", 100_000, 10, 10, "bayesian", "unbiased"),
        ("100k groups, k=1..10", 100_000, 10, 10, "frequentist", "unbiased"),
        ("64 groups (exact draws)", 64, 10, 10, "bayesian", "unbiased"),
        ("300 groups, n<=50", 300, 50, 10, "bayesian", "unbiased"),
        ("20k groups, k=1..100", 20_000, 10, 100, "bayesian", "unbiased"),
        ("1 group (n=10k)", 1, 10_000, 10, "bayesian", "unbiased"),
    ]
    print(f"{'scenario':28s} {'mode':12s} {'estimator':10s} {'median ms':>10s} {'best ms':>8s}  interval")
    for label, groups, max_n, k_max, mode, estimator in scenarios:
        n, c = _data(groups, max_n, seed=1)
        ks = list(range(1, k_max + 1))

        def call(
            n: np.ndarray = n,
            c: np.ndarray = c,
            ks: list[int] = ks,
            mode: str = mode,
            estimator: str = estimator,
        ) -> object:
            return dataset_curve(n, c, ks, mode=mode, estimator=estimator, seed=0)  # type: ignore[arg-type]

        median, best = _time(call, args.repeat)
        method = dataset_curve(n, c, ks, mode=mode, estimator=estimator)[-1].interval_method  # type: ignore[arg-type]
        print(f"{label:28s} {mode:12s} {estimator:10s} {median:10.1f} {best:8.1f}  {method}")


if __name__ == "__main__":
    main()
