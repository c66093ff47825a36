"""The pure request -> response function: seed 001's numbers, defaults, settings, every bad request."""

from __future__ import annotations

import copy
import importlib
import json
import logging
from typing import Any

import pytest

from agentic_core.service import Service, ServiceConfig, run_request
from agentic_core.service.models import ErrorResponse, RunResponse
from tests.service.conftest import FAKE_KEY


def _run(service: Service, request: Any) -> tuple[int, dict[str, Any]]:
    body = request if isinstance(request, (bytes, str)) else json.dumps(request)
    reply = service.run(body)
    # What goes on the wire is the masked JSON text: read that, not the dict.
    return reply.status, json.loads(reply.json_text())


def test_seed001_example_gives_the_seeds_numbers(service: Service, seed_request: dict[str, Any]) -> None:
    status, doc = _run(service, seed_request)
    assert status == 200
    RunResponse.model_validate(doc)
    agg = doc["aggregated_metrics"]
    assert agg["total_conversations"] == 3
    assert agg["fully_correct_conversations"] == 2
    assert agg["conversation_success_rate"] == pytest.approx(2 / 3)
    assert agg["k"] == 3
    # Seed 001's example response: pass@3 0.9630, pass^3 0.2963, "inconsistent".
    assert round(agg["pass_at_k"], 3) == 0.963
    assert round(agg["pass_pow_k"], 3) == 0.296
    assert agg["pass_at_k"] == pytest.approx(1 - (1 / 3) ** 3)
    assert agg["pass_pow_k"] == pytest.approx((2 / 3) ** 3)
    assert agg["interpretation"] == "inconsistent"
    # The response names how the numbers were made.
    assert (doc["estimator"], doc["unit"], doc["mode"], doc["target"]) == (
        "plug-in",
        "conversation",
        "frequentist",
        "population",
    )
    lo, hi = doc["intervals"]["pass_at_k"]
    assert lo <= agg["pass_at_k"] <= hi
    assert doc["judge"]["default"] is True
    assert doc["judge"]["source"] == "offline default judge (no connector)"
    assert doc["unscored"]["interactions"] == 0


def test_per_conversation_metrics_have_the_seed_fields(service: Service, seed_request: dict[str, Any]) -> None:
    _, doc = _run(service, seed_request)
    first, second, third = doc["per_conversation_metrics"]
    assert first["session_id"] == "conversation_001"
    assert (first["total_interactions"], first["correct_interactions"], first["is_fully_correct"]) == (2, 2, True)
    assert first["threshold"] == 0.7
    assert first["correct_indices"] == [0, 1]
    assert first["tool_correctness_scores"][0]["is_correct"] is True
    assert first["tool_correctness_scores"][1] is None
    assert second["is_fully_correct"] is True
    assert third["is_fully_correct"] is False and third["correct_indices"] == []
    assert "judge_reasoning" not in first  # only with verbose


def test_verbose_adds_the_judge_reasoning(service: Service, seed_request: dict[str, Any]) -> None:
    seed_request["config"]["verbose"] = True
    _, doc = _run(service, seed_request)
    assert len(doc["per_conversation_metrics"][0]["judge_reasoning"]) == 2


def test_unbiased_estimator_on_request(service: Service, seed_request: dict[str, Any]) -> None:
    seed_request["config"]["estimator"] = "unbiased"
    status, doc = _run(service, seed_request)
    assert status == 200
    agg = doc["aggregated_metrics"]
    assert doc["estimator"] == "unbiased"
    # n = 3, c = 2, k = 3: 1 - C(1,3)/C(3,3) = 1 and C(2,3)/C(3,3) = 0.
    assert agg["pass_at_k"] == pytest.approx(1.0)
    assert agg["pass_pow_k"] == pytest.approx(0.0)


def test_statistics_settings_reach_the_aggregate(service: Service, seed_request: dict[str, Any]) -> None:
    seed_request["config"].update(
        mode="bayesian",
        ci_level=0.9,
        k=2,
        prior="jeffreys",
        tool_weights={"selection": 1, "parameters": 0, "sequence": 0, "utilization": 0},
    )
    status, doc = _run(service, seed_request)
    assert status == 200
    assert doc["mode"] == "bayesian" and doc["intervals"]["level"] == 0.9
    assert doc["aggregated_metrics"]["k"] == 2
    assert doc["settings"]["prior_a"] == 0.5
    assert doc["settings"]["tool_weights"]["selection"] == 1


def test_offline_judge_by_name(service: Service, seed_request: dict[str, Any]) -> None:
    for conv in seed_request["datasets"]:
        for turn in conv["conversation"]:
            turn["score"] = 0.9
    seed_request["config"]["judge"] = "dataset"
    status, doc = _run(service, seed_request)
    assert status == 200
    assert doc["judge"]["kind"] == "dataset" and doc["judge"]["default"] is False
    assert doc["aggregated_metrics"]["fully_correct_conversations"] == 3


def _error(status: int, doc: dict[str, Any], place: str) -> dict[str, Any]:
    ErrorResponse.model_validate(doc)
    assert doc["success"] is False
    assert doc["status"] == status
    assert "Traceback" not in doc["error"]
    problem = doc["errors"][0]
    assert problem["place"].startswith(place), problem
    assert problem["rule"] and problem["message"]
    return problem


def _without(request: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in request.items() if k != key}


def _with_config(request: dict[str, Any], **values: Any) -> dict[str, Any]:
    out = copy.deepcopy(request)
    out["config"].update(values)
    return out


BAD_REQUESTS: list[tuple[str, Any, int, str]] = [
    ("missing datasets", lambda r: _without(r, "datasets"), 422, "datasets"),
    ("empty datasets", lambda r: {**r, "datasets": []}, 422, "datasets"),
    ("datasets not a list", lambda r: {**r, "datasets": {"a": 1}}, 422, "datasets"),
    ("k = 0", lambda r: _with_config(r, k=0), 422, "config.k"),
    ("k = true", lambda r: _with_config(r, k=True), 422, "config.k"),
    ("k = 2.5", lambda r: _with_config(r, k=2.5), 422, "config.k"),
    ("threshold 7", lambda r: _with_config(r, threshold=7), 422, "config.threshold"),
    ("threshold as text", lambda r: _with_config(r, threshold="0.7"), 422, "config.threshold"),
    ("tool_threshold -1", lambda r: _with_config(r, tool_threshold=-1), 422, "config.tool_threshold"),
    ("negative tool weight", lambda r: _with_config(r, tool_weights={"selection": -1}), 422, "config.tool_weights"),
    (
        "tool weights whose sum overflows",
        lambda r: _with_config(r, tool_weights={"selection": 1e308, "parameters": 1e308}),
        422,
        "config.tool_weights",
    ),
    ("unknown estimator", lambda r: _with_config(r, estimator="plugin"), 422, "config.estimator"),
    ("ci_level 1.5", lambda r: _with_config(r, ci_level=1.5), 422, "config.ci_level"),
    ("bad prior", lambda r: _with_config(r, prior="flat"), 422, "config.prior"),
    ("unknown config key", lambda r: _with_config(r, treshold=0.5), 422, "config.treshold"),
    ("config not an object", lambda r: {**r, "config": [1]}, 422, "config"),
    ("connector not an object", lambda r: {**r, "connector": "ChatOpenAI"}, 422, "connector"),
    ("connector extra field", lambda r: {**r, "connector": {"class_path": "x", "cls": 1}}, 422, "connector.cls"),
    ("connector without class_path", lambda r: {**r, "connector": {"params": {}}}, 422, "connector.class_path"),
    ("offline judge unknown", lambda r: _with_config(r, judge="gpt"), 422, "config.judge"),
    ("body a list", lambda r: [r], 422, "request body"),
    ("body a number", lambda r: 3, 422, "request body"),
]


@pytest.mark.parametrize(("name", "make", "status", "place"), BAD_REQUESTS, ids=[b[0] for b in BAD_REQUESTS])
def test_bad_requests_are_located_4xx(
    service: Service, seed_request: dict[str, Any], name: str, make: Any, status: int, place: str
) -> None:
    got, doc = _run(service, make(seed_request))
    assert got == status, doc
    _error(status, doc, place)


def test_unknown_config_key_suggests_the_right_one(service: Service, seed_request: dict[str, Any]) -> None:
    _, doc = _run(service, _with_config(seed_request, treshold=0.5))
    assert "did you mean 'threshold'" in doc["errors"][0]["fix"]


def test_threshold_7_names_the_rule_and_value(service: Service, seed_request: dict[str, Any]) -> None:
    _, doc = _run(service, _with_config(seed_request, threshold=7))
    problem = doc["errors"][0]
    assert problem["place"] == "config.threshold"
    assert "between 0 and 1" in problem["rule"] and problem["value"] in ("7", "7.0")
    assert problem["fix"]


@pytest.mark.parametrize(
    ("body", "place"),
    [
        (b'{"datasets": [', "request body line 1"),
        (b"{'datasets': []}", "request body line 1"),
        (b"", "request body"),
        (b"   ", "request body"),
        (b'{"datasets": "\xff"}', "request body"),
    ],
)
def test_malformed_bodies_are_400(service: Service, body: bytes, place: str) -> None:
    status, doc = _run(service, body)
    assert status == 400
    _error(400, doc, place)


def test_a_record_without_query_is_the_loaders_located_issue(service: Service, seed_request: dict[str, Any]) -> None:
    del seed_request["datasets"][1]["conversation"][0]["query"]
    status, doc = _run(service, seed_request)
    assert status == 422
    problem = _error(422, doc, "datasets record 1")
    assert "conversation[0].query" in problem["place"]
    assert "skip_invalid" in doc["error"]


def test_skip_invalid_evaluates_the_rest_and_lists_the_issue(service: Service, seed_request: dict[str, Any]) -> None:
    del seed_request["datasets"][1]["conversation"][0]["query"]
    seed_request["config"]["skip_invalid"] = True
    status, doc = _run(service, seed_request)
    assert status == 200
    assert doc["aggregated_metrics"]["total_conversations"] == 2
    errors = [i for i in doc["issues"] if i["severity"] == "error"]
    assert len(errors) == 1 and "conversation[0].query" in errors[0]["place"]


def test_unknown_record_keys_are_warnings_in_a_200(service: Service, seed_request: dict[str, Any]) -> None:
    seed_request["datasets"][0]["sesion_note"] = "x"
    seed_request["extra"] = 1
    status, doc = _run(service, seed_request)
    assert status == 200
    assert any(i["severity"] == "warning" and "sesion_note" in i["message"] for i in doc["issues"])
    assert any("extra" in w for w in doc["warnings"])


def test_nan_score_is_located_by_the_loader(service: Service) -> None:
    body = (
        b'{"datasets": [{"session_id": "s", "assistant_id": "a", "conversation": [{"qa_id": "q", "query": "x",'
        b' "assistant": "y", "ground_truth_assistant": "y", "score": NaN}]}]}'
    )
    status, doc = _run(service, body)
    assert status == 422
    _error(422, doc, "datasets record 0")


def test_body_size_limit_is_413() -> None:
    service = Service(ServiceConfig(max_body_bytes=2048, cache_mode="off"))
    status, doc = _run(service, b"{" + b" " * 4096 + b"}")
    assert status == 413
    _error(413, doc, "request body")


def test_dataset_count_limit_is_422(seed_request: dict[str, Any]) -> None:
    service = Service(ServiceConfig(max_datasets=2, cache_mode="off"))
    status, doc = _run(service, seed_request)
    assert status == 422
    problem = _error(422, doc, "datasets")
    assert "at most 2" in problem["rule"]


def test_interaction_count_limit_is_422(seed_request: dict[str, Any]) -> None:
    service = Service(ServiceConfig(max_interactions=3, cache_mode="off"))
    status, doc = _run(service, seed_request)
    assert status == 422
    assert "at most 3 interactions" in doc["errors"][0]["rule"]


def test_unexpected_failure_is_a_generic_500_with_the_key_masked_in_the_log(
    service: Service, seed_request: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    evaluate_module = importlib.import_module("agentic_core.evaluate")  # the module, not the function

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"provider said: bad key {FAKE_KEY}")

    monkeypatch.setattr(evaluate_module, "evaluate", boom)
    seed_request["connector"] = {
        "class_path": "langchain_openai.chat_models.ChatOpenAI",
        "params": {"model": "gpt-4o-mini", "api_key": FAKE_KEY},
    }
    with caplog.at_level(logging.DEBUG):
        reply = service.run(json.dumps(seed_request))
    assert reply.status == 500
    text = reply.json_text()
    assert FAKE_KEY not in text and "RuntimeError" not in text and "Traceback" not in text
    assert "incident" in json.loads(text)["error"]
    assert "RuntimeError" in caplog.text  # the details are in the server log...
    assert FAKE_KEY not in caplog.text  # ...without the key


def test_run_request_convenience(seed_request: dict[str, Any]) -> None:
    reply = run_request(json.dumps(seed_request), ServiceConfig(cache_mode="off"))
    assert reply.status == 200
    assert reply.json_bytes().startswith(b"{")


def test_service_config_from_env() -> None:
    config = ServiceConfig.from_env(
        {"AGENTIC_MAX_BODY_MB": "1", "AGENTIC_MAX_DATASETS": "5", "AGENTIC_ALLOW_ENV_KEYS": "true"}
    )
    assert (config.max_body_bytes, config.max_datasets, config.allow_env_keys) == (1024 * 1024, 5, True)
    from agentic_core.errors import SettingsError

    with pytest.raises(SettingsError, match="AGENTIC_MAX_DATASETS"):
        ServiceConfig.from_env({"AGENTIC_MAX_DATASETS": "many"})
    with pytest.raises(SettingsError, match="cache_mode"):
        ServiceConfig.from_env({"AGENTIC_SERVICE_CACHE": "sometimes"})


def test_an_undefined_headline_says_why(service: Service, seed_request: dict[str, Any]) -> None:
    # The unbiased estimator needs n >= k attempts: 3 conversations cannot give pass@5.
    seed_request["config"].update(estimator="unbiased", k=5)
    status, doc = _run(service, seed_request)
    assert status == 200
    assert doc["aggregated_metrics"]["pass_at_k"] is None and doc["aggregated_metrics"]["pass_pow_k"] is None
    assert any("null at k = 5" in w and "n >= K = 5" in w for w in doc["warnings"])
    seed_request["config"].update(estimator="plug-in")
    assert not any("null at k" in w for w in _run(service, seed_request)[1]["warnings"])


def test_unit_auto_on_one_attempt_conversations_gives_null_pass_at_k_and_says_why(
    service: Service, seed_request: dict[str, Any]
) -> None:
    # Issue 36: the three conversations are different tasks with one attempt each. The default unit
    # ('conversation', chosen) declares them attempts at one task: seed 001's numbers. 'auto' does not.
    status, doc = _run(service, seed_request)
    assert status == 200 and doc["aggregated_metrics"]["not_measured"] is None
    assert doc["aggregated_metrics"]["pass_at_k"] == pytest.approx(1 - (1 / 3) ** 3)
    seed_request["config"].update(unit="auto")
    status, doc = _run(service, seed_request)
    assert status == 200 and doc["unit"] == "conversation"
    agg = doc["aggregated_metrics"]
    assert (agg["pass_at_k"], agg["pass_pow_k"], agg["pass_at_k_ci"], agg["interpretation"]) == (None,) * 4
    assert agg["success_rate"] == pytest.approx(2 / 3) and "every task has one attempt" in agg["not_measured"]
    assert any(w.startswith("pass_at_k and pass_pow_k are null at k = 3: pass@3 and pass^3 are not measured")
               for w in doc["warnings"])  # fmt: skip
