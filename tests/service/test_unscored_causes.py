"""Issue 40 at the endpoint: ``unscored.causes`` and ``unscored.summary``, ``judge.llm_calls``, and a warning when
the cascade's LLM failed on everything it was sent. The LLM is the loopback OpenAI-compatible stand-in."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentic_core.judges.causes import CAUSES
from agentic_core.service import Service, ServiceConfig
from agentic_core.service.models import RunResponse
from tests.cascade_fakes import AbstainingJudge, cascade_dataset
from tests.fakes import OpenAIStandIn
from tests.service.conftest import FAKE_KEY


def _request(base_url: str, **params: Any) -> dict[str, Any]:
    return {
        "datasets": cascade_dataset(n_sure=3, n_unsure=2),
        "config": {"judge": "cascade"},
        "connector": {
            "class_path": "langchain_openai.chat_models.ChatOpenAI",
            "params": {"model": "stand-in", "api_key": FAKE_KEY, "base_url": base_url, **params},
        },
    }


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> AbstainingJudge:
    judge = AbstainingJudge()
    monkeypatch.setattr("agentic_core.service.connector.offline_judge", lambda name: judge)
    return judge


def test_the_response_counts_the_unscored_by_cause_and_says_why(offline: AbstainingJudge) -> None:
    with OpenAIStandIn(status=401) as server:
        reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(_request(server.base_url)))
    assert reply.status == 200, reply.body
    doc = reply.body
    RunResponse.model_validate(doc)
    unscored = doc["unscored"]
    assert set(unscored["causes"]) == {str(c) for c in CAUSES}
    assert unscored["causes"]["rejected"] == 2 == unscored["interactions"] and sum(unscored["causes"].values()) == 2
    assert unscored["summary"].startswith("2 unscored: 2 rejected by the server (HTTP 4xx")
    assert any(w.startswith("the LLM judge scored none of the 2 interaction(s)") for w in doc["warnings"])
    calls = doc["judge"]["llm_calls"]
    assert calls["timeout_explicit"] is False and calls["timeout_s"] == 60  # not given: the default, adapting
    assert FAKE_KEY not in reply.json_text()


def test_a_timeout_given_in_the_connector_is_kept_and_reported(offline: AbstainingJudge) -> None:
    with OpenAIStandIn() as server:
        reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(_request(server.base_url, timeout=45)))
    assert reply.status == 200, reply.body
    doc = reply.body
    assert doc["judge"]["llm_calls"]["timeout_explicit"] is True and doc["judge"]["llm_calls"]["timeout_s"] == 45
    assert doc["unscored"]["summary"] == "" and not any("LLM judge scored none" in w for w in doc["warnings"])


def test_an_adapting_timeout_stays_within_the_servers_cap_per_attempt(offline: AbstainingJudge) -> None:
    from agentic_core.service.connector import connector_judge

    connector = _request("http://127.0.0.1:9/v1")["connector"]
    chosen = connector_judge(connector, ServiceConfig(cache_mode="off", max_judge_call_s=500), None, None)
    # Not given: it adapts from 60 s, but never past the cap's share of one attempt (500 s / 5 attempts).
    assert chosen.judge.clock.ceiling_s == 100 and chosen.judge.clock.adaptive  # type: ignore[attr-defined]
