"""Whether the data measures pass@K and pass^K at K > 1, and what it would need to.

pass@K and pass^K at K > 1 are statements about repeated attempts at one task. Data with one attempt
per task (the built-in Travel sample, most exported traces) cannot estimate them: the curve is
still computed (the 'auto' unit pools every conversation as attempts at one task, a public
behaviour), but a page must not show those numbers as measurements. :func:`k_evidence` says which
case a run is in, with the sentence a page shows instead of the numbers.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.common.frame_columns import UNSCORED, ConversationCols, GroupCols
from agentic_core.common.wording import plural
from agentic_core.result import EvaluationResult

MIN_TASK_SHARE = 0.5
"""K > 1 counts as measured when at least this share of the tasks with a scored attempt have K or
more scored attempts: with fewer, the curve at K speaks for a minority of the tasks."""


class KEvidence(BaseModel):
    """What the data says about K.

    Attributes:
        k: The K of the aggregate.
        tasks: Tasks (groups of repeated attempts) with at least one scored attempt.
        tasks_with_k: Those with at least ``k`` scored attempts.
        max_attempts: The most scored attempts any one task has.
        measured: pass@K and pass^K at this K rest on repeated attempts (always true at K = 1).
        sentence: Why not, and what data would measure them (empty when measured).
    """

    model_config = ConfigDict(frozen=True)

    k: int
    tasks: int
    tasks_with_k: int
    max_attempts: int
    measured: bool
    sentence: str = ""


def attempts_per_task(result: EvaluationResult, agg: Aggregate) -> np.ndarray:
    """Scored attempts of every task of the data (``task_id``, else the questions' ``qa_id``s).

    With the unit 'conversation' chosen by hand every conversation is an attempt at one task: one
    count. With the unit 'interaction' the groups are conversations and the attempts their
    interactions. Otherwise (task, or 'auto' whatever it chose) the data's own tasks count.
    """
    if agg.unit == "interaction" or (agg.unit == "conversation" and agg.settings.unit == "conversation"):
        return np.asarray(agg.groups[GroupCols.N].to_numpy(), dtype=np.int64)
    if not result.task_keys:
        return np.zeros(0, dtype=np.int64)
    scored = (agg.conversations[ConversationCols.STATUS] != UNSCORED).to_numpy()
    return np.bincount(result.task_codes, weights=scored, minlength=len(result.task_keys)).astype(np.int64)


def k_evidence(result: EvaluationResult, agg: Aggregate) -> KEvidence:
    """Whether ``agg``'s pass@K and pass^K are measured by ``result``'s data.

    Args:
        result: The evaluation the aggregate was computed from.
        agg: The aggregate (its K, unit and settings).

    Returns:
        The counts and, when K > 1 is not measured, the sentence saying why and what data would be.
    """
    k = agg.k
    sizes = attempts_per_task(result, agg)
    sizes = sizes[sizes > 0]
    tasks = int(sizes.size)
    with_k = int((sizes >= k).sum())
    most = int(sizes.max()) if tasks else 0
    measured = k == 1 or (with_k > 0 and with_k >= MIN_TASK_SHARE * tasks)
    if measured:
        return KEvidence(k=k, tasks=tasks, tasks_with_k=with_k, max_attempts=most, measured=True)
    have = (
        "every task has one attempt"
        if most <= 1
        else f"only {with_k:,} of the {plural(tasks, 'task')} have {k} or more attempts (the most is {most})"
    )
    sentence = (
        f"pass@{k} and pass^{k} are not measured: {have}, and at least {MIN_TASK_SHARE:.0%} of the tasks need "
        f"{k} or more. Only pass@1 (the success rate) is. To measure K > 1, run every task several times and give "
        f"its attempts the same `task_id` (K = {k} needs {k} attempts per task), or lower K in the sidebar."
    )
    return KEvidence(k=k, tasks=tasks, tasks_with_k=with_k, max_attempts=most, measured=False, sentence=sentence)
