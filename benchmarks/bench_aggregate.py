"""Benchmark: aggregate() over 100k interactions (20k conversations), every unit, K = 1..10.

``python benchmarks/bench_aggregate.py [--conversations 20000] [--repeat 15]``

Judging is done once with the ``dataset`` judge (scores in the data); the timed part is
``aggregate`` alone, the call a slider move makes. Prints a markdown table of median / best ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_large import make_records

from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.loader import load_records
from agentic_core.settings import make_settings
from benchmarks.results_file import Recorder, add_results_arguments


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=15)
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_aggregate", "Aggregate")

    t0 = time.perf_counter()
    report = load_records(make_records(args.conversations, args.interactions))
    t1 = time.perf_counter()
    result = evaluate(report, "dataset", cache_mode="off")
    t2 = time.perf_counter()
    print(
        f"{result.n_interactions} interactions in {result.n_conversations} conversations: "
        f"load {t1 - t0:.2f} s, evaluate (dataset judge + tool scoring) {t2 - t1:.2f} s\n"
    )
    print("| unit | mode | target | estimator | median ms | best ms |")
    print("|---|---|---|---|---:|---:|")
    combos = (
        ("bayesian", "population", "unbiased"),
        ("bayesian", "these-tasks", "unbiased"),
        ("frequentist", "population", "unbiased"),
        ("frequentist", "these-tasks", "unbiased"),
        ("frequentist", "population", "plug-in"),
    )
    for unit in ("task", "conversation", "interaction"):
        for mode, target, estimator in combos:
            settings = make_settings(k=10, unit=unit, mode=mode, target=target, estimator=estimator)
            aggregate(result, settings)  # warm-up
            times = []
            for i in range(args.repeat):
                # Vary the threshold so nothing can be reused between calls.
                s = settings.model_copy(update={"threshold": 0.5 + 0.01 * i})
                start = time.perf_counter()
                aggregate(result, s)
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"| {unit} | {mode} | {target} | {estimator} | {statistics.median(times):.1f} | {min(times):.1f} |"
            )
    recorder.finish()


if __name__ == "__main__":
    main()
