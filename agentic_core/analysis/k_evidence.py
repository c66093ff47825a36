"""Whether the data measures pass@k and pass^k at k > 1, and what it would need to: decided once, in the core.

pass@k and pass^k at k > 1 are statements about repeated attempts at one task. Data with one attempt
per task (the built-in Travel sample, most exported traces) cannot estimate them: thirty different
questions with one attempt each are not thirty attempts at one task (one attempt per task cannot tell
"every task succeeds half the time" from "half the tasks always succeed", and pass@k differs between
the two). The 'auto' unit still pools every conversation as attempts at one task (a public behaviour,
so the success rate and its interval are unchanged), but
:func:`~agentic_core.analysis.aggregate.aggregate` withholds every pass@k / pass^k at a k the data does
not measure (:func:`withhold`): the values and intervals are ``None`` and the point's notes carry the
sentence saying why and what would measure them. Every face (CLI, ``--json``, Python API, endpoint,
dashboard, exports, trends, breakdown, comparison, gate) reads that one decision.

A task supports k when it has the attempts its estimator needs: k of them for the unbiased frequentist
estimator (defined only for k <= n), two for the plug-in estimator and Bayesian mode (which take any k
from the task's success rate, as seed 001 defines them, but need repeated attempts to have one). k is
measured when at least :data:`MIN_TASK_SHARE` of the tasks with a scored attempt support it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core.common.wording import plural
from agentic_core.settings import Estimator, Mode
from agentic_core.stats import CurvePoint, needs_k_attempts

MIN_TASK_SHARE = 0.5
"""k > 1 counts as measured when at least this share of the tasks with a scored attempt support it: with
fewer, the curve at k speaks for a minority of the tasks."""
REPEATED = 2
"""The attempts a task needs for a plug-in or Bayesian pass@k at any k > 1: a repeated attempt."""


class KEvidence(BaseModel):
    """What the data says about K.

    Attributes:
        k: The K asked about.
        tasks: Tasks (groups of repeated attempts) with at least one scored attempt.
        tasks_with_k: Those with at least ``k`` scored attempts.
        max_attempts: The most scored attempts any one task has.
        needed: The attempts a task needs to support K (K for the unbiased frequentist estimator, else 2).
        measured_up_to: The largest k <= K the data measures (1 when it measures only the success rate).
        measured: pass@K and pass^K at this K rest on repeated attempts (always true at K = 1).
        reason: Why not, and what data would measure them (empty when measured).
        sentence: The whole sentence a face shows instead of the numbers: "pass@K and pass^K are not
            measured: " and the reason (empty when measured).
    """

    model_config = ConfigDict(frozen=True)

    k: int
    tasks: int
    tasks_with_k: int
    max_attempts: int
    needed: int = 1
    measured_up_to: int = 1
    measured: bool
    reason: str = ""
    sentence: str = ""


def measured_up_to(attempts: np.ndarray, k: int, mode: Mode = "frequentist", estimator: Estimator = "unbiased") -> int:
    """The largest k' <= ``k`` that at least :data:`MIN_TASK_SHARE` of the tasks (with an attempt) support.

    Args:
        attempts: Scored attempts of every task (zeros are tasks with none, ignored).
        k: The largest k asked about.
        mode: The statistics' mode.
        estimator: The frequentist estimator.

    Returns:
        That k', at least 1 (pass@1 is the success rate: one attempt per task measures it).
    """
    sizes = np.asarray(attempts, dtype=np.int64)
    sizes = sizes[sizes > 0]
    if sizes.size == 0:
        return 1
    # At least `needed` tasks must support k': the needed-th largest number of attempts decides.
    needed = max(1, math.ceil(MIN_TASK_SHARE * sizes.size))
    top = int(np.partition(sizes, sizes.size - needed)[sizes.size - needed])
    if needs_k_attempts(mode, estimator):
        return max(1, min(k, top))
    return k if top >= REPEATED else 1


def k_evidence(
    attempts: np.ndarray, k: int, mode: Mode = "frequentist", estimator: Estimator = "unbiased"
) -> KEvidence:
    """Whether scored ``attempts`` per task measure pass@k and pass^k at ``k`` under these statistics.

    Args:
        attempts: Scored attempts of every task (for the aggregate: the data's tasks, or with the unit
            'conversation' chosen by hand one task of every conversation, or with the unit
            'interaction' each conversation's interactions).
        k: The k asked about.
        mode: The statistics' mode (Bayesian estimates take any k from repeated attempts).
        estimator: The frequentist estimator (``unbiased`` needs k attempts, ``plug-in`` repeated ones).

    Returns:
        The counts and, when k > 1 is not measured, the sentence saying why and what data would be.
    """
    sizes = np.asarray(attempts, dtype=np.int64)
    sizes = sizes[sizes > 0]
    tasks = int(sizes.size)
    need = k if needs_k_attempts(mode, estimator) else min(k, REPEATED)
    supported = int((sizes >= need).sum())
    most = int(sizes.max()) if tasks else 0
    up_to = measured_up_to(sizes, k, mode, estimator)
    counts = {"k": k, "tasks": tasks, "tasks_with_k": int((sizes >= k).sum()), "max_attempts": most}
    counts |= {"needed": need, "measured_up_to": up_to}
    if k <= up_to:
        return KEvidence(**counts, measured=True)
    if not tasks:
        have = "no task has a scored attempt"
    elif most <= 1:
        have = "every task has one attempt"
    else:
        have = f"only {supported:,} of the {plural(tasks, 'task')} have {need} or more attempts (the most is {most})"
    reason = f"{have}, and at least {MIN_TASK_SHARE:.0%} of the tasks need {need} or more. " + (
        "Only pass@1 (the success rate) is. To measure K > 1, run every task several times and give its attempts "
        f"the same `task_id` (K = {k} needs {need} attempts per task), or set K to 1."
        if up_to == 1
        else f"They are measured up to k = {up_to}: lower K to {up_to}, or run every task {need} times with the same "
        "`task_id`."
    )
    if need > REPEATED and measured_up_to(sizes, k, "bayesian") == k:
        reason += " The plug-in estimator and Bayesian mode need 2 attempts per task for any K."
    sentence = f"pass@{k} and pass^{k} are not measured: {reason}"
    return KEvidence(**counts, measured=False, reason=reason, sentence=sentence)


def withhold(
    curve: Sequence[CurvePoint], attempts: np.ndarray, mode: Mode = "frequentist", estimator: Estimator = "unbiased"
) -> list[CurvePoint]:
    """The curve with pass@k and pass^k withheld at every k the attempts do not measure.

    A withheld point keeps its success rate, groups and method; its pass@k, pass^k and their intervals
    are ``None`` and its notes end with the sentence saying why (:func:`k_evidence`).

    Args:
        curve: The curve's points (k = 1..K).
        attempts: Scored attempts of every task, as :func:`k_evidence` reads them.
        mode: The statistics' mode.
        estimator: The frequentist estimator.

    Returns:
        The points, those at a measured k unchanged (the same objects).
    """
    up_to = measured_up_to(attempts, max((p.k for p in curve), default=1), mode, estimator)
    return [p if p.k <= up_to else withheld(p, k_evidence(attempts, p.k, mode, estimator)) for p in curve]


def withheld(point: CurvePoint, evidence: KEvidence) -> CurvePoint:
    """``point`` without its pass@k / pass^k when ``evidence`` (at the point's k) says they are not measured.

    Args:
        point: A curve point (any mode: the aggregate's, the Uncertainty page's posterior).
        evidence: :func:`k_evidence` at ``point.k``.

    Returns:
        ``point`` itself when measured; else a copy with pass@k, pass^k and their intervals ``None`` and the
        evidence's sentence as its last note.
    """
    if evidence.measured:
        return point
    return point.model_copy(
        update={
            "pass_at_k": None,
            "pass_pow_k": None,
            "pass_at_k_ci": None,
            "pass_pow_k_ci": None,
            "notes": (*point.notes, evidence.sentence),
        }
    )
