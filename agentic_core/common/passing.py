"""The one rule "a score reaches its threshold", for answers and tool use alike.

A score passes when ``score >= threshold - TOLERANCE``. The tolerance absorbs float noise from
upstream arithmetic: 0.7 stored as 0.69999999999 must not fail a 0.7 threshold, and tool weights
such as 0.2 / 0.4 / 0.3 / 0.1 on a perfect call (overall 0.9999999999999999) must reach 1.0. NaN
(unscored, or no tool score) never passes.

Everything that decides or explains a pass reads it from here: the aggregate computes it once per
interaction and stores the result; tables, verdict sentences and exports read that column.
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
