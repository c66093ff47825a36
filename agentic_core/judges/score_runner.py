"""Running a judge that reads only scores (the dataset judge) from a score column.

:func:`run_score_judge_sync` makes the run :func:`~agentic_core.judges.runner.run_judge_sync` makes
of one item per interaction, verdict for verdict and count for count, without the million items:
the distinct scores are found with numpy, only they reach the judge (through the ordinary
runner), and their verdicts are spread back to every interaction.
"""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt

from agentic_core.judges.base import Judge, JudgeItem, ProgressFn, capabilities, score_bits
from agentic_core.judges.monitor import RunMonitor
from agentic_core.judges.runner import JudgeRun, cancelled_error, run_judge_sync
from agentic_core.judges.verdict_counts import STATUSES

__all__ = ["judges_scores_only", "run_score_judge_sync"]


def judges_scores_only(judge: Judge) -> bool:
    """Whether :func:`run_score_judge_sync` can run ``judge``: it reads nothing but scores and uses no cache."""
    return not judge.cacheable and not capabilities(judge).reads_texts


def run_score_judge_sync(
    judge: Judge,
    scores: npt.NDArray[np.float64],
    distinct: int,
    *,
    progress: ProgressFn | None = None,
    monitor: RunMonitor | None = None,
) -> JudgeRun:
    """:func:`run_judge_sync` for a judge that reads only scores (:func:`judges_scores_only`), from the scores.

    The run is the one :func:`run_judge_sync` makes of the interactions' items, verdict for verdict
    and count for count, but only the distinct scores (found with numpy) become items and reach
    the judge: a million items, their hashing and their copies cost about 4 s of a dataset-judge
    run of a million interactions. ``0.0`` and ``-0.0`` stay apart (their reasonings differ).

    Args:
        judge: The judge.
        scores: One score per interaction, NaN where there is none.
        distinct: How many distinct items (texts and score) the interactions make
            (:func:`agentic_core.columnar.item_counts.count_distinct_items`): the run's ``model_calls`` and
            ``duplicates`` count items, as :func:`run_judge_sync`'s do.
        progress: Called as ``progress(done, total)``, at the start and at the end (the judge
            answers a million interactions in well under a second).
        monitor: Told every verdict and the progress; a cancel asked before the start stops the run.

    Returns:
        The run.

    Raises:
        RunCancelled: ``monitor`` asked to cancel before the run started.
    """
    started = time.perf_counter()
    values = np.ascontiguousarray(scores, dtype=np.float64)
    n = len(values)
    if monitor is not None and monitor.cancel_requested:
        raise cancelled_error(monitor, judge)
    if progress is not None:
        progress(0, n)
    # Distinct as the runner tells scores apart (-0.0 is not 0.0; every NaN is the one "no score").
    _, first, inverse = np.unique(score_bits(values), return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # distinct scores in order of first appearance, as the runner has them
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    items = [JudgeItem("", "", "", None if v != v else v) for v in values[first[order]].tolist()]
    run = run_judge_sync(judge, items, cache=None, cache_mode="off")
    positions = rank[inverse.reshape(-1)]
    verdicts = list(map(run.verdicts.__getitem__, positions.tolist()))
    counts = dict.fromkeys(STATUSES, 0)
    for verdict, count in zip(run.verdicts, np.bincount(positions, minlength=len(items)).tolist(), strict=True):
        counts[verdict.status] = counts.get(verdict.status, 0) + count
    if monitor is not None:
        for position, verdict in enumerate(verdicts):
            monitor.record(position, verdict)
        monitor.progress(n, n)
    if progress is not None:
        progress(n, n)
    return run.model_copy(
        update={
            "verdicts": verdicts,
            "counts": counts,
            "model_calls": distinct,
            "duplicates": n - distinct,
            "elapsed_s": time.perf_counter() - started,
        }
    )
