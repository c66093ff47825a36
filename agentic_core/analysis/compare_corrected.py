"""Compare's corrected paired difference: B - A of the success rate, corrected for the judge by human labels.

Each side's conversations (of its assistant, when the side names one) are grouped by task key, as
:mod:`agentic_core.analysis.compare_runs` groups them. Per task and side:

- the judge's task value: the mean over the task's attempts of each conversation's judge value
  (:func:`~agentic_core.analysis.corrected_reading.judge_values`, under that side's settings; a judge failure
  is predicted as the run's mean judge value, as in the one-run corrected headline: never dropped);
- the human task value: the mean of the attempts' labels when every attempt is labelled
  (:func:`~agentic_core.analysis.corrected_reading.match_labels` on the run's labels), else none.

The shared tasks and their values go to :func:`agentic_core.stats.corrected_difference` (PPI++ on the paired
differences). The labels are read as a uniform random sample of tasks; labels drawn "uncertain first" carry
inclusion probabilities the paired difference does not weight by, so such runs give no value (and say so).
Frequentist in either mode. Labels never re-judge: this reads the aggregations' columns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict

from agentic_core import stats
from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.corrected_reading import judge_values, labels_design, match_labels, run_labels
from agentic_core.common.wording import plural
from agentic_core.result import EvaluationResult
from agentic_core.settings import AggregateSettings
from agentic_core.stats.corrected import judge_filled
from agentic_core.stats.corrected_compare import METHOD

FREQUENTIST_ONLY = "the corrected difference is frequentist in either mode (it has no Bayesian counterpart)"


class CorrectedComparison(BaseModel):
    """B - A of the success rate corrected with human labels on shared tasks, or why there is none.

    Attributes:
        estimate: The corrected difference, or ``None``.
        ci: Its interval at ``level``, or ``None``.
        level: The interval's level (side A's settings).
        n_shared_tasks: Tasks both sides attempted (every conversation counts, judge failures included).
        n_labelled_both: Shared tasks with every attempt labelled in both runs.
        n_labelled_a: Shared tasks with every attempt labelled in A.
        n_labelled_b: The same in B.
        method: How it was computed, in words.
        reason: Why there is no value, or ``None``.
        notes: What to know when reading it.
    """

    model_config = ConfigDict(frozen=True)

    estimate: float | None
    ci: tuple[float, float] | None
    level: float
    n_shared_tasks: int
    n_labelled_both: int
    n_labelled_a: int
    n_labelled_b: int
    method: str = METHOD
    reason: str | None = None
    notes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The ``corrected_difference`` block of ``compare --json`` (every field, JSON types)."""
        return self.model_dump(mode="json")

    def summary(self) -> str:
        """One line: ``corrected difference (B - A) with N human-labelled shared tasks: +0.05 [-0.03, +0.13]``."""
        if self.estimate is None or self.ci is None:
            return f"corrected difference (B - A): none, {self.reason}"
        return (
            f"corrected difference (B - A) with {plural(self.n_labelled_both, 'human-labelled shared task')}: "
            f"{self.estimate:+.2f} [{self.ci[0]:+.2f}, {self.ci[1]:+.2f}]"
        )


class _SideTasks(BaseModel):
    """One side's per-task values, indexed by task key."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    table: pd.DataFrame  # columns judge, human (NaN unless every attempt labelled), attempts
    weighted: bool  # its labels carry inclusion probabilities (an "uncertain first" queue)
    notes: tuple[str, ...]


def _labelled_side(result: EvaluationResult, settings: AggregateSettings, assistant: str | None) -> _SideTasks | None:
    """Per task of one side: the judge's and the human task values; ``None`` when the run has no label."""
    labels = run_labels(result)
    if not labels:
        return None
    agg = aggregate(result, settings)
    matched = match_labels(result, labels)
    n_conv = result.n_conversations
    design, inclusion, _, said = labels_design(matched, result.task_codes.astype(np.int64), len(result.task_keys))
    notes = list(said)
    if design == "attempts":
        notes.append("labels on a sample of attempts: only tasks with every attempt labelled in both runs count")
    judge, _ = judge_filled(judge_values(result, agg))
    keep = np.ones(n_conv, dtype=bool)
    if assistant is not None:
        keep = np.asarray(result.assistant_ids(), dtype=object) == assistant
    frame = pd.DataFrame(
        {
            "task": result.task_key_per_conversation().astype(str)[keep],
            "judge": judge[keep],
            "human": np.asarray(matched.human, dtype=float)[keep],
        }
    )
    grouped = frame.groupby("task", sort=True)
    table = pd.DataFrame(
        {
            "judge": grouped["judge"].mean(),
            # The task's human value only when every attempt is labelled (the task design's rule).
            "human": grouped["human"].agg(lambda h: float(h.mean()) if h.notna().all() else np.nan),
            "attempts": grouped.size(),
        }
    )
    # Task design with inclusion probabilities: an "uncertain first" queue, which needs 1 / pi weights.
    return _SideTasks(table=table, weighted=design == "tasks" and inclusion is not None, notes=tuple(notes))


def corrected_comparison(
    result_a: EvaluationResult,
    settings_a: AggregateSettings,
    result_b: EvaluationResult,
    settings_b: AggregateSettings,
    *,
    assistant_a: str | None = None,
    assistant_b: str | None = None,
) -> CorrectedComparison | None:
    """The corrected paired difference B - A of the success rate over the tasks both sides attempted.

    Args:
        result_a: The baseline run.
        settings_a: Its settings (its judge decisions; the interval's level and the mode come from it).
        result_b: The candidate run.
        settings_b: Its settings (its judge decisions).
        assistant_a: Only this assistant's conversations of A (``None``: all).
        assistant_b: Only this assistant's conversations of B.

    Returns:
        The :class:`CorrectedComparison` (with a reason when there is no value), or ``None`` when neither run
        has any human label (nothing to correct with: the faces show nothing).
    """
    side_a = _labelled_side(result_a, settings_a, assistant_a)
    side_b = _labelled_side(result_b, settings_b, assistant_b)
    if side_a is None and side_b is None:
        return None
    level = settings_a.ci_level
    notes = [FREQUENTIST_ONLY] if settings_a.mode == "bayesian" else []
    missing = [name for name, side in (("A", side_a), ("B", side_b)) if side is None]
    if missing:
        return CorrectedComparison(
            estimate=None, ci=None, level=level, n_shared_tasks=0, n_labelled_both=0, n_labelled_a=0, n_labelled_b=0,
            reason=f"{' and '.join(missing)} has no human label (label the same tasks in both runs)",
            notes=tuple(notes),
        )  # fmt: skip
    assert side_a is not None and side_b is not None
    ta, tb = side_a.table, side_b.table
    shared = ta.index.intersection(tb.index).sort_values()
    a, b = ta.loc[shared], tb.loc[shared]
    counts = {
        "n_shared_tasks": len(shared),
        "n_labelled_a": int(a["human"].notna().sum()),
        "n_labelled_b": int(b["human"].notna().sum()),
    }
    notes.extend(dict.fromkeys((*side_a.notes, *side_b.notes)))
    weighted = [name for name, side in (("A", side_a), ("B", side_b)) if side.weighted]
    if weighted or not len(shared):
        reason = (
            f"the labels of {' and '.join(weighted)} were drawn 'uncertain first' (with inclusion probabilities), "
            "which the paired difference does not weight by: label a uniform random sample of tasks (the review "
            "queue's default) in both runs"
            if weighted
            else "the runs share no task"
        )
        both = int((a["human"].notna() & b["human"].notna()).sum())
        return CorrectedComparison(
            estimate=None, ci=None, level=level, n_labelled_both=both, reason=reason, notes=tuple(notes), **counts
        )
    diff = stats.corrected_difference(
        a["judge"].to_numpy(float), b["judge"].to_numpy(float), a["human"].to_numpy(float),
        b["human"].to_numpy(float), attempts_a=a["attempts"].to_numpy(float),
        attempts_b=b["attempts"].to_numpy(float), level=level,
    )  # fmt: skip
    return CorrectedComparison(
        estimate=diff.estimate, ci=diff.ci, level=level, n_labelled_both=diff.n_labelled, method=diff.method,
        reason=diff.reason, notes=tuple(notes), **counts,
    )  # fmt: skip
