"""``POST /run``'s ``metadata``: the run's tags, note and metadata, checked before judging and echoed in the answer."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from agentic_core.runs import RunTags
from agentic_core.service import Service
from agentic_core.service.models import RunResponse


def _run(service: Service, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    reply = service.run(json.dumps(request))
    return reply.status, json.loads(reply.json_text())


def test_metadata_is_checked_and_echoed(service: Service, seed_request: dict[str, Any]) -> None:
    metadata = {"tags": ["nightly", "baseline", "nightly"], "note": " after the fix ", "model": "gpt-4o",
                "agent_version": "1.4.2"}  # fmt: skip
    status, doc = _run(service, {**seed_request, "metadata": metadata})
    assert status == 200, doc
    assert RunResponse.model_validate(doc).metadata is not None
    expected = RunTags.checked(["baseline", "nightly"], "after the fix", {"model": "gpt-4o", "agent_version": "1.4.2"})
    assert doc["metadata"] == expected.request_form()
    assert doc["metadata"]["tags"] == ["baseline", "nightly"]  # a set: sorted, once each
    assert not [w for w in doc["warnings"] if "ignored" in w]  # metadata is a request key, not an unknown one


def test_without_metadata_the_answer_is_as_before(service: Service, seed_request: dict[str, Any]) -> None:
    status, doc = _run(service, seed_request)
    assert status == 200 and "metadata" not in doc


@pytest.mark.parametrize(
    ("metadata", "place", "rule"),
    [
        (["nightly"], "metadata", "must be an object"),
        ({"tags": "nightly"}, "metadata.tags", "must be a list of strings"),
        ({"tags": ["ok", "two words"]}, "metadata.tags[1]", "one word"),
        ({"note": "x" * 2001}, "metadata.note", "at most 2,000 characters"),
        ({"model": 4}, "metadata.model", "must be a string"),
        ({"api_key": "abc"}, "metadata.api_key", "must not name a credential"),
        ({"model": "sk-abcdefghijklmnopqrstuvwxyz0123"}, "metadata.model", "must not hold a credential"),
        ({f"k{i}": "v" for i in range(21)}, "metadata.k20", "at most 20 metadata keys"),
    ],
)
def test_bad_metadata_is_a_located_422_and_never_echoes_a_secret(
    service: Service, seed_request: dict[str, Any], metadata: Any, place: str, rule: str
) -> None:
    status, doc = _run(service, {**seed_request, "metadata": metadata})
    assert status == 422, doc
    problem = doc["errors"][0]
    assert problem["place"] == place and rule in problem["rule"] and problem["fix"]
    assert "sk-abcdefghijklmnopqrstuvwxyz0123" not in json.dumps(doc)


def test_bad_metadata_costs_no_judging(
    service: Service, seed_request: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    evaluate_module = importlib.import_module("agentic_core.evaluate")  # the module, not the function it exports

    def no_judging(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("judged before the metadata was checked")

    monkeypatch.setattr(evaluate_module, "evaluate", no_judging)
    status, doc = _run(service, {**seed_request, "metadata": {"tags": ["two words"]}})
    assert status == 422 and doc["errors"][0]["place"] == "metadata.tags[0]"
