"""The persistent judge cache (SQLite): a second run of the same data and judge calls no model.

Key: sha256 of ``[identity.fingerprint(), query, answer, ground_truth]`` (JSON-encoded, so no two
different tuples can collide by concatenation). Stored: score, reasoning, tokens, created_at and
the judge fingerprint, and the judge's probability when it has one; never an API key (the identity
holds none) and never a failed verdict (a failure must be retried on the next run). An abstention
(status ``uncertain``: no score, its probability and its reason) is stored and served back as
``uncertain``: an offline judge abstains on the same item every time, so judging it again would
only cost time.

Schema 2 (abstentions: a nullable score, ``status``, ``probability``, ``error``) replaced schema 1;
a schema-1 file is converted in place when first opened for writing (its verdicts kept, as
``ok``), and read as it is when it can only be read.

Robustness:
    * WAL journal + busy timeout + ``BEGIN IMMEDIATE`` writes: several processes and threads
      can write at once.
    * A corrupt file (garbage bytes, damaged pages) is moved aside as
      ``<name>.corrupt-<timestamp>`` and rebuilt empty; the run goes on and a warning is
      collected in :attr:`JudgeCache.warnings` for the user.
    * An unwritable location falls back to an in-memory cache with a warning (results are then
      not kept for the next run): losing the cache costs money on the next run, aborting would
      cost the whole run now.
    * A read-only file is opened read-only: its verdicts are used, new ones are not kept (a
      warning says so).
    * A file written by a newer version (a higher schema number) is left untouched and refused
      like an unwritable one: its verdicts are never dropped.

Secrets: every reasoning is masked with every key the process knows before it is stored
(:func:`agentic_core.common.secrets.mask_known`), and a stored reasoning that holds a known key (written
by an older version, or before that key was registered) is never served: it counts as a miss and
is judged again.

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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

import platformdirs

from agentic_core.common.secrets import known_secrets
from agentic_core.errors import CacheError
from agentic_core.judges.base import JudgeItem, Verdict
from agentic_core.judges.cache_sqlite import (
    FROM_SCHEMA_1,
    READ_COLUMNS,
    READ_COLUMNS_1,
    SCHEMA,
    NewerCacheError,
    chunks,
    has_status_column,
    is_busy,
    is_corruption,
    is_read_only,
    storable_reasoning,
)
from agentic_core.judges.llm.reply_text import clip_reasoning

APP_NAME = "agentic-workbench"
DEFAULT_FILENAME = "judge_cache.sqlite3"
ENV_VAR = "AGENTIC_CACHE_PATH"
SCHEMA_VERSION = 2
MEMORY = ":memory:"
"""Pass as ``path`` for a cache that lives only as long as the object."""

_T = TypeVar("_T")

# SQLite builds before 3.32 allow 999 host parameters per statement; stay under it.
_CHUNK = 900

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


class JudgeCache:
    """Verdicts by (judge identity, query, answer, ground truth), in SQLite.

    Args:
        path: The database file; default :func:`default_cache_path`; :data:`MEMORY` for none.
        busy_timeout_s: How long a writer waits for another writer's lock.

    Thread-safe (one connection behind a lock); several processes may share one file.
    """

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        busy_timeout_s: float = 30.0,
    ) -> None:
        self._path: Path | None
        if path is None:
            self._path = default_cache_path()
        elif str(path) == MEMORY:
            self._path = None
        else:
            self._path = Path(path).expanduser()
        self.busy_timeout_s = busy_timeout_s
        self.warnings: list[str] = []
        self._conn: sqlite3.Connection | None = None
        self._read_only = False
        self._read_columns = READ_COLUMNS
        self._lock = threading.RLock()

    @classmethod
    def in_memory(cls) -> JudgeCache:
        """A cache that lives only as long as this object (tests, throw-away runs)."""
        return cls(MEMORY)

    @property
    def path(self) -> Path | None:
        """The database file, or ``None`` when the cache is in memory."""
        return self._path

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
            except NewerCacheError as newer:
                return self._unwritable(newer)
            except sqlite3.Error as exc:
                if is_busy(exc) and time.monotonic() < deadline:
                    # Another process holds a lock while it creates or converts the file:
                    # wait for it rather than mistaking a busy cache for an unwritable one.
                    time.sleep(delay)
                    delay = min(delay * 2, 0.5)
                    continue
                if not quarantined and is_corruption(exc) and self._confirm_corrupt():
                    self._quarantine(exc)
                    quarantined = True
                    continue
                if is_read_only(exc) and self._path.exists():
                    read_only = self._open_read_only()
                    if read_only is not None:
                        return read_only
                return self._unwritable(exc)

    def _open_read_only(self) -> sqlite3.Connection | None:
        """Open an existing file that cannot be written, for reading only (``None`` if not even that).

        ``mode=ro`` first; a WAL file in a folder we cannot write needs ``immutable=1`` (SQLite
        cannot create the shared-memory file), which assumes nobody writes it meanwhile.
        """
        assert self._path is not None
        for options in ("mode=ro", "mode=ro&immutable=1"):
            uri = f"{self._path.resolve().as_uri()}?{options}"
            try:
                conn = sqlite3.connect(uri, uri=True, timeout=self.busy_timeout_s, check_same_thread=False)
            except sqlite3.Error:
                continue
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION or version < 0:
                    conn.close()
                    self._unwritable(NewerCacheError(version))
                    return self._conn
                conn.execute("SELECT 1 FROM verdicts LIMIT 1").fetchall()
                # A schema-1 file that cannot be converted is read as it is (every verdict ``ok``).
                legacy = has_status_column(conn) is False
            except sqlite3.Error:
                conn.close()
                continue
            self._read_only = True
            self._read_columns = READ_COLUMNS_1 if legacy else READ_COLUMNS
            self._conn = conn
            self.warnings.append(
                f"judge cache {self._path} is read-only: its verdicts are used, but this run's new verdicts "
                f"will not be kept for the next run. Fix: make it writable, or set {ENV_VAR} to a writable file"
            )
            return conn
        return None

    def _open(self, target: str) -> sqlite3.Connection:
        # isolation_level=None: we issue BEGIN IMMEDIATE ourselves, so a writer takes the write
        # lock up front and waits (busy timeout) instead of failing on a lock upgrade.
        conn = sqlite3.connect(
            target, timeout=self.busy_timeout_s, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION or version < 0:
                # Checked before anything is written: a newer version's cache is never touched.
                raise NewerCacheError(version)
            if target != ":memory:":
                conn.execute("PRAGMA journal_mode = WAL").fetchone()
                # NORMAL is durable across application crashes in WAL mode and much faster.
                conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Decided inside the write lock: two processes opening a schema-1 file convert it once.
                if has_status_column(conn) is False:
                    for statement in FROM_SCHEMA_1:
                        conn.execute(statement)
                conn.execute(SCHEMA)
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
            return is_corruption(exc)
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
        """Handle a location we cannot use: warn and continue in memory."""
        if isinstance(exc, NewerCacheError):
            problem = (
                f"was written by a newer workbench (cache schema {exc.version}; this one knows up to "
                f"{SCHEMA_VERSION}), so it is left as it is"
            )
            fix = f"upgrade the workbench, or set {ENV_VAR} to another file path"
        elif isinstance(exc, sqlite3.Error) and is_busy(exc):
            problem = f"stayed locked by another process for {self.busy_timeout_s:g} s ({exc})"
            fix = f"close other runs using {self._path}, or set {ENV_VAR} to another file path"
        else:
            problem = f"cannot be opened for writing ({exc})"
            fix = f"make {self._path} writable, or set {ENV_VAR} to a writable file path"
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
                if self._path is None or not is_corruption(exc) or not self._confirm_corrupt():
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
        """The cached verdicts (status ``cached``, abstentions ``uncertain``) of those ``keys`` that are present.

        A verdict whose reasoning holds a secret the process knows is left out (a miss, so the
        item is judged again), never served: it may be another caller's key echoed by a judge.

        Raises:
            CacheError: the database failed for a reason other than corruption.
        """
        unique = list(dict.fromkeys(keys))
        secrets = known_secrets()

        def read(conn: sqlite3.Connection) -> dict[str, Verdict]:
            columns = self._read_columns
            found: dict[str, Verdict] = {}
            for chunk in chunks(unique, _CHUNK):
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(f"SELECT {columns} FROM verdicts WHERE key IN ({marks})", chunk)
                for key, score, reasoning, tin, tout, status, probability, error in rows:
                    if secrets and any(secret in reasoning or secret in (error or "") for secret in secrets):
                        continue
                    found[key] = Verdict(
                        score=score,
                        reasoning=clip_reasoning(reasoning),  # an older version stored it whole
                        # A stored abstention stays one: served as "cached" it would read as scored.
                        status="uncertain" if status == "uncertain" else "cached",
                        error=error,
                        input_tokens=tin,
                        output_tokens=tout,
                        probability=probability,
                    )
            return found

        return self._run("reading", read) if unique else {}

    def contains_many(self, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` are cached (cheaper than :meth:`get_many`)."""
        unique = list(dict.fromkeys(keys))

        def read(conn: sqlite3.Connection) -> set[str]:
            found: set[str] = set()
            for chunk in chunks(unique, _CHUNK):
                marks = ",".join("?" * len(chunk))
                found.update(
                    k for (k,) in conn.execute(f"SELECT key FROM verdicts WHERE key IN ({marks})", chunk)
                )
            return found

        return self._run("reading", read) if unique else set()

    def put_many(self, entries: Iterable[tuple[str, Verdict]], *, judge: str = "") -> int:
        """Store verdicts under their keys, in one transaction; failed verdicts are skipped, abstentions kept.

        Args:
            entries: ``(key, verdict)`` pairs (keys from :func:`cache_key`).
            judge: The judge fingerprint, stored beside each verdict.

        Returns:
            How many verdicts were stored.

        Raises:
            CacheError: the database failed for a reason other than corruption.
        """
        now = time.time()
        secrets = known_secrets()
        rows = [
            (
                key,
                judge,
                v.score,
                "uncertain" if v.status == "uncertain" else "ok",
                v.probability,
                None if v.error is None else storable_reasoning(v.error, secrets),
                storable_reasoning(v.reasoning, secrets),
                v.input_tokens,
                v.output_tokens,
                now,
            )
            for key, v in entries
            if v.status == "uncertain" or (v.status != "failed" and v.score is not None)
        ]
        if not rows:
            return 0
        with self._lock:
            self._connect()
            if self._read_only:
                return 0  # said once, when the file was opened read-only

        def write(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for chunk in chunks(rows, _CHUNK):
                    conn.executemany(
                        "INSERT OR REPLACE INTO verdicts (key, judge, score, status, probability, error, "
                        "reasoning, input_tokens, output_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        chunk,
                    )
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            return len(rows)

        return self._run("writing", write)

    def __len__(self) -> int:
        """Number of cached verdicts."""
        return self._run("counting", lambda c: int(c.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]))
