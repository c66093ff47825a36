"""Selective accuracy: how right the judge is on the verdicts it gives, for each share it abstains on.

A judge with a calibrated probability P(correct) (the ``learned`` judge) can decline the items it
is least sure of. Abstaining on the share ``s`` of the labelled items whose probability is nearest
the cut (the answer threshold; 0.5 by default) leaves the coverage ``1 - s``; the *selective
accuracy* is the agreement with people on the rest, the verdict being "correct" where the
probability reaches the cut. A useful probability makes the curve rise as the coverage falls; a flat
curve means its confidence says nothing.

The judge's abstentions under the abstention band in force (its fitted band, or the setting
``abstain_band``) are one point on the same axes (:func:`own_abstention_point`), so a reader sees
where the band sits on the curve, and sees it move with the band.

Pure functions over arrays (no IO); time ``O(n log n)`` and memory linear in the items.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.abstention import band_verdicts, judge_probabilities
from agentic_core.analysis.calibration import HUMAN_SCORE_CUT, run_verdicts
from agentic_core.common.frame_columns import ResultCols
from agentic_core.common.passing import reaches
from agentic_core.errors import DataError

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult

ABSTAIN_SHARES: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(13))
"""The abstention shares of :func:`selective_accuracy`: 0, 5, ..., 60%."""

COLUMNS = ("abstained_share", "coverage", "accuracy", "n_given", "n_abstained")
"""The columns of :func:`selective_accuracy`'s frame."""

VERDICT_CUT = 0.5
"""The default cut: a probability P(correct) reaching it is the verdict "correct" (the learned judge's threshold)."""


class AbstentionPoint(BaseModel):
    """The judge's own abstentions on the selective-accuracy axes.

    Attributes:
        coverage: The share of the labelled items the judge gave a verdict on.
        accuracy: Its agreement with people on those (``None`` when it gave none).
        n_given: Labelled items it gave a verdict on.
        n_abstained: Labelled items it abstained on (status ``uncertain``).
    """

    model_config = ConfigDict(frozen=True)

    coverage: float
    accuracy: float | None
    n_given: int
    n_abstained: int


BoolArray = npt.NDArray[np.bool_]


def labelled_pairs(probability: Any, human: Any) -> tuple[npt.NDArray[np.float64], BoolArray, BoolArray]:
    """The probabilities and human verdicts where both exist, and which items those are."""
    p = np.asarray(probability, dtype=np.float64).reshape(-1)
    h = np.asarray(human, dtype=np.float64).reshape(-1)
    if len(p) != len(h):
        raise DataError(
            "selective accuracy",
            "needs one human verdict per probability",
            f"{len(p)} probabilities, {len(h)} verdicts",
            "pass both columns of the same interactions",
        )
    keep = ~np.isnan(p) & ~np.isnan(h)
    return p[keep], h[keep] >= HUMAN_SCORE_CUT, keep


def selective_accuracy(
    probability: Any, human_label: Any, shares: tuple[float, ...] = ABSTAIN_SHARES, cut: float = VERDICT_CUT
) -> pd.DataFrame:
    """Accuracy on the verdicts given, for each share abstained on (the items nearest the cut first).

    Args:
        probability: Per item, the judge's P(correct) (NaN: none; such items are left out).
        human_label: Per item, the human verdict: 1/0, or a grade in [0, 1] (correct at 0.5 and
            above); NaN: none (left out).
        shares: The abstention shares, each in [0, 1).
        cut: The verdict is "correct" where the probability reaches it (the answer threshold).

    Returns:
        One row per share: ``abstained_share`` (the share asked for), ``coverage`` (the share of
        the labelled items given a verdict), ``accuracy`` (agreement with people on those; NaN when
        none is given), ``n_given`` and ``n_abstained``. Abstaining on ``share * n`` items (to the
        nearest whole number, halves up): those whose probability is nearest the cut, the earlier item
        first among equals.

    Raises:
        DataError: the two columns differ in length, or no item has both.
    """
    p, human, _ = labelled_pairs(probability, human_label)
    n = len(p)
    if not n:
        raise DataError(
            "selective accuracy",
            "needs items with both a judge probability and a human verdict",
            0,
            "label some interactions (human_label) and judge them with a judge that gives a probability (learned)",
        )
    # Least sure first: the distance from the cut, ties in item order (a stable sort).
    order = np.argsort(np.abs(p - cut), kind="stable")
    agree = (reaches(p, cut) == human)[order]
    # Agreements among the items kept when the first k of `order` are abstained on: a suffix sum.
    kept_agree = np.concatenate([np.cumsum(agree[::-1])[::-1], [0]])
    rows = []
    for share in shares:
        # The nearest whole number of items, halves up (round() would take 0.5 down to 0); the
        # tiny slack keeps 0.15 * 10 = 1.5000000000000002 and 0.35 * 10 = 3.4999999999999996 alike.
        k = min(n, math.floor(share * n + 0.5 + 1e-9))
        given = n - k
        rows.append(
            {
                "abstained_share": float(share),
                "coverage": given / n,
                "accuracy": kept_agree[k] / given if given else float("nan"),
                "n_given": given,
                "n_abstained": k,
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def own_abstention_point(
    probability: Any, human_label: Any, uncertain: Any, cut: float = VERDICT_CUT
) -> AbstentionPoint:
    """The judge's own abstentions as one point: its coverage and its accuracy on the verdicts it gave.

    Args:
        probability: Per item, the judge's P(correct) (NaN: none; left out).
        human_label: Per item, the human verdict (as :func:`selective_accuracy`).
        uncertain: Per item, whether the judge abstains (under the abstention band in force).
        cut: The verdict is "correct" where the probability reaches it (the answer threshold).

    Returns:
        The point, over the items with both a probability and a human verdict.
    """
    p, human, keep = labelled_pairs(probability, human_label)
    abstained = np.asarray(uncertain, dtype=bool).reshape(-1)[keep]
    given = ~abstained
    n_given = int(given.sum())
    agree = (reaches(p, cut) == human)[given]
    return AbstentionPoint(
        coverage=n_given / len(p) if len(p) else 0.0,
        accuracy=float(agree.mean()) if n_given else None,
        n_given=n_given,
        n_abstained=int(abstained.sum()),
    )


def run_selective_accuracy(
    result: EvaluationResult, band: tuple[float, float] | None = None, cut: float = VERDICT_CUT
) -> tuple[pd.DataFrame, AbstentionPoint] | None:
    """:func:`selective_accuracy` and :func:`own_abstention_point` of a run, against its human verdicts.

    Human verdicts as :func:`~agentic_core.analysis.calibration.run_verdicts` reads them (overrides first).

    Args:
        result: The judged run.
        band: The abstention band in force (the setting ``abstain_band``; ``None``: the judge's own).
        cut: The answer threshold: the verdict is "correct" where the probability reaches it.

    Returns:
        The curve and the point, or ``None`` when the run has no ``judge_probability`` (its judge
        gives none, or it was made before the column existed).

    Raises:
        DataError: no interaction has both a probability and a human verdict.
    """
    probability = judge_probabilities(result)
    if np.isnan(probability).all():
        return None
    human, _ = run_verdicts(result)
    score = result.interactions[ResultCols.SCORE].to_numpy(dtype=np.float64)
    _, uncertain = band_verdicts(score, probability, band)
    return (
        selective_accuracy(probability, human, cut=cut),
        own_abstention_point(probability, human, uncertain, cut),
    )
