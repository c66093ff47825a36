"""Benchmark: aggregate() over 100k interactions (20k conversations), every unit, K = 1..10.

``python benchmarks/bench_aggregate.py [--conversations 20000] [--repeat 15] [--band 0.2,0.8]``

Judging is done once with the ``dataset`` judge (scores in the data); the timed part is
``aggregate`` alone, the call a slider move makes. Prints a markdown table of median / best ms.

``--band LOW,HIGH`` times the abstention band's slider too (issue 41): every interaction is given its score
as the judge's probability (as the ``learned`` judge gives one), the band is set, and each repeat moves it
(so nothing is reused); it also times what the Settings panel computes beside the sliders
(:func:`agentic_core.analysis.band_controls`).
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

from agentic_core.analysis import band_controls
from agentic_core.common.frame_columns import ResultCols
from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.loader import load_records
from agentic_core.result import EvaluationResult
from agentic_core.settings import band_from_text, make_settings
from benchmarks.results_file import Recorder, add_results_arguments


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--band", help="also time the abstention band LOW,HIGH (scores read as probabilities)")
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
    if args.band:
        _band(result, band_from_text(args.band), args.repeat, combos)
    recorder.finish()


def _band(
    result: EvaluationResult, band: tuple[float, float] | None, repeat: int, combos: tuple[tuple[str, str, str], ...]
) -> None:
    """Time aggregate with the abstention band set (moved a step each repeat), and the controls' words."""
    assert band is not None, "--band takes LOW,HIGH"
    result.interactions[ResultCols.JUDGE_PROBABILITY] = result.interactions[ResultCols.SCORE].to_numpy()
    low, high = band
    print(f"\nWith the abstention band {low:g},{high:g} (scores read as probabilities), moved 0.01 each repeat:\n")
    print("| unit | mode | target | estimator | median ms | best ms |")
    print("|---|---|---|---|---:|---:|")
    for unit in ("task", "conversation", "interaction"):
        for mode, target, estimator in combos:
            settings = make_settings(k=10, unit=unit, mode=mode, target=target, estimator=estimator, abstain_band=band)
            aggregate(result, settings)  # warm-up
            times = []
            for i in range(repeat):
                s = settings.model_copy(update={"abstain_band": (low, min(1.0, high + 0.01 * (i % 5)))})
                start = time.perf_counter()
                aggregate(result, s)
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"| {unit} | {mode} | {target} | {estimator} | {statistics.median(times):.1f} | {min(times):.1f} |"
            )
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        band_controls(result, 0.5 + 0.01 * i, (low, high))
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"\nThe Settings panel's words beside the threshold and the band (band_controls): median "
        f"{statistics.median(times):.1f} ms, best {min(times):.1f} ms"
    )


if __name__ == "__main__":
    main()
