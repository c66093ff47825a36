"""The FastAPI app through real HTTP on loopback (uvicorn in a thread, httpx), LLM judge against a stand-in."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from agentic_core.service import ServiceConfig
from tests.fakes import OpenAIStandIn
from tests.service.conftest import FAKE_KEY, LiveServer


def test_health_and_docs(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        health = client.get("/health")
        assert health.status_code == 200
        assert health.json()["status"] == "ok"
        assert "langchain_openai.chat_models.ChatOpenAI" in health.json()["class_paths"]
        docs = client.get("/docs")
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        spec = client.get("/openapi.json").json()
        run = spec["paths"]["/run"]["post"]
        assert run["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/RunRequest")
        schemas = spec["components"]["schemas"]
        assert {"RunRequest", "RunConfig", "Connector", "Conversation", "RunResponse", "ErrorResponse"} <= set(schemas)
        assert "422" in run["responses"] and "413" in run["responses"]


def test_seed001_example_over_http(live_server: LiveServer, seed_request: dict[str, Any]) -> None:
    with httpx.Client(base_url=live_server.url, timeout=60) as client:
        response = client.post("/run", json=seed_request)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "no-store"
    agg = response.json()["aggregated_metrics"]
    assert (round(agg["pass_at_k"], 3), round(agg["pass_pow_k"], 3), agg["interpretation"]) == (
        0.963,
        0.296,
        "inconsistent",
    )
    assert response.json()["estimator"] == "plug-in"


def test_the_sample_file_posts_as_is(live_server: LiveServer) -> None:
    # What the README's curl example sends: the file's bytes.
    body = (Path(__file__).resolve().parents[2] / "sample_data" / "seed001_request.json").read_bytes()
    with httpx.Client(base_url=live_server.url, timeout=60) as client:
        response = client.post("/run", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200
    assert response.json()["aggregated_metrics"]["fully_correct_conversations"] == 2


@pytest.mark.parametrize(
    ("body", "status", "place"),
    [
        (b'{"datasets": [', 400, "request body line 1"),
        (b'{"config": {"k": 3}}', 422, "datasets"),
        (b'{"datasets": [{}], "config": {"k": 0}}', 422, "config.k"),
        (b'{"datasets": [{}], "config": {"threshold": 7}}', 422, "config.threshold"),
        (b'{"datasets": [{"session_id": "s"}]}', 422, "datasets record 0"),
    ],
)
def test_bad_requests_over_http(live_server: LiveServer, body: bytes, status: int, place: str) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        response = client.post("/run", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    doc = response.json()
    assert doc["success"] is False and doc["errors"][0]["place"].startswith(place)
    assert "Traceback" not in response.text


def test_unknown_paths_and_methods_answer_in_the_endpoint_format(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        missing = client.get("/nope")
        wrong = client.get("/run")
    assert missing.status_code == 404 and missing.json()["success"] is False
    assert wrong.status_code == 405 and wrong.json()["success"] is False


def test_body_limit_by_declared_length_and_by_stream(tmp_path: Path) -> None:
    config = ServiceConfig(max_body_bytes=4096, cache_path=str(tmp_path / "c.sqlite3"))
    body = b'{"datasets": [], "pad": "' + b"x" * 8000 + b'"}'

    def chunks() -> Any:
        for i in range(0, len(body), 1000):
            yield body[i : i + 1000]

    with LiveServer(config) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        declared = client.post("/run", content=body, headers={"content-type": "application/json"})
        streamed = client.post("/run", content=chunks(), headers={"content-type": "application/json"})
    for response in (declared, streamed):
        assert response.status_code == 413
        assert response.json()["errors"][0]["place"] == "request body"
        assert "4,096 bytes" in response.json()["error"]


def test_llm_connector_reaches_the_model_and_the_key_goes_nowhere_else(
    tmp_path: Path, seed_request: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    cache_file = tmp_path / "judge_cache.sqlite3"
    config = ServiceConfig(cache_path=str(cache_file))
    with OpenAIStandIn() as model_server:
        seed_request["connector"] = {
            "class_path": "langchain_openai.chat_models.ChatOpenAI",
            "params": {
                "model": "stand-in-judge-7",
                "api_key": FAKE_KEY,
                "base_url": model_server.base_url,
                "temperature": 0.0,
                "timeout": 30,
                "organization_secret": FAKE_KEY,  # unknown, and credential-looking: never passed, never echoed
            },
        }
        seed_request["config"]["use_structured_output"] = False
        seed_request["config"]["verbose"] = True
        with (
            caplog.at_level(logging.DEBUG),
            LiveServer(config) as server,
            httpx.Client(base_url=server.url, timeout=60) as client,
        ):
            response = client.post("/run", json=seed_request)
            again = client.post("/run", json=seed_request)  # answered from the cache
    assert response.status_code == 200, response.text
    doc = response.json()
    # params reached the model: its server was called (base_url) with the model and the key as a bearer token.
    assert model_server.requests == 4
    assert set(model_server.models) == {"stand-in-judge-7"}
    assert set(model_server.auth_headers) == {f"Bearer {FAKE_KEY}"}
    judge = doc["judge"]
    assert judge["kind"] == "llm" and judge["model"] == "stand-in-judge-7"
    assert judge["params"]["base_url"] == model_server.base_url
    assert judge["default"] is False and judge["class_path"] == "langchain_openai.chat_models.ChatOpenAI"
    assert any("organization_secret ignored" in w for w in doc["warnings"])
    assert doc["aggregated_metrics"]["fully_correct_conversations"] == 3  # the stand-in says 0.85 for all
    assert again.status_code == 200 and again.json()["judge"]["counts"]["cached"] == 4
    # The key: in no response, no log line, no cache file.
    for text in (response.text, again.text, caplog.text):
        assert FAKE_KEY not in text
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith(cache_file.name))
    assert FAKE_KEY.encode() not in stored
    with sqlite3.connect(cache_file) as db:
        rows = db.execute("select count(*) from verdicts").fetchone()[0]
    assert rows == 4
    assert "POST /run" in caplog.text  # the logs were captured at all


def test_a_model_that_refuses_every_call_is_a_502_without_the_key(
    tmp_path: Path, seed_request: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    config = ServiceConfig(cache_path=str(tmp_path / "c.sqlite3"))
    with OpenAIStandIn(status=401) as model_server:
        seed_request["connector"] = {
            "class_path": "langchain_openai.ChatOpenAI",
            "params": {"model": "m", "api_key": FAKE_KEY, "base_url": model_server.base_url, "max_retries": 0},
        }
        with (
            caplog.at_level(logging.DEBUG),
            LiveServer(config) as server,
            httpx.Client(base_url=server.url, timeout=60) as client,
        ):
            response = client.post("/run", json=seed_request)
    assert response.status_code == 502
    doc = response.json()
    assert doc["success"] is False and "failed on all 4 interaction(s)" in doc["error"]
    assert FAKE_KEY not in response.text and FAKE_KEY not in caplog.text
    assert "check the connector's model, key and base_url" in doc["error"]


def test_concurrent_requests(live_server: LiveServer, seed_request: dict[str, Any]) -> None:
    import concurrent.futures

    def post(_: int) -> int:
        with httpx.Client(base_url=live_server.url, timeout=60) as client:
            headers = {"content-type": "application/json"}
            return client.post("/run", content=json.dumps(seed_request), headers=headers).status_code

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert list(pool.map(post, range(8))) == [200] * 8
