"""The one rule "a score reaches its threshold", for answers and tool use alike, and the abstention band's rule.

A score passes when ``score >= threshold - TOLERANCE``. The tolerance absorbs float noise from
upstream arithmetic: 0.7 stored as 0.69999999999 must not fail a 0.7 threshold, and tool weights
such as 0.2 / 0.4 / 0.3 / 0.1 on a perfect call (overall 0.9999999999999999) must reach 1.0. NaN
(unscored, or no tool score) never passes.

Everything that decides or explains a pass reads it from here: the aggregate computes it once per
interaction and stores the result; tables, verdict sentences and exports read that column.

A judge that gives a probability decides only outside its abstention band (:func:`band_decides`): the
``learned`` judge when it judges, and the aggregate when the band is a setting (``abstain_band``).
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
import numpy.typing as npt

TOLERANCE = 1e-9
"""How far below a threshold a score may be and still reach it."""


@overload
def reaches(scores: float, threshold: float) -> bool: ...


@overload
def reaches(scores: npt.NDArray[Any], threshold: float) -> npt.NDArray[np.bool_]: ...


def reaches(scores: float | npt.NDArray[Any], threshold: float) -> bool | npt.NDArray[np.bool_]:
    """Whether each score reaches ``threshold`` (NaN never does).

    Args:
        scores: One score or an array of scores (NaN = no score).
        threshold: The threshold, in [0, 1] (validated by the settings).

    Returns:
        A bool for a scalar, a boolean array for an array.
    """
    with np.errstate(invalid="ignore"):
        result = np.greater_equal(scores, threshold - TOLERANCE)
    if np.ndim(result) == 0:
        return bool(result)
    return np.asarray(result, dtype=bool)


@overload
def band_decides(probability: float, low: float, high: float) -> bool: ...


@overload
def band_decides(probability: npt.NDArray[Any], low: float, high: float) -> npt.NDArray[np.bool_]: ...


def band_decides(probability: float | npt.NDArray[Any], low: float, high: float) -> bool | npt.NDArray[np.bool_]:
    """Whether a judge with the abstention band ``(low, high)`` decides each probability (NaN never does).

    The judge decides where ``p <= low`` (the verdict "incorrect" side) or ``p >= high`` ("correct"
    side) and abstains strictly between, as "uncertain" (unscored). Both edges are inclusive, so a band
    of width 0 (``low == high``) never abstains: a probability exactly at it is decided, and the answer
    threshold (:func:`reaches`) says which way.

    The comparisons are exact, without :data:`TOLERANCE`: the ``learned`` judge decides with this
    function, so the band it was fitted with, applied again at aggregation, gives its very verdicts.
    (The tolerance of :func:`reaches` absorbs arithmetic on scores; a probability is read from the
    judge as it is, so nothing needs absorbing.)

    Args:
        probability: One P(correct) or an array of them (NaN = the judge gives none).
        low: The band's lower edge, in [0, 1] (validated by the settings).
        high: The band's upper edge, ``low <= high <= 1``.

    Returns:
        A bool for a scalar, a boolean array for an array.
    """
    with np.errstate(invalid="ignore"):
        result = np.less_equal(probability, low) | np.greater_equal(probability, high)
    if np.ndim(result) == 0:
        return bool(result)
    return np.asarray(result, dtype=bool)
