"""LLM judging throughput against an OpenAI-compatible stand-in on loopback (figures in benchmarks/RESULTS.md).

Measured in one run, against one stand-in server process with 200 ms latency:

1. ``bare abatch``: ``ChatOpenAI.abatch`` of the judge's 1,000 prompts, ``max_concurrency=32``:
   the floor set by LangChain + the OpenAI client on this machine;
2. ``LLMJudge.ajudge``: the same 1,000 items through the judge at concurrency 32 (prompt
   building, timeouts, retries logic, parsing);
3. ``run_judge`` (cold cache): the same, plus deduplication and cache writes;
4. ``run_judge`` (cached re-run): must make zero model calls and take well under 1 s.

Targets: (2) and (3) within 1.3x of (1); (4) <= 1 s. The ideal for (1) is
1000 / 32 x 0.2 s = 6.25 s.

    .venv/bin/python benchmarks/bench_llm.py [--n 1000] [--concurrency 32] [--latency 0.2] [--rounds 2]

Prints a markdown table. Loopback only; the server process is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentic_core.judges.base import JudgeItem  # noqa: E402
from agentic_core.judges.cache import JudgeCache  # noqa: E402
from agentic_core.judges.llm.judge import LLMJudge  # noqa: E402
from agentic_core.judges.llm.providers import build_chat_model  # noqa: E402
from agentic_core.judges.runner import run_judge  # noqa: E402
from agentic_core.judges.spec import LLMSpec  # noqa: E402
from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402


def start_server(latency_s: float) -> tuple[subprocess.Popen[str], str]:
    """Start the stand-in in its own process; return it and its base URL once it answers."""
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "standin_server.py"),
            "--port",
            "0",
            "--latency",
            str(latency_s),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("PORT "):
        proc.kill()
        raise RuntimeError(f"stand-in server did not start: {line!r}")
    base = f"http://127.0.0.1:{int(line.split()[1])}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"{base}/stats", timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.05)
    return proc, f"{base}/v1"


def make_items(n: int) -> list[JudgeItem]:
    """``n`` distinct, realistic-sized items."""
    return [
        JudgeItem(
            query=f"Question {i}: what is the total of invoice #{1000 + i} including VAT?",
            answer=f"The total of invoice #{1000 + i} is {i * 3 + 17}.50 EUR including 21% VAT.",
            ground_truth=f"{i * 3 + 17}.50 EUR",
        )
        for i in range(n)
    ]


async def bench(
    n: int, concurrency: int, latency_s: float, rounds: int, base_url: str
) -> dict[str, list[float]]:
    """Time the four scenarios; returns seconds per scenario (one entry per round)."""
    spec = LLMSpec(provider="openai-compatible", model="stand-in", base_url=base_url, concurrency=concurrency)
    model = build_chat_model(spec)  # the judge's own, called bare in (1)
    judge = LLMJudge(spec, model)
    items = make_items(n)
    prompts: list[Any] = [judge.messages(item) for item in items]
    # Warm-up: open the connection pool so neither side pays for it alone.
    await model.abatch(prompts[:concurrency], config={"max_concurrency": concurrency})

    times: dict[str, list[float]] = {"bare": [], "judge": [], "run_cold": [], "run_cached": []}
    calls: dict[str, int] = {}
    for _ in range(rounds):
        t = time.perf_counter()
        replies = await model.abatch(prompts, config={"max_concurrency": concurrency})
        times["bare"].append(time.perf_counter() - t)
        assert len(replies) == n

        t = time.perf_counter()
        verdicts = await judge.ajudge(items)
        times["judge"].append(time.perf_counter() - t)
        failed = sum(v.status == "failed" for v in verdicts)
        assert failed == 0, f"{failed} judge failures: {next(v.error for v in verdicts if v.error)}"

        with tempfile.TemporaryDirectory() as tmp:
            cache = JudgeCache(Path(tmp) / "bench_cache.sqlite3")
            cold = await run_judge(judge, items, cache=cache, cache_mode="use")
            times["run_cold"].append(cold.elapsed_s)
            calls["run_cold"] = cold.model_calls
            cached = await run_judge(judge, items, cache=cache, cache_mode="use")
            times["run_cached"].append(cached.elapsed_s)
            calls["run_cached"] = cached.model_calls
            assert cached.model_calls == 0 and cached.counts["cached"] == n
            cache.close()
    times["_calls_cold"] = [float(calls["run_cold"])]
    times["_calls_cached"] = [float(calls["run_cached"])]
    return times


def main() -> None:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description="LLM judge throughput vs bare LangChain abatch")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--rounds", type=int, default=2)
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_llm", "LLM judging")

    proc, base_url = start_server(args.latency)
    try:
        times = asyncio.run(bench(args.n, args.concurrency, args.latency, args.rounds, base_url))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()

    bare = statistics.median(times["bare"])
    ideal = args.n / args.concurrency * args.latency
    print(
        f"\nLLM judging: {args.n} items, concurrency {args.concurrency}, "
        f"stand-in latency {args.latency * 1000:.0f} ms, {args.rounds} round(s), median shown "
        f"(ideal {ideal:.2f} s)\n"
    )
    print("| scenario | seconds (median) | all rounds | vs bare abatch | model calls |")
    print("|---|---:|---|---:|---:|")
    rows = [
        ("bare `ChatOpenAI.abatch` (max_concurrency)", "bare", str(args.n)),
        ("`LLMJudge.ajudge`", "judge", str(args.n)),
        ("`run_judge`, empty cache (dedupe + cache writes)", "run_cold", str(int(times["_calls_cold"][0]))),
        ("`run_judge`, cached re-run", "run_cached", str(int(times["_calls_cached"][0]))),
    ]
    for label, key, n_calls in rows:
        med = statistics.median(times[key])
        all_rounds = ", ".join(f"{x:.3f}" for x in times[key])
        ratio = f"{med / bare:.3f}x" if key != "run_cached" else "-"
        print(f"| {label} | {med:.3f} | {all_rounds} | {ratio} | {n_calls} |")
    print()
    recorder.finish()


if __name__ == "__main__":
    main()
