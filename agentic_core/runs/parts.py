"""Live runs in the history: a run that grows by parts, each a batch of conversations judged as they arrived.

A live run (:class:`~agentic_core.runs.payload.LiveSource`) is an ordinary stored run: listed, opened, compared,
exported and deleted like any other. Its row holds an empty document (the judge, its threshold); each batch of
conversations the live path judges (:mod:`agentic_core.live`) is one more row of ``run_parts``, so adding a batch
writes that batch only, never the whole run again: a day of traffic costs time in proportion to the traffic.
Reading the run (:func:`with_parts`) joins the parts in order into the one document every reader expects, so
rows (verdicts, overrides) keep their numbers as the run grows.

``live_conversations`` lists each live run's conversations by session id, with the key of the spool batch each
came from: a conversation id the run already holds is told apart before it is added (one run never holds one id
twice), and a conversation judged again after a restart (its spans were still on the disk when the server
stopped) is recognised and not added twice. Both are looked up, never held in memory: a day of traffic costs the
server no memory.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from agentic_core.judges.base import Verdict
from agentic_core.result import EvaluationResult
from agentic_core.runs.packing import RunStoreError, pack_document, unpack_document
from agentic_core.runs.payload import LiveSource, RunMeta, RunPayload, conversation_dicts, fingerprint
from agentic_core.runs.run_tags import RunTags

PARTS_TABLE = """
CREATE TABLE IF NOT EXISTS run_parts (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    part INTEGER NOT NULL,
    payload BLOB NOT NULL,
    PRIMARY KEY (run_id, part)
);
CREATE TABLE IF NOT EXISTS live_conversations (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    source_key TEXT NOT NULL,
    PRIMARY KEY (run_id, session_id)
);
CREATE INDEX IF NOT EXISTS live_conversations_key ON live_conversations (run_id, source_key);
"""
"""The tables of schema 2: a live run's parts and conversations (the schema-1 tables are unchanged)."""

_SUMMED = ("cache_hits", "cache_misses", "model_calls", "duplicates", "retries", "reasks", "elapsed_s",
           "input_tokens", "output_tokens")  # fmt: skip
_MAX_WARNINGS = 20
"""Distinct warnings a live run keeps (a day of batches would otherwise repeat the same ones)."""


class RunPart(BaseModel):
    """One batch of a live run: its conversations, their verdicts and the judge's accounting of the batch.

    Attributes:
        conversations: The batch's conversations (seed format, as evaluated).
        verdicts: One per interaction, in order.
        judge_run: The judge run's accounting (counts, cache, tokens, warnings), without its verdicts.
    """

    conversations: list[dict[str, Any]]
    verdicts: list[Verdict]
    judge_run: dict[str, Any]


def merge_accounting(first: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """Two judge runs' accounting as one: counts, cache use, calls, tokens and time summed; warnings once each."""
    if not first:
        return dict(more)
    out = {**first, "cache_mode": more.get("cache_mode", first.get("cache_mode")),
           "cache_path": more.get("cache_path", first.get("cache_path"))}
    for key in _SUMMED:
        out[key] = first.get(key, 0) + more.get(key, 0)
    counts = dict(first.get("counts", {}))
    for status, n in more.get("counts", {}).items():
        counts[status] = counts.get(status, 0) + n
    out["counts"] = counts
    out["warnings"] = list(dict.fromkeys([*first.get("warnings", []), *more.get("warnings", [])]))[:_MAX_WARNINGS]
    return out


def with_parts(conn: sqlite3.Connection, payload: RunPayload) -> RunPayload:
    """A stored run's document with its parts joined in order (a run without parts is returned as it is).

    Raises:
        RunStoreError: A part is damaged.
    """
    rows = conn.execute("SELECT part, payload FROM run_parts WHERE run_id = ? ORDER BY part",
                        (payload.meta.id,)).fetchall()
    if not rows:
        return payload
    conversations, verdicts = list(payload.conversations), list(payload.verdicts)
    accounting = payload.judge_run
    for number, blob in rows:
        part = RunPart.model_validate(unpack_document(blob, f"run {payload.meta.id} part {number}"))
        conversations.extend(part.conversations)
        verdicts.extend(part.verdicts)
        accounting = merge_accounting(accounting, part.judge_run)
    return payload.model_copy(update={"conversations": conversations, "verdicts": verdicts, "judge_run": accounting})


def live_base(result: EvaluationResult, live: LiveSource, run_id: str, tags: RunTags | None = None) -> RunPayload:
    """The row of a new live run: its description and judge, no conversation yet (its parts bring them).

    Args:
        result: The first batch's evaluation (its judge and threshold are the run's).
        live: Where its conversations come from.
        run_id: The new run's id.
        tags: Its tags, note and metadata (from the first batch's OTLP resource,
            :func:`~agentic_core.runs.run_tags.tags_from_resource`), if any.
    """
    meta = RunMeta(
        id=run_id,
        name=f"{live.service} · live {live.day}",
        created_at=time.time(),
        data_name=f"live traces of {live.service} ({live.day}, UTC)",
        data_fingerprint=fingerprint([]),
        judge=result.judge_identity,
        n_conversations=0,
        n_interactions=0,
        live=live,
        **(tags.fields() if tags else {}),
    )
    return RunPayload(meta=meta, conversations=[], verdicts=[], judge_run={},
                      recommended_threshold=result.recommended_threshold)


def add_part(conn: sqlite3.Connection, run_id: str, result: EvaluationResult, live: LiveSource,
             keys: Sequence[str]) -> RunMeta:
    """Add one judged batch to a live run; its description counts it.

    The data fingerprint of a live run chains its parts' fingerprints (the same batches in the same order give the
    same value), so adding a batch never reads the run again.

    Args:
        conn: The history's connection (the caller's transaction).
        run_id: The live run.
        result: The batch's evaluation.
        live: The run's source, with the time of this batch.
        keys: Per conversation of ``result``, the key of the spool batch it came from (:func:`held`).

    Returns:
        The run's description after the batch.

    Raises:
        RunStoreError: The run is not in the history (deleted meanwhile).
    """
    row = conn.execute("SELECT meta FROM runs WHERE id = ?", (run_id,)).fetchone()
    if row is None:
        raise RunStoreError("run", "is not in the history", run_id, "a new live run is started")
    meta = RunMeta.model_validate_json(row[0])
    dicts = conversation_dicts(result.conversations)
    accounting = result.judge_run.model_dump(mode="json", exclude={"verdicts"})
    part = RunPart(conversations=dicts, verdicts=list(result.judge_run.verdicts), judge_run=accounting)
    chained = hashlib.sha256(f"{meta.data_fingerprint}{fingerprint(dicts)}".encode()).hexdigest()
    meta = meta.model_copy(update={
        "n_conversations": meta.n_conversations + result.n_conversations,
        "n_interactions": meta.n_interactions + result.n_interactions,
        "data_fingerprint": chained,
        "live": live,
    })
    conn.execute("UPDATE runs SET meta = ?, data_fingerprint = ? WHERE id = ?",
                 (meta.model_dump_json(), chained, run_id))
    (number,) = conn.execute("SELECT COALESCE(MAX(part), -1) + 1 FROM run_parts WHERE run_id = ?",
                             (run_id,)).fetchone()
    conn.execute("INSERT INTO run_parts (run_id, part, payload) VALUES (?, ?, ?)",
                 (run_id, number, pack_document(part)))
    conn.executemany("INSERT INTO live_conversations (run_id, session_id, source_key) VALUES (?, ?, ?)",
                     [(run_id, d["session_id"], key) for d, key in zip(dicts, keys, strict=True)])
    return meta


def receiving(meta: RunMeta, now: float | None = None) -> bool:
    """Whether a run is a live run still collecting: its UTC day is today's (the dashboard follows it then).

    Args:
        meta: The run's description.
        now: The time (default: now).
    """
    if meta.live is None:
        return False
    today = datetime.fromtimestamp(time.time() if now is None else now, UTC).date().isoformat()
    return meta.live.day == today


_LOOKUP = {"session_id": "SELECT session_id FROM live_conversations WHERE run_id = ? AND session_id IN ({})",
           "source_key": "SELECT source_key FROM live_conversations WHERE run_id = ? AND source_key IN ({})"}


def held(conn: sqlite3.Connection, run_id: str, column: str, values: Sequence[str]) -> set[str]:
    """Those of ``values`` a live run already holds, as session ids (``column`` ``session_id``) or as the keys of
    the spool batches its conversations came from (``source_key``)."""
    found: set[str] = set()
    for start in range(0, len(values), 500):  # SQLite's bound on the parameters of one statement, with room
        chunk = list(values[start:start + 500])
        found.update(v for (v,) in conn.execute(_LOOKUP[column].format(", ".join("?" * len(chunk))),
                                                 (run_id, *chunk)))
    return found
