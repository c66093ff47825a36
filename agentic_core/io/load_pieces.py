"""Loading a large JSON Lines file in pieces, on worker processes: the cores a load would leave idle.

Checking a record costs about 40 µs of one core (parsing, pydantic validation, unknown keys, tool
scoring, columns), so a million interactions (200k records) took over 40 s on one core while the
machine's other cores waited. Here the parent process cuts the file into pieces of whole lines
(about 8 MB each, counting the newlines before each to know its first line number), hands them to
a pool of worker processes, and merges what comes back in file order:

- a worker runs the loader's own per-record code (:func:`~agentic_core.io.record_stream.stream_records`)
  on its piece and sends back its issues, its skipped records and its valid conversations as
  compressed JSON text plus their columns (:class:`~agentic_core.io.conversation_store.StoreParts`);
- the parent shifts the piece's record indices by the records before it, checks the piece's
  session ids against everything loaded before (duplicates span pieces and files) and appends the
  conversations that are not duplicates.

The parent never splits the file into Python objects: at a million interactions that alone held
another copy of the file. The result is the same report, issue for issue, as loading in one
process (tested with every kind of invalid record, and duplicates within and across pieces and
files). Only large files that parse as JSON Lines of the seed format are split (:func:`plan`);
everything else loads in this process. If the pool breaks (a worker killed, say for memory), the
pieces not merged yet load in this process.

Workers are forked, so they start at once with everything this process has imported, and with
the file itself when they are forked for it (after it is read: pages shared, not copied, so the
pieces need not be sent through pipes); and only from a process running a single thread (the CLI,
a script, a notebook's kernel before it judges): a fork copies one thread, and locks other threads
held stay locked in the child. Where other threads run (the dashboard's server), or where ``fork``
does not exist, files load in this process.
``spawn`` was measured and rejected: every worker imports the package again (about a second), and
re-runs the caller's script when it lacks an ``if __name__ == "__main__"`` guard. ``workers`` in
:func:`~agentic_core.io.loader.load_paths` or the ``AGENTIC_LOAD_WORKERS`` environment variable set
how many (``1``: no workers).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from agentic_core.common.gc_control import gc_paused
from agentic_core.data.schemas import Conversation
from agentic_core.errors import SettingsError
from agentic_core.io.conversation_store import ConversationStore, StoreParts
from agentic_core.io.importers import import_parsed
from agentic_core.io.importers.detect import LOOK_AT
from agentic_core.io.load_report import Issue, SkippedRecord
from agentic_core.io.parse import is_json_lines, parse_jsonl
from agentic_core.io.parsed import UNPARSABLE
from agentic_core.io.record_stream import LineOf, stream_records

__all__ = ["Piece", "PiecePool", "PieceSettings", "load_in_pieces", "load_inherited_piece", "load_piece", "plan"]

WORKERS_ENV = "AGENTIC_LOAD_WORKERS"

Unique = Callable[[str, int, str, str, LineOf, list[Issue], list[SkippedRecord]], bool]
"""The loader's duplicate check: ``unique(file, record, session_id, assistant_id, line_of, issues,
skipped)`` is whether the record is the first with its identity (else it reported it)."""


@dataclass(frozen=True)
class PieceSettings:
    """When and how a file is loaded in pieces.

    Attributes:
        workers: Worker processes; below 2, everything loads in this process.
        min_bytes: Files smaller than this load in this process: sending pieces to workers and
            their results back would cost more than it saves.
        piece_bytes: Bytes per piece (whole lines; about 4,000 records of a typical file): small
            enough to keep the workers busy to the end and the parent's memory bounded, large
            enough that a piece's fixed costs vanish.
        single_thread_only: Fork only from a process running one thread (see the module
            docstring); tests turn it off to fork next to pytest's idle helper threads.
    """

    workers: int
    min_bytes: int = 16 * 1024 * 1024
    piece_bytes: int = 8 * 1024 * 1024
    single_thread_only: bool = True

    @classmethod
    def automatic(cls, workers: int | None = None) -> PieceSettings:
        """``workers`` when given, else ``AGENTIC_LOAD_WORKERS``, else the cores this process may use.

        Raises:
            SettingsError: ``workers`` (or the environment variable) is not a whole number >= 0.
        """
        if workers is None:
            text = os.environ.get(WORKERS_ENV, "").strip()
            if text:
                try:
                    workers = int(text)
                except ValueError:
                    workers = -1
                if workers < 0:
                    raise SettingsError(
                        WORKERS_ENV, "must be a whole number >= 0", text, "set it to 1 to load in one process"
                    )
            else:
                workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        if workers < 0:
            raise SettingsError("workers", "must be a whole number >= 0", workers, "use 1 to load in one process")
        return cls(workers=workers)

    @property
    def enabled(self) -> bool:
        """Whether any file may be loaded in pieces."""
        return self.workers >= 2


@dataclass
class Piece:
    """What a worker found in its piece of a file (record indices counted from the piece's first record).

    Attributes:
        n_records: Records in the piece (lines that are not blank).
        numbers: Each record's line number in the file.
        issues: Its issues.
        skipped: Its skipped records.
        kept: Per conversation of ``parts``, its record index.
        parts: The conversations that passed their own checks (duplicates are the parent's to find).
    """

    n_records: int
    numbers: list[int]
    issues: list[Issue]
    skipped: list[SkippedRecord]
    kept: list[int]
    parts: StoreParts


def load_piece(name: str, data: bytes, first_line: int) -> Piece:
    """Check the records of one piece of a JSON Lines file (runs in a worker process).

    Args:
        name: The file name (for messages).
        data: The piece: whole lines of the file.
        first_line: The line number of its first line.

    Returns:
        The piece's issues, skipped records and conversations (see :class:`Piece`).
    """
    with gc_paused():
        parsed = parse_jsonl(name, data, lazy=True, first_line=first_line)
        numbers = parsed.line_numbers
        assert numbers is not None  # set by the JSON Lines parser
        issues: list[Issue] = []
        skipped: list[SkippedRecord] = []
        store = ConversationStore()
        kept: list[int] = []

        def keep(index: int, conv: Conversation, raw: Any) -> None:
            store.append(conv, raw)
            kept.append(index)

        stream_records(name, parsed, True, issues, skipped, keep)
        return Piece(len(numbers), numbers, issues, skipped, kept, store.parts())


_INHERITED: dict[str, bytes] = {}
"""Files the workers were forked with (:meth:`PiecePool.start_with`), by key; empty in this process."""
_KEYS = itertools.count()


def load_inherited_piece(key: str, name: str, start: int, end: int, first_line: int) -> Piece:
    """:func:`load_piece` on bytes ``[start, end)`` of a file this worker was forked with.

    Raises:
        RuntimeError: this process was not forked with that file (a bug: the parent sends the
            bytes to workers it did not fork with them).
    """
    data = _INHERITED.get(key)
    if data is None:
        raise RuntimeError(f"load worker {os.getpid()} was not forked with file {name!r} ({key})")
    return load_piece(name, data[start:end], first_line)


class PiecePool:
    """The worker processes of one load, forked on first use and stopped with :meth:`close`."""

    def __init__(self, settings: PieceSettings) -> None:
        self.settings = settings
        self._executor: ProcessPoolExecutor | None = None

    def available(self) -> bool:
        """Whether workers can be forked safely now (see the module docstring)."""
        if self._executor is not None:
            return True
        return "fork" in multiprocessing.get_all_start_methods() and (
            threading.active_count() == 1 or not self.settings.single_thread_only
        )

    def start(self) -> Executor:
        """The pool, its workers forked now if they are not running yet."""
        if self._executor is None:
            executor = ProcessPoolExecutor(
                max_workers=self.settings.workers, mp_context=multiprocessing.get_context("fork")
            )
            # A pool forks a worker per task submitted while none is idle: fork them all now.
            for _ in range(self.settings.workers):
                executor.submit(os.getpid)
            self._executor = executor
        return self._executor

    def start_with(self, data: bytes) -> tuple[Executor, str | None]:
        """The pool, and the key under which its workers hold ``data`` when they were forked with it.

        Workers forked now find ``data`` in the memory they share with this process, so the
        pieces' bytes need not go through a pipe to them (470 MB pickled, sent and received at a
        million interactions: about a tenth of the load's CPU time); the pages are shared, not
        copied, as nothing writes to them. Workers already running (forked for an earlier file)
        are sent each piece instead (key ``None``).
        """
        if self._executor is not None:
            return self._executor, None
        key = f"{os.getpid()}-{next(_KEYS)}"
        _INHERITED[key] = data
        try:
            return self.start(), key
        finally:
            del _INHERITED[key]  # the workers have their own reference now; this process does not keep one

    def may_split(self, size: int) -> bool:
        """Whether a file of ``size`` bytes is large enough to load in pieces here (its format aside)."""
        return self.settings.enabled and size >= self.settings.min_bytes and self.available()

    def close(self) -> None:
        """Stop the workers (pieces not started are dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class _FileLines:
    """Record index -> line number in a file loaded in pieces (from the pieces' own numbers)."""

    def __init__(self) -> None:
        self._numbers: list[int] = []

    def add(self, numbers: list[int]) -> None:
        self._numbers.extend(numbers)

    def __call__(self, index: int) -> int | None:
        return self._numbers[index] if 0 <= index < len(self._numbers) else None


def plan(pool: PiecePool, name: str, data: bytes, fmt: str) -> list[tuple[int, int]] | None:
    """The pieces ``(start, end)`` of ``data`` when it is loaded in pieces, else ``None``.

    Only a large file that :func:`~agentic_core.io.parse.parse` reads as JSON Lines and whose first
    records are in the seed format is split: its first lines are parsed and the format detected on
    them exactly as for the whole file (detection reads the first 64 lines at most when five of them
    are JSON).
    """
    if not (pool.may_split(len(data)) and is_json_lines(data)):
        return None
    head_end = 0
    for _ in range(64):
        found = data.find(b"\n", head_end)
        if found < 0:
            return None  # 64 lines or fewer: not worth it
        head_end = found + 1
    head = parse_jsonl(name, data[:head_end], lazy=True)
    head.parse_first(LOOK_AT)
    if sum(1 for r in head.records if r is not None and r is not UNPARSABLE) < LOOK_AT:
        return None  # detection would read further than the head
    if import_parsed(name, head, fmt) is not head or head.issues:
        return None  # another format: its importer maps whole files
    pieces: list[tuple[int, int]] = []
    start = 0
    while start < len(data):
        cut = data.find(b"\n", start + pool.settings.piece_bytes)
        end = len(data) if cut < 0 else cut + 1
        pieces.append((start, end))
        start = end
    return pieces if len(pieces) > 1 else None


def load_in_pieces(
    pool: PiecePool,
    name: str,
    data: bytes,
    pieces: list[tuple[int, int]],
    store: ConversationStore,
    unique: Unique,
) -> tuple[int, list[Issue], list[SkippedRecord]]:
    """Load a file in pieces (from :func:`plan`) on ``pool``'s workers, merged in file order.

    Args:
        pool: The load's worker pool.
        name: The file name.
        data: The file's bytes.
        pieces: Its pieces.
        store: Where the valid conversations go.
        unique: The loader's duplicate check.

    Returns:
        The number of records, and the issues and skipped records (not sorted, like the loader's).
    """
    executor, key = pool.start_with(data)
    issues: list[Issue] = []
    skipped: list[SkippedRecord] = []
    line_of = _FileLines()
    # At most a few pieces wait in the pool at once: the parent's memory holds the file and a
    # few pieces' results, never all of them.
    window = 2 * pool.settings.workers + 2
    pending: deque[tuple[int, Future[Piece]]] = deque()
    upcoming = iter(range(len(pieces)))
    # Per piece, its first line number: counted piece by piece as they are sent (counting a
    # million interactions' newlines up front kept the workers waiting a quarter of a second).
    first_lines = [1]

    def first_line(k: int) -> int:
        while len(first_lines) <= k:
            start, end = pieces[len(first_lines) - 1]
            first_lines.append(first_lines[-1] + data.count(b"\n", start, end))
        return first_lines[k]

    def send() -> None:
        k = next(upcoming, None)
        if k is not None:
            start, end = pieces[k]
            if key is not None:
                pending.append((k, executor.submit(load_inherited_piece, key, name, start, end, first_line(k))))
            else:
                pending.append((k, executor.submit(load_piece, name, data[start:end], first_line(k))))

    offset = 0
    try:
        for _ in range(window):
            send()
        while pending:
            k, future = pending.popleft()
            try:
                piece = future.result()
            except BrokenProcessPool:
                # A worker died (killed for memory, say): the rest loads in this process.
                pool.close()
                for j in range(k, len(pieces)):
                    start, end = pieces[j]
                    offset += _merge(
                        name,
                        load_piece(name, data[start:end], first_line(j)),
                        offset,
                        line_of,
                        store,
                        issues,
                        skipped,
                        unique,
                    )
                break
            offset += _merge(name, piece, offset, line_of, store, issues, skipped, unique)
            send()
    finally:
        for _, future in pending:
            future.cancel()
    return offset, issues, skipped


def _merge(
    name: str,
    piece: Piece,
    offset: int,
    line_of: _FileLines,
    store: ConversationStore,
    issues: list[Issue],
    skipped: list[SkippedRecord],
    unique: Unique,
) -> int:
    """Append a piece's issues and its conversations that are not duplicates, in file order; its record count."""
    line_of.add(piece.numbers)
    issues.extend(i if i.record is None else replace(i, record=i.record + offset) for i in piece.issues)
    skipped.extend(replace(s, record=s.record + offset) for s in piece.skipped)
    columns = piece.parts.columns
    keep = [
        unique(name, offset + index, session_id, assistant_id, line_of, issues, skipped)
        for index, session_id, assistant_id in zip(piece.kept, columns.session_ids, columns.assistant_ids, strict=True)
    ]
    store.extend(piece.parts, keep)
    return piece.n_records
