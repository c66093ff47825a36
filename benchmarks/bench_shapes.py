"""Benchmark: the hostile shapes of issue 23, each at several sizes, memory and time per size.

``python benchmarks/bench_shapes.py [--shapes long calls any_of] [--code DIR]``

Shapes (each one conversation, loaded from records and evaluated with the ``lexical`` judge,
cache off, in a fresh process):

* ``long``: one conversation of N interactions, no ``task_id`` (the task key joins every qa_id);
* ``calls``: one interaction with N used and N expected calls of one tool, order mattering, every
  expected call off by one in one parameter;
* ``any_of``: one interaction with N calls of one tool, each expected parameter ruled ``any_of``
  with 1,000 allowed values (the used value near the end of the list).

Each line gives the wall time of load + evaluate and the peak resident memory (``VmHWM``) minus
the resident memory after imports, in MiB. Linear means 4x the size costs about 4x (less while
fixed costs dominate). ``--code DIR`` measures another checkout (before / after tables).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

SIZES = {
    "long": [4_000, 16_000, 100_000],
    "calls": [500, 2_000, 5_000],
    "any_of": [200, 800, 3_000],
}

_CHILD = r"""
import sys, time
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024

shape, n = sys.argv[1], int(sys.argv[2])

def turn(i, **extra):
    return {"qa_id": f"q{i:06d}", "query": f"What is {i}?", "assistant": f"It is {i}.",
            "ground_truth_assistant": f"{i}.", **extra}

def one(turns):
    return [{"session_id": "s", "assistant_id": "a", "conversation": turns}]

if shape == "long":
    records = one([turn(i) for i in range(n)])
elif shape == "calls":
    used = [{"tool_name": "t", "parameters": {"x": i, "y": i % 7}, "step": i} for i in range(n)]
    exp = [{"tool_name": "t", "parameters": {"x": i + 1, "y": i % 7}, "step": i} for i in range(n)]
    records = one([turn(0, agentic={"tools_used": used, "final_answer_uses_tools": True},
                        ground_truth_agentic={"expected_tools": exp, "tool_sequence_matters": True})])
else:
    allowed = [f"v{j}" for j in range(1000)]
    used = [{"tool_name": "t", "parameters": {"x": f"v{999 - i % 10}"}, "step": i} for i in range(n)]
    exp = [{"tool_name": "t", "parameters": {"x": "none"},
            "parameter_rules": {"x": {"rule": "any_of", "values": allowed}}, "step": i} for i in range(n)]
    records = one([turn(0, agentic={"tools_used": used, "final_answer_uses_tools": True},
                        ground_truth_agentic={"expected_tools": exp, "tool_sequence_matters": False})])
base = hwm()
start = time.perf_counter()
report = load_records(records)
assert report.ok, report.issues[:3]
evaluate(report, "lexical", cache_mode="off")
print(f"{time.perf_counter() - start:.2f} {hwm() - base:.0f}")
"""


def run(code: Path, shape: str, n: int, timeout: float) -> str:
    env = {**os.environ, "PYTHONPATH": str(code)}
    try:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, shape, str(n)],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            cwd=code,  # `python -c` puts the working directory first on the import path
        )
    except subprocess.TimeoutExpired:
        return f"over {timeout:.0f} s"
    if out.returncode != 0:
        return f"failed (exit {out.returncode}: {out.stderr.strip().splitlines()[-1:]})"
    seconds, mib = out.stdout.split()
    return f"{float(seconds):7.2f} s  {float(mib):7.0f} MiB"


def main() -> None:
    """Print memory and time of each shape at each size."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", nargs="+", choices=sorted(SIZES), default=list(SIZES))
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per run before giving up")
    args = parser.parse_args()
    for shape in args.shapes:
        for n in SIZES[shape]:
            print(f"{shape:7} n={n:>7,}: {run(args.code, shape, n, args.timeout)}", flush=True)


if __name__ == "__main__":
    main()
