"""What an abstention band costs and buys on the ``learned`` judge's holdout pairs (never fitted on).

``scripts/fit_learned_judge.py`` writes ``data/learned_judge_holdout.json``: each holdout pair's probability
under each shipped model, its human label, and the sha256 of the model file those probabilities belong to.
For any band and answer threshold, :func:`holdout_figures` counts the share of pairs the judge abstains on
and its accuracy on the verdicts it gives, with the same rules as judging and aggregation
(:func:`~agentic_core.common.passing.band_decides`, :func:`~agentic_core.common.passing.reaches`).

A separate file from the model's: the model file's sha256 is part of the judge's identity (cached and
shipped verdicts are keyed by it). The figures are an aid, never a gate: a missing, malformed or stale file
(written for another model file) gives ``None``, and the page then says nothing about the holdout.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from agentic_core.common.passing import band_decides, reaches
from agentic_core.judges.offline.learned import MODEL_PATH, load_models

__all__ = ["HOLDOUT_PATH", "HoldoutFigures", "holdout_figures", "holdout_pairs"]

HOLDOUT_PATH = Path(__file__).parent / "data" / "learned_judge_holdout.json"
"""Each holdout pair's probability under each shipped model, and its label (written by the fit script)."""


class HoldoutFigures(BaseModel):
    """One band on the judge's holdout pairs.

    Attributes:
        pairs: Holdout pairs (labelled by people, never fitted on).
        abstained: The share of them the judge abstains on under the band.
        accuracy: Its agreement with the labels on the verdicts it gives (``None`` when it gives none).
    """

    model_config = ConfigDict(frozen=True)

    pairs: int
    abstained: float
    accuracy: float | None


@lru_cache(maxsize=4)
def holdout_pairs(
    model: str, path: Path = HOLDOUT_PATH, model_path: Path = MODEL_PATH
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]] | None:
    """The holdout pairs' probabilities under ``model`` and their labels (correct = True).

    Args:
        model: The fitted model's name (``embedding`` or ``lexical``).
        path: The holdout file.
        model_path: The model file the probabilities must belong to.

    Returns:
        ``(probabilities, labels)``, or ``None`` when the file is missing, malformed, written for another
        model file, or has no such model.
    """
    try:
        raw = json.loads(path.read_text())
        _, _, digest = load_models(model_path)
        if raw["model_sha256"] != digest or model not in raw["probability"]:
            return None
        p = np.asarray(raw["probability"][model], dtype=np.float64)
        labels = np.asarray(raw["label"], dtype=np.int64) == 1
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if p.shape != labels.shape or not np.isfinite(p).all():
        return None
    return p, labels


def holdout_figures(model: str, band: tuple[float, float], threshold: float) -> HoldoutFigures | None:
    """The share abstained and the accuracy on the verdicts given, for one band, on the holdout pairs.

    Args:
        model: The fitted model's name (:attr:`~agentic_core.judges.base.FittedBand.holdout`).
        band: ``(low, high)``.
        threshold: The answer threshold the verdicts are given at.

    Returns:
        The figures, or ``None`` without a usable holdout file (see :func:`holdout_pairs`).
    """
    pairs = holdout_pairs(model)
    if pairs is None or not len(pairs[0]):
        return None
    p, labels = pairs
    decided = band_decides(p, band[0], band[1])
    agree = reaches(p[decided], threshold) == labels[decided]
    return HoldoutFigures(
        pairs=len(p),
        abstained=float(1.0 - decided.mean()),
        accuracy=float(agree.mean()) if decided.any() else None,
    )
