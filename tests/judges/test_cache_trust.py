"""The judge cache under attack: echoed keys, newer files, read-only files, huge or broken reasoning."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentic_core.common import secrets
from agentic_core.judges.base import Verdict
from agentic_core.judges.cache import ENV_VAR, SCHEMA_VERSION, JudgeCache
from agentic_core.judges.llm.reply_text import MAX_REASONING_CHARS

KEY_A = "sk-caller-A-0123456789abcdef"


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    secrets.forget_secrets()
    yield
    secrets.forget_secrets()


def _raw_rows(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT key, reasoning FROM verdicts ORDER BY key").fetchall()


def test_a_registered_key_is_masked_before_it_is_stored(tmp_path: Path) -> None:
    secrets.register_secret(KEY_A)
    cache = JudgeCache(tmp_path / "c.sqlite3")
    cache.put_many([("k", Verdict(score=0.5, reasoning=f"header was Bearer {KEY_A}, fine"))])
    cache.close()
    (row,) = _raw_rows(tmp_path / "c.sqlite3")
    assert row == ("k", f"header was Bearer {secrets.MASK}, fine")


def test_an_environment_key_is_masked_before_it_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_VENDOR_API_KEY", "env-key-9f8e7d6c5b4a")
    cache = JudgeCache(tmp_path / "c.sqlite3")
    cache.put_many([("k", Verdict(score=0.5, reasoning="echo env-key-9f8e7d6c5b4a"))])
    cache.close()
    assert _raw_rows(tmp_path / "c.sqlite3") == [("k", f"echo {secrets.MASK}")]


def test_a_stored_reasoning_holding_a_known_key_is_never_served(tmp_path: Path) -> None:
    # As an older version (or a key registered later) left it: the raw row holds the key.
    cache = JudgeCache(tmp_path / "c.sqlite3")
    cache.put_many([("leaky", Verdict(score=0.9, reasoning=f"Authorization: Bearer {KEY_A}"))])
    cache.put_many([("clean", Verdict(score=0.8, reasoning="same facts"))])
    assert set(cache.get_many(["leaky", "clean"])) == {"leaky", "clean"}  # not known yet: served
    secrets.register_secret(KEY_A)
    found = cache.get_many(["leaky", "clean"])
    assert set(found) == {"clean"}  # a miss: the item is judged again
    assert cache.contains_many(["leaky"]) == {"leaky"}


def test_reasoning_is_clipped_with_a_note_and_broken_unicode_never_loses_the_batch(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    long = "x" * (MAX_REASONING_CHARS * 3)
    stored = cache.put_many(
        [
            ("long", Verdict(score=0.5, reasoning=long)),
            ("bad", Verdict(score=0.5, reasoning="lone \ud800 surrogate")),
            ("good", Verdict(score=0.5, reasoning="fine")),
        ]
    )
    assert stored == 3
    found = cache.get_many(["long", "bad", "good"])
    assert found["good"].reasoning == "fine"
    assert found["bad"].reasoning == "lone \\ud800 surrogate"
    text = found["long"].reasoning
    assert text.startswith("x" * (MAX_REASONING_CHARS - 200)) and len(text) <= MAX_REASONING_CHARS
    kept = text.index(" [")
    assert "clipped" in text and f"{MAX_REASONING_CHARS * 3 - kept:,} more characters" in text


def _fill(path: Path, n: int) -> None:
    cache = JudgeCache(path)
    cache.put_many([(f"k{i}", Verdict(score=0.5, reasoning=f"r{i}")) for i in range(n)])
    cache.close()


def _set_version(path: Path, version: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {version}")


def test_a_cache_from_a_newer_version_is_refused_and_never_emptied(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    _fill(path, 2000)
    _set_version(path, SCHEMA_VERSION + 1)
    cache = JudgeCache(path)
    assert cache.get_many(["k1"]) == {}  # not read: another version's layout is not guessed at
    cache.put_many([("new", Verdict(score=0.5))])
    assert cache.path is None  # in memory
    (warning,) = cache.drain_warnings()
    assert "newer workbench" in warning and f"cache schema {SCHEMA_VERSION + 1}" in warning
    assert ENV_VAR in warning and "in-memory" in warning
    cache.close()
    # Every verdict is still there, and the version is untouched.
    assert len(_raw_rows(path)) == 2000
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


_READER = """
import json, sys
from pathlib import Path
from agentic_core.judges.base import Verdict
from agentic_core.judges.cache import JudgeCache

cache = JudgeCache(Path(sys.argv[1]))
hits = cache.get_many([f"k{i}" for i in range(5)])
stored = cache.put_many([("new", Verdict(score=0.5, reasoning="new"))])
print(json.dumps({"hits": len(hits), "stored": stored, "read_only": cache._read_only,
                  "persistent": cache.path is not None, "warnings": cache.warnings}))
"""


def _unprivileged() -> list[str]:
    """A prefix running the child as an ordinary user when we are root (root writes read-only files)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made read-only for us")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.mark.parametrize("folder_writable", [True, False])
def test_a_read_only_cache_is_read_with_a_warning(folder_writable: bool) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ro-cache-"))  # not under tmp_path: the child user must reach it
    try:
        path = folder / "c.sqlite3"
        _fill(path, 5)
        path.chmod(0o444)
        folder.chmod(0o777 if folder_writable else 0o555)
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        done = subprocess.run(
            [*_unprivileged(), sys.executable, "-c", _READER, str(path)],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            cwd=folder,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["hits"] == 5 and report["stored"] == 0
        assert report["read_only"] is True and report["persistent"] is True
        (warning,) = report["warnings"]
        assert "read-only" in warning and "not be kept" in warning and ENV_VAR in warning
        assert len(_raw_rows(path)) == 5
    finally:
        folder.chmod(0o755)
        for child in folder.iterdir():
            child.chmod(0o644)
            child.unlink()
        folder.rmdir()


def test_a_huge_reasoning_stored_by_an_older_version_is_served_clipped(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    cache.put_many([("k", Verdict(score=0.5, reasoning="short"))])
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        db.execute("UPDATE verdicts SET reasoning = ? WHERE key = 'k'", ("y" * 5_000_000,))
    reasoning = cache.get_many(["k"])["k"].reasoning
    assert len(reasoning) <= MAX_REASONING_CHARS and "clipped" in reasoning
