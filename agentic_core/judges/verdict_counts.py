"""Verdicts counted by status, and said in words: "N judged, M uncertain (unscored), F failed".

One place for the counts every surface shows (the CLI summary, ``--json``, the endpoint, the Run
page): a verdict is *judged* (``ok`` now, or ``cached``), *uncertain* (the judge abstained:
unscored, never 0 or 1) or *failed* (unscored). Both unscored kinds are kept apart because they
mean different things: a failure is a fault to fix, an abstention is the judge saying it does not
know.

Two units are counted and never mixed in one breath: *interactions* (one verdict each, the status
counts above) and *distinct judge items* (identical interactions share one; cache hits and judge calls
count these). :func:`item_words` says the items first and then the interactions they cover.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import pandas as pd
from pydantic import BaseModel

from agentic_core.judges.base import Verdict

__all__ = ["STATUSES", "VerdictCounts", "item_words", "status_counts", "verdict_counts"]

STATUSES: tuple[str, ...] = ("ok", "failed", "cached", "uncertain")
"""Every verdict status, in the order a run's ``counts`` lists them."""


def status_counts(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """Verdicts by status, every status present: ``{"ok": .., "failed": .., "cached": .., "uncertain": ..}``."""
    counts = dict.fromkeys(STATUSES, 0)
    for v in verdicts:
        counts[v.status] = counts.get(v.status, 0) + 1
    return counts


class VerdictCounts(BaseModel):
    """A run's verdicts in the three kinds a reader needs.

    Attributes:
        judged: Scored verdicts (judged now or taken from the cache).
        uncertain: Abstentions (unscored, the reason starts with ``uncertain``).
        failed: Judge failures (unscored).
        total: All verdicts.
    """

    judged: int
    uncertain: int
    failed: int
    total: int

    @property
    def unscored(self) -> int:
        """Verdicts without a score: abstentions and failures."""
        return self.uncertain + self.failed

    def words(self) -> str:
        """``"120 judged, 14 uncertain (unscored), 2 failed"`` (the uncertain part only with a judge that abstains)."""
        parts = [f"{self.judged:,} judged"]
        if self.uncertain:
            parts.append(f"{self.uncertain:,} uncertain (unscored)")
        parts.append(f"{self.failed:,} failed")
        return ", ".join(parts)


def verdict_counts(source: Mapping[str, int] | Any) -> VerdictCounts:
    """The counts of a run, from its ``counts``, a run, a result or an interactions frame.

    Args:
        source: A status -> count mapping (``JudgeRun.counts``; older stored runs lack
            ``uncertain``), anything with a ``judge_run`` (an evaluation result) or ``counts``
            (a judge run), or a frame with a ``judge_status`` column (one row per interaction).

    Returns:
        The counts.

    Raises:
        TypeError: ``source`` is none of these.
    """
    if hasattr(source, "judge_run"):
        source = source.judge_run
    if hasattr(source, "counts") and isinstance(source.counts, Mapping):
        source = source.counts
    if isinstance(source, pd.DataFrame) and "judge_status" in source.columns:
        source = source["judge_status"].value_counts().to_dict()
    if not isinstance(source, Mapping):
        raise TypeError(f"verdict_counts takes counts, a run, a result or a frame, not {type(source).__name__}")
    count = {str(k): int(v) for k, v in source.items()}
    return VerdictCounts(
        judged=count.get("ok", 0) + count.get("cached", 0),
        uncertain=count.get("uncertain", 0),
        failed=count.get("failed", 0),
        total=sum(count.values()),
    )


class ItemTally(Protocol):
    """What :func:`item_words` reads of a judge run (:class:`~agentic_core.judges.runner.JudgeRun` has it)."""

    counts: dict[str, int]
    cache_hits: int
    model_calls: int
    duplicates: int
    cache_mode: str


def item_words(run: ItemTally) -> str:
    """Distinct judge items, where their verdicts came from, then the interactions they cover.

    ``"248 distinct items: 248 from the cache, 0 sent to the judge, covering 344 interactions (96 repeat an
    earlier item and share its verdict)"``. Cache hits and judge calls count distinct items, the status
    counts interactions: "303 from the cache" beside "248 hits" read as two answers to one question.

    Args:
        run: A judge run.
    """
    interactions = sum(run.counts.values())
    distinct = interactions - run.duplicates
    if run.cache_mode == "use":
        parts = [f"{run.cache_hits:,} from the cache", f"{run.model_calls:,} sent to the judge"]
    else:
        parts = [f"{run.model_calls:,} sent to the judge (cache {run.cache_mode})"]
    rest = distinct - run.cache_hits - run.model_calls
    if rest > 0:  # a run stopped early: what was neither found nor judged
        parts.append(f"{rest:,} not judged")
    verb = "repeats an earlier item and shares" if run.duplicates == 1 else "repeat an earlier item and share"
    repeats = f" ({run.duplicates:,} {verb} its verdict)" if run.duplicates else ""
    covered = f"{interactions:,} interaction{'' if interactions == 1 else 's'}"
    return f"{distinct:,} distinct item{'' if distinct == 1 else 's'}: {', '.join(parts)}, covering {covered}{repeats}"
