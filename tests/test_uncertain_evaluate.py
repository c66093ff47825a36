"""Abstention is a verdict (issue 24 item 1), end to end: evaluate with a judge that abstains on some items.

Counts, the frame's columns, the cache, the unscored bounds (an abstention is never 0 or 1), the
Explorer's unscored filter, the Ray engine's verdict columns and a stored run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.data.schemas import Conversation
from agentic_core.engines.verdict_columns import verdicts_from_columns, verdicts_to_columns
from agentic_core.evaluate import evaluate, judge_items
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.verdict_counts import verdict_counts
from agentic_core.report.explorer_filters import ExplorerFilters, FilterIndex, filter_mask
from tests.abstaining import AbstainingJudge, abstains_on, records, right


def conversations(n: int = 24) -> list[Conversation]:
    """``n`` conversations of three interactions, right and wrong answers mixed."""
    return [Conversation.model_validate(record) for record in records(n)]


class DecidedJudge:
    """The abstaining judge's sure verdicts, with its abstentions replaced by ``instead(item)``."""

    cacheable = False
    recommended_threshold = 0.5

    def __init__(self, instead: Callable[[JudgeItem], Verdict]) -> None:
        self.identity = JudgeIdentity(kind="decided-test")
        self.instead = instead
        self.sure = AbstainingJudge()

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        return [self.instead(i) if abstains_on(i) else self.sure.verdict(i) for i in items]


@pytest.fixture(scope="module")
def data() -> list[Conversation]:
    return conversations()


@pytest.fixture(scope="module")
def abstained(data: list[Conversation]) -> np.ndarray:
    return np.array([abstains_on(item) for item in judge_items(data)])


def test_counts_and_columns(data: list[Conversation], abstained: np.ndarray) -> None:
    assert 0 < abstained.sum() < len(abstained)  # the data makes both kinds
    result = evaluate(data, AbstainingJudge(), cache_mode="off")
    frame = result.interactions
    assert result.judge_run.counts == {"ok": int((~abstained).sum()), "failed": 0, "cached": 0,
                                       "uncertain": int(abstained.sum())}
    assert (frame["judge_status"] == "uncertain").to_numpy().tolist() == abstained.tolist()
    assert frame.loc[abstained, "score"].isna().all()  # unscored, never 0 or 1
    assert frame.loc[abstained, "judge_error"].str.startswith("uncertain").all()
    probability = frame["judge_probability"].to_numpy()
    assert probability.dtype == np.float64 and not np.isnan(probability).any()
    assert ((probability[abstained] >= 0.4) & (probability[abstained] <= 0.6)).all()
    counts = verdict_counts(result)
    assert (counts.judged, counts.uncertain, counts.failed) == (int((~abstained).sum()), int(abstained.sum()), 0)
    assert verdict_counts(frame) == counts  # the frame says the same as the run


def test_a_judge_without_probabilities_leaves_the_column_nan(data: list[Conversation]) -> None:
    frame = evaluate(data[:3], "dataset", cache_mode="off").interactions
    assert frame["judge_probability"].isna().all() and frame["judge_probability"].dtype == np.float64


def test_a_second_run_serves_abstentions_from_the_cache(data: list[Conversation], tmp_path: Path) -> None:
    judge = AbstainingJudge()
    cache = JudgeCache(tmp_path / "cache.sqlite3")
    first = evaluate(data, judge, cache=cache)
    calls = judge.calls
    second = evaluate(data, judge, cache=cache)
    assert judge.calls == calls and second.judge_run.model_calls == 0
    assert second.judge_run.counts["uncertain"] == first.judge_run.counts["uncertain"]
    columns = ["score", "judge_probability", "judge_reasoning", "judge_error"]
    pd.testing.assert_frame_equal(first.interactions[columns], second.interactions[columns])
    status = first.interactions["judge_status"].replace("ok", "cached")
    pd.testing.assert_series_equal(status, second.interactions["judge_status"])


def test_abstentions_land_in_the_unscored_bounds_never_as_0_or_1(
    data: list[Conversation], abstained: np.ndarray
) -> None:
    agg = aggregate(evaluate(data, AbstainingJudge(), cache_mode="off"))
    assert agg.unscored is not None and agg.unscored.unscored_interactions == int(abstained.sum())

    def headline(instead: Callable[[JudgeItem], Verdict]) -> tuple[float | None, ...]:
        h = aggregate(evaluate(data, DecidedJudge(instead), cache_mode="off")).headline
        return h.success_rate, h.pass_at_k, h.pass_pow_k

    as_failure = headline(lambda i: Verdict(score=None, status="failed", error="broken"))
    as_zero = headline(lambda i: Verdict(score=0.0))
    as_one = headline(lambda i: Verdict(score=1.0))
    here = (agg.headline.success_rate, agg.headline.pass_at_k, agg.headline.pass_pow_k)
    assert here == as_failure  # unscored exactly like a failure
    assert here != as_zero and here != as_one  # and counted as neither 0 nor 1
    # The bounds are the worst and best case: the success rate as if every abstention were 0, or 1.
    bounds = agg.unscored
    assert bounds.as_incorrect.success_rate == pytest.approx(as_zero[0])
    assert bounds.as_correct.success_rate == pytest.approx(as_one[0])
    assert as_zero[0] < as_one[0]


def test_the_explorer_finds_abstentions_by_the_reason_uncertain(
    data: list[Conversation], abstained: np.ndarray
) -> None:
    result = evaluate(data, AbstainingJudge(), cache_mode="off")
    agg = aggregate(result)
    index = FilterIndex.build(result)
    found = filter_mask(result, agg, index, ExplorerFilters(unscored_reason="Uncertain"))
    expected = np.zeros(result.n_conversations, dtype=bool)
    expected[result.conv_index[abstained]] = True
    assert found.tolist() == expected.tolist()
    assert not filter_mask(result, agg, index, ExplorerFilters(unscored_reason="timeout")).any()


def test_the_explorer_tags_an_abstention_whose_error_lacks_the_word() -> None:
    class Terse(AbstainingJudge):
        def verdict(self, item: JudgeItem) -> Verdict:
            v = super().verdict(item)
            return v.model_copy(update={"error": "inside the band"}) if v.status == "uncertain" else v

    data = conversations(6)
    result = evaluate(data, Terse(), cache_mode="off")
    index = FilterIndex.build(result)
    found = filter_mask(result, aggregate(result), index, ExplorerFilters(unscored_reason="uncertain"))
    assert found.sum() == len(set(result.conv_index[(result.interactions["judge_status"] == "uncertain").to_numpy()]))
    assert found.any()


def test_the_ray_engines_columns_keep_abstentions_and_probabilities() -> None:
    items = judge_items(conversations(4))
    verdicts = [AbstainingJudge().verdict(i) for i in items] + [Verdict(score=0.5), Verdict(status="failed", error="x")]
    assert verdicts_from_columns(verdicts_to_columns(verdicts)) == verdicts


def test_right_is_what_the_fake_judges() -> None:
    # The fake's sure verdicts follow the data: both kinds occur, so the bounds above differ.
    items = judge_items(conversations())
    assert {right(i) for i in items} == {True, False}


def test_a_stored_run_keeps_abstentions_and_probabilities(data: list[Conversation], tmp_path: Path) -> None:
    from agentic_core.runs import RunStore
    from agentic_core.runs.trends import ReopenedRuns

    result = evaluate(data, AbstainingJudge(), cache_mode="off")
    store = RunStore(tmp_path / "runs.sqlite3")
    first = store.save(evaluate(data, "dataset", cache_mode="off"), "dataset first")  # trends reuse its data
    meta = store.save(result, "abstaining")
    reopened = store.open(meta.id)
    pd.testing.assert_frame_equal(reopened.interactions, result.interactions)
    assert reopened.judge_run.counts["uncertain"] == result.judge_run.counts["uncertain"] > 0
    # Trends swap this run's verdicts into the first run's frame: the same columns come out.
    cache = ReopenedRuns()
    cache.get(store, store.meta(first.id))
    swapped = cache.get(store, meta).interactions
    for column in ("score", "judge_status", "judge_error", "judge_probability"):
        pd.testing.assert_series_equal(swapped[column], result.interactions[column], check_dtype=False, obj=column)


def test_the_drill_down_says_the_judge_abstained(data: list[Conversation], abstained: np.ndarray) -> None:
    from agentic_core.report.explorer import conversation_detail

    result = evaluate(data, AbstainingJudge(), cache_mode="off")
    agg = aggregate(result)
    row = int(result.conv_index[int(np.flatnonzero(abstained)[0])])
    details = conversation_detail(result, agg, row)
    unsure = [d for d in details if d.judge_status == "uncertain"]
    assert unsure and all(d.verdict.startswith("Unscored: the judge abstained (uncertain: ") for d in unsure)
    assert all("failed" not in d.verdict for d in unsure)


def test_the_interactions_export_carries_the_probability(data: list[Conversation]) -> None:
    from agentic_core.report.exports import interactions_table

    result = evaluate(data, AbstainingJudge(), cache_mode="off")
    table = interactions_table(result, aggregate(result))
    assert table["judge_probability"].tolist() == result.interactions["judge_probability"].tolist()
    assert table.loc[table["judge_status"] == "uncertain", "judge_score"].isna().all()
