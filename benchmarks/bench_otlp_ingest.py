"""Benchmark: live OTLP ingestion (issue 39) -- spans per second on one core, and memory over a long stream.

``python benchmarks/bench_otlp_ingest.py [--spans 100000] [--http-s 20] [--minutes 2] [--judge lexical]``

The spans are the scripted support agent's (tests/io/otel_agent.py, the real SDK, current GenAI conventions: per
conversation two turns, a tool call, six spans with their messages), encoded by the SDK's own OTLP encoder into
requests of 512 spans (the BatchSpanProcessor's batch); each request gets fresh trace and conversation ids, so no
two conversations are alike (the judge cache helps no one).

1. **Ingestion in-process** (one thread, so one core): ``read_export`` + ``LiveIngest.receive`` of ``--spans``
   spans (the request decoded, each span checked and keyed, committed to the spool, indexed), protobuf and JSON;
   the judging thread is not started. Spans per second of wall time and of CPU time.
2. **Over HTTP**: ``agentic-eval serve`` in its own process (uvicorn, one event loop), ``--clients`` threads of
   this process posting protobuf requests back to back for ``--http-s`` seconds with a long ``--idle-s`` (nothing
   completes: the ingestion path alone). Spans accepted per second, and per second of the server's CPU time.
3. **A long stream**: the same server with ``--idle-s 2``, fed for ``--minutes`` minutes as an exporter feeds it
   (429 honoured: the client waits ``Retry-After``); every conversation is then judged (``--judge``) and stored
   in the live run. The server's resident memory (``VmRSS``) is sampled every 10 s; reported: spans accepted and
   stored per second, 429s, the memory at 1 minute, at the end and its peak, and the spool on the disk.

Prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_endpoint import free_port  # noqa: E402

BATCH = 512


def template() -> Any:
    """An export request of about :data:`BATCH` spans of the scripted agent (protobuf message)."""
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    from tests.io.otel_agent import run_agent

    spans = [s for n in range(BATCH // 6) for s in run_agent("current", f"c{n}")]
    return encode_spans(spans)


class Requests:
    """Requests made from the template, each with fresh trace and conversation ids (changed in place: cheap)."""

    def __init__(self) -> None:
        self.base = template()
        self.count = 0
        spans = [span for r in self.base.resource_spans for s in r.scope_spans for span in s.spans]
        self.spans = len(spans)
        self._traces = [(span, span.trace_id) for span in spans]
        self._ids = [(kv, kv.value.string_value) for span in spans for kv in span.attributes
                     if kv.key == "gen_ai.conversation.id"]

    def next(self) -> Any:
        """The next request (the same message object, renamed: serialise it before asking for another)."""
        self.count += 1
        fresh: dict[bytes, bytes] = {}
        for span, trace in self._traces:
            span.trace_id = fresh.setdefault(trace, secrets.token_bytes(16))
        for kv, name in self._ids:
            kv.value.string_value = f"r{self.count}-{name}"
        return self.base


def in_process(total: int, encoding: str) -> dict[str, float]:
    from google.protobuf.json_format import MessageToDict

    from agentic_core.io.otlp_export import read_export
    from agentic_core.live import LiveConfig, LiveIngest

    maker = Requests()
    bodies = []
    while len(bodies) * maker.spans < total:
        request = maker.next()
        if encoding == "protobuf":
            bodies.append(request.SerializeToString())
        else:  # OTLP JSON: hex ids (protobuf's JSON writer gives base64)
            doc = MessageToDict(request)
            for chunk in doc["resourceSpans"]:
                for scope in chunk["scopeSpans"]:
                    for span in scope["spans"]:
                        for key in ("traceId", "spanId", "parentSpanId"):
                            if key in span:
                                import base64

                                span[key] = base64.b64decode(span[key]).hex()
            bodies.append(json.dumps(doc).encode())
    with tempfile.TemporaryDirectory() as tmp:
        config = LiveConfig(runs_path=f"{tmp}/runs.sqlite3", spool_path=f"{tmp}/spool.sqlite3", judge="lexical",
                            max_pending=10**9)
        ingest = LiveIngest(config, None, "off")
        wall, cpu = time.perf_counter(), time.process_time()
        for body in bodies:
            assert ingest.receive(read_export(body, encoding, 10_000)) is None  # type: ignore[arg-type]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        spans = len(ingest.spool)
        ingest.stop()
    return {"spans": spans, "wall": wall, "cpu": cpu, "bytes": sum(map(len, bodies)) / len(bodies)}


def start_server(tmp: Path, idle_s: float, judge: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "AGENTIC_RUNS_PATH": str(tmp / "runs.sqlite3"), "AGENTIC_CACHE_PATH": str(tmp / "c.sqlite")}
    command = [sys.executable, "-m", "agentic_core", "serve", "--port", str(port), "--idle-s", str(idle_s),
               "--otlp-judge", judge, "--log-level", "warning", "--spool", str(tmp / "spool.sqlite3")]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("the server did not start")
        time.sleep(0.2)


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Feeder(threading.Thread):
    """Posts requests back to back until stopped, honouring 429 + Retry-After as the SDK exporter does."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.stop, self.accepted, self.refused, self.maker = url, threading.Event(), 0, 0, Requests()
        self.queue: list[bytes] = []

    def run(self) -> None:
        with httpx.Client(timeout=60) as client:
            while not self.stop.is_set():
                body = self.maker.next().SerializeToString()
                while not self.stop.is_set():
                    answer = client.post(f"{self.url}/v1/traces", content=body,
                                         headers={"content-type": "application/x-protobuf"})
                    if answer.status_code == 200:
                        self.accepted += self.maker.spans
                        break
                    assert answer.status_code == 429, answer.text
                    self.refused += 1
                    self.stop.wait(float(answer.headers.get("retry-after", "1")))


def over_http(seconds: float, judge: str, clients: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp), 3600, judge)
        try:
            feeders = [Feeder(url) for _ in range(clients)]
            cpu0, wall, mine = cpu_s(proc.pid), time.perf_counter(), time.process_time()
            for feeder in feeders:
                feeder.start()
            time.sleep(seconds)
            for feeder in feeders:
                feeder.stop.set()
                feeder.join()
            wall, cpu, mine = time.perf_counter() - wall, cpu_s(proc.pid) - cpu0, time.process_time() - mine
        finally:
            proc.terminate()
            proc.wait(30)
    return {"spans": sum(f.accepted for f in feeders), "wall": wall, "cpu": cpu, "client_cpu": mine}


def stream(minutes: float, judge: str) -> dict[str, Any]:
    from agentic_core.runs import RunStore

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp), 2, judge)
        samples: list[tuple[float, float]] = []
        try:
            feeder = Feeder(url)
            start, cpu0 = time.perf_counter(), cpu_s(proc.pid)
            feeder.start()
            while (elapsed := time.perf_counter() - start) < minutes * 60:
                samples.append((elapsed, rss_mib(proc.pid)))
                time.sleep(10)
            feeder.stop.set()
            feeder.join()
            sent_s = time.perf_counter() - start
            time.sleep(5)  # the last batches: judged after --idle-s
            cpu = cpu_s(proc.pid) - cpu0
            store = RunStore(Path(tmp) / "runs.sqlite3", read_only=True)
            stored = sum(m.n_conversations for m in store.runs())
            spool = sum(p.stat().st_size for p in Path(tmp).glob("spool.sqlite3*")) / 2**20
        finally:
            proc.terminate()
            proc.wait(60)
    minute = next((r for t, r in samples if t >= 60), samples[-1][1])
    return {"accepted": feeder.accepted, "seconds": sent_s, "refused": feeder.refused, "stored": stored,
            "stored_spans": stored * 6, "cpu": cpu, "rss_1min": minute, "rss_end": samples[-1][1],
            "rss_peak": max(r for _, r in samples), "rss_start": samples[0][1], "spool_mib": spool,
            "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spans", type=int, default=100_000, help="spans ingested in-process (default 100000)")
    parser.add_argument("--http-s", type=float, default=20, help="seconds of posting over HTTP (default 20)")
    parser.add_argument("--minutes", type=float, default=2, help="minutes of the long stream (default 2)")
    parser.add_argument("--judge", default="lexical", help="judge of the long stream (default lexical)")
    parser.add_argument("--clients", type=int, default=2, help="clients posting at once over HTTP (default 2)")
    parser.add_argument("--skip", nargs="*", default=[], choices=["in-process", "http", "stream"])
    args = parser.parse_args()
    if "in-process" not in args.skip:
        print("| ingestion in-process (one thread) | spans | request size | wall s | spans/s | CPU s | spans per "
              "CPU s |\n|---|---:|---:|---:|---:|---:|---:|")
        for encoding in ("protobuf", "json"):
            r = in_process(args.spans, encoding)
            print(f"| {encoding} | {r['spans']:,} | {r['bytes'] / 1024:,.0f} KiB | {r['wall']:.2f} | "
                  f"{r['spans'] / r['wall']:,.0f} | {r['cpu']:.2f} | {r['spans'] / r['cpu']:,.0f} |")
    if "http" not in args.skip:
        r = over_http(args.http_s, args.judge, args.clients)
        print("\n| over HTTP (protobuf, 512-span requests) | spans accepted | wall s | spans/s | server CPU s | "
              "spans per server CPU s | clients' CPU s |\n|---|---:|---:|---:|---:|---:|---:|")
        print(f"| ingestion only (nothing completes), {args.clients} client(s) | {r['spans']:,} | {r['wall']:.1f} | "
              f"{r['spans'] / r['wall']:,.0f} | {r['cpu']:.1f} | {r['spans'] / r['cpu']:,.0f} | "
              f"{r['client_cpu']:.1f} |")
    if "stream" not in args.skip:
        r = stream(args.minutes, args.judge)
        print(f"\n| long stream, {args.minutes:g} min, judge {args.judge} | value |\n|---|---:|")
        print(f"| spans accepted | {r['accepted']:,} ({r['accepted'] / r['seconds']:,.0f}/s) |")
        rate = r["stored_spans"] / r["seconds"]
        print(f"| conversations judged and stored | {r['stored']:,} ({rate:,.0f} spans/s) |")
        per_cpu = r["stored_spans"] / r["cpu"]
        print(f"| server CPU s (ingesting, judging, storing) | {r['cpu']:.0f} ({per_cpu:,.0f} spans judged and "
              "stored per CPU s) |")
        print(f"| 429 answers (exporter waited Retry-After) | {r['refused']:,} |")
        print(f"| server RSS: first sample / 1 min / end / peak | {r['rss_start']:.0f} / {r['rss_1min']:.0f} / "
              f"{r['rss_end']:.0f} / {r['rss_peak']:.0f} MiB |")
        print(f"| spool on disk at the end | {r['spool_mib']:.1f} MiB |")
        print("\nRSS samples (s, MiB): " + ", ".join(f"{t:.0f}: {m:.0f}" for t, m in r["samples"]))
    print(f"\n(client peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")


if __name__ == "__main__":
    main()
