"""Per-assistant breakdown of one run: the headline numbers of each ``assistant_id``, with intervals.

Each assistant's conversations are aggregated exactly as the whole run is (same pass decisions,
same unit of trial, same K, same statistics): the groups of the unit are formed from that
assistant's conversations only, and the curve is taken at the run's K.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from agentic_core import stats
from agentic_core.analysis.aggregate import Aggregate, HeadlineNumbers, curve_options


class AssistantRow(HeadlineNumbers):
    """One assistant's headline.

    Attributes:
        assistant: The ``assistant_id``.
        conversations: Its conversations.
        scored_conversations: Those counted in the rates.
        correct_conversations: Those fully correct.
        groups: Groups of the unit of trial it has.
        k: The K of pass@K / pass^K (the run's).
        success_rate: pass@1 by the curve's method, or ``None``.
        success_rate_ci: Its interval.
        pass_at_k: pass@K, or ``None``.
        pass_at_k_ci: Its interval.
        pass_pow_k: pass^K, or ``None``.
        pass_pow_k_ci: Its interval.
        notes: Things to know when reading its numbers (few groups, groups left out, ...).
    """


    assistant: str
    conversations: int
    scored_conversations: int
    correct_conversations: int
    groups: int
    notes: tuple[str, ...] = ()


def _assistant_groups(mine: pd.DataFrame, agg: Aggregate) -> tuple[np.ndarray, np.ndarray]:
    """Attempts n and correct c per group of the unit of trial, over one assistant's conversations."""
    scored = (mine["status"] != "unscored").to_numpy()
    correct = mine["is_fully_correct"].to_numpy(dtype=bool)
    if agg.unit == "task":
        frame = pd.DataFrame({"task": mine["task_key"].astype(str).to_numpy(), "n": scored, "c": correct})
        sums = frame.groupby("task", sort=True)[["n", "c"]].sum()
        return sums["n"].to_numpy(np.int64), sums["c"].to_numpy(np.int64)
    if agg.unit == "conversation":
        return np.array([int(scored.sum())], dtype=np.int64), np.array([int(correct.sum())], dtype=np.int64)
    unscored = 0 if agg.settings.unscored_as_incorrect else mine["unscored_interactions"].to_numpy(np.int64)
    n = mine["total_interactions"].to_numpy(np.int64) - unscored
    return n.astype(np.int64), mine["correct_interactions"].to_numpy(np.int64)


def by_assistant(agg: Aggregate) -> list[AssistantRow]:
    """The headline of each assistant of the run, sorted by assistant id.

    Args:
        agg: The run's aggregate (its settings, unit and K are used for every assistant).

    Returns:
        One row per ``assistant_id``; an empty list when the run holds fewer than two.
    """
    conv = agg.conversations
    names = sorted(set(conv["assistant_id"].astype(str)))
    if len(names) < 2:
        return []
    rows = []
    for name in names:
        mine = conv[conv["assistant_id"].astype(str) == name]
        n, c = _assistant_groups(mine, agg)
        point = stats.dataset_curve(n, c, [agg.k], **curve_options(agg.settings))[0]
        notes = list(point.notes)
        if point.excluded_reason:
            notes.append(point.excluded_reason)
        scored = mine["status"] != "unscored"
        rows.append(
            AssistantRow(
                assistant=name,
                conversations=len(mine),
                scored_conversations=int(scored.sum()),
                correct_conversations=int(mine["is_fully_correct"].sum()),
                groups=len(n),
                **HeadlineNumbers.fields_of(point, agg.k),
                notes=tuple(dict.fromkeys(notes)),
            )
        )
    return rows
