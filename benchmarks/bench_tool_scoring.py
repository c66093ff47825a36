"""Benchmark: tool scoring's cost in calls x rule values, and the request deadline over scoring (issue 36).

``python benchmarks/bench_tool_scoring.py [--code DIR] [--skip-http] [--deadline-s 15] [--heavy 8]``

In-process, each size in a fresh child process (``--code DIR`` measures another checkout the same
way, for before / after tables): ``load_records`` of one interaction (validation, then tool scoring)
and its CPU seconds. Shapes:

* ``any_of``: N used and N expected calls of one tool; each expected call's one parameter is ruled
  ``any_of`` with V allowed values and the used values are in no list, so every pair disagrees and
  every disagreement is explained. N = 200, V = 1,000 is the issue's 1 MB request (40,000 pairs:
  the optimal assignment, every pair compared); N = 201 is just above the 40,000-pair switch.
* ``wide``: N used and N expected calls of one tool with P exact parameters each (expected call i
  asks what used call i + 1 passed): the pair matrix costs N x N x P comparisons however the values
  are compared.

Over HTTP, ``python -m agentic_core serve --request-deadline-s D --cache off`` started from the code
directory, requests timed from the client (sent -> whole answer read):

1. the 1 MB request alone;
2. H of them at once, then a one-line request 0.5 s later (the offline lane under load);
3. a ``wide`` request whose scoring takes longer than D: answered 504 at the deadline, or not.

Prints markdown tables.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_endpoint import free_port  # noqa: E402

_CHILD = r"""
import json, sys, time
import orjson
from agentic_core.io.loader import load_records
sys.path.insert(0, sys.argv[2])
from benchmarks.bench_tool_scoring import records
spec = json.loads(sys.argv[1])
data = records(**spec)
size = len(orjson.dumps({"datasets": data}))
wall, cpu = time.perf_counter(), time.process_time()
report = load_records(data)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
assert report.ok, report.issues[:3]
print(json.dumps({"cpu": cpu, "wall": wall, "bytes": size}))
"""

ONE_TURN = {"qa_id": "q", "query": "What is 5 + 3?", "assistant": "8", "ground_truth_assistant": "8"}
ONE_LINE = {"datasets": [{"session_id": "one-line", "assistant_id": "a", "conversation": [ONE_TURN]}]}


def records(shape: str, n: int, values: int = 1000, params: int = 1, session: str = "s") -> list[dict[str, Any]]:
    """One conversation of one interaction in ``shape`` (see the module docstring)."""
    if shape == "any_of":
        allowed = [f"v{j}" for j in range(values)]
        used = [{"tool_name": "t", "parameters": {"x": f"w{i}"}, "step": i} for i in range(n)]
        rule = {"x": {"rule": "any_of", "values": allowed}}
        exp = [{"tool_name": "t", "parameters": {"x": "none"}, "parameter_rules": rule, "step": i} for i in range(n)]
    elif shape == "wide":
        used = [{"tool_name": "t", "parameters": {f"p{k}": i + k for k in range(params)}, "step": i} for i in range(n)]
        exp = [
            {"tool_name": "t", "parameters": {f"p{k}": i + k + 1 for k in range(params)}, "step": i} for i in range(n)
        ]
    else:
        raise ValueError(shape)
    turn = {
        "qa_id": "q",
        "query": "Which tools?",
        "assistant": "Done.",
        "ground_truth_assistant": "Done.",
        "agentic": {"tools_used": used, "final_answer_uses_tools": True},
        "ground_truth_agentic": {"expected_tools": exp, "tool_sequence_matters": False},
    }
    return [{"session_id": session, "assistant_id": "a", "conversation": [turn]}]


def in_process(code: Path, spec: dict[str, Any], timeout: float) -> str:
    """``load_records`` of ``records(**spec)`` in a fresh process running ``code``: a table cell."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    try:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(spec), str(ROOT)],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            cwd=code,
        )
    except subprocess.TimeoutExpired:
        return f"over {timeout:.0f} s"
    if out.returncode != 0:
        return f"failed ({out.stderr.strip().splitlines()[-1:]})"
    got = json.loads(out.stdout)
    return f"{got['cpu']:.2f} s CPU ({got['bytes'] / 1e6:.1f} MB)"


def start(code: Path, deadline_s: float, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """``serve`` from ``code`` on a free loopback port, cache off; the process and its URL once /health answers."""
    port = free_port()
    command = [sys.executable, "-m", "agentic_core", "serve", "--port", str(port), "--cache", "off"]
    command += ["--request-deadline-s", str(deadline_s), "--offline-workers", str(workers), "--log-level", "warning"]
    env = {**os.environ, "PYTHONPATH": str(code)}
    proc = subprocess.Popen(command, cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    give_up = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > give_up:
            proc.kill()
            raise RuntimeError("the endpoint did not start")
        time.sleep(0.1)


def post(url: str, body: bytes, delay: float = 0.0) -> tuple[int, float]:
    """Status and seconds of one ``POST /run`` sent after ``delay`` seconds."""
    time.sleep(delay)
    with httpx.Client(base_url=url, timeout=900) as client:
        begin = time.perf_counter()
        response = client.post("/run", content=body, headers={"content-type": "application/json"})
        return response.status_code, time.perf_counter() - begin


def over_http(code: Path, deadline_s: float, heavy: int, wide_params: int) -> list[str]:
    """The three HTTP scenarios against ``code``'s server: markdown rows."""
    big = orjson.dumps({"datasets": records("any_of", 200)})
    wide = orjson.dumps({"datasets": records("wide", 200, params=wide_params, session="wide")})
    small = orjson.dumps(ONE_LINE)
    proc, url = start(code, deadline_s, workers=8)
    rows = []
    try:
        post(url, small)  # the first request loads what the warm-up did not
        status, seconds = post(url, big)
        rows.append(f"| the 1 MB request alone | {status} in {seconds:.1f} s |")
        with concurrent.futures.ThreadPoolExecutor(heavy + 1) as pool:
            heavies = [pool.submit(post, url, big) for _ in range(heavy)]
            one = pool.submit(post, url, small, 0.5)
            answers = [f.result() for f in heavies]
            status, seconds = one.result()
        statuses = ", ".join(f"{s} x{sum(1 for a, _ in answers if a == s)}" for s in sorted({a for a, _ in answers}))
        slowest = max(t for _, t in answers)
        rows.append(f"| {heavy} x the 1 MB request at once | {statuses}; the last in {slowest:.1f} s |")
        rows.append(f"| a one-line request sent 0.5 s after them | {status} in {seconds:.1f} s |")
        status, seconds = post(url, wide)
        label = f"a `wide` request (200 x 200 calls, {wide_params} parameters each, {len(wide) / 1e6:.1f} MB)"
        rows.append(f"| {label} | {status} in {seconds:.1f} s |")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return rows


def main() -> None:
    """Print the in-process table, then the HTTP one."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per in-process run before giving up")
    parser.add_argument("--skip-http", action="store_true", help="only the in-process table")
    parser.add_argument("--skip-process", action="store_true", help="only the HTTP table")
    parser.add_argument("--deadline-s", type=float, default=15.0, help="the server's --request-deadline-s")
    parser.add_argument("--heavy", type=int, default=8, help="1 MB requests sent at once")
    parser.add_argument("--wide-params", type=int, default=1000, help="parameters per call of the wide request")
    args = parser.parse_args()
    code = args.code.resolve()
    if not args.skip_process:
        specs: list[tuple[str, dict[str, Any]]] = [
            ("any_of, 50 x 50 calls, 1,000 values", {"shape": "any_of", "n": 50}),
            ("any_of, 100 x 100 calls, 1,000 values", {"shape": "any_of", "n": 100}),
            ("any_of, 200 x 200 calls, 1,000 values (the 1 MB request)", {"shape": "any_of", "n": 200}),
            ("any_of, 201 x 201 calls, 1,000 values (past the switch)", {"shape": "any_of", "n": 201}),
            ("any_of, 200 x 200 calls, 4,000 values", {"shape": "any_of", "n": 200, "values": 4000}),
            ("wide, 200 x 200 calls, 100 parameters", {"shape": "wide", "n": 200, "params": 100}),
        ]
        print(f"load_records (validation + tool scoring), one child process per row, code: {code}")
        print()
        print("| interaction | cost |")
        print("|---|---:|")
        for label, spec in specs:
            print(f"| {label} | {in_process(code, spec, args.timeout)} |", flush=True)
        print()
    if not args.skip_http:
        print(f"POST /run over loopback, `serve --request-deadline-s {args.deadline_s:g} --cache off`, code: {code}")
        print()
        print("| request | answer |")
        print("|---|---|")
        for line in over_http(code, args.deadline_s, args.heavy, args.wide_params):
            print(line, flush=True)


if __name__ == "__main__":
    main()
