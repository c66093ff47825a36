"""``agentic_core.lambda_handler``: seed 001's AWS Lambda signature over the same service."""

from __future__ import annotations

import base64
import inspect
import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import agentic_core
from agentic_core import lambda_handler
from agentic_core.service.aws_lambda import lambda_service
from agentic_core.service.models import ErrorResponse, RunResponse
from tests.service.conftest import FAKE_KEY


@pytest.fixture(autouse=True)
def lambda_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fresh Lambda service per test, with a judge cache of the test's own (as ``/tmp`` on Lambda)."""
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "judge_cache.sqlite3"))
    lambda_service.cache_clear()
    yield
    lambda_service.cache_clear()


def _answer(result: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    assert set(result) == {"statusCode", "headers", "body"}
    assert isinstance(result["body"], str)  # API Gateway wants the body as text
    assert result["headers"]["content-type"] == "application/json"
    return result["statusCode"], json.loads(result["body"])


def test_the_public_name_has_the_lambda_signature() -> None:
    assert "lambda_handler" in agentic_core.__all__
    assert list(inspect.signature(lambda_handler).parameters) == ["event", "context"]


def test_api_gateway_event_gives_the_seeds_numbers(seed_request: dict[str, Any]) -> None:
    # API Gateway REST (v1) proxy event: the body is a JSON string.
    event = {"httpMethod": "POST", "path": "/run", "body": json.dumps(seed_request), "isBase64Encoded": False}
    status, doc = _answer(lambda_handler(event, None))
    assert status == 200
    RunResponse.model_validate(doc)
    agg = doc["aggregated_metrics"]
    assert (round(agg["pass_at_k"], 3), round(agg["pass_pow_k"], 3), agg["interpretation"]) == (
        0.963,
        0.296,
        "inconsistent",
    )
    assert doc["estimator"] == "plug-in" and doc["judge"]["default"] is True


def test_http_api_and_base64_and_direct_invocations_answer_alike(seed_request: dict[str, Any]) -> None:
    body = json.dumps(seed_request)
    http_api = {
        "rawPath": "/run",
        "requestContext": {"http": {"method": "POST"}},
        "body": base64.b64encode(body.encode()).decode(),
        "isBase64Encoded": True,
    }
    answers = [lambda_handler(http_api, None), lambda_handler(seed_request, None), lambda_handler({"body": body}, None)]
    metrics = [_answer(a)[1]["aggregated_metrics"] for a in answers]
    assert all(a["statusCode"] == 200 for a in answers)
    assert metrics[0] == metrics[1] == metrics[2]


def test_health() -> None:
    status, doc = _answer(lambda_handler({"rawPath": "/health", "requestContext": {"http": {"method": "GET"}}}, None))
    assert status == 200 and doc["status"] == "ok"
    assert "langchain_groq.chat_models.ChatGroq" in doc["class_paths"]


@pytest.mark.parametrize(
    ("event", "status", "place"),
    [
        ({"httpMethod": "POST", "body": '{"datasets": ['}, 400, "request body line 1"),
        ({"httpMethod": "POST", "body": '{"datasets": [{}], "config": {"k": 0}}'}, 422, "config.k"),
        ({"httpMethod": "POST", "body": '{"config": {"k": 3}}'}, 422, "datasets"),
        ({"httpMethod": "POST", "body": None}, 400, "request body"),
        ({"httpMethod": "POST", "body": "not base64!", "isBase64Encoded": True}, 400, "body"),
        ({"httpMethod": "PUT", "body": "{}"}, 405, "method"),
    ],
)
def test_bad_events_are_located_4xx(event: dict[str, Any], status: int, place: str) -> None:
    code, doc = _answer(lambda_handler(event, None))
    assert code == status
    ErrorResponse.model_validate(doc)
    assert doc["success"] is False and doc["errors"][0]["place"].startswith(place)
    assert "Traceback" not in doc["error"]


def test_an_event_that_is_not_an_object() -> None:
    code, doc = _answer(lambda_handler(["not", "an", "event"], None))  # type: ignore[arg-type]
    assert code == 400 and doc["errors"][0]["place"] == "event"


def test_limits_come_from_the_environment(seed_request: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_MAX_DATASETS", "2")
    lambda_service.cache_clear()
    code, doc = _answer(lambda_handler({"body": json.dumps(seed_request)}, None))
    assert code == 422 and doc["errors"][0]["place"] == "datasets" and "at most 2" in doc["error"]


def test_the_key_is_neither_echoed_nor_logged(seed_request: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    seed_request["connector"] = {"class_path": "os.system", "params": {"model": "m", "api_key": FAKE_KEY}}
    refused = {"body": json.dumps(seed_request)}
    seed_request["connector"] = {
        "class_path": "langchain_openai.chat_models.ChatOpenAI",
        "params": {"model": "m", "api_key": FAKE_KEY, "temperature": 9},
    }
    bad_param = {"body": json.dumps(seed_request)}
    with caplog.at_level(logging.DEBUG):
        answers = [lambda_handler(refused, None), lambda_handler(bad_param, None)]
    assert [a["statusCode"] for a in answers] == [422, 422]
    assert json.loads(answers[0]["body"])["allowed"][0].startswith("langchain_")
    for text in [a["body"] for a in answers] + [caplog.text]:
        assert FAKE_KEY not in text


def test_the_package_and_the_handler_do_not_import_the_web_server() -> None:
    # A Lambda package (and every library user) needs neither FastAPI nor uvicorn.
    code = "import sys, agentic_core; print(sorted(m for m in ('fastapi', 'uvicorn') if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2]
    )
    assert out.stdout.strip() == "[]"
