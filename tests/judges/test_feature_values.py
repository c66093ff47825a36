"""The learned judge's feature values are pinned: a speed-up must give every pair the very same features.

``data/feature_values.json.gz`` holds, for every pair of the devset and of the fresh holdout, the value of every
feature but the MiniLM cosine (computed by :func:`~agentic_core.judges.offline.features.feature_matrix`, bit for
bit) and the words of every finding, as the code at the commit it names computed them (issue 38 section 3: the
feature path was made faster without changing a value). A change that is meant to change the features (a new
detector, a refit) rewrites the file, with its provenance: ``python -m tests.judges.test_feature_values --write``.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from agentic_core.judges.offline.features import FEATURES, feature_matrix

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "data" / "feature_values.json.gz"
FILES = ("sample_data/judge_devset.jsonl", "sample_data/judge_holdout_v2.jsonl")
COLUMNS = [f for f in FEATURES if f != "cosine"]
"""Every feature but the cosine (the MiniLM embedding's, untouched here and NaN without it)."""


def _triples() -> list[tuple[str, str, str]]:
    lines = [line for name in FILES for line in (ROOT / name).read_text("utf-8").splitlines() if line.strip()]
    rows = [json.loads(line) for line in lines]
    return [(r["query"], r["answer"], r["ground_truth"]) for r in rows]


def _compute(triples: list[tuple[str, str, str]]) -> dict[str, Any]:
    matrix, pairs = feature_matrix(triples, None)
    picked = matrix[:, [FEATURES.index(f) for f in COLUMNS]]
    return {"columns": COLUMNS, "values": picked.tolist(), "findings": [p.findings for p in pairs]}


def test_every_feature_value_and_finding_is_the_pinned_one() -> None:
    pinned = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    now = _compute(_triples())
    assert now["columns"] == pinned["columns"], "the features changed: rewrite the fixture (see the module)"
    got, want = np.array(now["values"]), np.array(pinned["values"])
    differ = sorted({COLUMNS[j] for _, j in np.argwhere(got != want)})
    assert not differ, f"feature values changed in {differ} (since {pinned['provenance']})"
    moved = [i for i, (a, b) in enumerate(zip(now["findings"], pinned["findings"], strict=True)) if a != b]
    assert not moved, f"the findings' words changed for pairs {moved[:10]}"


def test_warm_caches_give_what_cold_ones_give() -> None:
    # The per-text caches must hand back what a first computation gives, in any order of the pairs.
    triples = _triples()[::7]
    first = _compute(triples)
    again = _compute(list(reversed(triples)))
    assert first["values"] == list(reversed(again["values"]))
    assert first["findings"] == list(reversed(again["findings"]))


def _write() -> None:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    content = _compute(_triples())
    content["provenance"] = {
        "commit": head.strip(),
        "command": "python -m tests.judges.test_feature_values --write",
        "files": list(FILES),
    }
    FIXTURE.write_bytes(gzip.compress(json.dumps(content).encode(), mtime=0))
    print(f"wrote {FIXTURE} ({len(content['values'])} pairs, {len(COLUMNS)} features)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write()
