"""Tests of agentic_core.io.request: the seed-001 request format (only ``datasets`` is loaded, the
other keys are noted) and its credentials (reported by path, never shown)."""

from __future__ import annotations

import json

from agentic_core.io.loader import load_bytes, load_paths
from tests.io.conftest import (
    DATA,
    SECRET,
    as_json,
    conversation,
    only_error,
)


def test_request_object_takes_datasets_and_notes_other_keys() -> None:
    request = {"datasets": [conversation("a"), conversation("b")], "config": {"k": 3}, "connector": {}}
    report = load_bytes("request.json", as_json(request))
    assert [c.session_id for c in report.conversations] == ["a", "b"]
    assert report.ok and not report.warnings
    (note,) = report.notes
    assert note.severity == "info"
    assert "'config', 'connector'" in note.rule and "only 'datasets' is loaded" in note.rule


def test_request_without_datasets_list_is_an_error() -> None:
    report = load_bytes("request.json", as_json({"datasets": {"a": 1}, "config": {}}))
    issue = only_error(report)
    assert issue.path == "datasets"
    assert "must be a list (JSON array) of conversations, not an object" in issue.rule
    assert not report.conversations


def test_seed_001_request_loads_and_warns_about_its_api_key() -> None:
    report = load_paths([DATA / "seed_001_request.json"])
    assert [c.session_id for c in report.conversations] == ["conversation_001", "conversation_002"]
    assert report.n_interactions == 3
    assert report.ok
    (warning,) = report.warnings
    assert warning.path == "connector.params.api_key"
    assert "contains a credential" in warning.rule and "revoke" in warning.fix
    assert "your-groq-api-key" not in warning.message()


def test_api_key_never_appears_in_any_message() -> None:
    request = json.loads((DATA / "seed_001_request.json").read_text())
    request["connector"]["params"]["api_key"] = SECRET
    request["connector"]["token"] = SECRET
    request["datasets"].append({"session_id": "bad", "assistant_id": {"api_key": SECRET}, "conversation": []})
    request["datasets"].append("not an object " + "x" * 10)
    report = load_bytes("request.json", as_json(request, indent=2))
    assert report.errors, "the bad records must be reported"
    texts = [i.message() for i in report.issues] + [s.message for s in report.skipped]
    texts += [report.summary(), report.to_frame().to_string(), repr(report.issues)]
    assert not any(SECRET in t for t in texts)
    # The record whose own field holds a key is still explained (the value is masked).
    assistant = next(i for i in report.errors if i.path == "assistant_id")
    assert "'***'" in (assistant.value or "")
