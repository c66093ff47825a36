"""The abstention band at aggregation time: which judged items are decided, and which stay uncertain.

A judge that gives a calibrated probability P(correct) abstains where it is unsure: the ``learned`` judge
decides where ``p <= low`` or ``p >= high`` and says "uncertain" (unscored, never 0 or 1) strictly between
(:func:`agentic_core.common.passing.band_decides`). The band is a setting (``abstain_band``), so a reader can
trade coverage for accuracy without judging again: aggregation re-decides every item that carries a
probability, and the answer threshold then applies to the decided items' scores.

Items without a probability keep their judge's verdict whatever the band: judges that give none (the LLM,
dataset and lexical judges), and the LLM's verdicts in a cascade run. In a cascade the band at judging time
decided which items the LLM saw; at aggregation the band can only re-decide the items the offline judge
decided (they carry its probability): a wider band abstains on more of them, it cannot send any to the LLM.

Vectorised over the interactions: a handful of numpy operations, no judge call (the slider budget).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from agentic_core.common.frame_columns import ResultCols
from agentic_core.common.passing import band_decides
from agentic_core.judges.base import FittedBand

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def judge_probabilities(result: EvaluationResult) -> FloatArray:
    """Per interaction, the judge's P(correct) (NaN where it gives none, and for runs that never had the column)."""
    frame = result.interactions
    if ResultCols.JUDGE_PROBABILITY not in frame.columns:
        return np.full(len(frame), np.nan)
    return frame[ResultCols.JUDGE_PROBABILITY].to_numpy(dtype=np.float64)


def band_verdicts(
    score: FloatArray, probability: FloatArray, band: tuple[float, float] | None
) -> tuple[FloatArray, BoolArray]:
    """The scores under an abstention band, and which items the judge abstains on.

    Args:
        score: The judge's score per item (NaN = unscored: a failure, or an abstention).
        probability: The judge's P(correct) per item (NaN = none: the band cannot touch the item).
        band: ``(low, high)``, or ``None`` for the judge's own verdicts (its fitted band, as judged).

    Returns:
        ``(score, uncertain)``: where the item carries a probability, its score when the band decides it
        (the judge's score, else, for an item the judge abstained on, its probability) and NaN when the
        band abstains; elsewhere the judge's score unchanged. ``uncertain`` marks the items carrying a
        probability and left unscored: the abstentions.
    """
    has_p = ~np.isnan(probability)
    if band is None:
        return score, has_p & np.isnan(score)
    decided = band_decides(probability, band[0], band[1])  # False where there is no probability
    scored = np.where(np.isnan(score), probability, score)
    return np.where(has_p, np.where(decided, scored, np.nan), score), has_p & ~decided


def judge_band(result: EvaluationResult) -> tuple[FittedBand | None, bool]:
    """The judge's fitted band for this run, and whether it was inferred rather than recorded.

    A run records its judge's band (:attr:`~agentic_core.judges.runner.JudgeRun.fitted_band`). A run stored
    before that is read back from its verdicts: the band whose edges are the decided probabilities nearest
    the abstentions (the verdicts it gives are the run's own); with no abstention, any band of width 0 gives
    them, and 0.5 is taken.

    Returns:
        ``(band, inferred)``; ``(None, False)`` when no interaction carries a probability.
    """
    recorded = result.judge_run.fitted_band
    if recorded is not None:
        return recorded, False
    p = judge_probabilities(result)
    has_p = ~np.isnan(p)
    if not has_p.any():
        return None, False
    score = result.interactions[ResultCols.SCORE].to_numpy(dtype=np.float64)
    abstained, decided = p[has_p & np.isnan(score)], p[has_p & ~np.isnan(score)]
    if not abstained.size:
        return FittedBand(low=0.5, high=0.5), True
    below, above = decided[decided < abstained.min()], decided[decided > abstained.max()]
    low = float(below.max()) if below.size else 0.0
    high = float(above.min()) if above.size else 1.0
    return FittedBand(low=low, high=high), True


def band_in_force(result: EvaluationResult, band: tuple[float, float] | None) -> tuple[float, float] | None:
    """The band the settings ask for, else the judge's fitted one (``None`` when the judge has none)."""
    if band is not None:
        return band
    fitted, _ = judge_band(result)
    return None if fitted is None else fitted.edges
