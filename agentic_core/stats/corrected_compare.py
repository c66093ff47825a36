"""The paired difference of two runs' success rates corrected for the judge's errors (issue 37, Compare).

Per shared task i the judge gives a task value in run A and in run B (the mean over the task's attempts
of each conversation's judge value); on tasks labelled in full (every attempt) in *both* runs, humans
give the true task values hA_i and hB_i. The paired differences

    d_i = hB_i - hA_i   (labelled in both),        dhat_i = jB_i - jA_i   (every shared task)

are one flat PPI problem: the labelled tasks are the (Y, Yhat) pairs, the other shared tasks the
unlabelled Yhat_u, and the estimate of E[hB - hA] over the task population is PPI++'s
(Angelopoulos et al., Science 2023; Angelopoulos, Duchi and Zrnic 2023) with its interval:
:func:`agentic_core.stats.corrected_intervals.ppi_population`, the same estimator and small-sample rules
(at least :data:`~agentic_core.stats.corrected_intervals.MIN_LABELLED` labelled tasks, pseudo-observations,
jackknife variance, Welch t; ppi-python's interval from 1000 degrees of freedom on) as one run's
corrected success rate. Pairing is what makes it narrow: a judge's error that is the same in both runs
cancels in dhat.

The pseudo-observations' scale u (how far one attempt's label can move a task's value) is here
1 / min(nA_i, nB_i): one label moves d_i by 1 / nA_i or 1 / nB_i.

Frequentist only: a comparison's Bayesian mode has no corrected counterpart here, and the faces say the
corrected difference is frequentist. The result does not depend on the order of the tasks (they are put
in an order given by their content before any sum).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict

from agentic_core.common.wording import plural
from agentic_core.errors import SettingsError
from agentic_core.settings import check_level
from agentic_core.stats import corrected_intervals as ci_
from agentic_core.stats.counts import FloatArray

METHOD = (
    "PPI++ on the paired task differences B - A (the judge's difference corrected by the human one on the "
    "tasks labelled in both runs; power-tuned lambda); Student t interval (Welch degrees of freedom) with the "
    "jackknife variance and pseudo-observations for small samples, ppi-python's normal interval from 1000 "
    "degrees of freedom on; frequentist"
)
"""How :func:`corrected_difference` computes, in words."""


class CorrectedDifference(BaseModel):
    """The corrected paired difference B - A of the success rate, or why there is none.

    Attributes:
        estimate: The corrected difference (in [-1, 1]), or ``None``.
        ci: ``(low, high)`` at ``level``, or ``None``.
        lam: The lambda used (0: the labels alone), or ``None``.
        n_tasks: Shared tasks (every one counts: unlabelled ones through the judge).
        n_labelled: Shared tasks labelled in full in both runs.
        level: The interval's level.
        method: How it was computed, in words.
        exact_ppi: The interval is ppi-python's (no small-sample adjustment applied).
        reason: Why there is no value, or ``None``.
    """

    model_config = ConfigDict(frozen=True)

    estimate: float | None
    ci: tuple[float, float] | None
    lam: float | None
    n_tasks: int
    n_labelled: int
    level: float
    method: str = METHOD
    exact_ppi: bool = False
    reason: str | None = None


def _task_array(values: ArrayLike, place: str, size: int | None) -> FloatArray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise SettingsError(place, "must be a one-dimensional array", f"shape {arr.shape}", "pass one value per task")
    if size is not None and arr.size != size:
        raise SettingsError(place, f"must have one value per shared task ({size})", arr.size, "align the arrays")
    return arr


def _checked(values: ArrayLike, place: str, size: int | None, *, nan_ok: bool) -> FloatArray:
    arr = _task_array(values, place, size)
    bad = (np.isnan(arr) & (not nan_ok)) | np.isinf(arr) | (arr < 0.0) | (arr > 1.0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        rule = "must be in [0, 1]" + (" or NaN (not labelled)" if nan_ok else "")
        raise SettingsError(f"{place}[{i}]", rule, float(arr[i]), "pass task means of 1/0 values")
    return arr


def _attempts(values: ArrayLike | None, place: str, size: int) -> FloatArray:
    if values is None:
        return np.ones(size)
    arr = _task_array(values, place, size)
    bad = ~np.isfinite(arr) | (arr < 1.0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SettingsError(f"{place}[{i}]", "must be >= 1", float(arr[i]), "pass each task's number of attempts")
    return arr


def corrected_difference(
    judge_a: ArrayLike,
    judge_b: ArrayLike,
    human_a: ArrayLike,
    human_b: ArrayLike,
    *,
    attempts_a: ArrayLike | None = None,
    attempts_b: ArrayLike | None = None,
    level: float = 0.95,
    lam: float | None = None,
) -> CorrectedDifference:
    """The success rate's paired difference B - A over shared tasks, corrected for the judge by human labels.

    Args:
        judge_a: Per shared task, the judge's task value in run A (mean over its attempts of P(correct)).
        judge_b: The same in run B, task for task.
        human_a: Per shared task, the human task value in A (mean of its attempts' 1/0 labels), NaN unless
            every attempt is labelled.
        human_b: The same in B. A task counts as labelled when both are given.
        attempts_a: Per task, A's attempts (the pseudo-observations' scale; default 1).
        attempts_b: The same in B.
        level: Interval level in (0, 1).
        lam: A fixed lambda (0: the labels alone; 1: plain PPI); ``None`` tunes it (PPI++).

    Returns:
        The :class:`CorrectedDifference`; no value (with the reason) below
        :data:`~agentic_core.stats.corrected_intervals.MIN_LABELLED` tasks labelled in both runs.

    Raises:
        SettingsError: mismatched lengths, values outside [0, 1], a bad level.
    """
    lvl = check_level(level, "level")
    ja = _checked(judge_a, "judge_a", None, nan_ok=False)
    size = ja.size
    jb = _checked(judge_b, "judge_b", size, nan_ok=False)
    ha = _checked(human_a, "human_a", size, nan_ok=True)
    hb = _checked(human_b, "human_b", size, nan_ok=True)
    na, nb = _attempts(attempts_a, "attempts_a", size), _attempts(attempts_b, "attempts_b", size)
    both = np.isfinite(ha) & np.isfinite(hb)
    n_lab = int(both.sum())
    if n_lab < ci_.MIN_LABELLED:
        need = ci_.MIN_LABELLED - n_lab
        reason = (
            f"{plural(n_lab, 'shared task')} labelled in both runs: a corrected difference needs at least "
            f"{ci_.MIN_LABELLED} (benchmarks/RESULTS.md); label {plural(need, 'more shared task')} in both runs"
        )
        return CorrectedDifference(
            estimate=None, ci=None, lam=None, n_tasks=size, n_labelled=n_lab, level=lvl, reason=reason
        )
    dhat = jb - ja
    d = hb - ha
    u2 = 1.0 / np.minimum(na, nb) ** 2
    # Canonical order (by content) before any sum: the same digits in any order of the tasks.
    lab = np.flatnonzero(both)
    lab = lab[np.lexsort((u2[lab], d[lab], dhat[lab]))]
    rest = np.flatnonzero(~both)
    rest = rest[np.argsort(dhat[rest], kind="stable")]
    res = ci_.ppi_population(d[lab], dhat[lab], dhat[rest], lvl, lam, float(np.mean(u2[lab])))
    assert res.estimate is not None and res.ci is not None  # n_lab >= MIN_LABELLED
    # A difference of two means of values in [0, 1] lies in [-1, 1]: shown inside it.
    estimate = min(max(res.estimate, -1.0), 1.0)
    ci = (max(res.ci[0], -1.0), min(res.ci[1], 1.0))
    return CorrectedDifference(
        estimate=estimate, ci=ci, lam=res.lam, n_tasks=size, n_labelled=n_lab, level=lvl, exact_ppi=res.exact_ppi
    )
