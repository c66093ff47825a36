"""Tests of agentic_core.io.load_report: the summary line, the issues frame and raise_if_empty."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_core.errors import DataError
from agentic_core.io.loader import load_bytes, load_records
from tests.io.conftest import (
    as_json,
    conversation,
)


def test_summary_frame_and_raise_if_empty() -> None:
    report = load_bytes("all_bad.json", as_json([conversation(""), "x"]))
    assert report.summary() == "1 file, 2 records: 0 loaded, 2 skipped (see issues), 0 warnings"
    frame = report.to_frame()
    assert list(frame.columns) == [
        "severity",
        "file",
        "record",
        "line",
        "column",
        "session_id",
        "path",
        "rule",
        "value",
        "fix",
        "message",
    ]
    assert frame["record"].tolist() == [0, 1] and str(frame["record"].dtype) == "Int64"
    with pytest.raises(DataError) as info:
        report.raise_if_empty()
    text = str(info.value)
    assert (
        "all 2 records were skipped; first problem: all_bad.json record 0, session_id: must not be empty"
        in text
    )
    assert "Fix: fix the listed errors" in text
    assert load_bytes("ok.json", as_json([conversation()])).raise_if_empty().conversations
    assert load_records([conversation()]).to_frame().empty


def test_the_no_conversation_error_says_fix_once(tmp_path: Path) -> None:
    # Issue 25: the first problem's own fix was quoted inside a message that added another "Fix:".
    from agentic_core.errors import DataError
    from agentic_core.io.loader import load_paths

    with pytest.raises(DataError) as info:
        load_paths([tmp_path / "missing.json"]).raise_if_empty()
    assert str(info.value).count("Fix:") == 1 and "check the path" in str(info.value)
