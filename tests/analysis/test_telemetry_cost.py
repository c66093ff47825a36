"""Cost of correctness from traced conversations: tokens per conversation and per fully correct conversation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.telemetry_cost import telemetry_cost
from agentic_core.evaluate import evaluate
from agentic_core.io.otel_load import load_otel
from agentic_core.io.samples import load_sample
from agentic_core.settings import make_settings
from tests.io.otel_agent import otlp_json, run_agent


def test_tokens_per_correct_conversation_counts_every_token_spent(tmp_path: Path) -> None:
    spans = []
    recorded = 0
    for conv in ("c1", "c2", "c3"):
        run = run_agent("current", conversation_id=conv)
        recorded += sum(s.attributes.get("gen_ai.usage.input_tokens", 0) + s.attributes.get(
            "gen_ai.usage.output_tokens", 0) for s in run)
        spans.extend(otlp_json(run)["resourceSpans"][0]["scopeSpans"][0]["spans"])
    traces = tmp_path / "spans.jsonl"
    traces.write_text("".join(json.dumps(s) + "\n" for s in spans))
    golden = tmp_path / "golden.jsonl"
    # Two conversations pass, one fails: the third's first turn scores 0.
    golden.write_text("".join(json.dumps(r) + "\n" for r in [
        {"session_id": "c1", "score": 1.0}, {"session_id": "c2", "score": 1.0},
        {"session_id": "c3", "score": [0.0, 1.0]}]))
    result = evaluate(load_otel([traces], references=golden, workers=1), "dataset", cache_mode="off")
    agg = aggregate(result, make_settings())
    cost = telemetry_cost(result.conversations, agg.conversations["status"].tolist())
    assert cost is not None
    assert (cost.conversations, cost.with_tokens, cost.correct_conversations) == (3, 3, 2)
    assert cost.total_tokens == recorded
    assert cost.tokens_per_correct == pytest.approx(recorded / 2)
    assert cost.tokens_per_conversation == pytest.approx(recorded / 3)
    assert cost.latency_ms_per_conversation is not None and cost.latency_ms_per_conversation > 0


def test_untraced_data_has_no_cost_and_a_wrong_status_length_is_refused() -> None:
    result = evaluate(load_sample("support"), "dataset", cache_mode="off")
    status = aggregate(result, make_settings()).conversations["status"].tolist()
    assert telemetry_cost(result.conversations, status) is None
    with pytest.raises(ValueError, match="one per conversation"):
        telemetry_cost(result.conversations, status[:-1])


def test_no_correct_conversation_leaves_tokens_per_correct_unknown(tmp_path: Path) -> None:
    traces = tmp_path / "t.json"
    traces.write_text(json.dumps(otlp_json(run_agent("current"))))
    result = evaluate(load_otel([traces], workers=1), "dataset", cache_mode="off")
    cost = telemetry_cost(result.conversations, aggregate(result, make_settings()).conversations["status"].tolist())
    assert cost is not None and cost.correct_conversations == 0 and cost.tokens_per_correct is None
    assert cost.unscored_conversations == 1
