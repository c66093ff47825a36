"""The Run page's account of the active run: its cards, who decided (abstentions, the cascade's split), failures.

Kept apart from ``pages/run.py`` and free of page state: each function draws from a finished run;
what is shown is decided by :func:`ui.views.run_view.run_summary`.
"""

from __future__ import annotations

import streamlit as st

from agentic_core import EvaluationResult
from agentic_core.judges import result_cascade_counts
from ui.format import md_text
from ui.state import ActiveRun
from ui.views import run_summary, uncertain_count


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


def show_run(run: ActiveRun) -> None:
    """The active run: data, judge, identity, the cards, who decided, the caption, notes and failures."""
    result = run.result
    summary = run_summary(result)
    st.subheader("Active run")
    kept = (
        f"  \n**In the history as** `{run.stored_id}` (reopen it on **History**, or with this page's link)"
        if run.stored_id
        else ""
    )
    st.markdown(f"**Data:** {md_text(run.data_name)}  \n**Judge:** {md_text(run.judge_label)}{kept}")
    with st.expander("Judge identity (recorded with every result and used as the cache key)"):
        st.json(result.judge_run.identity.model_dump(mode="json"))
    for col, card in zip(st.columns(len(summary.cards)), summary.cards, strict=True):
        col.metric(card.label, card.value, help=card.help)
    show_cascade(result)
    show_uncertain(result)
    st.caption(summary.caption)
    st.info(
        f"This judge's recommended answer threshold is **{result.recommended_threshold:.2f}**: it is the default "
        "of the *Answer threshold* slider in the sidebar of the results pages (move it there)."
    )
    for warning in result.judge_run.warnings:
        st.warning(warning)
    if summary.agentic:
        st.markdown(summary.agentic)
        for warning in summary.agentic_notes:
            st.caption(f"Note: {md_text(warning)}")
        st.page_link("pages/agentic_metrics.py", label="See them on Agentic metrics", icon=":material/psychology:")
    if summary.llm_failed:
        st.error(f"**Every LLM call failed:** {md_text(summary.llm_failed)}.")
    if summary.unscored_summary:
        with st.container(key="run_unscored_causes"):
            st.warning(f"**Why unscored:** {md_text(summary.unscored_summary)}.")
            st.dataframe(summary.unscored_causes, hide_index=True)
    if not summary.failures.empty:
        st.error(
            f"**{len(summary.failures):,} interaction(s) could not be judged.** They are unscored, not 0: by default "
            "their conversations are excluded from the statistics (and counted on Overview)."
        )
        with st.container(key="run_failure_reasons"):
            st.dataframe(summary.failure_reasons, hide_index=True)
        with st.container(key="run_failures"):
            st.dataframe(summary.failures, hide_index=True)
    st.page_link("pages/overview.py", label="See the results on Overview", icon=":material/dashboard:")
