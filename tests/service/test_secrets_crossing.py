"""The endpoint under hostile judges: no key crosses callers, masking keeps the JSON valid, a bad reply is one item."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentic_core.common import secrets
from agentic_core.service import Service, ServiceConfig
from tests.echo_server import EchoJudgeServer, echo_key, last_user_text
from tests.service.conftest import LiveServer

KEY_A = "sk-caller-A-0123456789abcdef"
KEY_B = "sk-caller-B-fedcba9876543210"


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    secrets.forget_secrets()
    yield
    secrets.forget_secrets()


def _with_connector(request: dict[str, Any], server: EchoJudgeServer, key: str) -> dict[str, Any]:
    request = json.loads(json.dumps(request))
    request["connector"] = {
        "class_path": "langchain_openai.chat_models.ChatOpenAI",
        "params": {"model": "echo-judge", "api_key": key, "base_url": server.base_url, "max_retries": 0},
    }
    request["config"]["use_structured_output"] = False
    request["config"]["verbose"] = True
    return request


def test_a_key_echoed_by_the_judge_never_reaches_another_caller_through_the_cache(
    tmp_path: Path, seed_request: dict[str, Any]
) -> None:
    cache_file = tmp_path / "judge_cache.sqlite3"
    with (
        EchoJudgeServer(echo_key) as judge_server,
        LiveServer(ServiceConfig(cache_path=str(cache_file))) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        first = client.post("/run", json=_with_connector(seed_request, judge_server, KEY_A))
        second = client.post("/run", json=_with_connector(seed_request, judge_server, KEY_B))
    assert first.status_code == 200 and second.status_code == 200, (first.text, second.text)
    assert second.json()["judge"]["counts"]["cached"] == 4  # B was served A's verdicts...
    reasoning = json.dumps([c.get("judge_reasoning") for c in second.json()["per_conversation_metrics"]])
    assert "Bearer ***" in reasoning  # ...with the echoed key masked
    assert KEY_A not in second.text and KEY_A not in first.text
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith(cache_file.name))
    assert KEY_A.encode() not in stored


def test_a_key_that_is_a_json_word_never_breaks_the_answer(tmp_path: Path, seed_request: dict[str, Any]) -> None:
    service = Service(ServiceConfig(cache_path=str(tmp_path / "c.sqlite3")))
    for key in ("true", "false", "null", "success", '":"'):
        with EchoJudgeServer(echo_key) as judge_server:
            reply = service.run(json.dumps(_with_connector(seed_request, judge_server, key)))
        doc = json.loads(reply.json_text())  # valid JSON, whatever the key
        assert reply.status == 200 and doc["success"] is True, (key, reply.json_text()[:300])
        reasoning = json.dumps([c.get("judge_reasoning") for c in doc["per_conversation_metrics"]])
        assert f"Bearer {key}" not in reasoning


def test_one_broken_judge_reply_is_one_unscored_interaction_in_a_200(
    tmp_path: Path, seed_request: dict[str, Any]
) -> None:
    def one_bad(body: dict[str, Any], authorization: str) -> str:
        if "10 * 2" in last_user_text(body):
            return json.dumps({"score": 0.9, "reasoning": "broken \ud800 text"})
        return json.dumps({"score": 0.9, "reasoning": "Same facts."})

    cache_file = tmp_path / "c.sqlite3"
    service = Service(ServiceConfig(cache_path=str(cache_file)))
    with EchoJudgeServer(one_bad) as judge_server:
        reply = service.run(json.dumps(_with_connector(seed_request, judge_server, KEY_A)))
    assert reply.status == 200, reply.json_text()
    doc = json.loads(reply.json_text())
    assert doc["judge"]["counts"] == {"ok": 3, "failed": 1, "cached": 0, "uncertain": 0}
    assert len(service._judge_cache()) == 3


def test_a_key_seen_in_a_refused_request_is_masked_in_later_answers(
    tmp_path: Path, seed_request: dict[str, Any]
) -> None:
    service = Service(ServiceConfig(cache_path=str(tmp_path / "c.sqlite3")))
    refused = json.loads(json.dumps(seed_request))
    refused["connector"] = {"class_path": "os.system", "params": {"model": "m", "api_key": KEY_A}}
    assert service.run(json.dumps(refused)).status == 422

    def leak_a(body: dict[str, Any], authorization: str) -> str:
        return json.dumps({"score": 0.9, "reasoning": f"I remember {KEY_A}"})

    with EchoJudgeServer(leak_a) as judge_server:
        reply = service.run(json.dumps(_with_connector(seed_request, judge_server, KEY_B)))
    assert reply.status == 200
    assert KEY_A not in reply.json_text() and "I remember ***" in reply.json_text()
    assert len(service._judge_cache()) == 4
