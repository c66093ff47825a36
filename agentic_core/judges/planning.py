"""What a run will cost before it starts: judge calls needed, cache hits, items the judge cannot score.

And, for planning a run that has not been loaded yet, the share of calls a judge is expected to leave unscored.

The Run page shows this next to its button; the CLI could print it. It uses the same items and the
same deduplication as the run itself (:func:`agentic_core.judges.runner.estimate_calls`), so the
estimate and the run's own accounting agree.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import Judge, JudgeItem
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.registry import JUDGES
from agentic_core.judges.runner import CacheMode, estimate_calls


@dataclass(frozen=True)
class RunPlan:
    """The cost of judging a set of items with one judge and cache mode.

    Attributes:
        distinct: Distinct items (identical items are judged once).
        calls: Distinct items the judge will be asked about (cache hits excluded).
        without_score: Items carrying no ``score`` of their own (the ``dataset`` judge leaves
            them unscored).
    """

    distinct: int
    calls: int
    without_score: int


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
    if judge.cacheable and cache_mode == "use":
        with JudgeCache(cache_path) as cache:
            calls = estimate_calls(judge, items, cache, cache_mode)
    else:
        calls = distinct
    return RunPlan(distinct=distinct, calls=calls, without_score=sum(item.score is None for item in items))


@lru_cache(maxsize=16)
def expected_unscored_share(judge: str) -> tuple[float, str]:
    """The share of judge calls a judge is expected to leave unscored, and where the figure comes from.

    The planner counts these (``plan_evaluation(unscored_share=...)``): an attempt with an unscored interaction
    is left out. Only ``learned`` abstains by design: its band of uncertain probabilities was chosen, when it
    was fitted, to abstain on the share its model file records (``fitted_on.abstain_share``; the measured
    shares on the labelled splits are in docs/judges.md). The ``cascade`` hands those to an LLM; the other
    judges always answer (failures such as timeouts are not foreseen here).

    Args:
        judge: A judge name of :data:`~agentic_core.judges.registry.JUDGES`.

    Returns:
        (share, source in words).

    Raises:
        JudgeConfigError: an unknown judge, or a learned model file without the share.
    """
    if judge not in JUDGES:
        raise JudgeConfigError("judge", f"must be one of {', '.join(JUDGES)}", judge, "give e.g. learned")
    if judge != "learned":
        return 0.0, f"the {judge} judge does not abstain"
    # Imported here: the learned judge's module loads its feature code, which planning a run never needs.
    from agentic_core.judges.offline.learned import MODEL_PATH

    try:
        share = float(json.loads(MODEL_PATH.read_text(encoding="utf-8"))["fitted_on"]["abstain_share"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise JudgeConfigError(
            f"learned judge model {MODEL_PATH}", "must record fitted_on.abstain_share", str(exc), "refit it"
        ) from exc
    return share, f"the learned judge's fit: it abstains on {share:.0%} of calls by design"
