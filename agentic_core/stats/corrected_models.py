"""What the corrected curve returns (pydantic, frozen), and the judge's agreement with the labels."""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core.common.passing import reaches
from agentic_core.settings import Mode, Target
from agentic_core.stats import kernels
from agentic_core.stats.counts import FloatArray

Design = Literal["tasks", "attempts"]

JUDGE_THRESHOLD = 0.5
"""A judge value at or above this counts as a "correct" verdict in the agreement table."""


class CorrectedPoint(BaseModel):
    """The corrected values at one k (a mean over tasks of each task's value), with their intervals.

    Attributes:
        k: The k.
        success_rate: The corrected success rate (every task with an attempt), or None.
        success_rate_ci: Its interval ``(low, high)``, or None.
        pass_at_k: Corrected pass@k (tasks with n >= K), or None.
        pass_at_k_ci: Its interval, or None.
        pass_pow_k: Corrected pass^k, or None.
        pass_pow_k_ci: Its interval, or None.
        success_rate_lambda: The lambda used for the success rate (0: labels alone; 1: plain PPI).
        pass_at_k_lambda: The lambda used for pass@k.
        pass_pow_k_lambda: The lambda used for pass^k.
    """

    model_config = ConfigDict(frozen=True)

    k: int
    success_rate: float | None
    success_rate_ci: tuple[float, float] | None
    pass_at_k: float | None
    pass_at_k_ci: tuple[float, float] | None
    pass_pow_k: float | None
    pass_pow_k_ci: tuple[float, float] | None
    success_rate_lambda: float | None = None
    pass_at_k_lambda: float | None = None
    pass_pow_k_lambda: float | None = None


class JudgeAgreement(BaseModel):
    """The judge against the human labels, on the labelled conversations the judge scored.

    The judge's value is read as a verdict at :data:`JUDGE_THRESHOLD` (a probability of 0.5 or more
    counts as "correct"). Sensitivity = TP / (TP + FN) (of the conversations a human calls correct,
    the share the judge calls correct); specificity = TN / (TN + FP). Wilson (1927) intervals.

    Attributes:
        true_positives: Human 1, judge >= threshold.
        false_negatives: Human 1, judge < threshold.
        true_negatives: Human 0, judge < threshold.
        false_positives: Human 0, judge >= threshold.
        sensitivity: TP / (TP + FN), or None without a human 1.
        sensitivity_ci: Its Wilson interval, or None.
        specificity: TN / (TN + FP), or None without a human 0.
        specificity_ci: Its Wilson interval, or None.
        n_compared: Labelled conversations with a judge value.
        n_judge_missing: Labelled conversations the judge gave nothing for (not compared).
        n_uncertain: Compared conversations where the judge gave a probability strictly between 0 and 1.
        threshold: The threshold.
        level: The intervals' level.
    """

    model_config = ConfigDict(frozen=True)

    true_positives: int
    false_negatives: int
    true_negatives: int
    false_positives: int
    sensitivity: float | None
    sensitivity_ci: tuple[float, float] | None
    specificity: float | None
    specificity_ci: tuple[float, float] | None
    n_compared: int
    n_judge_missing: int
    n_uncertain: int
    threshold: float = JUDGE_THRESHOLD
    level: float = 0.95


class CorrectedCurve(BaseModel):
    """Success rate, pass@k and pass^k corrected for the judge's errors with human labels.

    Attributes:
        points: One :class:`CorrectedPoint` per k (the corrected values).
        human_only: The same metrics from the labels alone (lambda = 0, same design and rules).
        design: ``tasks`` (labels on a random subset of tasks) or ``attempts``.
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks``.
        level: The intervals' level.
        method: How the numbers were made, in words (estimator, design, lambda, interval).
        n_conversations: Conversations given.
        n_labelled: Conversations with a human label.
        n_labelled_tasks: Tasks the estimate's labels rest on (task design: every attempt labelled;
            attempt design: at least one attempt labelled).
        n_tasks: Tasks with at least one conversation.
        n_tasks_curve: Tasks the pass@k / pass^k columns use (n >= K).
        n_judge_missing: Conversations the judge gave nothing for (predicted as ``judge_imputed``).
        judge_imputed: The value those conversations were given (the run's mean judge value).
        n_uncertain: Conversations with a judge probability strictly between 0 and 1 (abstentions).
        agreement: The judge against the labels.
        min_labelled_tasks: The fewest labelled tasks that give a corrected value.
        exact_ppi: The success rate's interval is ppi-python's exactly (no small-sample adjustment).
        notes: What to know when reading the numbers (too few labels, a floor, a clipped value, ...).
    """

    model_config = ConfigDict(frozen=True)

    points: list[CorrectedPoint]
    human_only: list[CorrectedPoint]
    design: Design
    mode: Mode
    target: Target
    level: float
    method: str
    n_conversations: int
    n_labelled: int
    n_labelled_tasks: int
    n_tasks: int
    n_tasks_curve: int
    n_judge_missing: int
    judge_imputed: float | None
    n_uncertain: int
    agreement: JudgeAgreement
    min_labelled_tasks: int
    exact_ppi: bool = False
    notes: tuple[str, ...] = ()


def _wilson_share(n: int, c: int, level: float) -> tuple[float | None, tuple[float, float] | None]:
    if n == 0:
        return None, None
    lo, hi = kernels.wilson(np.array([float(n)]), np.array([float(c)]), kernels.z_of(level))
    return c / n, (float(lo[0]), float(hi[0]))


def judge_agreement(judge: FloatArray, human: FloatArray, level: float) -> JudgeAgreement:
    """Sensitivity and specificity of the judge (binarised at :data:`JUDGE_THRESHOLD`) on the labels.

    Args:
        judge: Per conversation, the judge's P(correct), NaN where it gave nothing (not imputed).
        human: Per conversation, 1 / 0, NaN where not labelled.
        level: Level of the Wilson intervals.
    """
    labelled = np.isfinite(human)
    scored = labelled & np.isfinite(judge)
    says = reaches(judge[scored], JUDGE_THRESHOLD)
    truth = human[scored] == 1.0
    tp = int(np.sum(says & truth))
    fn = int(np.sum(~says & truth))
    tn = int(np.sum(~says & ~truth))
    fp = int(np.sum(says & ~truth))
    sens, sens_ci = _wilson_share(tp + fn, tp, level)
    spec, spec_ci = _wilson_share(tn + fp, tn, level)
    values = judge[scored]
    return JudgeAgreement(
        true_positives=tp,
        false_negatives=fn,
        true_negatives=tn,
        false_positives=fp,
        sensitivity=sens,
        sensitivity_ci=sens_ci,
        specificity=spec,
        specificity_ci=spec_ci,
        n_compared=int(scored.sum()),
        n_judge_missing=int(np.sum(labelled & ~np.isfinite(judge))),
        n_uncertain=int(np.sum((values > 0.0) & (values < 1.0))),
        threshold=JUDGE_THRESHOLD,
        level=level,
    )
