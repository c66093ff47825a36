"""Benchmark: ``POST /run`` with 1,000 conversations and an offline judge, over real HTTP.

Target: seed 001's request with the offline judge, 1,000 conversations,
answered in <= 2 s after warm-up.

Starts ``python -m agentic_core serve`` in its own process on a free loopback port (the command
warms the default judge up before it listens), waits for ``GET /health``, then times requests
from the client's side (request sent -> whole response read). Scenarios:

- **seed 001 x 1,000**: seed 001's example conversations (``sample_data/seed001_request.json``)
  repeated to 1,000 conversations under new session ids, default (hybrid) judge: the target.
  The first request after start-up is reported as ``cold``; later ones are ``warm``.
- **distinct texts**: 1,000 conversations whose every text differs
  (``benchmarks/make_large.py``'s records, without their precomputed scores), once with the
  ``lexical`` judge and once with the default ``hybrid`` judge: what judging costs when nothing
  repeats (the hybrid judge embeds every distinct text with MiniLM on the CPU).
- **cached**: the hybrid distinct-text request again on a server with a judge cache: the
  endpoint's own cost (HTTP, validation, aggregation, response) with no judging.

The judged scenarios run on a server started with ``--cache off``, so a warm request is judged,
not read from the cache. Prints a markdown table.

Run: ``.venv/bin/python benchmarks/bench_endpoint.py [--conversations 1000] [--interactions 1] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import copy
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.make_large import make_records  # noqa: E402
from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402

TARGET_S = 2.0
SEED_REQUEST = ROOT / "sample_data" / "seed001_request.json"


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_endpoint(cache: str, cache_path: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    """Start ``python -m agentic_core serve``; return the process, its URL and the seconds to /health."""
    port = free_port()
    start = time.perf_counter()
    command = [sys.executable, "-m", "agentic_core", "serve", "--port", str(port), "--cache", cache]
    command += ["--cache-path", str(cache_path), "--log-level", "warning"]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return proc, url, time.perf_counter() - start
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the endpoint did not start")
        time.sleep(0.05)


def seed_body(conversations: int) -> bytes:
    """Seed 001's example request with its conversations repeated to ``conversations``."""
    seed = json.loads(SEED_REQUEST.read_text(encoding="utf-8"))
    examples = seed["datasets"]
    datasets = []
    for i in range(conversations):
        conversation = copy.deepcopy(examples[i % len(examples)])
        conversation["session_id"] = f"{conversation['session_id']}-{i:05d}"
        datasets.append(conversation)
    return orjson.dumps({"datasets": datasets, "config": seed["config"]})


def distinct_body(conversations: int, interactions: int, seed: int, judge: str | None) -> bytes:
    """A request whose every text is new (varies with ``seed``), judged by ``judge`` (``None``: default)."""
    records = make_records(conversations, interactions, seed=seed)
    for record in records:
        for turn in record["conversation"]:
            turn.pop("score", None)  # the offline judge judges; no precomputed score
    config: dict[str, Any] = {"k": 3} if judge is None else {"k": 3, "judge": judge}
    return orjson.dumps({"datasets": records, "config": config})


def timed_post(client: httpx.Client, body: bytes) -> tuple[float, dict[str, Any]]:
    """Seconds for one ``POST /run`` (sent -> response read), and the response document."""
    start = time.perf_counter()
    response = client.post("/run", content=body, headers={"content-type": "application/json"})
    elapsed = time.perf_counter() - start
    doc = response.json()
    if response.status_code != 200:
        raise RuntimeError(f"POST /run answered {response.status_code}: {doc.get('error')}")
    return elapsed, doc


def row(label: str, times: list[float], conversations: int) -> str:
    """One markdown row: the median, every round, and the time per conversation."""
    median = statistics.median(times)
    rounds = ", ".join(f"{t:.2f}" for t in times)
    return f"| {label} | {median:.2f} | {rounds} | {median / conversations * 1e3:.2f} ms |"


def main() -> None:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--interactions", type=int, default=1, help="per conversation, in the distinct-text rows")
    parser.add_argument("--rounds", type=int, default=5, help="warm requests per scenario (median reported)")
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_endpoint", "HTTP endpoint")
    n, rounds = args.conversations, args.rounds
    seed = seed_body(n)
    lexical = [distinct_body(n, args.interactions, 100 + r, "lexical") for r in range(rounds)]
    hybrid = [distinct_body(n, args.interactions, 200 + r, None) for r in range(rounds)]
    with tempfile.TemporaryDirectory() as tmp:
        proc, url, startup_s = start_endpoint("off", Path(tmp) / "unused.sqlite3")
        try:
            with httpx.Client(base_url=url, timeout=600) as client:
                cold_s, doc = timed_post(client, seed)
                seed_warm = [timed_post(client, seed)[0] for _ in range(rounds)]
                lexical_warm = [timed_post(client, body)[0] for body in lexical]
                hybrid_warm = [timed_post(client, body)[0] for body in hybrid]
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        proc, url, _ = start_endpoint("use", Path(tmp) / "judge_cache.sqlite3")
        try:
            with httpx.Client(base_url=url, timeout=600) as client:
                timed_post(client, hybrid[0])  # fills the cache
                cached = [timed_post(client, hybrid[0]) for _ in range(rounds)]
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    agg = doc["aggregated_metrics"]
    # 2 of every 3 conversations correct, as in seed 001's example (exactly so when n is a multiple of 3).
    assert abs(agg["pass_at_k"] - 0.963) < 0.001 and abs(agg["pass_pow_k"] - 0.296) < 0.002, agg
    n_interactions = n * args.interactions
    assert all(c["judge"]["counts"].get("cached", 0) == n_interactions for _, c in cached), cached[0][1]["judge"]
    seed_interactions = sum(len(c["conversation"]) for c in json.loads(seed)["datasets"])
    print(
        f"POST /run over loopback HTTP, {n:,} conversations per request; server start to /health "
        f"(warm-up included): {startup_s:.2f} s; {rounds} warm rounds per row"
    )
    print()
    print("| request | seconds (median) | rounds | per conversation |")
    print("|---|---:|---|---:|")
    print(row(f"seed 001 x {n:,} ({seed_interactions:,} interactions), hybrid, first request", [cold_s], n))
    print(row(f"seed 001 x {n:,}, hybrid, warm (the target)", seed_warm, n))
    print(row(f"distinct texts ({n_interactions:,} interactions), lexical, warm", lexical_warm, n))
    print(row(f"distinct texts ({n_interactions:,} interactions), hybrid, warm", hybrid_warm, n))
    print(row(f"distinct texts ({n_interactions:,} interactions), every verdict cached", [t for t, _ in cached], n))
    print()
    median = statistics.median(seed_warm)
    verdict = "meets" if median <= TARGET_S else "MISSES"
    print(f"seed 001 x {n:,}, warm median {median:.2f} s: {verdict} the {TARGET_S:.0f} s target")
    recorder.finish()


if __name__ == "__main__":
    main()
