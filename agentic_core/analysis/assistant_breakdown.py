"""Per-assistant breakdown of one run: the headline numbers of each ``assistant_id``, with intervals.

Each assistant's conversations are aggregated exactly as the whole run is (same pass decisions,
same unit of trial, same K, same statistics): the groups of the unit are formed from that
assistant's conversations only, and the curve is taken at the run's K. Whether its attempts measure
pass@K / pass^K is decided by :func:`~agentic_core.analysis.k_evidence.k_evidence` on its own tasks, as
the aggregate decides it for the run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from agentic_core import stats
from agentic_core.analysis.aggregate import Aggregate, task_attempts
from agentic_core.analysis.headline_numbers import HeadlineNumbers
from agentic_core.analysis.k_evidence import k_evidence
from agentic_core.analysis.statistics_words import curve_options
from agentic_core.common.frame_columns import UNSCORED, ConversationCols, StatCols


class AssistantRow(HeadlineNumbers):
    """One assistant's headline: the :class:`HeadlineNumbers` at the run's K, and these.

    Attributes:
        assistant: The ``assistant_id``.
        conversations: Its conversations.
        scored_conversations: Those counted in the rates.
        correct_conversations: Those fully correct.
        groups: Groups of the unit of trial it has.
        notes: Things to know when reading its numbers (few groups, groups left out, ...).
    """


    assistant: str
    conversations: int
    scored_conversations: int
    correct_conversations: int
    groups: int
    notes: tuple[str, ...] = ()


def _assistant_groups(mine: pd.DataFrame, agg: Aggregate) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Attempts n and correct c per group of the unit of trial, and the attempts per task that say whether K is
    measured, over one assistant's conversations."""
    if agg.unit == "task":
        per_task = task_attempts(mine)
        n = per_task[StatCols.N].to_numpy(np.int64)
        return n, per_task[StatCols.C].to_numpy(np.int64), n
    scored = (mine[ConversationCols.STATUS] != UNSCORED).to_numpy()
    correct = mine[ConversationCols.IS_FULLY_CORRECT].to_numpy(dtype=bool)
    if agg.unit == "conversation":
        n = np.array([int(scored.sum())], dtype=np.int64)
        c = np.array([int(correct.sum())], dtype=np.int64)
        if agg.settings.unit == "conversation":  # chosen by hand: every conversation an attempt at one task
            return n, c, n
        # 'auto' pooled the conversations: the data's own tasks say whether K is measured (as in aggregate).
        return n, c, task_attempts(mine)[StatCols.N].to_numpy(np.int64)
    cols = ConversationCols
    unscored = 0 if agg.settings.unscored_as_incorrect else mine[cols.UNSCORED_INTERACTIONS].to_numpy(np.int64)
    n = (mine[cols.TOTAL_INTERACTIONS].to_numpy(np.int64) - unscored).astype(np.int64)
    return n, mine[cols.CORRECT_INTERACTIONS].to_numpy(np.int64), n


def by_assistant(agg: Aggregate) -> list[AssistantRow]:
    """The headline of each assistant of the run, sorted by assistant id.

    Args:
        agg: The run's aggregate (its settings, unit and K are used for every assistant).

    Returns:
        One row per ``assistant_id``; an empty list when the run holds fewer than two.
    """
    conv = agg.conversations
    assistant_ids = conv[ConversationCols.ASSISTANT_ID].astype(str)
    names = sorted(set(assistant_ids))
    if len(names) < 2:
        return []
    rows = []
    for name in names:
        mine = conv[assistant_ids == name]
        n, c, attempts = _assistant_groups(mine, agg)
        point = stats.dataset_curve(n, c, [agg.k], **curve_options(agg.settings))[0]
        evidence = k_evidence(attempts, agg.k, agg.settings.mode, agg.settings.estimator)
        notes = list(point.notes)
        if point.excluded_reason:
            notes.append(point.excluded_reason)
        scored = mine[ConversationCols.STATUS] != UNSCORED
        rows.append(
            AssistantRow.at(
                point,
                evidence,
                assistant=name,
                conversations=len(mine),
                scored_conversations=int(scored.sum()),
                correct_conversations=int(mine[ConversationCols.IS_FULLY_CORRECT].sum()),
                groups=len(n),
                notes=tuple(dict.fromkeys(notes)),
            )
        )
    return rows
