"""Overview: KPI cards with intervals, pass@K / pass^K curves, interpretation, what the numbers rest on, and
the numbers of each assistant when the run holds several."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from agentic_core.analysis import by_assistant
from agentic_core.io import SAMPLES, formats_in_words
from agentic_core.stats import explain_label
from ui.cards import KPI_WIDTH, card, kpi, kpi_row
from ui.charts import curve_figure
from ui.corrected_view import corrected_headline
from ui.format import INTERPRETATION_BADGES, md_text, pct, settings_sentence
from ui.guide import how_to_read
from ui.k_cards import pass_k_cards
from ui.labels import labelled_results_page
from ui.live_follow import follow_active
from ui.memo import session_memo
from ui.telemetry_cost import show_cost
from ui.theme import show_chart
from ui.trend_charts import assistant_figure, headline_columns

SAMPLE_TITLES = {sample.title for sample in SAMPLES.values()}

run, settings, agg = labelled_results_page()  # the run's stored human labels read first (a second tab's too)
head = agg.headline
k = agg.k
counts = agg.counts
target_words = "the task population" if head.target == "population" and head.n_groups > 1 else "these tasks"

st.title("Overview")
if run.data_name in SAMPLE_TITLES:
    # The first screen of a new visitor: say it is demo data and what to do next.
    with st.container(border=True, key="overview_sample_next_step"):
        st.markdown(
            f"**This is a built-in sample ({md_text(run.data_name)}), judged offline.** To evaluate your own agent: "
            f"**1.** upload its conversations or traces on **Data** ({formats_in_words()}), **2.** judge them on "
            "**Run**, **3.** read the results here."
        )
        st.page_link("pages/data.py", label="Upload your data", icon=":material/upload_file:")
how_to_read("overview")
st.caption(f"{md_text(run.data_name)} — judged by {md_text(run.judge_label)}")
follow_active(run)  # a live run of today: reopened here as its traces arrive

row = kpi_row()
card(row, "Conversations", f"{counts.conversations:,}", help="Conversations evaluated")
rate = agg.success_rate
# No silent exclusion: a headline computed without some conversations says so in the card itself.
basis = (
    f" · {counts.scored_conversations:,} of {counts.conversations:,} conversations"
    if counts.scored_conversations < counts.conversations
    else ""
)
kpi(
    row,
    "Success rate (pass@1)",
    rate.value,
    rate.ci,
    help=f"The chance that one attempt is fully correct, for {target_words}{basis}: pass@1 by the same method and "
    "on the same tasks as the curve, with the same interval.",
    note=f"on {basis.removeprefix(' · ')}" if basis else "",
)
evidence = agg.k_evidence  # the core decides whether pass@K is measured
pass_k_cards(
    row,
    k,
    evidence,
    (head.pass_at_k, head.pass_at_k_ci,
     f"Probability that at least one of {k} attempts is fully correct, for {target_words}{basis}."),
    (head.pass_pow_k, head.pass_pow_k_ci,
     f"Probability that all {k} attempts are fully correct (consistency), for {target_words}{basis}."),
)
with row.container(width=KPI_WIDTH):
    st.markdown("**Assessment**")
    if evidence.measured:
        st.markdown(INTERPRETATION_BADGES.get(agg.interpretation, INTERPRETATION_BADGES[None]))
    else:
        st.markdown(":gray-badge[Needs repeated attempts]")
corrected_headline(agg, key="overview")  # the corrected reading beside it, recommended when the run has labels
if not evidence.measured:
    with st.container(key="overview_k_not_measured"):
        st.warning(evidence.sentence)
elif agg.interpretation:
    st.caption(explain_label(agg.interpretation))
if rate.observed is not None:
    st.caption(
        f"Observed: {counts.correct_conversations:,} of {counts.scored_conversations:,} scored conversations fully "
        f"correct ({pct(rate.observed)}), the plain share with no model or prior."
    )

if agg.unscored is not None:
    low, high = agg.unscored.as_incorrect, agg.unscored.as_correct
    # pass@K / pass^K only where the data measures them (the core leaves them None otherwise).
    low_k = f", pass@{k} {pct(low.pass_at_k)}, pass^{k} {pct(low.pass_pow_k)}" if evidence.measured else ""
    high_k = f", {pct(high.pass_at_k)}, {pct(high.pass_pow_k)}" if evidence.measured else ""
    with st.container(key="overview_unscored_bounds"):
        st.warning(
            f"**{agg.unscored.unscored_interactions:,} interaction(s) could not be scored by the judge** "
            f"({counts.unscored_conversations:,} conversation(s) "
            + ("counted as incorrect" if settings.unscored_as_incorrect else "left out")
            + f"). Had they all been incorrect: success rate {pct(low.success_rate)}{low_k}; had they all been "
            f"correct: {pct(high.success_rate)}{high_k}. Toggle *Count unscored as incorrect* to include them."
        )
if head.n_excluded:
    names = ", ".join(md_text(name) for name in agg.excluded_groups[:10])
    more = f" and {len(agg.excluded_groups) - 10:,} more" if len(agg.excluded_groups) > 10 else ""
    st.warning(f"{head.n_excluded} group(s) left out of the whole curve — {head.excluded_reason}. {names}{more}")
method_notes = []
for note in (n for n in head.notes if n != evidence.sentence):  # the K sentence is shown above
    # Few tasks make the interval unreliable: a warning; how an interval was made is a method detail,
    # kept out of the first screen (a newcomer read "Wilson's over the tasks" as a finding).
    text = note[:1].upper() + note[1:].rstrip(".") + "."
    if "unreliable" in note:
        st.warning(text)
    else:
        method_notes.append(text)
if method_notes:
    with st.expander("How the intervals were computed", icon=":material/functions:"):
        for text in method_notes:
            st.markdown(f"- {text}")

show_cost(run, agg)  # tokens per correct conversation, when the data is traced (OpenTelemetry)
st.subheader(f"pass@k and pass^k for k = 1..{k}")
if evidence.measured:
    show_chart(curve_figure(agg.curve, settings.ci_level), key="overview_curve")
elif evidence.measured_up_to > 1:  # the core withheld the points beyond what the data measures
    show_chart(curve_figure(agg.curve[: evidence.measured_up_to], settings.ci_level), key="overview_curve")
    st.caption(f"The curve stops at k = {evidence.measured_up_to}: beyond it too few tasks have that many attempts "
               f"({evidence.tasks_with_k:,} of {evidence.tasks:,} have {k} or more).")  # fmt: skip
else:
    st.caption(f"No curve: only k = 1 is measured by this data ({evidence.tasks_with_k:,} of "
               f"{evidence.tasks:,} tasks have {k} or more attempts).")  # fmt: skip
st.markdown(settings_sentence(agg))

breakdown = session_memo("_overview_by_assistant", (run.run_id, settings.model_dump_json()), lambda: by_assistant(agg))
if breakdown:
    with st.container(key="overview_by_assistant"):
        st.subheader("By assistant")
        st.caption(
            f"This run holds {len(breakdown)} assistants (`assistant_id`). Each one's conversations are aggregated "
            f"alone, with the same settings, unit of trial and K = {k}; intervals at {settings.ci_level:.0%}. "
            "To test whether one is better, use the **Compare** page's two-assistant mode or leaderboard."
        )
        table = pd.DataFrame(
            {
                "assistant": [r.assistant for r in breakdown],
                "conversations": [r.conversations for r in breakdown],
                "fully correct": [f"{r.correct_conversations:,} of {r.scored_conversations:,}" for r in breakdown],
                **headline_columns(breakdown, k),
                "notes": ["; ".join(r.notes) for r in breakdown],
            }
        )
        if not evidence.measured:
            table = table[[c for c in table.columns if not c.startswith(("pass@", "pass^"))]]
        st.dataframe(
            table,
            hide_index=True,
            key="overview_assistant_table",
        )
        show_chart(assistant_figure(breakdown, settings.ci_level), key="overview_assistant_chart")
