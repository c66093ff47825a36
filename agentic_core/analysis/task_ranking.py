"""Ranking tasks worst first by a posterior number, and choosing which of them a plot can show.

The Uncertainty page lists every task and plots the worst and the best ones. The rule (lowest
posterior mean first, ties broken by the lowest upper bound, then by the task's key so the order
never depends on the data's order) is a statement about the numbers, not about the page, so it lives
here, where the command line or a notebook can apply the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast, get_args

import pandas as pd

from agentic_core.common.frame_columns import GroupCols
from agentic_core.errors import SettingsError

RankMetric = Literal["success_rate", "pass_at_k", "pass_pow_k"]
RANK_METRICS: tuple[RankMetric, ...] = get_args(RankMetric)
"""The per-task posterior numbers tasks can be ranked by (columns of the per-task posterior table)."""


@dataclass(frozen=True)
class TaskRanking:
    """The tasks with a scored attempt, worst first, and how many had none.

    Attributes:
        ranked: The defined rows of the per-task table, worst first, indexed 0..n-1 (index + 1 is
            the rank).
        metric: The number ranked by.
        n_undefined: Tasks left out because none of their attempts is scored (never ranked as 0).
    """

    ranked: pd.DataFrame
    metric: RankMetric
    n_undefined: int

    def ends(self, per_end: int) -> tuple[pd.DataFrame, int | None]:
        """The ``per_end`` worst and ``per_end`` best tasks, or all of them when that is no fewer.

        Args:
            per_end: How many tasks to take at each end (at least 1).

        Returns:
            The rows to plot (worst first, original ranks kept in the index) and where the left-out
            middle lies: after that many rows, or ``None`` when nothing is left out.

        Raises:
            SettingsError: ``per_end`` below 1.
        """
        if per_end < 1:
            raise SettingsError("tasks at each end", "must be at least 1", per_end, "choose 1 or more")
        if len(self.ranked) <= 2 * per_end:
            return self.ranked, None
        return pd.concat([self.ranked.head(per_end), self.ranked.tail(per_end)]), per_end


def rank_tasks(tasks: pd.DataFrame, by: str) -> TaskRanking:
    """Rank the per-task posteriors worst first by ``by``.

    Args:
        tasks: The per-task table of :func:`agentic_core.analysis.uncertainty.posterior_view`
            (``group``, ``defined``, each metric with ``<metric>_ci_high``).
        by: One of :data:`RANK_METRICS`.

    Returns:
        The defined tasks sorted by the posterior mean, then the interval's upper bound, then the
        task key (a stable sort: equal tasks keep their order), and the count of undefined tasks.

    Raises:
        SettingsError: ``by`` is not one of :data:`RANK_METRICS`.
    """
    if by not in RANK_METRICS:
        raise SettingsError("rank tasks by", f"must be one of {', '.join(RANK_METRICS)}", by, "pick one of those")
    metric = cast(RankMetric, by)  # checked just above
    defined = tasks[tasks[GroupCols.DEFINED]]
    order = [metric, f"{metric}_ci_high", GroupCols.GROUP]
    ranked = defined.sort_values(order, kind="stable").reset_index(drop=True)
    return TaskRanking(ranked=ranked, metric=metric, n_undefined=len(tasks) - len(defined))
