"""What a run will cost before it starts: judge calls needed, cache hits, items the judge cannot score.

The Run page shows this next to its button; the CLI could print it. It uses the same items and the
same deduplication as the run itself (:func:`agentic_core.judges.runner.estimate_calls`), so the
estimate and the run's own accounting agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentic_core.judges.base import Judge, JudgeItem
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CacheMode, estimate_calls


@dataclass(frozen=True)
class RunPlan:
    """The cost of judging a set of items with one judge and cache mode.

    Attributes:
        items: Items (interactions) to judge.
        distinct: Distinct items (identical items are judged once).
        calls: Distinct items the judge will be asked about (cache hits excluded).
        cached: Distinct items the cache will answer.
        without_score: Items carrying no ``score`` of their own (the ``dataset`` judge leaves
            them unscored).
        uses_cache: Whether this judge reads and writes the cache at all.
    """

    items: int
    distinct: int
    calls: int
    cached: int
    without_score: int
    uses_cache: bool


def plan_run(
    judge: Judge, items: Sequence[JudgeItem], cache_mode: CacheMode, cache_path: Path | None = None
) -> RunPlan:
    """How many judge calls a run of ``items`` will make, opening the cache to look (read only).

    Args:
        judge: The judge that will run.
        items: The items it will judge (:func:`agentic_core.evaluate.judge_items`).
        cache_mode: ``use``, ``refresh`` or ``off``.
        cache_path: The cache file (default: the user cache directory).

    Returns:
        The plan. A cache that cannot be read counts as empty (the estimate is then an upper bound).
    """
    distinct = estimate_calls(judge, items, None, "off")
    uses_cache = judge.cacheable and cache_mode != "off"
    if uses_cache and cache_mode == "use":
        with JudgeCache(cache_path) as cache:
            calls = estimate_calls(judge, items, cache, cache_mode)
    else:
        calls = distinct
    return RunPlan(
        items=len(items),
        distinct=distinct,
        calls=calls,
        cached=distinct - calls,
        without_score=sum(item.score is None for item in items),
        uses_cache=uses_cache,
    )
