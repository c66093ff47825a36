"""Whether a suggested answer threshold may be applied, and how uncertain it is.

Calibration suggests the threshold at which the judge agrees best with people (highest kappa,
:func:`agentic_core.analysis.calibration.calibrate`). With one label every threshold has kappa 0 (the
suggestion means nothing), and a threshold learned on other data says nothing about this run's judge
scores. :func:`threshold_advice` allows "use it" only when the labels belong to the run it would apply
to and hold at least :data:`MIN_PER_VERDICT` verdicts of each kind, and gives the suggestion's
uncertainty: a seeded bootstrap over the labelled pairs of the suggested threshold and of its kappa.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.calibration import best_plateau, run_verdicts
from agentic_core.common.frame_columns import ResultCols
from agentic_core.common.passing import TOLERANCE
from agentic_core.common.wording import plural
from agentic_core.result import EvaluationResult

MIN_PER_VERDICT = 10
"""Labelled interactions people marked correct, and as many marked incorrect, needed before a
suggested threshold may be applied: kappa compares the two kinds, and with a handful of either one
label moves the suggestion across the whole range."""

DRAWS = 200
"""Bootstrap resamples of the labelled pairs (seeded: the same labels give the same interval)."""


class ThresholdAdvice(BaseModel):
    """Whether the suggested threshold may be applied, and its uncertainty.

    Attributes:
        allowed: Offer "use it".
        reason: Why not (empty when allowed); names the rule and what would satisfy it.
        n_human_correct: Labelled interactions people marked correct (with a judge score).
        n_human_incorrect: Those people marked incorrect.
        threshold_interval: The central ``level`` range of the suggested threshold over the
            bootstrap resamples (``None`` without both kinds of verdict).
        kappa_interval: The same range of the best kappa.
        level: The range's coverage.
        uncertainty: The intervals in one sentence (empty when there are none).
    """

    model_config = ConfigDict(frozen=True)

    allowed: bool
    reason: str = ""
    n_human_correct: int
    n_human_incorrect: int
    threshold_interval: tuple[float, float] | None = None
    kappa_interval: tuple[float, float] | None = None
    level: float = 0.9
    uncertainty: str = ""


def guard_reason(n_ok: int, n_bad: int, labels_of_this_run: bool, what: str = "threshold") -> str:
    """Why a suggestion learned from labels may not be applied (empty when it may), in one sentence.

    The same guard for the answer threshold and the abstention band: the labels must be the active run's, and
    hold at least :data:`MIN_PER_VERDICT` answers people marked correct and as many marked incorrect.

    Args:
        n_ok: Labelled answers people marked correct (with what the suggestion reads: a score, a probability).
        n_bad: Those marked incorrect.
        labels_of_this_run: The labels belong to the run the suggestion would be applied to.
        what: The setting suggested, as the sentence names it (``threshold``, ``band``).
    """
    reasons = []
    if not labels_of_this_run:
        reasons.append(
            f"these labels are not the active run's: a {what} learned on other data does not carry over to this "
            "run's judge scores. Label the active run's answers (human_label / human_score, or mark them in the "
            "Explorer) to calibrate it"
        )
    if min(n_ok, n_bad) < MIN_PER_VERDICT:
        reasons.append(
            f"a suggestion needs at least {MIN_PER_VERDICT} answers people marked correct and {MIN_PER_VERDICT} "
            f"marked incorrect; these labels have {n_ok:,} and {n_bad:,}. Label "
            + " and ".join(
                f"{MIN_PER_VERDICT - have} more {kind}"
                for have, kind in ((n_ok, "correct"), (n_bad, "incorrect"))
                if have < MIN_PER_VERDICT
            )
            + " answer(s)"
        )
    reason = "; and ".join(reasons)
    return reason[:1].upper() + reason[1:] + "." if reason else ""


def best_threshold(scores: npt.NDArray[np.float64], correct: npt.NDArray[np.bool_]) -> tuple[float, float]:
    """The suggested threshold (the middle of the highest kappa's widest range) and that kappa, in O(n log n).

    The same candidates and rule as :func:`agentic_core.analysis.calibration.calibrate` (every distinct score,
    0 and 1; judge correct when the score reaches the threshold; :func:`best_plateau` picks), counted by
    sorting instead of one pass per candidate.
    """
    n = len(scores)
    candidates = np.unique(np.concatenate([[0.0, 1.0], scores]))
    pos, neg = np.sort(scores[correct]), np.sort(scores[~correct])
    cut = candidates - TOLERANCE
    tp = len(pos) - np.searchsorted(pos, cut, side="left")
    fp = len(neg) - np.searchsorted(neg, cut, side="left")
    fn, tn = len(pos) - tp, len(neg) - fp
    observed = (tp + tn) / n
    expected = ((tp + fp) * len(pos) + (fn + tn) * len(neg)) / (n * n)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = np.where(expected >= 1.0, 0.0, (observed - expected) / (1.0 - expected))
    suggested, _, high = best_plateau(candidates, kappa)
    return suggested, float(kappa[int(np.searchsorted(candidates, high))])


def threshold_advice(
    scores: npt.ArrayLike,
    verdicts: npt.ArrayLike,
    *,
    labels_of_this_run: bool,
    seed: int = 0,
    level: float = 0.9,
) -> ThresholdAdvice:
    """Whether a threshold suggested from these labels may be applied to the run, and its uncertainty.

    Args:
        scores: Judge score per interaction (NaN = unscored: left out).
        verdicts: Human verdict per interaction, 1 / 0 / NaN (NaN = none: left out).
        labels_of_this_run: The labels belong to the run the threshold would be applied to (not
            another run's or the built-in labelled sample's).
        seed: The bootstrap's seed.
        level: The intervals' coverage.

    Returns:
        The advice.
    """
    s = np.asarray(scores, dtype=np.float64)
    h = np.asarray(verdicts, dtype=np.float64)
    keep = ~np.isnan(s) & ~np.isnan(h)
    s, correct = s[keep], h[keep] >= 0.5
    n_ok, n_bad = int(correct.sum()), int((~correct).sum())
    reason = guard_reason(n_ok, n_bad, labels_of_this_run)
    advice = {"n_human_correct": n_ok, "n_human_incorrect": n_bad, "level": level}
    if not n_ok or not n_bad:
        return ThresholdAdvice(allowed=False, reason=reason, **advice)
    rng = np.random.default_rng(seed)
    n = len(s)
    thresholds, kappas = np.empty(DRAWS), np.empty(DRAWS)
    for i in range(DRAWS):
        pick = rng.integers(0, n, n)
        if correct[pick].all() or not correct[pick].any():  # one kind only: no kappa to maximise
            thresholds[i], kappas[i] = np.nan, np.nan
            continue
        thresholds[i], kappas[i] = best_threshold(s[pick], correct[pick])
    thresholds, kappas = thresholds[~np.isnan(thresholds)], kappas[~np.isnan(kappas)]
    tail = (1 - level) / 2
    t_lo, t_hi = (float(q) for q in np.quantile(thresholds, [tail, 1 - tail]))
    k_lo, k_hi = (float(q) for q in np.quantile(kappas, [tail, 1 - tail]))
    uncertainty = (
        f"Over {DRAWS} resamples of the {plural(n, 'labelled answer')} ({level:.0%} range): suggested threshold "
        f"{t_lo:.2f} to {t_hi:.2f}, its kappa {k_lo:.3f} to {k_hi:.3f}."
    )
    return ThresholdAdvice(
        allowed=not reason,
        reason=reason,
        threshold_interval=(t_lo, t_hi),
        kappa_interval=(k_lo, k_hi),
        uncertainty=uncertainty,
        **advice,
    )


def run_threshold_advice(result: EvaluationResult, *, labels_of_this_run: bool) -> ThresholdAdvice:
    """:func:`threshold_advice` on a run's judge scores and human verdicts (overrides first).

    Args:
        result: The evaluation whose labels the suggestion came from.
        labels_of_this_run: Whether ``result`` is the active run (the one the threshold would change).

    Returns:
        The advice.
    """
    verdicts, _ = run_verdicts(result)
    scores = result.interactions[ResultCols.SCORE].to_numpy(dtype=np.float64)
    return threshold_advice(scores, verdicts, labels_of_this_run=labels_of_this_run)
