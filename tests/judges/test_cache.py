"""The SQLite judge cache: keys, round trips, corruption, unwritable locations, concurrency."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import platformdirs
import pytest

from agentic_core.errors import CacheError
from agentic_core.judges.base import JudgeItem, Verdict
from agentic_core.judges.cache import (
    DEFAULT_FILENAME,
    ENV_VAR,
    SCHEMA_VERSION,
    JudgeCache,
    cache_key,
    default_cache_path,
)
from tests.fakes import make_items

FP = "f" * 64


def ok(score: float = 0.75, reasoning: str = "why", tokens: tuple[int, int] | None = (11, 3)) -> Verdict:
    return Verdict(
        score=score,
        reasoning=reasoning,
        input_tokens=tokens[0] if tokens else None,
        output_tokens=tokens[1] if tokens else None,
    )


def keys_for(n: int, fp: str = FP, prefix: str = "q") -> list[str]:
    return [cache_key(fp, item) for item in make_items(n, prefix=prefix)]


# -- keys and locations --------------------------------------------------------------------------


def test_key_is_sha256_of_fingerprint_and_exact_texts() -> None:
    item = JudgeItem(query="Q", answer="A", ground_truth="G", score=0.3)
    expected = hashlib.sha256(json.dumps([FP, "Q", "A", "G"], ensure_ascii=False).encode()).hexdigest()
    assert cache_key(FP, item) == expected
    # The dataset's own score is not part of it; every text and the judge are.
    assert cache_key(FP, dataclasses.replace(item, **{"score": 0.9})) == expected
    for change in ({"query": "Q "}, {"answer": "a"}, {"ground_truth": "G."}):
        assert cache_key(FP, dataclasses.replace(item, **change)) != expected
    assert cache_key("e" * 64, item) != expected


def test_key_cannot_collide_by_concatenation() -> None:
    a = JudgeItem(query="ab", answer="c", ground_truth="d")
    b = JudgeItem(query="a", answer="bc", ground_truth="d")
    assert cache_key(FP, a) != cache_key(FP, b)


def test_key_handles_lone_surrogates() -> None:
    item = JudgeItem(query="\ud800 broken", answer="x", ground_truth="y")
    assert len(cache_key(FP, item)) == 64


def test_default_path_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert default_cache_path() == Path(platformdirs.user_cache_dir("agentic-workbench")) / DEFAULT_FILENAME
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "mine.sqlite3"))
    assert default_cache_path() == tmp_path / "mine.sqlite3"
    assert JudgeCache().path == tmp_path / "mine.sqlite3"
    monkeypatch.setenv(ENV_VAR, str(tmp_path))  # an existing folder
    assert default_cache_path() == tmp_path / DEFAULT_FILENAME


def test_opening_is_lazy(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cache.sqlite3"
    cache = JudgeCache(path)
    assert not path.exists() and not path.parent.exists()
    assert cache.get_many([]) == {}
    assert not path.exists()
    cache.put_many([("k", ok())])
    assert path.exists()


# -- round trip ----------------------------------------------------------------------------------


def test_round_trip_marks_cached_and_keeps_fields(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with JudgeCache(path) as cache:
        assert (
            cache.put_many([("k1", ok(0.75, "because", (11, 3))), ("k2", ok(0.0, "", None))], judge=FP) == 2
        )
    with JudgeCache(path) as cache:
        got = cache.get_many(["k1", "k2", "missing"])
    assert set(got) == {"k1", "k2"}
    assert got["k1"] == Verdict(
        score=0.75, reasoning="because", status="cached", input_tokens=11, output_tokens=3
    )
    assert got["k2"].score == 0.0 and got["k2"].input_tokens is None
    row = sqlite3.connect(path).execute("SELECT judge, created_at FROM verdicts WHERE key='k1'").fetchone()
    assert row[0] == FP and row[1] > 1.6e9


def test_failed_verdicts_are_never_stored(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    stored = cache.put_many(
        [("bad", Verdict(status="failed", score=None, error="timeout")), ("good", ok())],
    )
    assert stored == 1
    assert set(cache.get_many(["bad", "good"])) == {"good"}


def test_overwrite_and_count(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    cache.put_many([("k", ok(0.2))], judge="A")
    cache.put_many([("k", ok(0.9))], judge="A")
    cache.put_many([("other", ok(0.5))], judge="B")
    assert cache.get_many(["k"])["k"].score == 0.9
    assert len(cache) == 2
    assert cache.contains_many(["k", "other", "missing"]) == {"k", "other"}


def test_many_keys_are_chunked(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    keys = keys_for(2500)
    assert cache.put_many([(k, ok(i / 2500)) for i, k in enumerate(keys)]) == 2500
    got = cache.get_many(keys)
    assert len(got) == 2500 and got[keys[1234]].score == 1234 / 2500
    assert len(cache.contains_many([*keys, "nope"])) == 2500


def test_wal_mode_and_no_secret_columns(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    JudgeCache(path).put_many([("k", ok())])
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    columns = [r[1] for r in conn.execute("PRAGMA table_info(verdicts)")]
    assert columns == [
        "key", "judge", "score", "status", "probability", "error",
        "reasoning", "input_tokens", "output_tokens", "created_at",
    ]


def test_in_memory_cache() -> None:
    cache = JudgeCache.in_memory()
    assert cache.path is None
    cache.put_many([("k", ok())])
    assert set(cache.get_many(["k"])) == {"k"}


# -- damage and bad locations ----------------------------------------------------------------------


def test_garbage_file_is_moved_aside_and_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    garbage = bytes(range(256)) * 40
    path.write_bytes(garbage)
    cache = JudgeCache(path)
    assert cache.get_many(["k"]) == {}  # no crash: an empty cache
    warnings = cache.drain_warnings()
    assert len(warnings) == 1 and "corrupt" in warnings[0] and ".corrupt-" in warnings[0]
    moved = list(tmp_path.glob("c.sqlite3.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == garbage
    cache.put_many([("k", ok())])
    assert set(cache.get_many(["k"])) == {"k"}
    assert cache.drain_warnings() == []


def test_damaged_pages_are_detected_on_read(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    keys = keys_for(3000)
    with JudgeCache(path) as cache:
        cache.put_many([(k, ok(reasoning="x" * 60)) for k in keys])
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data)):  # keep the header page, scramble the rest
        data[offset] = (offset * 131) % 256
    path.write_bytes(bytes(data))

    cache = JudgeCache(path)
    assert cache.get_many(keys[:10]) == {}
    assert any("corrupt" in w for w in cache.warnings)
    assert list(tmp_path.glob("c.sqlite3.corrupt-*"))
    cache.put_many([(keys[0], ok())])
    assert set(cache.get_many(keys[:1])) == {keys[0]}


def test_unwritable_location_falls_back_to_memory_with_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    cache = JudgeCache(blocker / "cache.sqlite3")
    cache.put_many([("k", ok())])
    assert set(cache.get_many(["k"])) == {"k"}
    assert cache.path is None
    (warning,) = cache.drain_warnings()
    assert "cannot be opened for writing" in warning and ENV_VAR in warning and "in-memory" in warning


# -- concurrency ----------------------------------------------------------------------------------


# Each writer is a separate Python process importing only the cache module (spawning the
# test module itself would import pytest and LangChain in every child).
_WRITER = """
import sys
from pathlib import Path
from agentic_core.judges.base import Verdict
from agentic_core.judges.cache import JudgeCache

path, worker, n, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cache = JudgeCache(Path(path))
rows = [(f"w{worker}-{i}", Verdict(score=0.5)) for i in range(n)]
rows += [(f"shared-{i}", Verdict(score=0.25)) for i in range(n // 4)]
for start in range(0, len(rows), batch):
    cache.put_many(rows[start : start + batch], judge=f"worker{worker}")
if cache.warnings or cache.path is None:
    sys.exit(f"worker {worker}: {cache.warnings}")
cache.close()
"""


@pytest.mark.timeout(120)
def test_concurrent_writer_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    workers, n = 4, 600
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(w), str(n), "3"], env=env, cwd=root)
        for w in range(workers)
    ]
    assert [proc.wait(timeout=100) for proc in procs] == [0] * workers
    cache = JudgeCache(path)
    expected = [f"w{w}-{i}" for w in range(workers) for i in range(n)] + [
        f"shared-{i}" for i in range(n // 4)
    ]
    assert len(cache) == len(expected)
    assert len(cache.get_many(expected)) == len(expected)


@pytest.mark.timeout(60)
def test_concurrent_writer_threads_shared_and_separate_caches(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    shared = JudgeCache(path)
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            cache = shared if worker % 2 else JudgeCache(path)
            for start in range(0, 100, 5):
                cache.put_many([(f"t{worker}-{i}", ok()) for i in range(start, start + 5)])
                cache.get_many([f"t{worker}-{start}"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(shared) == 800


def test_a_lock_held_while_opening_is_waited_for_not_taken_for_unwritable(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with JudgeCache(path) as setup:
        setup.put_many([("k", ok())])
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA journal_mode = DELETE")  # so that an exclusive lock blocks readers too
    holder.execute("BEGIN EXCLUSIVE")
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        cache = JudgeCache(path, busy_timeout_s=10)
        assert set(cache.get_many(["k"])) == {"k"}
        assert cache.path is not None and cache.warnings == []
    finally:
        release.join()
        holder.close()


def test_a_lock_never_released_falls_back_with_a_lock_message(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    with JudgeCache(path) as setup:
        setup.put_many([("k", ok())])
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        cache = JudgeCache(path, busy_timeout_s=0.2)
        assert cache.get_many(["k"]) == {}
        assert cache.path is None
        assert "locked by another process" in cache.warnings[0]
    finally:
        holder.execute("COMMIT")
        holder.close()


def test_a_transient_corruption_error_never_discards_a_good_cache(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    cache = JudgeCache(path)
    cache.put_many([("k", ok())])

    def flaky_read(conn: sqlite3.Connection) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    with pytest.raises(CacheError):
        cache._run("reading", flaky_read)
    assert not list(tmp_path.glob("*.corrupt-*"))
    assert set(cache.get_many(["k"])) == {"k"}
