"""Benchmark: the local engine against the Ray engine on 100k interactions (dataset and lexical judges).

Generates ``make_large``'s dataset (20,000 conversations x 5 interactions, one tool call each) as
JSON Lines in a temporary directory, loads it once, then evaluates it with each judge on each engine
and prints the wall times. Ray is started once, before the timings (its start-up is printed apart);
every Ray result is checked equal to the local one (interaction tables and tool components).

Run: ``.venv/bin/python benchmarks/bench_ray.py [--conversations N] [--interactions M] [--num-cpus C]
[--ray-address ADDRESS]`` (needs ``pip install -r requirements-ray.txt``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentic_core.evaluate import evaluate  # noqa: E402
from agentic_core.io.loader import load_paths  # noqa: E402
from benchmarks.make_large import make_records, write_jsonl  # noqa: E402


def main() -> None:
    """Time both engines on both judges and print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--num-cpus", type=int, default=os.cpu_count() or 1, help="CPUs of the local Ray")
    parser.add_argument("--ray-address", default=None, help="join this Ray instead of starting a local one")
    parser.add_argument("--judges", default="dataset,lexical")
    args = parser.parse_args()

    import ray

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.jsonl"
        write_jsonl(path, make_records(args.conversations, args.interactions))
        start = time.perf_counter()
        loaded = load_paths([path])
        print(f"load and validate {loaded.n_interactions:,} interactions: {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    if args.ray_address:
        ray.init(address=args.ray_address, logging_level=logging.WARNING, log_to_driver=False)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"ray start ({cpus} CPUs): {time.perf_counter() - start:.2f} s")
    evaluate(loaded.conversations[:2], "dataset", cache_mode="off", engine="ray")  # warm the workers

    print(f"\n{'judge':<10}{'local (s)':>12}{'ray (s)':>12}  same result")
    for judge in args.judges.split(","):
        start = time.perf_counter()
        local = evaluate(loaded, judge, cache_mode="off")
        t_local = time.perf_counter() - start
        start = time.perf_counter()
        on_ray = evaluate(loaded, judge, cache_mode="off", engine="ray")
        t_ray = time.perf_counter() - start
        pd.testing.assert_frame_equal(local.interactions, on_ray.interactions)
        same = local.tool_components == on_ray.tool_components
        print(f"{judge:<10}{t_local:>12.2f}{t_ray:>12.2f}  {same}")
    ray.shutdown()


if __name__ == "__main__":
    main()
