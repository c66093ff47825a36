"""Overview: KPI cards with intervals, pass@K / pass^K curves, interpretation."""

from __future__ import annotations

import streamlit as st

from agentic_core.stats import explain_label
from ui.cards import kpi
from ui.charts import curve_figure
from ui.controls import results_page
from ui.format import INTERPRETATION_BADGES, settings_sentence

run, settings, agg = results_page()
head = agg.headline
k = settings.k
counts = agg.counts

st.title("Overview")
st.caption(f"{run.data_name} — judged by {run.judge_label}")

cols = st.columns(5)
cols[0].metric("Conversations", f"{counts.conversations:,}", help="Conversations evaluated")
rate = agg.success_rate
kpi(
    cols[1],
    "Conversation success",
    rate.value,
    rate.ci,
    help="Share of scored conversations in which every interaction is correct, with its interval.",
)
kpi(
    cols[2],
    f"pass@{k}",
    head.pass_at_k,
    head.pass_at_k_ci,
    help=f"Probability that at least one of {k} attempts is fully correct.",
)
kpi(
    cols[3],
    f"pass^{k}",
    head.pass_pow_k,
    head.pass_pow_k_ci,
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
