"""Tests of agentic_core.judges.dataset: each item's own score, unscored without one; equal scores
share one verdict object."""

from __future__ import annotations

import asyncio

from agentic_core.judges.base import JudgeItem, Verdict
from agentic_core.judges.dataset import DatasetJudge


def test_each_item_gets_its_own_score_or_is_unscored() -> None:
    items = [JudgeItem("q", "a", "g", s) for s in (0.5, None, 1.0, 0.5, 0.0, -0.0, 1)]
    verdicts = asyncio.run(DatasetJudge().ajudge(items))
    expected = [
        Verdict(score=s, reasoning=f"score {s:g} taken from the dataset")
        if s is not None
        else Verdict(
            status="failed",
            error="no 'score' field on this interaction: the dataset judge needs one "
            '(add "score": <0..1> or choose another judge)',
        )
        for s in (0.5, None, 1.0, 0.5, 0.0, -0.0, 1)
    ]
    assert verdicts == expected
    assert [v.reasoning for v in verdicts[4:6]] == ["score 0 taken from the dataset", "score -0 taken from the dataset"]
    assert verdicts[0] is verdicts[3] and verdicts[2] is verdicts[6]  # shared, never changed in place
    assert verdicts[4] is not verdicts[5]
