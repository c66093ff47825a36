"""The persistent judge cache (SQLite): a second run of the same data and judge calls no model.

Key: sha256 of ``[identity.fingerprint(), query, answer, ground_truth]`` (JSON-encoded, so no two
different tuples can collide by concatenation). Stored: score, reasoning, tokens, created_at and
the judge fingerprint; never an API key (the identity holds none) and never a failed verdict (a
failure must be retried on the next run).

Robustness:
    * WAL journal + busy timeout + ``BEGIN IMMEDIATE`` writes: several processes and threads
      can write at once.
    * A corrupt file (garbage bytes, damaged pages) is moved aside as
      ``<name>.corrupt-<timestamp>`` and rebuilt empty; the run goes on and a warning is
      collected in :attr:`JudgeCache.warnings` for the user.
    * An unwritable location falls back to an in-memory cache with a warning (results are then
      not kept for the next run) unless ``fallback_to_memory=False``, which raises
      :class:`~agentic_core.errors.CacheError` instead. The default favours finishing the run:
      losing the cache costs money on the next run, aborting costs the whole run now.

The connection opens lazily, so a cache that is never used (``cache_mode="off"``) never
touches the file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import platformdirs

from agentic_core.errors import CacheError
from agentic_core.judges.base import JudgeItem, Verdict

APP_NAME = "agentic-workbench"
DEFAULT_FILENAME = "judge_cache.sqlite3"
ENV_VAR = "AGENTIC_CACHE_PATH"
SCHEMA_VERSION = 1
MEMORY = ":memory:"
"""Pass as ``path`` for a cache that lives only as long as the object."""

_T = TypeVar("_T")

# SQLite builds before 3.32 allow 999 host parameters per statement; stay under it.
_CHUNK = 900
_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdicts (
    key TEXT PRIMARY KEY,
    judge TEXT NOT NULL,
    score REAL NOT NULL CHECK (score >= 0.0 AND score <= 1.0),
    reasoning TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    created_at REAL NOT NULL
) WITHOUT ROWID
"""


def default_cache_path() -> Path:
    """Where the cache lives: ``$AGENTIC_CACHE_PATH`` if set, else the user cache folder.

    ``$AGENTIC_CACHE_PATH`` may name a file or an existing folder (the default file name is
    then used inside it).
    """
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        path = Path(env).expanduser()
        return path / DEFAULT_FILENAME if path.is_dir() else path
    return Path(platformdirs.user_cache_dir(APP_NAME)) / DEFAULT_FILENAME


def cache_key(fingerprint: str, item: JudgeItem) -> str:
    """The cache key of ``item`` judged by the judge whose identity has ``fingerprint``."""
    blob = json.dumps([fingerprint, item.query, item.answer, item.ground_truth], ensure_ascii=False)
    # surrogatepass: text decoded from broken JSON can hold lone surrogates; they still hash.
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def _primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    # Extended result codes keep the primary code in the low byte.
    return None if code is None else code & 0xFF


def _is_corruption(exc: sqlite3.Error) -> bool:
    code = _primary_code(exc)
    if code is not None:
        return code in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def _is_busy(exc: sqlite3.Error) -> bool:
    code = _primary_code(exc)
    if code is not None:
        return code in (_SQLITE_BUSY, _SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class JudgeCache:
    """Verdicts by (judge identity, query, answer, ground truth), in SQLite.

    Args:
        path: The database file; default :func:`default_cache_path`; :data:`MEMORY` for none.
        fallback_to_memory: On an unwritable location, warn and keep an in-memory cache
            (default) instead of raising :class:`CacheError`.
        busy_timeout_s: How long a writer waits for another writer's lock.

    Thread-safe (one connection behind a lock); several processes may share one file.
    """

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        fallback_to_memory: bool = True,
        busy_timeout_s: float = 30.0,
    ) -> None:
        self._path: Path | None
        if path is None:
            self._path = default_cache_path()
        elif str(path) == MEMORY:
            self._path = None
        else:
            self._path = Path(path).expanduser()
        self.fallback_to_memory = fallback_to_memory
        self.busy_timeout_s = busy_timeout_s
        self.warnings: list[str] = []
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()

    @classmethod
    def in_memory(cls) -> JudgeCache:
        """A cache that lives only as long as this object (tests, throw-away runs)."""
        return cls(MEMORY)

    @property
    def path(self) -> Path | None:
        """The database file, or ``None`` when the cache is in memory."""
        return self._path

    @property
    def persistent(self) -> bool:
        """Whether verdicts outlive this process."""
        return self._path is not None

    def __repr__(self) -> str:
        return f"JudgeCache({str(self._path) if self._path else ':memory:'})"

    def __enter__(self) -> JudgeCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def drain_warnings(self) -> list[str]:
        """Return the warnings collected so far and forget them."""
        with self._lock:
            out, self.warnings = self.warnings, []
            return out

    # -- opening -----------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        """The open connection; opens (and repairs or falls back) on first use."""
        if self._conn is not None:
            return self._conn
        if self._path is None:
            self._conn = self._open(":memory:")
            return self._conn
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return self._unwritable(exc)
        deadline = time.monotonic() + self.busy_timeout_s
        delay = 0.02
        quarantined = False
        while True:
            try:
                self._conn = self._open(str(self._path))
                return self._conn
            except sqlite3.Error as exc:
                if _is_busy(exc) and time.monotonic() < deadline:
                    # Another process holds a lock while it creates or converts the file:
                    # wait for it rather than mistaking a busy cache for an unwritable one.
                    time.sleep(delay)
                    delay = min(delay * 2, 0.5)
                    continue
                if not quarantined and _is_corruption(exc) and self._confirm_corrupt():
                    self._quarantine(exc)
                    quarantined = True
                    continue
                return self._unwritable(exc)

    def _open(self, target: str) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN IMMEDIATE ourselves, so a writer takes the write
        # lock up front and waits (busy timeout) instead of failing on a lock upgrade.
        conn = sqlite3.connect(
            target, timeout=self.busy_timeout_s, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
            if target != ":memory:":
                conn.execute("PRAGMA journal_mode = WAL").fetchone()
                # NORMAL is durable across application crashes in WAL mode and much faster.
                conn.execute("PRAGMA synchronous = NORMAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("BEGIN IMMEDIATE")
            try:
                if version not in (0, SCHEMA_VERSION):
                    # A cache written by another schema version: start over rather than guess.
                    conn.execute("DROP TABLE IF EXISTS verdicts")
                    self.warnings.append(
                        f"judge cache {target}: schema version {version} is not {SCHEMA_VERSION}; "
                        "the cache was emptied and will be refilled"
                    )
                conn.execute(_SCHEMA)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except BaseException:
            conn.close()
            raise
        return conn

    def _confirm_corrupt(self) -> bool:
        """Check on a fresh connection that the file really is damaged before moving it aside.

        A good cache must never be discarded because of a transient error seen by one
        connection.
        """
        assert self._path is not None
        try:
            conn = sqlite3.connect(str(self._path), timeout=self.busy_timeout_s)
        except sqlite3.Error:
            return False
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
            return rows != [("ok",)]
        except sqlite3.Error as exc:
            return _is_corruption(exc)
        finally:
            conn.close()

    def _quarantine(self, exc: sqlite3.Error) -> None:
        """Move a corrupt database (and its WAL / shared-memory files) aside."""
        assert self._path is not None
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self._path.with_name(f"{self._path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self._path.with_name(f"{self._path.name}.corrupt-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self._path}{suffix}")
            # Another process may have moved it already: nothing to do then.
            with contextlib.suppress(FileNotFoundError):
                source.replace(Path(f"{target}{suffix}"))
        self.warnings.append(
            f"judge cache {self._path} was corrupt ({exc}); it was moved to {target} and a new, empty "
            "cache was started, so earlier verdicts will be judged again"
        )

    def _unwritable(self, exc: BaseException) -> sqlite3.Connection:
        """Handle a location we cannot use: raise, or warn and continue in memory."""
        if isinstance(exc, sqlite3.Error) and _is_busy(exc):
            problem = f"stayed locked by another process for {self.busy_timeout_s:g} s ({exc})"
            fix = f"close other runs using {self._path}, or set {ENV_VAR} to another file path"
        else:
            problem = f"cannot be opened for writing ({exc})"
            fix = f"make {self._path} writable, or set {ENV_VAR} to a writable file path"
        if not self.fallback_to_memory:
            raise CacheError(f"judge cache {self._path}", problem, fix=fix, show=False) from exc
        self.warnings.append(
            f"judge cache {self._path} {problem}; using an in-memory cache, so this run's verdicts "
            f"will not be kept for the next run. Fix: {fix}"
        )
        self._path = None
        self._conn = self._open(":memory:")
        return self._conn

    def _run(self, op: str, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn(conn)`` under the lock; on corruption rebuild once and run it again."""
        with self._lock:
            conn = self._connect()
            try:
                return fn(conn)
            except sqlite3.DatabaseError as exc:
                if self._path is None or not _is_corruption(exc) or not self._confirm_corrupt():
                    raise CacheError(
                        f"judge cache {self._path or ':memory:'}",
                        f"{op} failed ({exc})",
                        fix=f"retry; if it persists, delete the file or set {ENV_VAR} to another path",
                        show=False,
                    ) from exc
                self._quarantine(exc)
                return fn(self._connect())

    # -- reading and writing -----------------------------------------------------------------

    def get_many(self, keys: Sequence[str]) -> dict[str, Verdict]:
        """The cached verdicts (status ``cached``) of those ``keys`` that are present.

        Raises:
            CacheError: the database failed for a reason other than corruption.
        """
        unique = list(dict.fromkeys(keys))

        def read(conn: sqlite3.Connection) -> dict[str, Verdict]:
            found: dict[str, Verdict] = {}
            for chunk in _chunks(unique, _CHUNK):
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(
                    "SELECT key, score, reasoning, input_tokens, output_tokens FROM verdicts "
                    f"WHERE key IN ({marks})",
                    chunk,
                )
                for key, score, reasoning, tin, tout in rows:
                    found[key] = Verdict(
                        score=score,
                        reasoning=reasoning,
                        status="cached",
                        input_tokens=tin,
                        output_tokens=tout,
                    )
            return found

        return self._run("reading", read) if unique else {}

    def contains_many(self, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` are cached (cheaper than :meth:`get_many`)."""
        unique = list(dict.fromkeys(keys))

        def read(conn: sqlite3.Connection) -> set[str]:
            found: set[str] = set()
            for chunk in _chunks(unique, _CHUNK):
                marks = ",".join("?" * len(chunk))
                found.update(
                    k for (k,) in conn.execute(f"SELECT key FROM verdicts WHERE key IN ({marks})", chunk)
                )
            return found

        return self._run("reading", read) if unique else set()

    def put_many(self, entries: Iterable[tuple[str, Verdict]], *, judge: str = "") -> int:
        """Store verdicts under their keys, in one transaction; failed verdicts are skipped.

        Args:
            entries: ``(key, verdict)`` pairs (keys from :func:`cache_key`).
            judge: The judge fingerprint, stored for maintenance (``clear(judge=...)``).

        Returns:
            How many verdicts were stored.

        Raises:
            CacheError: the database failed for a reason other than corruption.
        """
        now = time.time()
        rows = [
            (key, judge, v.score, v.reasoning, v.input_tokens, v.output_tokens, now)
            for key, v in entries
            if v.status != "failed" and v.score is not None
        ]
        if not rows:
            return 0

        def write(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for chunk in _chunks(rows, _CHUNK):
                    conn.executemany(
                        "INSERT OR REPLACE INTO verdicts "
                        "(key, judge, score, reasoning, input_tokens, output_tokens, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        chunk,
                    )
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            return len(rows)

        return self._run("writing", write)

    def count(self, judge: str | None = None) -> int:
        """Number of cached verdicts (of one judge fingerprint, or all)."""
        if judge is None:
            return self._run(
                "counting", lambda c: int(c.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0])
            )
        return self._run(
            "counting",
            lambda c: int(c.execute("SELECT COUNT(*) FROM verdicts WHERE judge = ?", (judge,)).fetchone()[0]),
        )

    def __len__(self) -> int:
        return self.count()

    def clear(self, judge: str | None = None) -> int:
        """Delete cached verdicts (of one judge fingerprint, or all); returns how many."""

        def delete(conn: sqlite3.Connection) -> int:
            if judge is None:
                return conn.execute("DELETE FROM verdicts").rowcount
            return conn.execute("DELETE FROM verdicts WHERE judge = ?", (judge,)).rowcount

        return self._run("clearing", delete)


def _chunks(seq: Sequence[_T], size: int) -> Iterator[Sequence[_T]]:
    for start in range(0, len(seq), size):
        yield seq[start : start + size]
