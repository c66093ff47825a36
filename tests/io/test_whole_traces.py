"""Imported traces keep every message in order (Conversation.trace), each with the interaction it belongs to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core import load_paths
from agentic_core.data.schemas import Conversation
from agentic_core.io.loader import load_bytes

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def roles(conv: Conversation) -> list[str]:
    assert conv.trace is not None
    return [step.role for step in conv.trace]


def test_tau_bench_trial_keeps_its_whole_trajectory() -> None:
    trials: list[dict[str, Any]] = json.loads((SAMPLES / "tau_bench_airline.json").read_text())
    report = load_paths([SAMPLES / "tau_bench_airline.json"])
    assert report.ok
    for conv, trial in zip(report.conversations, trials, strict=True):
        traj = trial["traj"]
        assert roles(conv) == [m["role"] for m in traj], conv.session_id
        assert conv.trace is not None
        for step, message in zip(conv.trace, traj, strict=True):
            assert step.content == (message.get("content") or "")
            made = [(c.name, c.arguments) for c in step.tool_calls]
            want = [
                (c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message.get("tool_calls") or []
            ]
            assert made == want
            # The whole trajectory is one interaction; the system policy belongs to none.
            assert step.interaction == (None if message["role"] == "system" else 0)
    # Every tool call of the trajectory is in the trace, as in tools_used.
    first = report.conversations[0]
    assert first.trace is not None
    calls = [c.name for s in first.trace for c in s.tool_calls]
    assert first.conversation[0].agentic is not None
    assert calls == [t.tool_name for t in first.conversation[0].agentic.tools_used]


def test_openai_trace_steps_point_at_their_turns() -> None:
    report = load_paths([SAMPLES / "openai_traces.jsonl"])
    conv = report.conversations[0]
    raw = json.loads((SAMPLES / "openai_traces.jsonl").read_text().splitlines()[0])
    assert roles(conv) == [m["role"] for m in raw["messages"]]
    assert conv.trace is not None
    assert [s.interaction for s in conv.trace] == [None, 0, 0, 0, 0, 1, 1]
    tool = conv.trace[3]
    assert (tool.name, tool.tool_call_id) == ("lookup_order", "call_os0_1")
    assert json.loads(tool.content)["carrier"] == "UPS"
    assert conv.trace[2].tool_calls[0].arguments == {"order_id": "W2378156"}
    assert conv.trace[4].content == "Your order W2378156 has shipped with UPS\nand should arrive on March 14."
    assert [s.source for s in conv.trace][:2] == ["messages[0]", "messages[1]"]


def test_an_unanswered_last_message_belongs_to_no_interaction() -> None:
    trace = {
        "id": "t1",
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello"},
            {"role": "user", "content": "Bye"},
        ],
    }
    report = load_bytes("t.jsonl", json.dumps(trace).encode())
    conv = report.conversations[0]
    assert conv.trace is not None
    assert [(s.role, s.interaction) for s in conv.trace] == [("user", 0), ("assistant", 0), ("user", None)]


@pytest.mark.parametrize(("name", "key"), [("ragas_multiturn.jsonl", "user_input"), ("inspect_log.json", None)])
def test_ragas_and_inspect_keep_their_messages(name: str, key: str | None) -> None:
    report = load_paths([SAMPLES / name])
    assert report.conversations
    with_trace = [c for c in report.conversations if c.trace]
    assert with_trace, "every multi-message sample keeps its trace"
    for conv in with_trace:
        assert conv.trace is not None
        assert any(s.role == "user" for s in conv.trace)
        indices = {s.interaction for s in conv.trace} - {None}
        assert indices <= set(range(len(conv.conversation)))
    if key is not None:
        first_raw = json.loads((SAMPLES / name).read_text().splitlines()[0])
        assert len(with_trace[0].trace or []) == len(first_raw[key])


def test_no_unknown_key_warning_for_the_trace() -> None:
    report = load_paths([SAMPLES / "tau_bench_airline.json"])
    assert not [i for i in report.warnings if "trace" in i.path]
