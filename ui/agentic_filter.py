"""The Explorer's filter by an agentic metric (shown only when the run has them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from agentic_core import EvaluationResult
from agentic_core.analysis import agentic_table, conversations_below

ALL_METRICS = ("tool_call_accuracy", "topic_adherence", "goal_accuracy", "goal_graded")
NO_FILTER = "off: every conversation"
"""The "below" sliders' last stop: no filter (it read "below 1.01" when that was a number past 1)."""

BELOW_STOPS: list[float | str] = [*(round(i / 20, 2) for i in range(21)), NO_FILTER]
"""The "below" sliders' stops: 0.00 to 1.00 by 0.05, then no filter."""

FILTER_METRICS = {
    "any metric": "",
    "tool call accuracy": "tool_call_accuracy",
    "topic adherence": "topic_adherence",
    "goal accuracy (binary)": "goal_accuracy",
    "goal accuracy (graded)": "goal_graded",
}


def agentic_filter(result: EvaluationResult) -> np.ndarray | None:
    """Widgets to keep conversations with an agentic metric below a value; the mask, or ``None`` for no filter."""
    metrics = result.agentic
    if metrics is None:
        return None
    cols = st.columns([2, 3])
    label = cols[0].selectbox("Agentic metric", list(FILTER_METRICS), key="explorer_agentic_metric",
                              help="Seed 004's metrics of this run (see the Agentic metrics page).")
    below = below_slider(cols[1], "Below", "explorer_agentic_below",
                         "Keep conversations whose metric is scored and below this; the last stop keeps all.")
    if below is None:
        return None  # the "no filter" stop: the table is not built on every rerun
    table = agentic_table(metrics, result.session_ids, metrics.view)
    chosen = FILTER_METRICS[label]
    return below_any(table, [chosen] if chosen else ALL_METRICS, below)


def below_slider(where: Any, label: str, key: str, help: str) -> float | None:
    """A "below" slider (0.00 to 1.00, then "off"): its value, ``None`` at the "off" stop (no filter).

    Args:
        where: ``st`` or a column to draw it in.
        label: The slider's label.
        key: Its widget key.
        help: Its tooltip.
    """
    choice = where.select_slider(
        label,
        BELOW_STOPS,
        value=NO_FILTER,
        key=key,
        format_func=lambda stop: stop if isinstance(stop, str) else f"{stop:.2f}",
        help=help,
    )
    return None if isinstance(choice, str) else float(choice)


def below_any(table: pd.DataFrame, names: Sequence[str], below: float | None) -> np.ndarray | None:
    """Per conversation of ``table``, whether any of the ``names`` metrics is scored and below ``below``.

    ``None`` (keep every conversation) when ``below`` is ``None`` or past 1: the sliders' "no filter" stop.
    """
    if below is None or below > 1.0:
        return None
    mask = np.zeros(len(table), dtype=bool)
    for name in names:
        mask |= conversations_below(table, name, below)
    return mask
