"""A request whose judge scored nothing: the fix names what the request has (a connector or an offline judge)."""

from __future__ import annotations

import json

import pytest

from agentic_core.service import Service, ServiceConfig
from agentic_core.service.connector import ConnectorJudge, nothing_scored_fix
from tests.abstaining import AbstainingJudge, records

CONNECTOR_FIX = "check the connector's model, key and base_url"


def test_an_offline_judge_that_failed_everywhere_is_not_told_to_check_a_connector() -> None:
    # The dataset judge fails on every interaction without a 'score' field: no model, key or base_url is involved.
    request = {"datasets": records(2), "config": {"judge": "dataset"}}
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(request))
    doc = json.loads(reply.json_text())
    assert reply.status == 422, doc
    error = doc["error"]
    assert "failed on all 6 interaction(s)" in error and "no 'score' field" in error  # the first reason
    assert "connector's model" not in error and "base_url" not in error
    # What is relevant instead: the data, another offline judge, or an LLM judge.
    assert "offline dataset judge" in error and "config.judge (" in error and "lexical" in error


@pytest.mark.parametrize(
    ("class_path", "failed", "status", "says"),
    [
        ("langchain_openai.ChatOpenAI", True, 502, CONNECTOR_FIX),
        ("langchain_openai.ChatOpenAI", False, 422, "a connector model that gives verdicts"),
        (None, True, 422, "fix what the first reason names"),
        (None, False, 422, "send a connector with config.judge 'cascade'"),
    ],
)
def test_the_fix_follows_the_connector(class_path: str | None, failed: bool, status: int, says: str) -> None:
    chosen = ConnectorJudge(AbstainingJudge(), "offline lexical judge (config.judge, no connector)", False, class_path)
    got_status, fix = nothing_scored_fix(chosen, failed)
    assert (got_status, says in fix) == (status, True)
    assert (CONNECTOR_FIX in fix) == (class_path is not None and failed)
