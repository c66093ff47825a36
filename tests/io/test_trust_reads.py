"""Issue 23 probes on reading data files: CR-only line endings, endless devices, zero-filled
(sparse) files and files past the limit are refused while reading, with the real cause named."""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from agentic_core.io.loader import load_bytes, load_paths
from tests.io.conftest import as_jsonl, conversation, interaction


def test_cr_only_line_endings_are_read_as_json_lines() -> None:
    records = [conversation("a", interaction()), conversation("b", interaction())]
    data = as_jsonl(records).replace(b"\n", b"\r")
    report = load_bytes("old-mac.jsonl", data)
    assert report.ok, report.issues
    assert [c.session_id for c in report.conversations] == ["a", "b"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_as_a_device_without_reading() -> None:
    tracemalloc.start()
    try:
        report = load_paths(["/dev/zero"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not report.ok
    messages = " ".join(issue.rule for issue in report.issues)
    assert "character device" in messages
    assert peak < 16 * 1024 * 1024


def test_sparse_zero_file_is_named_zeros_and_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "sparse.jsonl"
    with path.open("wb") as handle:
        handle.truncate(512 * 1024 * 1024)  # sparse: no disk used
    tracemalloc.start()
    try:
        report = load_paths([path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    messages = " ".join(issue.rule for issue in report.issues)
    assert "zero bytes" in messages and "UTF-16" not in messages
    assert peak < 16 * 1024 * 1024


def test_file_past_the_limit_is_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_MAX_FILE_MB", "1")
    path = tmp_path / "big.jsonl"
    line = as_jsonl([conversation("a", interaction())])
    path.write_bytes(line * (2 * 1024 * 1024 // len(line) + 1))
    report = load_paths([path])
    assert not report.ok
    messages = " ".join(issue.rule for issue in report.issues)
    assert "limit per data file is 1 MB" in messages


def test_pipe_past_the_limit_stops_at_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agentic_core.io.bounded_read import UnreadableFile, read_data_file

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def write() -> None:  # far more than the limit; the reader hanging up ends it
        try:
            with open(fifo, "wb") as out:
                for _ in range(64):
                    out.write(b"[" + b" " * (1024 * 1024))
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    with pytest.raises(UnreadableFile, match="reading stopped"):
        read_data_file(fifo, limit_mb=2)
    writer.join(timeout=10)
    assert not writer.is_alive()
