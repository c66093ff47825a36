"""The endpoint's ``config.metrics`` (seed 001's request with seed 004's metrics)."""

from __future__ import annotations

import json

from agentic_core.service import ServiceConfig, run_request
from tests.agentic_metrics.helpers import BOOKING, OFF_TOPIC

CONFIG = ServiceConfig(cache_mode="off")


def _body(**config: object) -> dict[str, object]:
    datasets = [c.model_dump(mode="json", exclude_unset=True) for c in (BOOKING, OFF_TOPIC)]
    return {"datasets": datasets, "config": {"judge": "lexical", **config}}


def test_config_metrics_adds_the_metrics_to_each_conversation_and_the_aggregate() -> None:
    reply = run_request(_body(metrics=["tool_call_accuracy", "topic_adherence"], topic_variant="ragas"), CONFIG)
    assert reply.status == 200, reply.body
    body = json.loads(json.dumps(reply.body, default=str))
    first, second = body["per_conversation_metrics"]
    assert first["tool_call_accuracy"] == 1.0 and second["tool_call_accuracy"] is None
    assert second["topic_variant"] == "ragas" and second["topic_counts"] is not None
    assert body["agentic_metrics"]["variant"] == "ragas" and "goal_accuracy" not in first


def test_without_metrics_the_response_is_unchanged() -> None:
    reply = run_request(_body(), CONFIG)
    assert reply.status == 200 and reply.body["agentic_metrics"] is None
    assert "tool_call_accuracy" not in reply.body["per_conversation_metrics"][0]


def test_an_unknown_metric_is_located_at_config_metrics() -> None:
    reply = run_request(_body(metrics="tool_accuracy"), CONFIG)
    assert reply.status == 422 or reply.status == 400
    assert "config.metrics" in json.dumps(reply.body)
