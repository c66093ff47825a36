"""The Explorer draws a traced conversation's span tree: nested steps, bars, the judged answer, errors, pages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentic_core.io.loader import load_paths
from tests.pages.conftest import OpenApp

PAGE = "pages/explorer.py"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
OTEL = SAMPLES / "otel_traces.json"


def _trees(at: Any) -> list[str]:
    return [h.proto.body for h in at.get("html") if 'class="stree"' in h.proto.body]


def _row_of(session_id: str) -> int:
    sessions = [c.session_id for c in load_paths([OTEL]).conversations]
    return sessions.index(session_id)


def test_a_traced_conversation_shows_its_spans_nested_with_the_failed_call_and_the_answer(open_app: OpenApp) -> None:
    at = open_app(PAGE, OTEL)
    row = _row_of("otel-train-bergen")
    at.selectbox(key="conversation").set_value(row).run()
    assert not at.exception
    spans = load_paths([OTEL]).conversations[row].spans or []
    (tree,) = _trees(at)
    expander = [e for e in at.expander if e.label.startswith("Span tree")]
    assert expander and expander[0].label == f"Span tree: {len(spans):,} steps"
    assert tree.count("data-span=") == len(spans)
    # The agent span holds the model and tool calls: one <details>, the rest leaves inside it.
    assert tree.count("<details") == 1 and tree.count('class="sp leaf') == len(spans) - 1
    failed = [i for i, s in enumerate(spans) if s.error]
    assert len(failed) == 1 and f'<div class="sp leaf err" data-span="{failed[0]}">' in tree
    assert "error: search_trains: the timetable service did not answer within 10 s" in tree
    answer = next(i for i, s in enumerate(spans) if s.answer)
    assert f'<div class="sp leaf ans" data-span="{answer}">' in tree
    assert tree.count("judged answer · turn 1 · unscored") == 1  # the dataset judge: no score in the traces
    assert tree.count('<div class="bar">') == len(spans)


def test_seed_data_has_no_span_tree(open_app: OpenApp) -> None:
    at = open_app(PAGE, "travel")
    assert not [e for e in at.expander if e.label.startswith("Span tree")] and not _trees(at)


def _big_trace(path: Path, steps: int) -> None:
    """One model call answering a user, with ``steps`` spans inside it (an instrumented retrieval loop)."""
    def span(i: int, parent: str, name: str, attrs: dict[str, str]) -> dict[str, Any]:
        return {"traceId": "ab" * 16, "spanId": f"{i + 1:016x}", "parentSpanId": parent, "name": name,
                "startTimeUnixNano": str(1_700_000_000_000_000_000 + i * 1_000_000),
                "endTimeUnixNano": str(1_700_000_000_000_000_000 + i * 1_000_000 + 500_000),
                "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()]}

    chat = span(0, "", "chat m", {
        "gen_ai.operation.name": "chat", "gen_ai.conversation.id": "big",
        "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]),
        "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "yo"}]}]),
    })
    chat["endTimeUnixNano"] = str(1_700_000_000_000_000_000 + (steps + 1) * 1_000_000)
    spans = [chat, *(span(i, f"{1:016x}", f"retrieve {i}", {}) for i in range(1, steps + 1))]
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))


def test_a_large_trace_is_shown_a_page_of_steps_at_a_time(open_app: OpenApp, tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    _big_trace(path, 700)  # 701 steps: pages of 300, 300 and 101
    at = open_app(PAGE, path)
    (tree,) = _trees(at)
    assert "701 steps" in tree and tree.count("data-span=") == 300
    box = at.number_input(key="explorer_span_page")
    assert box.label == "Page (of 3, 300 steps each)"
    box.set_value(3).run()
    (tree,) = _trees(at)
    assert tree.count("data-span=") == 101 and "Continues inside: chat m" in tree
