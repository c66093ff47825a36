"""A run's counts in words: distinct judge items first, then the interactions they cover, never mixed (issue 36)."""

from __future__ import annotations

from pathlib import Path

from agentic_core.judges.base import JudgeItem
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.verdict_counts import item_words
from tests.abstaining import AbstainingJudge


def _items() -> list[JudgeItem]:
    # 8 distinct items, each asked about once; the first 3 asked twice more: 14 interactions.
    distinct = [JudgeItem(f"q{i}", f"answer {i}", f"truth {i}") for i in range(8)]
    return distinct + distinct[:3] * 2


def test_items_and_interactions_are_said_apart(tmp_path: Path) -> None:
    items = _items()
    with JudgeCache(tmp_path / "c.sqlite3") as cache:
        first = run_judge_sync(AbstainingJudge(), items, cache=cache)
        assert item_words(first) == (
            "8 distinct items: 0 from the cache, 8 sent to the judge, covering 14 interactions "
            "(6 repeat an earlier item and share its verdict)"
        )
        run_judge_sync(AbstainingJudge(), items[:5], cache=cache, cache_mode="refresh")  # nothing new
        second = run_judge_sync(AbstainingJudge(), [*items, JudgeItem("new", "a", "b")], cache=cache)
    # The Run page said "From the cache: 14" (interactions) beside "Cache: 8 hits" (items). Here the cache's
    # 8 hits are items, and the 15 interactions are said as what they cover.
    assert sum(second.counts.values()) == 15 and second.cache_hits == 8
    assert item_words(second) == (
        "9 distinct items: 8 from the cache, 1 sent to the judge, covering 15 interactions "
        "(6 repeat an earlier item and share its verdict)"
    )


def test_without_the_cache_every_item_goes_to_the_judge() -> None:
    run = run_judge_sync(AbstainingJudge(), _items()[:9], cache=None, cache_mode="off")
    assert item_words(run) == (
        "8 distinct items: 8 sent to the judge (cache off), covering 9 interactions "
        "(1 repeats an earlier item and shares its verdict)"
    )
