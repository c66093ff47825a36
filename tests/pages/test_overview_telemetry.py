"""AppTest: the Overview shows the cost of correctness for traced data, and nothing of it otherwise."""

from __future__ import annotations

import json
from pathlib import Path

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.telemetry_cost import telemetry_cost
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_paths
from agentic_core.settings import make_settings
from tests.io.otel_agent import otlp_json, run_agent
from tests.pages.conftest import OpenApp
from ui.format import md_text
from ui.telemetry_cost import cost_lines, telemetry_text


def test_traced_data_shows_tokens_and_latency_per_conversation(open_app: OpenApp, tmp_path: Path) -> None:
    traces = tmp_path / "traces.json"
    traces.write_text(json.dumps(otlp_json(run_agent("current"))))
    at = open_app(data=traces)
    result = evaluate(load_paths([traces], workers=1), "dataset", cache_mode="off")
    cost = telemetry_cost(result.conversations, aggregate(result, make_settings()).conversations["status"].tolist())
    assert cost is not None
    shown = {m.label: m.value for m in at.metric}
    for label, value, _ in cost_lines(cost):
        assert shown[label] == value
    assert shown["Tokens per conversation"] == f"{cost.total_tokens:,}"


def test_untraced_data_shows_no_cost_cards(open_app: OpenApp) -> None:
    at = open_app()
    assert "Tokens per conversation" not in {m.label for m in at.metric}


def test_the_explorer_shows_each_traced_turns_model_tokens_and_latency(open_app: OpenApp, tmp_path: Path) -> None:
    traces = tmp_path / "traces.json"
    traces.write_text(json.dumps(otlp_json(run_agent("current"))))
    at = open_app("pages/explorer.py", traces)
    (conv,) = list(load_paths([traces], workers=1).conversations)
    expected = telemetry_text(conv)
    assert expected is not None and "turn 2: gpt-4o-2024-08-06, agent support-bot" in expected
    assert any(c.value == md_text(expected) for c in at.caption)
