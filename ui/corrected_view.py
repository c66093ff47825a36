"""The corrected headline beside the judge-only one (Overview, Review queue): what ``Aggregate.corrected`` holds.

The corrected reading (:mod:`agentic_core.analysis.corrected_reading`) corrects the judge's errors with human
labels; every conversation counts, and it is the recommended reading when the run has labels. This module only
draws it.
"""

from __future__ import annotations

import streamlit as st

from agentic_core.analysis import Aggregate
from ui.cards import KPI_WIDTH, kpi, kpi_row
from ui.format import ci_text, md_text, pct

REVIEW_PAGE = "pages/review.py"


def _agreement(value: float | None, ci: tuple[float, float] | None) -> str:
    return "n/a" if value is None else f"{value:.2f} {ci_text(ci, 0)}".strip()


def corrected_headline(agg: Aggregate, *, key: str, point_to_queue: bool = True) -> bool:
    """The corrected success rate (and pass@K / pass^K) beside the judge-only ones; returns whether it showed.

    Without any label: one line pointing to the review queue (``point_to_queue``), else nothing.
    """
    reading = agg.corrected
    if reading is None:
        if not point_to_queue:
            return False
        with st.container(key=f"{key}_no_labels"):
            st.caption(
                "No human labels yet: these numbers inherit the judge's errors. Label a random sample of tasks in the "
                "**Review queue** to correct them (about 20 tasks are enough for a first corrected interval)."
            )
            st.page_link(REVIEW_PAGE, label="Open the review queue", icon=":material/rule:")
        return False
    head = agg.headline
    with st.container(border=True, key=f"{key}_corrected"):
        st.markdown(
            f"**Corrected for the judge's errors (recommended reading)** — {md_text(reading.summary())}."
        )
        row = kpi_row()
        rate = reading.success_rate
        kpi(
            row,
            "Success rate, corrected",
            rate.estimate,
            rate.ci,
            help=f"Corrected with {reading.n_labelled:,} human labels; every one of the {reading.n_conversations:,} "
            "conversations counts.",
        )
        kpi(row, "Success rate, judge only", agg.success_rate.value, agg.success_rate.ci,
            help="The judge's verdicts alone: its errors are not in this interval.")  # fmt: skip
        if reading.pass_at_k is not None and reading.pass_pow_k is not None:
            kpi(row, f"pass@{reading.k}, corrected", reading.pass_at_k.estimate, reading.pass_at_k.ci,
                help=f"Judge only: {pct(head.pass_at_k)} {ci_text(head.pass_at_k_ci)}")  # fmt: skip
            kpi(row, f"pass^{reading.k}, corrected", reading.pass_pow_k.estimate, reading.pass_pow_k.ci,
                help=f"Judge only: {pct(head.pass_pow_k)} {ci_text(head.pass_pow_k_ci)}")  # fmt: skip
        with row.container(width=KPI_WIDTH):
            st.markdown("**The judge, measured**")
            st.markdown(
                f"sensitivity {_agreement(reading.sensitivity, reading.sensitivity_ci)}  \n"
                f"specificity {_agreement(reading.specificity, reading.specificity_ci)}"
            )
        design = "stated by the review queue" if reading.design_said else "not stated: read as a random sample"
        st.caption(
            f"Corrected with {reading.n_labelled:,} human labels on {reading.n_labelled_tasks:,} of "
            f"{reading.n_tasks:,} tasks: {pct(rate.estimate)} {ci_text(rate.ci)} against the judge's "
            f"{pct(agg.success_rate.value)} {ci_text(agg.success_rate.ci)}; the labels alone would give "
            f"{pct(rate.labels_only)} {ci_text(rate.labels_only_ci)}. Design: {reading.design} ({design}). "
            f"{md_text(reading.method)}"
        )
        for note in reading.notes:
            st.caption(md_text(note[:1].upper() + note[1:].rstrip(".") + "."))
        if reading.unmatched_examples:
            st.warning(
                f"{reading.unmatched:,} label(s) match no conversation of this run, e.g. "
                + ", ".join(md_text(x) for x in reading.unmatched_examples)
            )
    return True
