"""The file importer and the live path share one mapping: the same spans give the same records.

The same export request is loaded as a file (``load_otel``, the reference file joined) and sent to the live path
(as OTLP JSON and as protobuf); the conversations the live run stores equal the file's, field for field, their
``trace`` steps' sources included. The cases: the scripted agent traced with the real SDK in both GenAI
conventions (multi-turn conversations across traces, tool calls, tokens), and a trace naming two conversation
ids beside a trace naming none.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agentic_core.io.otel_load import load_otel
from agentic_core.io.otlp_export import read_export
from agentic_core.live import LiveConfig, LiveIngest
from agentic_core.runs import RunStore
from agentic_core.runs.payload import conversation_dicts
from tests.live.otlp_docs import agent_document, golden_file, protobuf_body, tangled_document

IDS = ["conv-a", "conv-b", "conv-c"]
CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "sdk-current": lambda: agent_document("current", IDS),
    "sdk-v1.36": lambda: agent_document("v1.36", IDS),
    "split-and-lone-traces": tangled_document,
}


def _by_session(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(records, key=lambda r: r["session_id"])


def live_records(tmp_path: Path, body: bytes, encoding: str, references: Path | None) -> list[dict[str, Any]]:
    """The conversations the live path stores from one request (every conversation completed at once)."""
    config = LiveConfig(runs_path=str(tmp_path / "runs.sqlite3"), spool_path=str(tmp_path / "spool.sqlite3"),
                        judge="lexical", references=None if references is None else str(references))
    ingest = LiveIngest(config, None, "off")
    try:
        batch = read_export(body, encoding, 10_000)  # type: ignore[arg-type]
        assert batch.rejected == 0 and ingest.receive(batch) is None
        outcome = ingest.step(time.time() + 3600)  # an hour later: every conversation idle
        assert outcome is not None and outcome.left_out == 0
    finally:
        ingest.stop()
    store = RunStore(tmp_path / "runs.sqlite3")
    return [c for meta in store.runs() for c in store.payload(meta.id).conversations]


@pytest.mark.parametrize("encoding", ["json", "protobuf"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_file_importer_and_the_live_path_make_the_same_records(case: str, encoding: str, tmp_path: Path) -> None:
    document = CASES[case]()
    traces = tmp_path / "traces.json"
    traces.write_text(json.dumps(document), encoding="utf-8")
    golden = golden_file(tmp_path, IDS) if case.startswith("sdk") else None
    report = load_otel([traces], references=golden, workers=1)
    assert not report.skipped
    from_file = _by_session(conversation_dicts(report.conversations))
    body = protobuf_body(document) if encoding == "protobuf" else json.dumps(document).encode()
    live = _by_session(live_records(tmp_path / "live", body, encoding, golden))
    assert live == from_file
    assert len(live) == 3  # three conversations either way (c1, c2 and the lone trace in the tangled case)
    if golden is not None:  # the references were joined on both paths
        assert all(turn["ground_truth_assistant"] for conv in live for turn in conv["conversation"])
