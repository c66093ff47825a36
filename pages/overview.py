"""Overview: KPI cards with intervals, pass@K / pass^K curves, interpretation."""

from __future__ import annotations

import streamlit as st

from agentic_core.stats import explain_label
from ui.charts import curve_figure
from ui.controls import settings_or_error, sidebar_controls
from ui.format import INTERPRETATION_BADGES, ci_text, pct, settings_sentence
from ui.state import ensure_run, get_aggregate

run = ensure_run()
sidebar_controls(run)
settings = settings_or_error(run)
if settings is None:
    st.stop()
agg = get_aggregate(run, settings)
head = agg.headline
k = settings.k
counts = agg.counts

st.title("Overview")
st.caption(f"{run.data_name} — judged by {run.judge_label}")

cols = st.columns(5)
cols[0].metric("Conversations", f"{counts.conversations:,}", help="Conversations evaluated")
rate = agg.success_rate
cols[1].metric(
    "Conversation success",
    pct(rate.value),
    delta=ci_text(rate.ci) or None,
    delta_color="off",
    delta_arrow="off",
    help="Share of scored conversations in which every interaction is correct, with its interval.",
)
cols[2].metric(
    f"pass@{k}",
    pct(head.pass_at_k),
    delta=ci_text(head.pass_at_k_ci) or None,
    delta_color="off",
    delta_arrow="off",
    help=f"Probability that at least one of {k} attempts is fully correct.",
)
cols[3].metric(
    f"pass^{k}",
    pct(head.pass_pow_k),
    delta=ci_text(head.pass_pow_k_ci) or None,
    delta_color="off",
    delta_arrow="off",
    help=f"Probability that all {k} attempts are fully correct (consistency).",
)
with cols[4]:
    st.markdown("**Assessment**")
    st.markdown(INTERPRETATION_BADGES.get(agg.interpretation, INTERPRETATION_BADGES[None]))
if agg.interpretation:
    st.caption(explain_label(agg.interpretation))

notes = []
if counts.unscored_conversations:
    notes.append(
        f"{counts.unscored_conversations} conversation(s) contain unscored interactions (judge failures) "
        "and are excluded; toggle *Count unscored as incorrect* to include them."
    )
if head.n_excluded:
    notes.append(f"At k = {k}: {head.n_excluded} group(s) excluded — {head.excluded_reason}")
for note in notes:
    st.warning(note)

st.subheader(f"pass@k and pass^k for k = 1..{k}")
st.plotly_chart(curve_figure(agg.curve, settings.ci_level), key="overview_curve")
st.markdown(settings_sentence(agg))
