"""The run history: every evaluation kept in one SQLite file, reopened without calling a judge.

Where: ``$AGENTIC_RUNS_PATH`` (a file, or a folder for the default file name), else the user data
folder (``platformdirs``). The dashboard shows the path on its History page.

What: per run, its description (:class:`~agentic_core.runs.payload.RunMeta`, searchable columns)
and its whole document (:class:`~agentic_core.runs.payload.RunPayload`, zlib-compressed JSON), plus
the human overrides, which change after the run is made. Never an API key: judge identities hold
none, and :func:`~agentic_core.runs.payload.to_payload` takes nothing else from the judge.

The file records its schema version (``PRAGMA user_version``); a file written by a newer version
is refused with the reason, an older one is migrated in place. Version 2 adds the parts of live runs
(:mod:`agentic_core.runs.parts`), and descriptions may hold tags, a note and metadata, which a version-1 workbench
would drop on renaming a run. Version 3 adds the runs' human labels (:mod:`agentic_core.runs.labels`). An
older file that cannot be written is read as it is: it has no parts and no labels, and no upgrade so far adds
what a reader needs.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import platformdirs

from agentic_core.agentic_metrics.results import AgenticMetrics
from agentic_core.common.gc_control import gc_paused
from agentic_core.common.sqlite_errors import SqliteFailure, sqlite_failure
from agentic_core.data.labels import HumanLabel
from agentic_core.data.overrides import Override
from agentic_core.errors import DataError
from agentic_core.result import EvaluationResult
from agentic_core.runs.labels import LABELS_TABLE, count_labels, delete_labels, insert_labels, read_labels
from agentic_core.runs.packing import RunStoreError as RunStoreError
from agentic_core.runs.packing import pack_document, unpack_document
from agentic_core.runs.parts import PARTS_TABLE, add_part, held, live_base, with_parts
from agentic_core.runs.payload import LiveSource, RunMeta, RunPayload, from_payload, new_payload, new_run_id, upgrade
from agentic_core.runs.run_file import run_file_bytes
from agentic_core.runs.run_tags import RunTags, TagPlaces

ENV_VAR = "AGENTIC_RUNS_PATH"
APP_NAME = "agentic-workbench"
DEFAULT_FILENAME = "runs.sqlite3"
SCHEMA_VERSION = 3

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at REAL NOT NULL,
    data_name TEXT NOT NULL,
    data_fingerprint TEXT NOT NULL,
    judge_label TEXT NOT NULL,
    meta TEXT NOT NULL,
    payload BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at);
CREATE TABLE IF NOT EXISTS overrides (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    row INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    note TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (run_id, row)
);
""" + PARTS_TABLE + LABELS_TABLE
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def default_runs_path() -> Path:
    """Where the history lives: ``$AGENTIC_RUNS_PATH`` if set, else the user data folder."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        path = Path(env).expanduser()
        return path / DEFAULT_FILENAME if path.is_dir() else path
    return Path(platformdirs.user_data_dir(APP_NAME)) / DEFAULT_FILENAME


def _unpack(blob: bytes, place: str) -> RunPayload:
    with gc_paused(promote=True):  # see packing.py
        return RunPayload.model_validate(upgrade(unpack_document(blob, place), place))


def _writable(path: Path) -> bool:
    """Whether SQLite may write ``path``: the file and its folder (for the journal beside it)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


_READ_ONLY_RULE = "is read-only: its runs can be listed, shown and exported, not stored or changed"
_READ_ONLY_FIX = f"make the file and its folder writable, or point {ENV_VAR} at a writable file"


# The store's words for each failure the shared classifier reads: (rule, fix), the place being the file.
_STORE_WORDS: dict[SqliteFailure, tuple[str, str]] = {
    "damaged": (
        "is damaged and cannot be read",
        f"move the file aside (a new history is started in its place), or point {ENV_VAR} at another file",
    ),
    "full": (
        "cannot be written: the disk is full",
        f"free some disk space, or point {ENV_VAR} at a file on another disk",
    ),
    "read_only": (_READ_ONLY_RULE, _READ_ONLY_FIX),
    "cannot_open": ("cannot be opened or created there", f"point {ENV_VAR} at a file in a folder you can write to"),
    "busy": ("is locked by another program", "retry when that program is done"),
    "other": ("cannot be used as the run history", f"check the file, or set {ENV_VAR}"),
}


def _store_error(path: Path, exc: BaseException) -> RunStoreError:
    """The user's words for an SQLite or file-system failure on the history: what happened and what to do."""
    rule, fix = _STORE_WORDS[sqlite_failure(exc)]
    return RunStoreError(str(path), rule, str(exc), fix)


class RunStore:
    """The run history in one SQLite file.

    A file that cannot be written (its permissions, or its folder's) is opened read-only: runs can be
    listed, shown and exported; storing or changing one raises :class:`RunStoreError` saying so.

    Args:
        path: The database file (default :func:`default_runs_path`); created with its folder.
        read_only: Open the file read-only (it must exist); ``None`` (default) decides from the
            file's and its folder's permissions.

    Raises:
        RunStoreError: the file cannot be opened, is damaged, or was written by a newer version.
    """

    def __init__(self, path: Path | None = None, read_only: bool | None = None) -> None:
        self.path = path or default_runs_path()
        exists = self.path.exists()
        self.read_only = (exists and not _writable(self.path)) if read_only is None else read_only
        if self.read_only and not exists:
            raise RunStoreError(
                str(self.path), "does not exist, so it cannot be opened read-only", None,
                f"check the path, or set {ENV_VAR}", show=False,
            )
        try:
            if not self.read_only:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                self._migrate(conn)
        except OSError as exc:
            raise _store_error(self.path, exc) from None

    def __repr__(self) -> str:
        return f"RunStore({str(self.path)!r})"

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            if self.read_only:  # SQLite itself refuses every write, whoever runs the process (root too)
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
            else:
                conn = sqlite3.connect(self.path, timeout=30)
            try:
                conn.execute("PRAGMA foreign_keys = ON")
                with conn:  # one transaction: committed on success, rolled back on error
                    yield conn
            finally:
                conn.close()
        except sqlite3.Error as exc:  # a damaged page, a full disk, a read-only file: said, never a traceback
            raise _store_error(self.path, exc) from None

    def _check_writable(self) -> None:
        if self.read_only:
            raise RunStoreError(str(self.path), _READ_ONLY_RULE, None, _READ_ONLY_FIX, show=False)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise RunStoreError(
                str(self.path),
                f"was written by a newer workbench (history schema {version}; this one knows up to {SCHEMA_VERSION})",
                version,
                f"upgrade the workbench, or point {ENV_VAR} at another file",
            )
        # Schema 1 has no parts, 2 no labels: read as it is when it cannot be upgraded (upgrading writes).
        self._parts = version >= 2 or not self.read_only
        self._labels = version >= 3 or not self.read_only
        if self.read_only:
            return
        conn.executescript(_SCHEMA)
        # Later schema versions add their ALTER TABLE steps here, from `version` upwards. 1 -> 2 and 2 -> 3 need
        # none: tags, note and metadata live in the description (`meta`), whose new fields have defaults, and the
        # new tables are created above.
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- writing ---------------------------------------------------------------------------------

    def save(
        self,
        result: EvaluationResult,
        data_name: str,
        name: str | None = None,
        settings: dict[str, Any] | None = None,
        tags: RunTags | None = None,
    ) -> RunMeta:
        """Store an evaluation; returns its description (with the new id).

        Args:
            result: The evaluation.
            data_name: The name of its data.
            name: The run's name (default: the data and the judge).
            settings: The aggregation settings it was reported with (JSON form), if any.
            tags: Its tags, note and metadata (:meth:`RunTags.checked`), if any.
        """
        payload = new_payload(result, data_name, name=name, settings=settings, tags=tags)
        self._insert(payload)
        return payload.meta

    def add_live(self, result: EvaluationResult, live: LiveSource, keys: list[str], run_id: str | None = None,
                 tags: RunTags | None = None) -> RunMeta:
        """Add a batch of conversations judged as their traces arrived to a live run (see :mod:`~.parts`).

        Args:
            result: The batch's evaluation.
            live: Where the conversations come from (service, day, time).
            keys: Per conversation, the key of the spool batch it came from (:func:`~agentic_core.runs.parts.add_part`).
            run_id: The live run to grow; ``None`` starts one (with this batch).
            tags: The tags a run started here carries (its OTLP resource's); a run that grows keeps its own.

        Raises:
            RunStoreError: ``run_id`` is not in the history, or the history cannot be written.
        """
        self._check_writable()
        with self._connect() as conn:
            if run_id is None:
                run_id = new_run_id()
                self._insert(live_base(result, live, run_id, tags), conn)
            return add_part(conn, run_id, result, live, keys)

    def live_held(self, run_id: str, column: str, values: list[str]) -> set[str]:
        """Those of ``values`` a live run holds, as session ids or source keys (:func:`~.parts.held`)."""
        with self._connect() as conn:
            return held(conn, run_id, column, values) if self._parts else set()

    def _insert(self, payload: RunPayload, into: sqlite3.Connection | None = None) -> None:
        self._check_writable()
        meta = payload.meta
        with self._connect() if into is None else contextlib.nullcontext(into) as conn:
            conn.execute(
                "INSERT INTO runs (id, name, created_at, data_name, data_fingerprint, judge_label, meta, payload) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    meta.id,
                    meta.name,
                    meta.created_at,
                    meta.data_name,
                    meta.data_fingerprint,
                    meta.judge.label(),
                    meta.model_dump_json(),
                    pack_document(payload.model_copy(update={"overrides": [], "labels": []})),
                ),
            )
            conn.executemany(
                "INSERT INTO overrides (run_id, row, correct, note, created_at) VALUES (?, ?, ?, ?, ?)",
                [(meta.id, o.row, int(o.correct), o.note, o.created_at) for o in payload.overrides],
            )
            insert_labels(conn, meta.id, payload.labels)  # same transaction: the run is stored with them or not at all

    def rename(self, run_id: str, name: str) -> None:
        """Give a run another name.

        Raises:
            RunStoreError: unknown run or a blank name.
        """
        if not name.strip():
            raise RunStoreError("name", "must not be blank", name, "give the run a name")
        self._update_meta(run_id, lambda meta: meta.model_copy(update={"name": name.strip()}))

    def set_tags(self, run_id: str, tags: RunTags | Callable[[RunTags], RunTags]) -> RunMeta:
        """Replace a run's tags, note and metadata (:meth:`RunTags.checked`), or change them in one transaction.

        ``tags`` may be a change of the current ones, such as :meth:`~agentic_core.runs.run_tags.TagEdit.apply`.
        Returns the run's new description. Raises RunStoreError (unknown run, read-only history) or
        SettingsError (the change breaks a rule).
        """
        change = tags if callable(tags) else lambda _current: tags
        return self._update_meta(run_id, lambda meta: meta.model_copy(update=change(meta.run_tags).fields()))

    def _update_meta(self, run_id: str, change: Callable[[RunMeta], RunMeta]) -> RunMeta:
        """Read, change and write a run's description in one transaction (its name column kept in step)."""
        self._check_writable()
        with self._connect() as conn:
            (blob,) = self._row(conn, run_id, "meta")
            meta = change(self._parse_meta(blob))
            conn.execute(
                "UPDATE runs SET name = ?, meta = ? WHERE id = ?", (meta.name, meta.model_dump_json(), run_id)
            )
        return meta

    def delete(self, run_id: str) -> None:
        """Delete a run and its overrides.

        Raises:
            RunStoreError: unknown run.
        """
        self._check_writable()
        with self._connect() as conn:
            self._row(conn, run_id, "id")
            conn.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    def set_override(self, run_id: str, override: Override) -> None:
        """Record (or replace) a person's verdict on one interaction of a run."""
        self._check_writable()
        with self._connect() as conn:
            self._row(conn, run_id, "id")
            conn.execute(
                "INSERT OR REPLACE INTO overrides (run_id, row, correct, note, created_at) VALUES (?, ?, ?, ?, ?)",
                (run_id, override.row, int(override.correct), override.note, override.created_at),
            )

    def set_agentic(self, run_id: str, agentic: AgenticMetrics | None) -> None:
        """Replace a stored run's agentic metrics (computed after the run, e.g. on the Agentic metrics page).

        The payload's ``agentic`` part is optional, so the history's schema and the payload's version stay
        as they are; ``None`` removes the metrics.

        Raises:
            RunStoreError: unknown or damaged run, or metrics for another number of conversations.
        """
        self._check_writable()
        with self._connect() as conn:
            meta, blob = self._row(conn, run_id, "meta, payload")
            payload = _unpack(blob, f"run {run_id}")
            count = self._parse_meta(meta).n_conversations  # a live run's parts included
            if agentic is not None and len(agentic.conversations) != count:
                raise RunStoreError(
                    "agentic metrics", f"must have one entry per conversation of run {run_id} "
                    f"({count})", len(agentic.conversations), "compute them on this run",
                )
            document = agentic.model_dump(mode="json") if agentic is not None else None
            conn.execute("UPDATE runs SET payload = ? WHERE id = ?",
                         (pack_document(payload.model_copy(update={"agentic": document})), run_id))

    def add_labels(self, run_id: str, labels: list[HumanLabel]) -> int:
        """Store human labels with a run at once, each replacing an earlier one on its item; returns how many."""
        self._check_writable()
        with self._connect() as conn:
            self._row(conn, run_id, "id")
            return insert_labels(conn, run_id, labels)

    def labels(self, run_id: str) -> list[HumanLabel]:
        """A run's human labels, oldest first (none in a read-only history older than schema 3)."""
        with self._connect() as conn:
            return read_labels(conn, run_id) if self._labels else []

    def label_counts(self, run_ids: list[str]) -> dict[str, int]:
        """How many human labels each run holds (runs without any left out), in one query."""
        with self._connect() as conn:
            return count_labels(conn, run_ids) if self._labels and run_ids else {}

    def delete_labels(self, run_id: str, keys: list[tuple[str, str, str]]) -> int:
        """Remove labels by their :attr:`~agentic_core.data.labels.HumanLabel.key`; returns how many."""
        self._check_writable()
        with self._connect() as conn:
            return delete_labels(conn, run_id, keys)

    def clear_override(self, run_id: str, row: int) -> None:
        """Remove a person's verdict (the judge's counts again)."""
        self._check_writable()
        with self._connect() as conn:
            conn.execute("DELETE FROM overrides WHERE run_id = ? AND row = ?", (run_id, row))

    # -- reading ---------------------------------------------------------------------------------

    def _parse_meta(self, text: str | bytes) -> RunMeta:
        try:
            return RunMeta.model_validate_json(text)
        except ValueError as exc:  # a damaged row that SQLite itself still reads
            raise _store_error(self.path, ValueError(f"a run's description is malformed: {str(exc)[:120]}")) from None

    def _row(self, conn: sqlite3.Connection, run_id: str, columns: str) -> tuple[Any, ...]:
        row = conn.execute(f"SELECT {columns} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise RunStoreError(
                "run", "is not in the history", run_id, "list the runs (runs list, or the History page) for their ids"
            )
        return tuple(row)

    def runs(self) -> list[RunMeta]:
        """Every stored run, newest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT meta FROM runs ORDER BY created_at DESC, id DESC").fetchall()
        return [self._parse_meta(meta) for (meta,) in rows]

    def meta(self, run_id: str) -> RunMeta:
        """One run's description.

        Raises:
            RunStoreError: unknown run.
        """
        with self._connect() as conn:
            (meta,) = self._row(conn, run_id, "meta")
        return self._parse_meta(meta)

    def payload(self, run_id: str) -> RunPayload:
        """One run's whole document, with its current overrides and human labels.

        Raises:
            RunStoreError: unknown or damaged run.
        """
        with self._connect() as conn:
            meta_json, blob = self._row(conn, run_id, "meta, payload")
            rows = conn.execute(
                "SELECT row, correct, note, created_at FROM overrides WHERE run_id = ? ORDER BY row", (run_id,)
            ).fetchall()
            payload = _unpack(blob, f"run {run_id}")
            if self._parts:
                payload = with_parts(conn, payload)
            labels = read_labels(conn, run_id) if self._labels else []
        overrides = [Override(row=r, correct=bool(c), note=n, created_at=t) for r, c, n, t in rows]
        # The name may have changed since the document was packed.
        update = {"meta": self._parse_meta(meta_json), "overrides": overrides, "labels": labels}
        return payload.model_copy(update=update)

    def overrides_by_run(self, run_ids: list[str]) -> dict[str, list[Override]]:
        """The current overrides of several runs in one query (runs without any left out)."""
        out: dict[str, list[Override]] = {}
        if not run_ids:
            return out
        marks = ", ".join("?" * len(run_ids))
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT run_id, row, correct, note, created_at FROM overrides WHERE run_id IN ({marks}) "
                "ORDER BY run_id, row",
                run_ids,
            ).fetchall()
        for run_id, r, c, n, t in rows:
            out.setdefault(run_id, []).append(Override(row=r, correct=bool(c), note=n, created_at=t))
        return out

    def open(self, run_id: str) -> EvaluationResult:
        """Reopen a run: its result as it was evaluated, with its overrides and labels; no judge is called.

        Raises:
            RunStoreError: unknown or damaged run.
            DataError: its conversations no longer validate.
        """
        return from_payload(self.payload(run_id))

    # -- files -----------------------------------------------------------------------------------

    def export(self, run_id: str) -> bytes:
        """One run as a single file's content (gzip-compressed JSON): what ``runs import`` reads."""
        return run_file_bytes(self.payload(run_id))

    def import_(self, data: bytes, place: str = "run file") -> RunMeta:
        """Add an exported run to the history (a new id if its id is taken).

        Raises:
            DataError: not a run file, a damaged one, one expanding past the limit, or one from a newer version.
        """
        from agentic_core.runs.run_file import expand_run_file

        raw = expand_run_file(data, place)
        try:
            document = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise DataError(
                place, "is not a run file (gzip-compressed JSON)", str(exc)[:120], "export the run again"
            ) from None
        if not isinstance(document, dict):
            raise DataError(place, "is not a run file", type(document).__name__, "export it again")
        payload = RunPayload.model_validate(upgrade(document, place))
        tags = payload.meta.run_tags  # a run file is input: its tags meet today's rules, or are refused by place
        tags = RunTags.checked(tags.tags, tags.note, tags.metadata, TagPlaces.under(place))
        known = {meta.id for meta in self.runs()}
        run_id = payload.meta.id
        if run_id in known or not _ID.match(run_id):
            run_id = new_run_id()
        # A copy: the live path grows the original.
        meta = payload.meta.model_copy(update={"id": run_id, "live": None, **tags.fields()})
        self._insert(payload.model_copy(update={"meta": meta}))
        return meta

    def latest(self) -> RunMeta | None:
        """The newest run, if any."""
        runs = self.runs()
        return runs[0] if runs else None
