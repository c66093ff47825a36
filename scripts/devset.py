"""The labelled devset of the offline judges: where it is and how it is read.

Read by the fit script (``scripts/fit_learned_judge.py``) and the benchmarks that measure the judges on it
(``benchmarks/judge_accuracy.py`` and those that import it), so the file's rules live in one place.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_DEVSET", "NAMED_SPLITS", "load_devset"]

DEFAULT_DEVSET = Path(__file__).resolve().parent.parent / "sample_data" / "judge_devset.jsonl"
NAMED_SPLITS = ("dev", "test", "holdout")
"""Values a record's optional ``split`` field may take."""


def load_devset(path: Path) -> list[dict[str, Any]]:
    """Read the labelled devset.

    Args:
        path: A JSONL file of ``{id, query, answer, ground_truth, label, category}`` records, each
            with an optional ``split`` (``dev``, ``test`` or ``holdout``).

    Returns:
        The records in file order.

    Raises:
        ValueError: A record is missing a field, has a label other than 0 / 1 or an unknown split.
    """
    records = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            rec = json.loads(line)
            missing = {"id", "query", "answer", "ground_truth", "label", "category"} - rec.keys()
            if missing:
                raise ValueError(f"{path} line {lineno}: missing fields {sorted(missing)}")
            if rec["label"] not in (0, 1):
                raise ValueError(f"{path} line {lineno}: label must be 0 or 1 (got {rec['label']!r})")
            if rec.get("split", "dev") not in NAMED_SPLITS:
                raise ValueError(f"{path} line {lineno}: split must be one of {NAMED_SPLITS} (got {rec['split']!r})")
            records.append(rec)
    return records
