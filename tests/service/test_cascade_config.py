"""The endpoint's ``config.judge: "cascade"``: the offline judge, then the connector's LLM for the uncertain.

The offline judge is the fake abstaining judge; the LLM the loopback OpenAI-compatible stand-in.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentic_core.service import Service, ServiceConfig
from agentic_core.service.models import RunResponse
from tests.cascade_fakes import AbstainingJudge, cascade_dataset
from tests.fakes import OpenAIStandIn
from tests.service.conftest import FAKE_KEY


def _request(base_url: str | None) -> dict[str, Any]:
    request: dict[str, Any] = {"datasets": cascade_dataset(n_sure=3, n_unsure=2), "config": {"judge": "cascade"}}
    if base_url is not None:
        request["connector"] = {
            "class_path": "langchain_openai.chat_models.ChatOpenAI",
            "params": {"model": "stand-in-judge-7", "api_key": FAKE_KEY, "base_url": base_url},
        }
    return request


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> AbstainingJudge:
    judge = AbstainingJudge()
    monkeypatch.setattr("agentic_core.service.connector.offline_judge", lambda name: judge)
    return judge


def test_cascade_sends_only_the_uncertain_to_the_connector(offline: AbstainingJudge) -> None:
    with OpenAIStandIn() as server:
        reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(_request(server.base_url)))
    assert reply.status == 200, reply.body
    doc = json.loads(reply.json_text())
    RunResponse.model_validate(doc)
    assert len(offline.judged) == 5 and server.requests == 2
    judge = doc["judge"]
    assert judge["kind"] == "cascade" and judge["class_path"] == "langchain_openai.chat_models.ChatOpenAI"
    assert judge["source"].startswith("cascade: offline ")
    cascade = judge["cascade"]
    assert (cascade["decided_offline"], cascade["sent_to_llm"], cascade["llm_failed"]) == (3, 2, 0)
    assert FAKE_KEY not in reply.json_text()


def test_cascade_without_a_connector_is_refused_at_config_judge(offline: AbstainingJudge) -> None:
    reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(_request(None)))
    assert reply.status == 422
    assert reply.body["errors"][0]["place"] == "config.judge" and "needs a connector" in reply.body["error"]
    assert offline.judged == []


def test_the_llm_failing_leaves_the_uncertain_unscored_with_the_offline_verdicts_standing(
    offline: AbstainingJudge,
) -> None:
    with OpenAIStandIn(status=401) as server:
        reply = Service(ServiceConfig(cache_mode="off")).run(json.dumps(_request(server.base_url)))
    assert reply.status == 200, reply.body
    doc = reply.body
    assert doc["judge"]["cascade"]["llm_failed"] == 2 and doc["unscored"]["interactions"] == 2
    assert FAKE_KEY not in reply.json_text()


def test_other_judges_have_a_null_cascade(service: Service, seed_request: dict[str, Any]) -> None:
    reply = service.run(json.dumps(seed_request))
    assert reply.status == 200 and reply.body["judge"]["cascade"] is None
