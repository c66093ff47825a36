"""The endpoint with an offline judge that abstains: the ``unscored.uncertain`` count and the judge's counts."""

from __future__ import annotations

import json

import pytest

from agentic_core.data.schemas import Conversation
from agentic_core.evaluate import judge_items
from agentic_core.service import Service, ServiceConfig
from agentic_core.service.models import RunResponse
from tests.abstaining import AbstainingJudge, abstains_on, records, unsure_record


def test_the_response_counts_the_uncertain(monkeypatch: pytest.MonkeyPatch) -> None:
    judge = AbstainingJudge()
    monkeypatch.setattr("agentic_core.service.connector.offline_judge", lambda name: judge)
    data = records(8)
    expected = sum(abstains_on(i) for i in judge_items([Conversation.model_validate(r) for r in data]))
    assert expected > 0
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps({"datasets": data}))
    assert reply.status == 200, reply.body
    doc = json.loads(reply.json_text())
    RunResponse.model_validate(doc)
    assert doc["unscored"]["uncertain"] == expected
    assert doc["unscored"]["interactions"] == expected  # abstentions are unscored, never 0 or 1
    assert doc["judge"]["counts"]["uncertain"] == expected


def test_a_judge_unsure_of_everything_is_a_422_that_names_the_cascade_not_a_502() -> None:
    # The real default judge abstains on this pair; nothing failed, so no gateway is to blame.
    record = unsure_record()
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps({"datasets": [record]}))
    doc = json.loads(reply.json_text())
    assert reply.status == 422, doc
    assert "uncertain" in doc["error"] and "cascade" in doc["error"] and "base_url" not in doc["error"]
