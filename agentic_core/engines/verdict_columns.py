"""Verdicts as columns, the form they travel in between Ray workers and the driver.

A hundred thousand verdicts as JSON cost seconds to write and parse; as a few typed columns they
cost milliseconds. Every field of :class:`~agentic_core.judges.base.Verdict` is kept exactly:
``score`` (NaN: none), ``reasoning``, ``status``, ``error`` (``None`` kept apart by a flag),
``latency_s``, the token counts (-1: none), ``probability`` (NaN: none) and ``cause`` (``""``: none).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np

from agentic_core.judges.base import Status, Verdict
from agentic_core.judges.causes import UnscoredCause

__all__ = ["VERDICT_COLUMNS", "verdicts_from_columns", "verdicts_to_columns"]

VERDICT_COLUMNS = (
    "score", "reasoning", "status", "error", "has_error", "latency_s", "input_tokens", "output_tokens", "probability",
    "cause",
)
"""The columns :func:`verdicts_to_columns` makes."""


def verdicts_to_columns(verdicts: Sequence[Verdict]) -> dict[str, np.ndarray]:
    """The verdicts as the columns of :data:`VERDICT_COLUMNS`, one row each."""
    def tokens(name: str) -> np.ndarray:
        values = (getattr(v, name) for v in verdicts)
        return np.fromiter((-1 if t is None else t for t in values), dtype=np.int64, count=len(verdicts))

    return {
        "score": np.array([math.nan if v.score is None else v.score for v in verdicts], dtype=np.float64),
        "reasoning": np.array([v.reasoning for v in verdicts], dtype=object),
        "status": np.array([v.status for v in verdicts], dtype=object),
        "error": np.array(["" if v.error is None else v.error for v in verdicts], dtype=object),
        "has_error": np.array([v.error is not None for v in verdicts], dtype=bool),
        "latency_s": np.array([v.latency_s for v in verdicts], dtype=np.float64),
        "input_tokens": tokens("input_tokens"),
        "output_tokens": tokens("output_tokens"),
        "probability": np.array(
            [math.nan if v.probability is None else v.probability for v in verdicts], dtype=np.float64
        ),
        "cause": np.array(["" if v.cause is None else str(v.cause) for v in verdicts], dtype=object),
    }


def verdicts_from_columns(batch: dict[str, np.ndarray]) -> list[Verdict]:
    """The verdicts of :func:`verdicts_to_columns`'s columns (already valid: not validated again)."""
    columns = zip(
        batch["score"].tolist(),
        batch["reasoning"].tolist(),
        batch["status"].tolist(),
        batch["error"].tolist(),
        batch["has_error"].tolist(),
        batch["latency_s"].tolist(),
        batch["input_tokens"].tolist(),
        batch["output_tokens"].tolist(),
        batch["probability"].tolist(),
        batch["cause"].tolist(),
        strict=True,
    )
    return [
        Verdict.model_construct(
            score=None if score != score else score,
            reasoning=str(reasoning),
            status=cast(Status, str(status)),
            error=str(error) if has_error else None,
            latency_s=latency,
            input_tokens=None if tin < 0 else tin,
            output_tokens=None if tout < 0 else tout,
            probability=None if p != p else p,
            cause=UnscoredCause(cause) if cause else None,
        )
        for score, reasoning, status, error, has_error, latency, tin, tout, p, cause in columns
    ]
