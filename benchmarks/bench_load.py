"""Benchmark: load and validate 100k interactions (target: <= 5 s, peak memory <= 1 GB).

Generates 20,000 conversations x 5 interactions, each interaction with one tool call and one
expected tool, as a JSON array and as JSON Lines in a temporary directory, then loads each file
in a fresh subprocess (so the peak resident memory, ``ru_maxrss``, belongs to that load alone)
and prints wall time and memory. A third run loads a JSON array in which 1% of the records are
invalid and 1% carry an unknown key, to time the error path.

Run: ``.venv/bin/python benchmarks/bench_load.py [--conversations N] [--interactions M]``
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]


def make_conversation(i: int, interactions: int) -> dict[str, Any]:
    """One realistic conversation: every interaction has a tool call and an expected tool."""
    turns = []
    for j in range(interactions):
        params = {"operation": "add", "a": i, "b": j}
        turns.append(
            {
                "qa_id": f"task{i % 500}_q{j}",
                "query": f"What is {i} + {j}? Please use the calculator.",
                "assistant": f"Using the calculator, {i} + {j} = {i + j}.",
                "ground_truth_assistant": f"{i} + {j} equals {i + j}.",
                "score": 0.9,
                "agentic": {
                    "tools_used": [
                        {"tool_name": "calculator", "parameters": params, "result": i + j, "step": 1}
                    ],
                    "final_answer_uses_tools": True,
                },
                "ground_truth_agentic": {
                    "expected_tools": [{"tool_name": "calculator", "parameters": params, "step": 1}],
                    "tool_sequence_matters": False,
                },
            }
        )
    return {
        "session_id": f"session_{i:06d}",
        "assistant_id": f"agent_v{i % 3}",
        "language": "english",
        "context": "You are a helpful assistant with a calculator tool.",
        "task_id": f"task{i % 500}",
        "conversation": turns,
    }


def scenario_paths(directory: Path) -> dict[str, Path]:
    """The benchmark inputs by scenario name."""
    return {
        "json array": directory / "data.json",
        "json lines": directory / "data.jsonl",
        "json array, 1% invalid + 1% unknown keys": directory / "corrupt.json",
    }


def write_files(directory: Path, conversations: int, interactions: int) -> None:
    """Write the benchmark inputs (runs in a subprocess, see :func:`main`)."""
    records = [make_conversation(i, interactions) for i in range(conversations)]
    paths = scenario_paths(directory)
    paths["json array"].write_bytes(orjson.dumps(records))
    paths["json lines"].write_bytes(b"\n".join(orjson.dumps(r) for r in records) + b"\n")
    for i in range(0, conversations, 100):
        records[i]["conversation"][0]["score"] = 1.5  # invalid
        records[i + 1]["conversation"][0]["agentic"]["tools_usde"] = []  # unknown key (warning)
    paths["json array, 1% invalid + 1% unknown keys"].write_bytes(orjson.dumps(records))


def child(path: str) -> None:
    """Load one file and print a JSON line with the measurements (runs in a subprocess)."""
    sys.path.insert(0, str(ROOT))
    from agentic_core.io.loader import load_paths

    usage = resource.getrusage(resource.RUSAGE_SELF)
    before, cpu_before = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    report = load_paths([path])
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    peak = usage.ru_maxrss  # KiB on Linux
    # CPU time as well: on a busy machine wall time includes waiting for a core.
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu_seconds": cpu,
                "peak_mib": peak / 1024,
                "baseline_mib": before / 1024,
                "conversations": len(report.conversations),
                "interactions": report.n_interactions,
                "errors": len(report.errors),
                "warnings": len(report.warnings),
                "summary": report.summary(),
            }
        )
    )


def main() -> None:
    """Generate the inputs, load each in a subprocess, print a table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--generate", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.generate:
        write_files(Path(args.generate), args.conversations, args.interactions)
        return

    print(f"{args.conversations} conversations x {args.interactions} interactions, one tool call each")
    with tempfile.TemporaryDirectory() as tmp:
        # Generated in a subprocess too: on Linux a child inherits its parent's peak RSS
        # (ru_maxrss survives fork and exec), so the parent must stay small.
        subprocess.run(
            [
                sys.executable,
                __file__,
                "--generate",
                tmp,
                "--conversations",
                str(args.conversations),
                "--interactions",
                str(args.interactions),
            ],
            check=True,
        )
        for scenario, path in scenario_paths(Path(tmp)).items():
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(path)], check=True, capture_output=True, text=True
            ).stdout
            result = json.loads(out)
            size = path.stat().st_size / 2**20
            print(
                f"{scenario:42s} {size:5.1f} MiB file: {result['seconds']:5.2f} s wall "
                f"({result['cpu_seconds']:.2f} s CPU), "
                f"peak RSS {result['peak_mib']:6.0f} MiB "
                f"(interpreter + imports {result['baseline_mib']:.0f} MiB); "
                f"{result['summary']}"
            )


if __name__ == "__main__":
    main()
