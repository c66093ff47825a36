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


def test_a_server_that_stores_runs_keeps_each_answered_run_with_its_tags_and_labels(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, seed_request: dict[str, Any]
) -> None:
    from agentic_core.runs import RunStore
    from agentic_core.service.config import ServiceConfig

    history = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(history))
    service = Service(ServiceConfig(cache_path=str(tmp_path / "cache.sqlite3"), store_runs=True))
    labels = [{"session_id": seed_request["datasets"][0]["session_id"], "label": 1}]
    request = {**seed_request, "metadata": {"tags": ["nightly"], "model": "gpt-4o"}, "labels": labels}
    status, doc = _run(service, request)
    assert status == 200, doc
    assert RunResponse.model_validate(doc).run_id == doc["run_id"]
    store = RunStore(history)
    (meta,) = store.runs()
    assert meta.id == doc["run_id"] and meta.tags == ["nightly"] and meta.metadata == {"model": "gpt-4o"}
    assert [label.label for label in store.labels(meta.id)] == [1.0]
    # The stored run reads back as answered: the same conversations.
    assert store.open(meta.id).n_conversations == len(doc["per_conversation_metrics"])


def test_a_history_that_cannot_be_written_costs_no_answer(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, seed_request: dict[str, Any]
) -> None:
    from agentic_core.service.config import ServiceConfig

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(blocker / "runs.sqlite3"))  # a folder that is a file
    service = Service(ServiceConfig(cache_path=str(tmp_path / "cache.sqlite3"), store_runs=True))
    status, doc = _run(service, seed_request)
    assert status == 200 and doc["run_id"] is None
    assert any(w.startswith("the run was not stored in the history") for w in doc["warnings"]), doc["warnings"]
    assert doc["per_conversation_metrics"]  # the results all the same


def test_without_store_runs_no_run_is_kept(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, service: Service, seed_request: dict[str, Any]
) -> None:
    history = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(history))
    status, doc = _run(service, seed_request)
    assert status == 200 and "run_id" not in doc and not history.exists()
