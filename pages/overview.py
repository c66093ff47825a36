"""Overview: KPI cards with intervals, pass@K / pass^K curves, interpretation, what the numbers rest on."""

from __future__ import annotations

import streamlit as st

from agentic_core.stats import explain_label
from ui.cards import KPI_WIDTH, card, kpi, kpi_row
from ui.charts import curve_figure
from ui.controls import results_page
from ui.format import INTERPRETATION_BADGES, pct, settings_sentence
from ui.guide import how_to_read
from ui.theme import show_chart

run, settings, agg = results_page()
head = agg.headline
k = agg.k
counts = agg.counts
target_words = "the task population" if head.target == "population" and head.n_groups > 1 else "these tasks"

st.title("Overview")
how_to_read("overview")
st.caption(f"{run.data_name} — judged by {run.judge_label}")

row = kpi_row()
card(row, "Conversations", f"{counts.conversations:,}", help="Conversations evaluated")
rate = agg.success_rate
kpi(
    row,
    "Success rate (pass@1)",
    rate.value,
    rate.ci,
    help=f"The chance that one attempt is fully correct, for {target_words}: pass@1 by the same method and on "
    "the same tasks as the curve, with the same interval.",
)
kpi(
    row,
    f"pass@{k}",
    head.pass_at_k,
    head.pass_at_k_ci,
    help=f"Probability that at least one of {k} attempts is fully correct, for {target_words}.",
)
kpi(
    row,
    f"pass^{k}",
    head.pass_pow_k,
    head.pass_pow_k_ci,
    help=f"Probability that all {k} attempts are fully correct (consistency), for {target_words}.",
)
with row.container(width=KPI_WIDTH):
    st.markdown("**Assessment**")
    st.markdown(INTERPRETATION_BADGES.get(agg.interpretation, INTERPRETATION_BADGES[None]))
if agg.interpretation:
    st.caption(explain_label(agg.interpretation))
if rate.observed is not None:
    st.caption(
        f"Observed: {counts.correct_conversations:,} of {counts.scored_conversations:,} scored conversations fully "
        f"correct ({pct(rate.observed)}), the plain share with no model or prior."
    )

if agg.unscored is not None:
    low, high = agg.unscored.as_incorrect, agg.unscored.as_correct
    st.warning(
        f"**{agg.unscored.unscored_interactions:,} interaction(s) could not be scored by the judge** "
        f"({counts.unscored_conversations:,} conversation(s) "
        + ("counted as incorrect" if settings.unscored_as_incorrect else "left out")
        + "). Had they all been incorrect: success rate "
        f"{pct(low.success_rate)}, pass@{k} {pct(low.pass_at_k)}, pass^{k} {pct(low.pass_pow_k)}; had they all been "
        f"correct: {pct(high.success_rate)}, {pct(high.pass_at_k)}, {pct(high.pass_pow_k)}. "
        "Toggle *Count unscored as incorrect* to include them."
    )
if head.n_excluded:
    names = ", ".join(f"`{name}`" for name in agg.excluded_groups[:10])
    more = f" and {len(agg.excluded_groups) - 10:,} more" if len(agg.excluded_groups) > 10 else ""
    st.warning(f"{head.n_excluded} group(s) left out of the whole curve — {head.excluded_reason}. {names}{more}")
for note in head.notes:
    # Few tasks make the interval unreliable: a warning; the rest say how an interval was made.
    (st.warning if "unreliable" in note else st.info)(note[:1].upper() + note[1:].rstrip(".") + ".")

st.subheader(f"pass@k and pass^k for k = 1..{k}")
show_chart(curve_figure(agg.curve, settings.ci_level), key="overview_curve")
st.markdown(settings_sentence(agg))
