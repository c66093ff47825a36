"""The fresh holdout (issue 38): apart from the devset, and never read by the fit."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOLDOUT = ROOT / "sample_data" / "judge_holdout_v2.jsonl"
DEVSET = ROOT / "sample_data" / "judge_devset.jsonl"


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _fold(text: object) -> str:
    return " ".join(str(text).lower().split())


def test_the_holdout_is_large_varied_and_balanced() -> None:
    rows = _rows(HOLDOUT)
    categories = Counter(str(r["category"]) for r in rows)
    assert len(rows) >= 150 and len(categories) >= 12
    # The three classes the issue names.
    assert {"other_language", "unit_conversion", "misspelt_name"} <= categories.keys()
    positives = sum(int(r["label"]) for r in rows)  # type: ignore[call-overload]
    assert abs(positives - len(rows) / 2) <= len(rows) * 0.05
    assert len({r["id"] for r in rows}) == len(rows)


def test_no_holdout_pair_is_in_the_devset() -> None:
    holdout, devset = _rows(HOLDOUT), _rows(DEVSET)
    assert not {r["id"] for r in holdout} & {r["id"] for r in devset}
    seen = {(_fold(r["query"]), _fold(r["answer"])) for r in devset}
    seen_truths = {(_fold(r["query"]), _fold(r["ground_truth"])) for r in devset}
    for row in holdout:
        assert (_fold(row["query"]), _fold(row["answer"])) not in seen, row["id"]
        assert (_fold(row["query"]), _fold(row["ground_truth"])) not in seen_truths, row["id"]
    # No answer sentence of the holdout is copied from the devset (short answers such as "No." may repeat).
    answers = {_fold(r["answer"]) for r in devset}
    assert not [r["id"] for r in holdout if len(str(r["answer"])) > 12 and _fold(r["answer"]) in answers]


def test_the_fit_refuses_the_holdout_and_any_devset_holding_its_pairs(tmp_path: Path) -> None:
    import pytest

    from scripts import fit_learned_judge as fit
    with pytest.raises(SystemExit, match="fresh holdout"):
        fit.refuse_holdout(HOLDOUT, _rows(HOLDOUT))
    leaked = tmp_path / "devset.jsonl"
    rows = [*_rows(DEVSET)[:3], _rows(HOLDOUT)[0]]
    with pytest.raises(SystemExit, match="holds pairs of the fresh holdout"):
        fit.refuse_holdout(leaked, rows)
    fit.refuse_holdout(DEVSET, _rows(DEVSET))  # the devset itself is fine
