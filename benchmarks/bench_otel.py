"""Benchmark: load a large OTLP JSON export of GenAI traces, streamed (ijson) against parsed whole.

Generates one OTLP JSON document (one ``resourceSpans`` item, one ``scopeSpans`` item holding
every span, as exporters write it) of agent conversations in the current GenAI conventions: per
conversation an ``invoke_agent`` span per turn, a ``chat`` span asking for a tool, the
``execute_tool`` span and a ``chat`` span answering, the chat spans carrying the history as
``gen_ai.input.messages``. Each load runs in a fresh subprocess (peak resident memory,
``ru_maxrss``, is that load's alone): given by path (streamed from the disk, the default for a
document of ``STREAM_FROM`` bytes or more), given as bytes (an upload: the caller holds them), and
parsed whole (streaming switched off); then the same spans as JSON lines (one span per line), by
path and as bytes.

``--parents N`` measures instead one trace of ``N`` spans linked by their parents: a chain (each span the
parent of the next) against a cycle (the first span's parent is the last), CPU seconds of the load (a
cycle must cost what a chain costs: the walk up the parents is linear).

Run: ``.venv/bin/python benchmarks/bench_otel.py [--size-mb 256] [--parents 60000]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _attr(key: str, value: Any) -> dict[str, Any]:
    typed = {"intValue": str(value)} if isinstance(value, int) else {"stringValue": value}
    return {"key": key, "value": typed}


def _span(trace: str, span: int, parent: int, name: str, start: int, attrs: dict[str, Any]) -> bytes:
    return json.dumps({
        "traceId": trace, "spanId": f"{span:016x}", "parentSpanId": f"{parent:016x}" if parent else "",
        "name": name, "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 1_000_000),
        "attributes": [_attr(k, v) for k, v in attrs.items()],
    }).encode()


def conversation_spans(i: int, turns: int = 3) -> list[bytes]:
    """The spans of conversation ``i``: ``turns`` turns, one tool call each."""
    out = []
    history: list[dict[str, Any]] = []
    t0 = 1_700_000_000_000_000_000 + i * 10_000_000_000
    sid = i * 100
    for t in range(turns):
        trace = f"{i:016x}{t:016x}"
        question = f"Customer {i} asks about order {i * 10 + t}: where is it, and when will it arrive?"
        history.append({"role": "user", "parts": [{"type": "text", "content": question}]})
        call = {"type": "tool_call", "id": f"c{t}", "name": "lookup_order", "arguments": {"order_id": i * 10 + t}}
        answer = f"Order {i * 10 + t} has shipped and should arrive within two business days."
        base = {"gen_ai.conversation.id": f"conv-{i}", "gen_ai.agent.name": "support-bot"}
        start = t0 + t * 1_000_000_000
        out.append(_span(trace, sid + 1, 0, "invoke_agent", start, {"gen_ai.operation.name": "invoke_agent", **base}))
        chat = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 120,
                "gen_ai.usage.output_tokens": 20}
        out.append(_span(trace, sid + 2, sid + 1, "chat", start + 1, {**chat, "gen_ai.input.messages": json.dumps(
            history), "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [call]}])}))
        history.append({"role": "assistant", "parts": [call]})
        out.append(_span(trace, sid + 3, sid + 1, "execute_tool", start + 2, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.id": f"c{t}",
            "gen_ai.tool.call.arguments": json.dumps(call["arguments"]),
            "gen_ai.tool.call.result": json.dumps({"status": "shipped", "eta_days": 2})}))
        history.append({"role": "tool", "parts": [{"type": "tool_call_response", "id": f"c{t}",
                                                   "response": {"status": "shipped"}}]})
        out.append(_span(trace, sid + 4, sid + 1, "chat", start + 3, {**chat, "gen_ai.input.messages": json.dumps(
            history), "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                {"type": "text", "content": answer}]}])}))
        history.append({"role": "assistant", "parts": [{"type": "text", "content": answer}]})
        sid += 5
    return out


def write_export(path: Path, size_mb: int, jsonl: bool = False) -> int:
    """Write an OTLP JSON document (or JSON lines of spans) of about ``size_mb`` MB; returns the conversations."""
    limit = size_mb * 1024 * 1024
    written = n = 0
    with path.open("wb") as f:
        if not jsonl:
            f.write(b'{"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": '
                    b'{"stringValue": "support-bot"}}]}, "scopeSpans": [{"scope": {"name": "bench"}, "spans": [')
        while written < limit:
            for span in conversation_spans(n):
                if written and not jsonl:
                    f.write(b",")
                f.write(span + b"\n" if jsonl else span)
                written += len(span) + 1
            n += 1
        if not jsonl:
            f.write(b"]}]}]}")
    return n


def parent_links(n: int, cycle: bool) -> bytes:
    """One trace of ``n`` spans, each the parent of the next (a chain), or with the first's parent the last (a cycle).

    The first span is a model call with a user message and an answer (the trace is one conversation of one turn).
    """
    def attr(key: str, value: str) -> dict[str, Any]:
        return {"key": key, "value": {"stringValue": value}}

    spans = []
    for i in range(n):
        attrs = [attr("gen_ai.conversation.id", "parents")] if i else [
            attr("gen_ai.conversation.id", "parents"), attr("gen_ai.operation.name", "chat"),
            attr("gen_ai.input.messages", json.dumps([{"role": "user", "parts": [{"type": "text", "content": "Hi"}]}])),
            attr("gen_ai.output.messages", json.dumps([{"role": "assistant", "parts": [
                {"type": "text", "content": "Hello."}]}]))]
        parent = f"{(i - 1) % n + 1:016x}" if i or cycle else ""
        spans.append({"traceId": "ab" * 16, "spanId": f"{i + 1:016x}", "parentSpanId": parent, "name": f"step {i}",
                      "startTimeUnixNano": str(1_700_000_000_000_000_000 + i),
                      "endTimeUnixNano": str(1_700_000_000_000_000_000 + n + i), "attributes": attrs})
    return json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [{"spans": spans}]}]}).encode()


def _parents_child(n: int, how: str) -> None:
    sys.path.insert(0, str(ROOT))
    from agentic_core.io.loader import load_bytes

    data = parent_links(n, how == "cycle")
    start, cpu = time.perf_counter(), time.process_time()
    report = load_bytes("parents.json", data, workers=1)
    cpu, elapsed = time.process_time() - cpu, time.perf_counter() - start
    warned = [i.rule for i in report.issues if "cycle" in i.rule]
    print(json.dumps({"spans": n, "cpu_seconds": round(cpu, 2), "seconds": round(elapsed, 2),
                      "conversations": len(report.conversations), "cycle_warnings": len(warned)}))


def _child(path: str, how: str) -> None:
    sys.path.insert(0, str(ROOT))
    import agentic_core.io.loader as loader_module
    import agentic_core.io.parse as parse_module
    from agentic_core.io.loader import load_bytes, load_paths

    if how == "whole":
        parse_module.STREAM_FROM = 1 << 62  # type: ignore[misc]
        loader_module.STREAM_FROM = 1 << 62  # type: ignore[misc]
        loader_module.streamed_otlp_file = lambda *_a: None  # type: ignore[assignment]
        loader_module.span_lines_file = lambda *_a: None  # type: ignore[assignment]
    start = time.perf_counter()
    if how == "bytes":  # an upload: the caller holds the file's bytes for the whole load
        report = load_bytes(Path(path).name, Path(path).read_bytes(), workers=1)
    else:
        report = load_paths([path], workers=1)
    elapsed = time.perf_counter() - start
    # VmHWM, not ru_maxrss: Linux starts a launched process's ru_maxrss at its launcher's peak.
    peak = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmHWM")) / 1024
    n_int = sum(len(c.conversation) for c in report.conversations)
    print(json.dumps({"seconds": round(elapsed, 1), "peak_mb": round(peak), "conversations": len(report.conversations),
                      "interactions": n_int, "errors": len(report.errors)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size-mb", type=int, default=256)
    parser.add_argument("--parents", type=int, default=0, help="measure a chain and a cycle of this many spans")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child[1] in ("chain", "cycle"):
            _parents_child(int(args.child[0]), args.child[1])
        else:
            _child(args.child[0], args.child[1])
        return
    if args.parents:
        for how in ("chain", "cycle"):
            done = subprocess.run([sys.executable, __file__, "--child", str(args.parents), how], capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            print(f"one trace of {args.parents:,} spans, parents in a {how}:", done.stdout.strip())
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.json"
        n = write_export(path, args.size_mb)
        size = path.stat().st_size / 1024 / 1024
        print(f"OTLP JSON export: {size:,.0f} MB, {n:,} conversations x 3 turns")
        for how in ("streamed", "bytes", "whole"):
            done = subprocess.run([sys.executable, __file__, "--child", str(path), how], capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            print(how, done.stdout.strip())
        path.unlink()
        lines = Path(tmp) / "spans.jsonl"
        write_export(lines, args.size_mb, jsonl=True)
        size = lines.stat().st_size / 1024 / 1024
        for how in ("streamed", "bytes"):
            done = subprocess.run([sys.executable, __file__, "--child", str(lines), how], capture_output=True,
                                  text=True, cwd=ROOT, check=True)
            print(f"JSON lines of the same spans ({size:,.0f} MB), {how}", done.stdout.strip())


if __name__ == "__main__":
    main()
