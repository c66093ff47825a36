"""Issue 40's reproduction: an LLM judge against a slow self-hosted server that keeps working on abandoned calls.

The stand-in (``benchmarks/standin_server.py --serial --on-disconnect keep-working``) serves one request at a
time, each taking ``--latency`` seconds, and works every request to the end even when its client hung up, as
llama-cpp-python's server does; it counts the requests it received, finished and found abandoned. The issue's
run (Qwen2.5-Coder-1.5B on a 2-core CPU: 12 items, the first reply in 29 s, the default 60 s timeout, 8 calls in
flight) is scaled down by the same factor throughout: 0.5 s per reply, a 1.2 s timeout (the default, adapting
where the code adapts), retry delays 1/50 of the default.

Two scenarios per checkout (``--code DIR``, repeatable: the first is "before", the last "after"):

1. **API, default settings at scale**: the LLM judge as each checkout builds it (from its ``LLMSpec`` since
   issue 38, by ``build_llm_judge`` before), run over 12 items.
   Reported: requests received / finished / abandoned at the server, retries the run reports, requests per
   item, wall time, the verdicts, and whether requests received = items + reported retries.
2. **CLI, a ``--timeout`` the user gave**: ``python -m agentic_core evaluate`` on 12 interactions, once with
   ``--timeout 0.9`` (the server takes 0.5 s a reply: queued calls time out, a call alone fits) and once with
   ``--timeout 0.3`` (shorter than any reply): the exit code, the console's lines about the unscored
   interactions, the timeouts and the LLM, and the server's counts.

    python benchmarks/bench_llm_slow.py --code /path/to/main --code . [--latency 0.5] [--write-results]

Each scenario runs in a child process whose ``PYTHONPATH`` is the checkout measured; the stand-in is this
checkout's. Loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402

ITEMS = 12
DEFAULT_AT_SCALE_S = 1.2  # the default 60 s, scaled as 29 s -> 0.5 s per reply (ratio 60 / 29 ~ 2.1, rounded up)

# Run in the child: the checkout measured is first on its path. Prints one JSON line.
_API_CHILD = r"""
import inspect, json, sys, time
from agentic_core.judges.base import JudgeItem
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.verdict_counts import verdict_counts

base_url, n, timeout_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
options = {"base_url": base_url, "timeout_s": timeout_s}
try:
    from agentic_core.judges.spec import LLMSpec  # issue 38 on: the judge is built from its spec
except ImportError:
    from agentic_core.judges.llm.providers import build_llm_judge
    if "adaptive_timeout" in inspect.signature(build_llm_judge).parameters:
        options["adaptive_timeout"] = True  # the default timeout, at scale: it adapts where the code adapts
    judge = build_llm_judge("openai-compatible", "stand-in", **options)
else:
    judge = LLMSpec(provider="openai-compatible", model="stand-in", adaptive_timeout=True, **options).build()
judge.backoff_base_s, judge.backoff_max_s = timeout_s / 50, timeout_s / 2  # the default delays, at scale
items = [JudgeItem(query=f"What is {i} + {i}?", answer=f"It is {2 * i}.", ground_truth=str(2 * i)) for i in range(n)]
started = time.perf_counter()
run = run_judge_sync(judge, items, cache_mode="off")
elapsed = time.perf_counter() - started
counts = verdict_counts(run)
words = getattr(counts, "unscored_words", None)
calls = getattr(run, "llm_calls", None)
print(json.dumps({
    "elapsed_s": elapsed, "retries": run.retries, "counts": run.counts,
    "summary": words(calls) if words else counts.words(), "warnings": run.warnings,
}))
"""


def label(code: Path) -> str:
    """The checkout's folder and commit (``+`` when it has uncommitted changes)."""
    rev = subprocess.run(["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(code), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True)  # fmt: skip
    return f"{code.name} @ {rev.stdout.strip() or '?'}{'+' if dirty.stdout.strip() else ''}"


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=5) as response:
        doc: dict[str, Any] = json.loads(response.read())
    return doc


def start_server(latency_s: float) -> tuple[subprocess.Popen[str], str]:
    """The stand-in in its own process (one request at a time, keeps working on abandoned ones); its root URL."""
    command = [sys.executable, str(ROOT / "benchmarks" / "standin_server.py"), "--port", "0",
               "--latency", str(latency_s), "--serial", "--on-disconnect", "keep-working"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("PORT "):
        proc.kill()
        raise RuntimeError(f"the stand-in did not start: {line!r}")
    root = f"http://127.0.0.1:{int(line.split()[1])}"
    deadline = time.monotonic() + 20
    while True:
        try:
            _get(f"{root}/stats")
            return proc, root
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.05)


def settled_stats(root: str, timeout_s: float = 60.0) -> dict[str, Any]:
    """The server's counters once it has worked off every request (abandoned ones too)."""
    deadline = time.monotonic() + timeout_s
    while True:
        stats = _get(f"{root}/stats")
        if stats["in_flight"] == 0 or time.monotonic() > deadline:
            return stats
        time.sleep(0.1)


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def api_scenario(code: Path, latency_s: float) -> dict[str, Any]:
    """Scenario 1 against a fresh stand-in: the child's report and the server's counts."""
    proc, root = start_server(latency_s)
    try:
        env = {**os.environ, "PYTHONPATH": str(code)}
        out = subprocess.run(
            [sys.executable, "-c", _API_CHILD, f"{root}/v1", str(ITEMS), str(DEFAULT_AT_SCALE_S)],
            capture_output=True, text=True, env=env, cwd=code, timeout=600, check=False,
        )  # fmt: skip
        if out.returncode != 0:
            raise RuntimeError(f"the API scenario failed on {code}: {out.stderr[-2000:]}")
        got: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        got["server"] = settled_stats(root)
        return got
    finally:
        stop(proc)


def cli_scenario(code: Path, latency_s: float, timeout_s: float) -> dict[str, Any]:
    """Scenario 2 on a fresh stand-in: the exit code, the console's lines on unscored items, the server's counts."""
    proc, root = start_server(latency_s)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "data.json"
            turns = [{"qa_id": f"q{i}", "query": f"What is {i} + {i}?", "assistant": f"It is {2 * i}.",
                      "ground_truth_assistant": str(2 * i)} for i in range(ITEMS)]  # fmt: skip
            data.write_text(json.dumps([{"session_id": "s1", "assistant_id": "a1", "conversation": turns}]))
            command = [sys.executable, "-m", "agentic_core", "evaluate", str(data), "--judge", "llm",
                       "--provider", "openai-compatible", "--model", "stand-in", "--base-url", f"{root}/v1",
                       "--timeout", f"{timeout_s:g}", "--cache", "off", "--no-save", "--no-progress"]  # fmt: skip
            env = {**os.environ, "PYTHONPATH": str(code), "AGENTIC_RUNS_PATH": str(Path(tmp) / "runs.sqlite3")}
            started = time.perf_counter()
            out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=code, timeout=900, check=False)
            elapsed = time.perf_counter() - started
        words = ("unscored", "LLM", "imeout", "timed out", "error:")
        lines = [line for line in out.stderr.splitlines() if any(word in line for word in words)]
        return {"code": out.returncode, "elapsed_s": elapsed, "lines": lines, "server": settled_stats(root)}
    finally:
        stop(proc)


def main() -> None:
    """Run both scenarios on each checkout and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", type=Path, action="append", help="a checkout to measure (repeatable; default: this)")
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per reply at the stand-in")
    parser.add_argument("--cli-timeout", type=float, action="append", help="the --timeout of scenario 2 (repeatable; "
                        "default: 0.9 and 0.3)")  # fmt: skip
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_llm_slow", "LLM judge on a slow server that keeps working on abandoned calls")
    codes = [c.resolve() for c in (args.code or [ROOT])]

    print(
        f"1. API, default settings at scale: {ITEMS} items, stand-in one request at a time, {args.latency:g} s a "
        f"reply, keeps working on abandoned calls; timeout {DEFAULT_AT_SCALE_S:g} s (the default, scaled), "
        "concurrency 8, 4 retries\n"
    )
    print("| code | requests received | finished | abandoned | retries reported | received = items + retries "
          "| requests per item | wall time | verdicts |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---|---:|---:|---|")
    summaries = []
    for code in codes:
        got = api_scenario(code, args.latency)
        server = got["server"]
        received = server.get("received", server["requests"])
        ok = received == ITEMS + got["retries"]
        counts = ", ".join(f"{k} {v}" for k, v in got["counts"].items() if v)
        print(f"| `{label(code)}` | {received} | {server.get('finished', '-')} | {server.get('abandoned', '-')} | "
              f"{got['retries']} | {'yes' if ok else 'no'} | {received / ITEMS:.2f} | {got['elapsed_s']:.1f} s | "
              f"{counts} |", flush=True)  # fmt: skip
        summaries.append((code, got["summary"], got["warnings"]))
    print()
    for code, summary, warnings in summaries:
        print(f"- `{label(code)}`: verdicts: {summary or 'all scored'}")
        for warning in warnings:
            print(f"  - warning: {warning}")
    print()
    timeouts = args.cli_timeout or [0.9, 0.3]
    print(
        f"2. CLI, `evaluate --judge llm --timeout T` (given, so never adapted) on {ITEMS} interactions, the same "
        f"stand-in\n"
    )
    print("| code | --timeout | exit | requests received | finished | abandoned | wall time |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    consoles = []
    for timeout_s in timeouts:
        for code in codes:
            got = cli_scenario(code, args.latency, timeout_s)
            server = got["server"]
            print(f"| `{label(code)}` | {timeout_s:g} s | {got['code']} | {server.get('received', server['requests'])} "
                  f"| {server.get('finished', '-')} | {server.get('abandoned', '-')} | {got['elapsed_s']:.1f} s |",
                  flush=True)  # fmt: skip
            consoles.append((code, timeout_s, got["lines"]))
    print()
    for code, timeout_s, lines in consoles:
        print(f"- `{label(code)}`, `--timeout {timeout_s:g}`: the console's lines on unscored interactions, timeouts, "
              "the LLM:")  # fmt: skip
        for line in lines or ["(none)"]:
            print(f"  - `{line}`")
    print()
    recorder.finish()


if __name__ == "__main__":
    main()
