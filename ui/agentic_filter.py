"""The Explorer's filter by an agentic metric (shown only when the run has them)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from agentic_core import EvaluationResult
from agentic_core.analysis import agentic_table, conversations_below

ALL_METRICS = ("tool_call_accuracy", "topic_adherence", "goal_accuracy", "goal_graded")
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
    below = cols[1].slider("Below", 0.0, 1.01, 1.01, 0.05, key="explorer_agentic_below",
                           help="Keep conversations whose metric is scored and below this; 1.01 keeps all.")
    if below > 1.0:
        return None  # the "no filter" stop: the table is not built on every rerun
    table = agentic_table(metrics, result.session_ids, metrics.view)
    chosen = FILTER_METRICS[label]
    return below_any(table, [chosen] if chosen else ALL_METRICS, below)


def below_any(table: pd.DataFrame, names: Sequence[str], below: float) -> np.ndarray | None:
    """Per conversation of ``table``, whether any of the ``names`` metrics is scored and below ``below``.

    ``None`` (keep every conversation) when ``below`` is past 1: the sliders' "no filter" stop.
    """
    if below > 1.0:
        return None
    mask = np.zeros(len(table), dtype=bool)
    for name in names:
        mask |= conversations_below(table, name, below)
    return mask
