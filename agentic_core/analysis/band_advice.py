"""The abstention band picked from labelled data, as the answer threshold is: a suggestion, its guard, its range.

For a judge that gives a probability, the Calibration page suggests the band that abstains on as few
labelled answers as possible while the verdicts it gives agree with people at least as often as the
accuracy wanted (``target``). The bands considered are those of the selective-accuracy curve
(:mod:`agentic_core.analysis.selective`): abstain on the answers whose probability lies nearest the answer
threshold, i.e. the band ``(threshold - h, threshold + h)``; a band of width 0 never abstains. Among the
half-widths that abstain on the same answers the suggestion takes the middle of the gap, rounded to as few
decimals as keep the same answers decided (as the threshold's suggestion takes the middle of its plateau), so a
probability moving by 0.001 does not cross it.

The same guard as the threshold's (:func:`~agentic_core.analysis.calibration_guard.guard_reason`): "use it" is
offered only for the active run's labels, with at least 10 answers people marked correct and 10 incorrect; and
the same uncertainty: a seeded bootstrap over the labelled answers gives the range of the suggested edges and of
the share abstained.

Pure and vectorised: one sort per suggestion, ``O(n log n)``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.abstention import judge_probabilities
from agentic_core.analysis.calibration import run_verdicts
from agentic_core.analysis.calibration_guard import DRAWS, guard_reason
from agentic_core.analysis.selective import labelled_pairs
from agentic_core.common.passing import band_decides, reaches
from agentic_core.common.wording import plural

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult

TARGET_ACCURACY = 0.95
"""The accuracy wanted on the verdicts given, by default (the page lets the reader choose)."""

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class BandSuggestion(BaseModel):
    """The band with the fewest abstentions whose verdicts reach the accuracy wanted, on labelled answers.

    Attributes:
        target: The accuracy wanted on the verdicts given.
        threshold: The answer threshold: the band is centred on it, and verdicts are given at it.
        n_labelled: Labelled answers with a probability.
        band: The suggested ``(low, high)``, or ``None`` when no band reaches the target.
        abstained: The share of the labelled answers it abstains on (``None`` without a band).
        accuracy: Its agreement with people on the verdicts it gives (``None`` without a band).
        best_accuracy: The highest accuracy any band of the curve reaches while giving a verdict.
        sentence: The suggestion in one sentence.
    """

    model_config = ConfigDict(frozen=True)

    target: float
    threshold: float
    n_labelled: int
    band: tuple[float, float] | None
    abstained: float | None
    accuracy: float | None
    best_accuracy: float | None
    sentence: str


class BandAdvice(BaseModel):
    """The suggestion, whether it may be applied, and how uncertain it is.

    Attributes:
        suggestion: The suggested band.
        allowed: Offer "use it".
        reason: Why not (empty when allowed).
        n_human_correct: Labelled answers people marked correct (with a probability).
        n_human_incorrect: Those people marked incorrect.
        low_interval: The central ``level`` range of the suggested lower edge over the bootstrap resamples.
        high_interval: The same of the upper edge.
        abstained_interval: The same of the share abstained on.
        level: The ranges' coverage.
        uncertainty: The ranges in one sentence (empty without them).
    """

    model_config = ConfigDict(frozen=True)

    suggestion: BandSuggestion
    allowed: bool
    reason: str = ""
    n_human_correct: int
    n_human_incorrect: int
    low_interval: tuple[float, float] | None = None
    high_interval: tuple[float, float] | None = None
    abstained_interval: tuple[float, float] | None = None
    level: float = 0.9
    uncertainty: str = ""


def _distance(p: FloatArray, threshold: float) -> FloatArray:
    """Each answer's distance from the threshold, as far as a band can abstain on it.

    To 12 decimals: answers equally near it (0.45 and 0.55 from 0.5, 0.04999999999999999 and
    0.050000000000000044 in binary) are one band's edge, abstained on together. A probability of exactly 0 or 1
    is decided by every band (its edges are inclusive and lie in [0, 1]): infinitely far.
    """
    return np.where((p <= 0.0) | (p >= 1.0), np.inf, np.round(np.abs(p - threshold), 12))


def _half_width(p: FloatArray, correct: BoolArray, threshold: float, target: float) -> tuple[int, float, float]:
    """The fewest answers to abstain on (nearest the threshold first) for the target, and that gap's edges.

    Returns:
        ``(k, below, above)``: abstain on the ``k`` answers nearest the threshold; every half-width above
        ``below`` and up to ``above`` does that (``k = 0``: ``below = above = 0``, never abstain);
        ``k = -1`` when no band reaches the target.
    """
    distance = _distance(p, threshold)
    order = np.argsort(distance, kind="stable")
    ds = distance[order]
    agree = (reaches(p, threshold) == correct)[order]
    n = len(p)
    kept = np.cumsum(agree[::-1])[::-1]  # agreements among the answers from position k on
    k = np.arange(n)
    accuracy = kept / (n - k)
    # A band abstains on every answer nearer than its half-width: only cuts between distinct distances are bands
    # (the answers no band abstains on, at 0 or 1, are never cut apart).
    valid = np.concatenate([[True], ds[1:] > ds[:-1]])
    hits = np.flatnonzero(valid & (accuracy >= target - 1e-12))
    if not hits.size:
        return -1, float("nan"), float("nan")
    first = int(hits[0])
    if first == 0:
        return 0, 0.0, 0.0
    # Past every answer in (0, 1): any half-width reaching both ends, the band (0, 1), abstains on them all.
    above = float(ds[first]) if np.isfinite(ds[first]) else max(threshold, 1.0 - threshold)
    return first, float(ds[first - 1]), above


def _band_edges(
    p: FloatArray, threshold: float, below: float, above: float, decided: BoolArray
) -> tuple[float, float]:
    """The band ``threshold -+ h``, ``h`` in ``(below, above]``, rounded to the fewest decimals deciding the same."""
    middle = (below + above) / 2
    for decimals in [*range(2, 7), None]:
        low = threshold - middle if decimals is None else round(threshold - middle, decimals)
        high = threshold + middle if decimals is None else round(threshold + middle, decimals)
        low, high = max(0.0, min(low, threshold)), min(1.0, max(high, threshold))
        if (band_decides(p, low, high) == decided).all():
            return low, high
    return max(0.0, threshold - above), min(1.0, threshold + above)


def suggest_band(
    probability: object, human: object, threshold: float, target: float = TARGET_ACCURACY
) -> BandSuggestion:
    """The band with the fewest abstentions whose verdicts reach ``target`` on the labelled answers.

    Args:
        probability: Per answer, the judge's P(correct) (NaN: none; left out).
        human: Per answer, the human verdict 1 / 0 / NaN (NaN: none; left out).
        threshold: The answer threshold (the band's centre; verdicts at it).
        target: The accuracy wanted on the verdicts given.

    Returns:
        The suggestion (``band`` ``None`` when no band reaches the target, or nothing is labelled).
    """
    p, correct, _ = labelled_pairs(probability, human)
    n = len(p)

    def none(sentence: str, best: float | None = None) -> BandSuggestion:
        return BandSuggestion(
            target=target, threshold=threshold, n_labelled=n, band=None, abstained=None, accuracy=None,
            best_accuracy=best, sentence=sentence,
        )  # fmt: skip

    if not n:
        return none("No labelled answer carries a probability: there is no band to suggest.")
    agree_all = reaches(p, threshold) == correct
    order = np.argsort(_distance(p, threshold), kind="stable")
    kept = np.cumsum(agree_all[order][::-1])[::-1]
    best = float((kept / (n - np.arange(n))).max())
    k, below, above = _half_width(p, correct, threshold, target)
    if k < 0:
        return none(
            f"No band reaches {target:.0%} accuracy on these {plural(n, 'labelled answer')}: the most any band of the "
            f"curve reaches while still giving verdicts is {best:.1%}. Lower the accuracy wanted.",
            best,
        )
    decided = np.ones(n, dtype=bool)
    decided[order[:k]] = False
    low, high = (threshold, threshold) if k == 0 else _band_edges(p, threshold, below, above, decided)
    given = band_decides(p, low, high)
    accuracy = float(agree_all[given].mean()) if given.any() else None
    abstained = float(1.0 - given.mean())
    what = "never abstaining (a band of width 0)" if low == high else f"the band {low:g} to {high:g}"
    sentence = (
        f"{what[:1].upper()}{what[1:]} abstains on {abstained:.0%} of the {plural(n, 'labelled answer')} and agrees "
        f"with people on {accuracy:.1%} of the verdicts it gives: the fewest abstentions that reach {target:.0%}."
    )
    return BandSuggestion(
        target=target, threshold=threshold, n_labelled=n, band=(low, high), abstained=abstained, accuracy=accuracy,
        best_accuracy=best, sentence=sentence,
    )  # fmt: skip


def band_advice(
    probability: object,
    human: object,
    threshold: float,
    target: float = TARGET_ACCURACY,
    *,
    labels_of_this_run: bool,
    seed: int = 0,
    level: float = 0.9,
) -> BandAdvice:
    """The suggested band, whether it may be applied to the run, and its range over bootstrap resamples.

    Args:
        probability: Per answer, the judge's P(correct) (NaN: none).
        human: Per answer, the human verdict 1 / 0 / NaN.
        threshold: The answer threshold.
        target: The accuracy wanted on the verdicts given.
        labels_of_this_run: The labels belong to the run the band would be applied to.
        seed: The bootstrap's seed.
        level: The ranges' coverage.

    Returns:
        The advice.
    """
    suggestion = suggest_band(probability, human, threshold, target)
    p, correct, _ = labelled_pairs(probability, human)
    n_ok, n_bad = int(correct.sum()), int((~correct).sum())
    reason = guard_reason(n_ok, n_bad, labels_of_this_run, "band")
    if suggestion.band is None and not reason:
        reason = "No band reaches the accuracy wanted on these labels."

    def advice(
        allowed: bool,
        low: tuple[float, float] | None = None,
        high: tuple[float, float] | None = None,
        abstained: tuple[float, float] | None = None,
        uncertainty: str = "",
    ) -> BandAdvice:
        return BandAdvice(
            suggestion=suggestion, allowed=allowed, reason=reason, n_human_correct=n_ok, n_human_incorrect=n_bad,
            level=level, low_interval=low, high_interval=high, abstained_interval=abstained, uncertainty=uncertainty,
        )  # fmt: skip

    if not n_ok or not n_bad or suggestion.band is None:
        return advice(False)
    rng = np.random.default_rng(seed)
    n = len(p)
    halves, shares = np.full(DRAWS, np.nan), np.full(DRAWS, np.nan)
    for i in range(DRAWS):
        pick = rng.integers(0, n, n)
        k, below, above = _half_width(p[pick], correct[pick], threshold, target)
        if k >= 0:
            halves[i], shares[i] = (below + above) / 2, k / n
    reached = ~np.isnan(halves)
    if not reached.any():
        return advice(not reason)
    tail = (1 - level) / 2
    h_lo, h_hi = (float(q) for q in np.quantile(halves[reached], [tail, 1 - tail]))
    s_lo, s_hi = (float(q) for q in np.quantile(shares[reached], [tail, 1 - tail]))
    low = (max(0.0, threshold - h_hi), max(0.0, threshold - h_lo))
    high = (min(1.0, threshold + h_lo), min(1.0, threshold + h_hi))
    missed = int((~reached).sum())
    uncertainty = (
        f"Over {DRAWS} resamples of the {plural(n, 'labelled answer')} ({level:.0%} range): lower edge {low[0]:.2f} "
        f"to {low[1]:.2f}, upper edge {high[0]:.2f} to {high[1]:.2f}, abstaining on {s_lo:.0%} to {s_hi:.0%}"
        + (f"; no band reached {target:.0%} in {missed} of them" if missed else "")
        + "."
    )
    return advice(not reason, low, high, (s_lo, s_hi), uncertainty)


def run_band_advice(
    result: EvaluationResult, threshold: float, target: float = TARGET_ACCURACY, *, labels_of_this_run: bool
) -> BandAdvice | None:
    """:func:`band_advice` on a run's probabilities and human verdicts (overrides first).

    Returns:
        The advice, or ``None`` when the run's judge gives no probability.
    """
    probability = judge_probabilities(result)
    if np.isnan(probability).all():
        return None
    human, _ = run_verdicts(result)
    if not math.isfinite(target):
        target = TARGET_ACCURACY
    return band_advice(probability, human, threshold, target, labels_of_this_run=labels_of_this_run)
