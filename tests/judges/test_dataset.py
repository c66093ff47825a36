"""Tests of agentic_core.judges.dataset: each item's own score, unscored without one; equal scores
share one verdict object and, in a run, are judged once (the judge reads no texts)."""

from __future__ import annotations

import asyncio
import math
import struct
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.judges.base import JudgeItem, ProgressFn, Verdict, item_key, score_bits, score_key
from agentic_core.judges.dataset import DatasetJudge
from agentic_core.judges.monitor import RunCancelled, RunMonitor
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.score_runner import run_score_judge_sync


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


class _ReadingTexts(DatasetJudge):
    """The dataset judge on the ordinary path: one item per interaction, texts and all."""

    reads_texts = True


def test_the_runner_tells_the_two_zeros_apart() -> None:
    items = [JudgeItem("q", "a", "g", s) for s in (0.0, -0.0, 0.0, None, None)]
    run = run_judge_sync(DatasetJudge(), items, cache=None, cache_mode="off")
    assert [v.reasoning for v in run.verdicts[:3]] == [f"score {s} taken from the dataset" for s in ("0", "-0", "0")]
    assert (run.model_calls, run.duplicates) == (3, 2)


def test_evaluate_gives_the_dataset_judge_its_distinct_scores_and_the_same_result() -> None:
    records = [
        {
            "session_id": f"s{c}",
            "assistant_id": "a",
            "conversation": [
                {"qa_id": f"q{i}", "query": f"Q{c}{i}", "assistant": "A", "ground_truth_assistant": "G",
                 "score": [0.25, 0.5, 0.0][(c + i) % 3]}
                for i in range(3)
            ],
        }
        for c in range(4)
    ]
    records[3]["conversation"] = records[0]["conversation"]  # three items repeated
    report = load_records(records)
    seen: list[JudgeItem] = []

    class Watched(DatasetJudge):
        async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
            seen.extend(items)
            return await super().ajudge(items, progress)

    new = evaluate(report, Watched(), cache_mode="off")
    old = evaluate(report, _ReadingTexts(), cache_mode="off")
    assert sorted(i.score for i in seen) == [0.0, 0.25, 0.5] and {i.query for i in seen} == {""}
    pd.testing.assert_frame_equal(new.interactions, old.interactions)
    assert new.judge_run.verdicts == old.judge_run.verdicts
    # Counted over items, as the runner counts them: 12 interactions, 9 distinct items.
    assert (new.judge_run.model_calls, new.judge_run.duplicates) == (old.judge_run.model_calls, 3) == (9, 3)
    assert new.judge_run.counts == old.judge_run.counts


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([None, 0.0, -0.0, 0.25, 0.5, 1.0, 0.1 + 0.2, 1e-300]), max_size=40))
def test_the_score_runner_is_the_item_runner_without_the_items(scores: list[float | None]) -> None:
    items = [JudgeItem("q", f"a{i % 3}", "g", s) for i, s in enumerate(scores)]
    column = np.array([np.nan if s is None else s for s in scores], dtype=float)
    distinct = len({item_key(i) for i in items})
    fast = run_score_judge_sync(DatasetJudge(), column, distinct)
    slow = run_judge_sync(DatasetJudge(), items, cache=None, cache_mode="off")
    assert [(v.score, v.status, v.reasoning, v.error) for v in fast.verdicts] == [
        (v.score, v.status, v.reasoning, v.error) for v in slow.verdicts
    ]
    assert [str(v.score) for v in fast.verdicts] == [str(s) if s is not None else "None" for s in scores]  # -0.0 kept
    for field in ("counts", "model_calls", "duplicates", "cache_hits", "cache_misses", "identity", "cache_mode"):
        assert getattr(fast, field) == getattr(slow, field), field


def test_the_score_runner_reports_progress_and_every_verdict_to_a_monitor() -> None:
    column = np.array([0.5, np.nan, 0.5, 1.0])
    calls: list[tuple[int, int]] = []
    monitor = RunMonitor(4)
    run = run_score_judge_sync(DatasetJudge(), column, 3, progress=lambda d, t: calls.append((d, t)), monitor=monitor)
    assert calls == [(0, 4), (4, 4)]
    snap = monitor.snapshot()
    assert (snap.done, snap.judged, snap.failed) == (4, 3, 1)
    np.testing.assert_array_equal(monitor.scores, [0.5, np.nan, 0.5, 1.0])
    assert run.counts == {"ok": 3, "failed": 1, "cached": 0, "uncertain": 0}
    cancelled = RunMonitor(4)
    cancelled.cancel()
    with pytest.raises(RunCancelled):
        run_score_judge_sync(DatasetJudge(), column, 3, monitor=cancelled)


# NaNs with other bits than numpy's own (a sign, a payload): still the one "no score".
_OTHER_NANS = [-math.nan, struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.one_of(st.none(), st.floats(), st.sampled_from([0.0, -0.0, 0.5, *_OTHER_NANS])), min_size=1, max_size=12
    )
)
def test_score_bits_are_equal_exactly_where_score_keys_are(scores: list[float | None]) -> None:
    # The column form of the rule the runner uses: NaN is a missing score, as in the columns.
    column = np.array([np.nan if s is None else s for s in scores], dtype=float)
    bits = score_bits(column).tolist()
    keys = [score_key(None if s is None or s != s else s) for s in scores]
    for i in range(len(scores)):
        for j in range(len(scores)):
            assert (bits[i] == bits[j]) == (keys[i] == keys[j]), (scores[i], scores[j])
