"""The live spool: spans received but not yet judged, kept on the disk (SQLite) until their conversation is.

A request's spans are committed here before the server answers 200, so a span the exporter was told was taken
survives a restart (or a crash) of the server: at start, :meth:`LiveSpool.index` gives back every span still
waiting, and their conversations are completed and judged as if the server had never stopped. Spans are
removed once their conversation is stored in the run history.

The file sits beside the run history (``live-spool.sqlite3``), in SQLite's write-ahead-log mode: requests add
spans while the judging thread reads and removes others. Memory holds no span: only the index the completion
rule reads (:mod:`agentic_core.live.pending`).
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import orjson

from agentic_core.common.sqlite_errors import sqlite_failure
from agentic_core.errors import AgenticError
from agentic_core.io.otel_spans import Span, attributes, read_span
from agentic_core.io.otlp_export import Encoding, ExportBatch, span_document

SPOOL_FILENAME = "live-spool.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS spool (
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS resources (
    id INTEGER PRIMARY KEY,
    attributes BLOB NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS spans (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    trace TEXT NOT NULL,
    conversation TEXT,
    root INTEGER NOT NULL,
    received REAL NOT NULL,
    place TEXT NOT NULL,
    encoding TEXT NOT NULL,
    resource INTEGER NOT NULL REFERENCES resources (id),
    body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS spans_trace ON spans (trace);
"""


class SpoolError(AgenticError):
    """The spool file cannot be opened or created (the live path cannot keep spans)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """One span waiting in the spool: what the completion rule reads of it.

    Attributes:
        seq: Its place in the order of arrival (the spool's row).
        trace_id: Its trace.
        conversation: Its conversation id, if it names one.
        root: Whether it is a root span.
        received: When it arrived (seconds since the epoch).
    """

    seq: int
    trace_id: str
    conversation: str | None
    root: bool
    received: float


class LiveSpool:
    """Spans waiting on the disk for their conversation to complete (see the module).

    Args:
        path: The spool file (created with its folder).

    Attributes:
        name: The spool file's own random name: with a span's ``seq``, it names a conversation in the history
            (a new spool file never repeats the keys of an old one).

    Raises:
        SpoolError: The file (or its folder) cannot be created or opened as a spool.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()  # one connection, used by request threads and the judging thread in turn
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
            # WAL: readers never wait for the writer; NORMAL: a commit survives the process (a crash, a restart),
            # the last ones may not survive a power cut, which would cost the fsync of every request.
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.executescript(_SCHEMA)
            with self._conn:
                if self._conn.execute("SELECT COUNT(*) FROM spool").fetchone()[0] == 0:
                    self._conn.execute("INSERT INTO spool (name) VALUES (?)", (secrets.token_hex(4),))
            (self.name,) = self._conn.execute("SELECT name FROM spool").fetchone()
        except (OSError, sqlite3.Error) as exc:
            raise SpoolError(str(path), f"cannot be used as the live spool ({sqlite_failure(exc).replace('_', ' ')})",
                             str(exc), "point --spool at a file in a folder you can write to") from None
        self._resources: dict[bytes, int] = {}
        self._resource_attrs: dict[int, dict[str, Any]] = {}

    def close(self) -> None:
        """Close the file (the spans stay in it for the next start)."""
        with self._lock:
            self._conn.close()

    def _resource_id(self, text: bytes) -> int:
        known = self._resources.get(text)
        if known is None:
            self._conn.execute("INSERT OR IGNORE INTO resources (attributes) VALUES (?)", (text,))
            (known,) = self._conn.execute("SELECT id FROM resources WHERE attributes = ?", (text,)).fetchone()
            self._resources[text] = known
        return known

    def add(self, batch: ExportBatch, received: float) -> list[Waiting]:
        """Keep a request's spans (committed when this returns); returns them as waiting spans, in order."""
        if not batch.spans:
            return []
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                resources = [self._resource_id(text) for text in batch.resources]
                # AUTOINCREMENT: a seq is never given twice, even once its span is gone (it keys a conversation).
                found = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'spans'").fetchone()
                last = found[0] if found else 0
                rows = [(last + n + 1, s.trace_id, s.conversation, int(s.root), received, s.place, batch.encoding,
                         resources[s.resource], s.body) for n, s in enumerate(batch.spans)]
                self._conn.executemany(
                    "INSERT INTO spans (seq, trace, conversation, root, received, place, encoding, resource, body) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return [Waiting(row[0], row[1], row[2], bool(row[3]), received) for row in rows]

    def index(self) -> Iterator[Waiting]:
        """Every span waiting, in order of arrival (what a restart picks up)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq, trace, conversation, root, received FROM spans ORDER BY seq").fetchall()
        for seq, trace, conversation, root, received in rows:
            yield Waiting(seq, trace, conversation, bool(root), received)

    def spans(self, traces: list[str]) -> tuple[list[Span], int]:
        """The spans of ``traces``, read as the file importer reads a span, in order of arrival.

        Returns:
            The spans (each with its place in its request, and its arrival as its order), and the last ``seq`` read
            (:meth:`forget` removes up to it: a span of these traces arriving meanwhile stays).
        """
        rows: list[tuple[Any, ...]] = []
        with self._lock:
            for trace in traces:
                rows.extend(self._conn.execute(
                    "SELECT seq, place, encoding, resource, body FROM spans WHERE trace = ?", (trace,)))
        rows.sort(key=lambda row: cast(int, row[0]))
        out = [read_span(span_document(cast(Encoding, encoding), body), 0, place, self._attributes(resource), seq)
               for seq, place, encoding, resource, body in rows]
        return out, max((row[0] for row in rows), default=0)

    def _attributes(self, resource: int) -> dict[str, Any]:
        """A resource's attributes, decoded once (shared by its spans, as a file's spans share theirs)."""
        found = self._resource_attrs.get(resource)
        if found is None:
            with self._lock:
                (text,) = self._conn.execute("SELECT attributes FROM resources WHERE id = ?", (resource,)).fetchone()
            found = self._resource_attrs[resource] = attributes(orjson.loads(text))
        return found

    def forget(self, traces: list[str], upto: int) -> None:
        """Remove the spans of ``traces`` up to ``upto`` (their conversation is stored)."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany("DELETE FROM spans WHERE trace = ? AND seq <= ?", [(t, upto) for t in traces])
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._conn.execute("SELECT COUNT(*) FROM spans").fetchone()
        return int(count)
