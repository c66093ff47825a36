"""A stop at the worst moment: conversations stored in the history while their spans were still in the spool."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from agentic_core.io.otlp_export import read_export
from agentic_core.live import LiveConfig, LiveIngest
from agentic_core.live.spool import LiveSpool
from agentic_core.runs import RunStore
from tests.live.otlp_docs import agent_document, protobuf_body


def _ingest(tmp_path: Path) -> LiveIngest:
    return LiveIngest(LiveConfig(runs_path=str(tmp_path / "runs.sqlite3"), spool_path=str(tmp_path / "spool.sqlite3"),
                                 judge="lexical"), None, "off")


def test_a_conversation_stored_just_before_a_crash_is_not_stored_twice(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    first = _ingest(tmp_path)
    assert first.receive(read_export(protobuf_body(agent_document("current", ["a", "b"])), "protobuf", 1000)) is None

    def crash(self: LiveSpool, traces: list[str], upto: int) -> None:
        raise OSError("the process died here")

    monkeypatch.setattr(LiveSpool, "forget", crash)
    assert first.step(time.time() + 3600) is None  # the failure is logged; the spans stay in the spool
    first.stop()
    store = RunStore(tmp_path / "runs.sqlite3")
    (meta,) = store.runs()
    assert meta.n_conversations == 2
    monkeypatch.undo()

    again = _ingest(tmp_path)  # the restart
    assert again.picked_up == 12
    # A new conversation arrives too: it is stored, the two already there are not stored again.
    assert again.receive(read_export(protobuf_body(agent_document("current", ["c"])), "protobuf", 1000)) is None
    outcome = again.step(time.time() + 3600)
    assert outcome is not None and outcome.stored == 1
    assert len(again.spool) == 0 and again.held == 0
    again.stop()
    (meta,) = store.runs()
    assert sorted(c["session_id"] for c in store.payload(meta.id).conversations) == ["a", "b", "c"]


def test_a_conversation_id_sent_again_after_it_was_judged_is_stored_under_a_new_id(tmp_path: Path) -> None:
    ingest = _ingest(tmp_path)
    for _ in range(3):
        # The same id each time (a user coming back after idle_s): new traces, the same conversation id.
        assert ingest.receive(read_export(protobuf_body(agent_document("current", ["same"])), "protobuf",
                                          1000)) is None
        ingest.step(time.time() + 3600)
    ingest.stop()
    store = RunStore(tmp_path / "runs.sqlite3")
    (meta,) = store.runs()
    assert [c["session_id"] for c in store.payload(meta.id).conversations] == ["same", "same (2)", "same (3)"]
    assert store.open(meta.id).n_conversations == 3  # the loader refuses repeated ids: none here
