"""``POST /run`` with ``labels``: the corrected block (the same builder as the CLI's), the request's limits, located
errors; a request without labels is answered exactly as before (issue 37)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.data.labels import HumanLabel
from agentic_core.evaluate import evaluate
from agentic_core.service import Service, ServiceConfig
from agentic_core.service.models import RunConfig, RunResponse
from agentic_core.service.run import aggregate_settings

TRAVEL = Path(__file__).resolve().parents[2] / "sample_data" / "travel_agent.jsonl"


def _request() -> dict[str, Any]:
    datasets = [json.loads(line) for line in TRAVEL.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {"datasets": datasets, "config": {"judge": "dataset", "seed": 5}}


def _labels() -> list[dict[str, Any]]:
    sessions = [d["session_id"] for d in _request()["datasets"]]
    return [{"session_id": s, "label": int(i % 3 != 0)} for i, s in enumerate(sessions) if i % 2 == 0]


def _run(service: Service, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    reply = service.run(json.dumps(request))
    return reply.status, json.loads(reply.json_text())


def test_labels_in_the_request_add_the_corrected_block(service: Service) -> None:
    request = {**_request(), "labels": [*_labels(), {"session_id": "nobody", "qa_id": "q", "label": 0}]}
    status, doc = _run(service, request)
    assert status == 200, doc
    RunResponse.model_validate(doc)
    block = doc["corrected"]
    assert block["n_labels"] == 21 and block["unmatched"] == 1 and block["n_labelled"] == 20
    assert not any("ignored" in w for w in doc["warnings"])  # 'labels' is a request key now
    # The same block as the core builds for the same data, settings and labels (evaluate --json prints it too).
    result = evaluate(TRAVEL, "dataset", cache_mode="off")
    result.labels = [HumanLabel(**x, source="endpoint") for x in request["labels"]]
    settings = aggregate_settings(RunConfig.model_validate(request["config"]), result.recommended_threshold)
    reading = aggregate(result, settings).corrected
    assert reading is not None
    assert block == json.loads(json.dumps(reading.as_json()))


def test_without_labels_the_answer_is_as_before(service: Service) -> None:
    status, doc = _run(service, _request())
    assert status == 200 and "corrected" not in doc
    status, doc = _run(service, {**_request(), "labels": []})  # asked for, none given: null
    assert status == 200 and doc["corrected"] is None


@pytest.mark.parametrize(
    ("labels", "place"),
    [
        ({"session_id": "s", "label": 1}, "labels"),
        ([{"session_id": "s", "label": 2}], "labels[0].label"),
        ([{"session_id": "s", "label": 1}, {"label": 1}], "labels[1].session_id"),
        ([{"session_id": "s", "label": 1, "source": "data"}], "labels[0].source"),
    ],
)
def test_a_bad_label_is_a_422_at_its_place(service: Service, labels: Any, place: str) -> None:
    status, doc = _run(service, {**_request(), "labels": labels})
    assert status == 422
    assert doc["errors"][0]["place"] == place


def test_labels_are_capped_like_the_other_request_limits(tmp_path: Path) -> None:
    service = Service(ServiceConfig(cache_path=str(tmp_path / "cache.sqlite3"), max_labels=5))
    status, doc = _run(service, {**_request(), "labels": _labels()})
    assert status == 422
    assert doc["errors"][0]["place"] == "labels" and "at most 5 labels" in doc["error"]
    assert ServiceConfig.from_env({"AGENTIC_MAX_LABELS": "7"}).max_labels == 7
