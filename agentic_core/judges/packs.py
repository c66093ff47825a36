"""Verdicts shipped with the project: the built-in samples judged by the default judge.

A fresh machine has an empty judge cache, so the first visit to the dashboard used to judge the
default sample (8-10 s) before showing anything. The verdicts of every built-in sample under the
default judge ship in ``sample_data/verdicts.jsonl`` (its abstentions too, as ``uncertain``);
:func:`~agentic_core.judges.runner.run_judge` reads them like cache entries (cache mode ``use``
only: ``refresh`` judges again) and copies them into the user's cache.

A verdict is found by its cache key, which hashes the judge's fingerprint with the texts, so a
changed judge (another version, other options) never picks up a stale verdict: it simply finds
none. ``tests/judges/test_packs.py`` fails when the file falls behind the default judge;
``python -m agentic_core.warmup --write-pack`` rewrites it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from agentic_core.common.sample_dir import SAMPLE_DIR
from agentic_core.judges.base import JudgeItem, Verdict
from agentic_core.judges.cache import cache_key

PACK_FILE = "verdicts.jsonl"


def pack_path() -> Path:
    """The shipped verdict file (next to the samples)."""
    return SAMPLE_DIR / PACK_FILE


@lru_cache(maxsize=1)
def _entries() -> dict[str, Verdict]:
    """Cache key -> verdict (``cached``, or ``uncertain``); empty when the file is missing or unreadable."""
    path = pack_path()
    entries: dict[str, Verdict] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return entries
    for line in lines:
        try:
            row = json.loads(line)
            entries[str(row["key"])] = _shipped_verdict(row)
        except (ValueError, KeyError, TypeError):
            continue  # a damaged line costs one judge call, nothing more
    return entries


def _shipped_verdict(row: dict[str, Any]) -> Verdict:
    """A row of the file as the verdict it stands for (an abstention stays ``uncertain``, with its probability)."""
    probability = row.get("probability")
    probability = None if probability is None else float(probability)
    if row.get("status") == "uncertain":
        return Verdict(
            score=None,
            status="uncertain",
            probability=probability,
            reasoning=str(row["reasoning"]),
            error=str(row["error"]),
        )
    return Verdict(score=float(row["score"]), reasoning=str(row["reasoning"]), status="cached", probability=probability)


def packed_verdicts(keys: Iterable[str]) -> dict[str, Verdict]:
    """The shipped verdicts (status ``cached``; abstentions ``uncertain``) of those ``keys`` that have one."""
    entries = _entries()
    return {key: entries[key] for key in keys if key in entries}


def pack_rows(fingerprint: str, items: Iterable[JudgeItem], verdicts: Iterable[Verdict]) -> list[dict[str, object]]:
    """Rows of the verdict file for items judged by the judge with ``fingerprint`` (scored ones and abstentions).

    A row holds ``probability`` only when the judge gave one, and ``status`` and ``error`` only for
    an abstention, so the file of a judge without probabilities stays as it was.
    """
    rows: list[dict[str, object]] = []
    for item, verdict in zip(items, verdicts, strict=True):
        row: dict[str, object] = {"key": cache_key(fingerprint, item), "reasoning": verdict.reasoning}
        if verdict.status == "uncertain":
            row.update(score=None, status="uncertain", error=verdict.error or "uncertain")
        elif verdict.score is not None and verdict.status != "failed":
            row["score"] = verdict.score
        else:
            continue  # a failure is judged again on the user's machine
        if verdict.probability is not None:
            row["probability"] = verdict.probability
        rows.append(row)
    return rows


def write_pack(rows: Iterable[dict[str, object]], path: Path | None = None) -> int:
    """Write the verdict file (one JSON object per line, sorted by key, so diffs stay small).

    Returns:
        How many verdicts were written.
    """
    unique = {str(row["key"]): row for row in rows}
    target = path or pack_path()
    lines = [json.dumps(unique[key], ensure_ascii=False, sort_keys=True) for key in sorted(unique)]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _entries.cache_clear()
    return len(lines)
