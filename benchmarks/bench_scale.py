"""Benchmark: load, judge (``dataset`` judge) and aggregate 100k and 1M interactions (issue 14).

``python benchmarks/bench_scale.py [--sizes 100000 1000000] [--keep DIR]``

For each size, :mod:`make_large` writes a JSONL file (5 interactions per conversation) in a
temporary directory; then a fresh Python process runs the public API end to end from the path:
``load_paths([path])``, ``evaluate(report, "dataset", cache_mode="off")`` and
``aggregate(result, make_settings())``, and prints the wall time of each phase, its peak resident
memory (``VmHWM``: everything the process ever held, imports included; in MiB), the peak of the
largest load worker (:mod:`agentic_core.io.load_pieces`; forked, so pages it shares with the
parent count in both) and the CPU time of the phases in the parent (wall time counts other
processes' load on a shared machine, CPU time does not). The peak of all the processes together
is sampled from outside (PSS every 50 ms: shared pages counted once) in a second run of the same
size: reading a 1.5 GB process's page tables that often costs the kernel a good part of one of
the two cores, which slowed the timed run by 2-4 s. ``--workers 1`` loads in one process.
``--code DIR`` measures another checkout (an older commit, for before / after tables).

Dashboard memory (``--dashboard``, on the smallest size): what a session keeps of a run, measured
as the resident memory (``VmRSS``, after ``gc.collect()``) of a process that holds the
:class:`EvaluationResult` and one :class:`Aggregate` and nothing else: the load report is the
result's own, the file's bytes and the loader's temporary objects are gone. Glibc keeps some freed
memory mapped, so this is an upper bound of what the run costs a dashboard process. Measured again
once every tool component has been read (what the Tools page and the exports do): the load
workers' components stay pickled until then (:mod:`agentic_core.columnar.component_list`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_large import make_records, write_jsonl  # noqa: E402
from results_file import Recorder, add_results_arguments  # noqa: E402

INTERACTIONS = 5

_CHILD = r"""
import gc, json, resource, sys, time


def rss_mb(key="VmRSS:"):  # this process's resident memory now (VmRSS) or at its peak (VmHWM), in MiB
    return [int(x.split()[1]) / 1024 for x in open("/proc/self/status") if x.startswith(key)][0]


t0 = time.perf_counter()
from agentic_core import aggregate, evaluate, make_settings
from agentic_core.io.loader import load_paths
t1 = time.perf_counter()
c1 = time.process_time()
imports_mb = rss_mb()
report = load_paths([sys.argv[1]])
t2, c2 = time.perf_counter(), time.process_time()
result = evaluate(report, "dataset", cache_mode="off")
t3, c3 = time.perf_counter(), time.process_time()
agg = aggregate(result, make_settings())
t4, c4 = time.perf_counter(), time.process_time()
out = {
    "import_s": t1 - t0, "load_s": t2 - t1, "evaluate_s": t3 - t2, "aggregate_s": t4 - t3,
    "load_cpu_s": c2 - c1, "evaluate_cpu_s": c3 - c2, "aggregate_cpu_s": c4 - c3,
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork and exec, so the benchmark's own
    # peak (high after make_records wrote a large file) would be printed as this process's.
    "peak_mb": rss_mb("VmHWM:"),
    "worker_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    "worker_cpu_s": resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime,
    "interactions": result.n_interactions, "imports_mb": imports_mb,
}
if sys.argv[2] == "dashboard":
    del report
    gc.collect()
    out["held_mb"] = rss_mb()
    # What the Tools page and the exports read: every interaction's tool components.
    out["n_tool_components"] = sum(1 for c in result.tool_components if c is not None)
    out["held_tools_mb"] = rss_mb()
print(json.dumps(out))
"""


def _tree_pss_mb(pid: int) -> float:
    """Proportional set size of a process and its children (shared pages split between them), in MiB."""
    total = 0.0
    pids = [pid]
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                pids += [int(c) for c in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) / 1024
        except OSError:
            pass
    return total


def run_one(
    path: Path, dashboard: bool, code: Path = ROOT, workers: int | None = None, sample_pss: bool = False
) -> dict[str, float]:
    """One fresh process: load, evaluate, aggregate ``path`` with the package in ``code``; timings and memory.

    With ``sample_pss``, the peak of its process tree's PSS (it and its load workers, shared pages
    counted once) is also sampled from outside every 50 ms (which slows the run: see above).
    """
    env = {"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"}
    if workers is not None:
        env["AGENTIC_LOAD_WORKERS"] = str(workers)
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path), "dashboard" if dashboard else "-"],
        cwd=code,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    peak = 0.0
    while child.poll() is None:
        if sample_pss:
            peak = max(peak, _tree_pss_mb(child.pid))
        time.sleep(0.05)
    out, _ = child.communicate()
    if child.returncode:
        raise SystemExit(f"the measured process failed ({child.returncode})")
    measured = json.loads(out.strip().splitlines()[-1])
    measured["tree_pss_mb"] = peak
    return measured


def main() -> None:
    """CLI entry."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000], help="interactions per run")
    parser.add_argument("--keep", type=Path, help="write the files here (and reuse them) instead of a temp dir")
    parser.add_argument("--workers", type=int, help="load workers (default: every core; 1: one process)")
    parser.add_argument("--dashboard", action="store_true", help="also measure what a session holds (smallest size)")
    parser.add_argument(
        "--code", type=Path, default=ROOT, help="the checkout to measure (e.g. `git worktree` of an older commit)"
    )
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_scale", "Scale: one machine")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(
            "| interactions | file | load | evaluate | aggregate | total | peak memory | load worker peak "
            "| peak, all processes (PSS) | CPU: load / evaluate (parent), load (workers) |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for size in args.sizes:
            path = folder / f"scale_{size}.jsonl"
            if not path.exists():
                write_jsonl(path, make_records(size // INTERACTIONS, INTERACTIONS))
            m = run_one(path, dashboard=False, code=args.code, workers=args.workers)
            m["tree_pss_mb"] = run_one(path, False, args.code, args.workers, sample_pss=True)["tree_pss_mb"]
            total = m["load_s"] + m["evaluate_s"] + m["aggregate_s"]
            workers = f"{m['worker_peak_mb']:,.0f} MB" if m.get("worker_peak_mb") else "-"
            print(
                f"| {size:,} | {path.stat().st_size / 1e6:,.0f} MB | {m['load_s']:.1f} s | {m['evaluate_s']:.1f} s "
                f"| {m['aggregate_s']:.2f} s | {total:.1f} s | {m['peak_mb']:,.0f} MB | {workers} "
                f"| {m['tree_pss_mb']:,.0f} MB "
                f"| {m['load_cpu_s']:.1f} / {m['evaluate_cpu_s']:.1f} s, {m.get('worker_cpu_s', 0):.1f} s |",
                flush=True,
            )
        if args.dashboard:
            size = min(args.sizes)
            m = run_one(folder / f"scale_{size}.jsonl", dashboard=True, code=args.code)
            print(
                f"\nA {size:,}-interaction run held by a session (result + one aggregate): {m['held_mb']:,.0f} MB "
                f"resident, of which {m['imports_mb']:,.0f} MB is the interpreter and its imports; "
                f"{m['held_tools_mb']:,.0f} MB once every tool component has been read (the Tools page, an export)"
            )
    recorder.finish()


if __name__ == "__main__":
    main()
