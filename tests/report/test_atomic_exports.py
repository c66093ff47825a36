"""``--out`` files are written whole or not at all (issue 23): a full disk leaves no half-written CSV.

The full disk is simulated in-process: every binary write through ``io.open`` (what ``Path.write_bytes``
and ``os.fdopen`` both use) writes half its bytes, then fails with ``ENOSPC`` as a full disk does.
"""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path
from typing import Any

import pytest

from agentic_core.common.atomic_file import OutputError, write_atomic
from agentic_core.evaluate import aggregate
from agentic_core.report import write_exports
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings


class _HalfThenFull(io.RawIOBase):
    """A binary file that takes half of what it is given, then reports a full disk."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._real.write(bytes(data)[: max(1, len(data) // 2)])
        self._real.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def fileno(self) -> int:
        return int(self._real.fileno())

    def close(self) -> None:
        self._real.close()
        super().close()


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = io.open

    def opener(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        return _HalfThenFull(handle) if "w" in mode and "b" in mode else handle

    monkeypatch.setattr(io, "open", opener)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_write_atomic_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "file.csv"
    write_atomic(target, b"old")
    write_atomic(target, b"new content")
    assert target.read_bytes() == b"new content"
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)  # not the temp file's private 0600
    assert _leftovers(target.parent) == []


def test_full_disk_leaves_the_old_file_and_no_temporary(tmp_path: Path, full_disk: None) -> None:
    target = tmp_path / "interactions.csv"
    target.write_text("old", encoding="utf-8")  # text mode: not hit by the simulated full disk
    with pytest.raises(OutputError) as caught:
        write_atomic(target, b"a,b\n" * 1000)
    message = str(caught.value)
    assert str(target) in message and "No space left" in message and "free some disk space" in message
    assert target.read_text(encoding="utf-8") == "old"
    assert _leftovers(tmp_path) == []


def test_write_exports_on_a_full_disk_is_a_clean_error_and_no_half_csv(
    tmp_path: Path, seeds: EvaluationResult, full_disk: None
) -> None:
    agg = aggregate(seeds, make_settings(threshold=seeds.recommended_threshold))
    (tmp_path / "interactions.csv").write_text("old", encoding="utf-8")
    with pytest.raises(OutputError, match=r"interactions\.csv"):
        write_exports(seeds, agg, tmp_path)
    assert (tmp_path / "interactions.csv").read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["interactions.csv"]


def test_out_under_a_file_is_a_clean_error(tmp_path: Path, seeds: EvaluationResult) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    agg = aggregate(seeds, make_settings(threshold=seeds.recommended_threshold))
    with pytest.raises(OutputError, match="--out"):
        write_exports(seeds, agg, blocker / "out")


def test_a_link_is_followed_and_a_device_is_written_in_place(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_bytes(b"old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    assert write_atomic(link, b"new") == link
    assert link.is_symlink() and real.read_bytes() == b"new"
    devnull = Path(os.devnull)
    write_atomic(devnull, b"discarded")  # not replaced by a regular file
    assert devnull.exists() and not devnull.is_file()
