"""The Run page's counts of who decided: abstentions (any judge) and the cascade's split.

Kept apart from ``pages/run.py`` (which is near the size limit) and free of page state: each
function draws from a finished run's result.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from agentic_core.judges.cascade import result_cascade_counts
from agentic_core.judges.verdict_counts import verdict_counts
from agentic_core.result import EvaluationResult


def uncertain_count(frame: pd.DataFrame) -> int:
    """Interactions the judge abstained on (status ``uncertain``: unscored, never 0 or 1)."""
    if "judge_status" not in frame or frame.empty:
        return 0
    return verdict_counts(frame).uncertain


def show_uncertain(result: EvaluationResult) -> None:
    """Say how many verdicts were ``uncertain`` (for any judge; nothing when there are none)."""
    n = uncertain_count(result.interactions)
    if n:
        st.info(
            f"**{n:,} interaction(s) uncertain**: the judge abstained (its probability sat between its bands). They "
            "are unscored, never 0 or 1, and show in the unscored bounds on Overview and in the Explorer's unscored "
            "filter. The *cascade* judge sends exactly these to an LLM judge."
        )


def show_cascade(result: EvaluationResult) -> None:
    """For a cascade run: how many the offline judge decided and how many went to the LLM."""
    counts = result_cascade_counts(result)
    if counts is None:
        return
    share = counts.llm_share
    cols = st.columns(3)
    cols[0].metric(
        "Sent to the LLM",
        f"{counts.sent_to_llm:,}",
        None if share is None else f"{share:.1%} of the interactions",
        delta_color="off",
        help="Interactions the offline judge was uncertain of: the LLM judge decided these (in this run or, "
        "for cache hits, an earlier one)",
    )
    cols[1].metric(
        "Decided offline",
        f"{counts.decided_offline:,}",
        help="Interactions the offline judge was sure of: no LLM call",
    )
    cols[2].metric(
        "LLM failed (unscored)",
        f"{counts.llm_failed:,}",
        help="Sent to the LLM, which failed: unscored, never a fallback to the offline probability",
    )
    st.caption(f"Cascade: {counts.summary()}.")
