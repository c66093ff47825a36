"""Agentic metrics (seed 004): tool call accuracy (Ragas), topic adherence, agent goal accuracy."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from agentic_core import AgenticError, add_agentic_metrics
from agentic_core.agentic_metrics import TOOL_CALL_ORDERS, TOPIC_MODES, TOPIC_VARIANTS, AgenticView, judge_for_run
from agentic_core.analysis import agentic_table, summarise_agentic
from agentic_core.common import AgenticCols
from ui.agentic_charts import agentic_figure, chart_values
from ui.agentic_filter import below_any, below_slider
from ui.cards import card, kpi, kpi_row
from ui.controls import settings_or_error
from ui.format import md_text
from ui.page_head import page_head
from ui.runs import keep_agentic
from ui.state import set_run
from ui.theme import show_chart

KEEP_WARNING_KEY = "_agentic_keep_warning"
TABLE_METRICS = ("tool_call_accuracy", "topic_adherence", "goal_accuracy")  # the table's slider reads these

run = page_head("Agentic metrics", "agentic_metrics")
result = run.result

if result.agentic is None:
    st.info(
        "This run was evaluated without the agentic metrics. Compute them now: tool call accuracy (Ragas' "
        "definition, no judge), topic adherence (offline: refusal phrases and query-to-topic similarity, "
        "approximate) and agent goal accuracy with reference (the lexical judge). All offline: the answers are "
        "not judged again and no LLM is called. LLM-judged topic adherence and goal accuracy (goals without a "
        "reference too) are made on the **Run** page: pick the LLM judge and tick *Agentic metrics* before "
        "running (or use the CLI's `--judge llm --metrics all`, the API or the endpoint). The metrics are kept "
        "with the run in the history.",
        icon=":material/psychology:",
    )
    if st.button("Compute agentic metrics", key="agentic_compute", type="primary"):
        try:
            with st.spinner("Computing the agentic metrics..."):
                # A copy: the first run's result is shared by every session, never changed in place.
                computed = replace(result, agentic=None)
                add_agentic_metrics(computed, judge_for_run(), metrics="all")
                updated = replace(run, result=computed)
                problem = keep_agentic(updated)  # kept in the run history (stored now if it was not)
                if problem:
                    st.session_state[KEEP_WARNING_KEY] = problem
                set_run(updated)
        except AgenticError as exc:
            st.error(md_text(exc))
            st.stop()
        st.rerun()
    st.stop()

kept_problem = st.session_state.pop(KEEP_WARNING_KEY, None)
if kept_problem:
    st.warning(kept_problem)
metrics = result.agentic
settings = settings_or_error(run)
level = settings.ci_level if settings is not None else 0.95
cols = st.columns(3)
order = cols[0].radio("Tool call order", TOOL_CALL_ORDERS, horizontal=True, key="agentic_order",
                      index=TOOL_CALL_ORDERS.index(metrics.view.order),
                      help="strict: calls must follow the reference's order (Ragas' default); flexible: any order.")
mode = cols[1].radio("Topic adherence", TOPIC_MODES, horizontal=True, key="agentic_mode",
                     index=TOPIC_MODES.index(metrics.view.mode))
variant = cols[2].radio("Variant", TOPIC_VARIANTS, horizontal=True, key="agentic_variant",
                        index=TOPIC_VARIANTS.index(metrics.view.variant),
                        help="workbench counts a correct refusal of an off-topic query (TN) as adherence; ragas gives "
                        "Ragas' numbers, where TN count for nothing.")
metrics.view = AgenticView(order=order, mode=mode, variant=variant)  # exports follow the page
summary = summarise_agentic(metrics, result.session_ids, metrics.view, level=level)

row = kpi_row()
if summary.tool_call_accuracy is not None:
    s = summary.tool_call_accuracy
    kpi(row, "Tool call accuracy", s.mean, s.ci,
        help=f"Ragas' ToolCallAccuracy ({order}), mean over {s.n} conversations with reference calls; "
        f"{level:.0%} t interval.")
if summary.topic_adherence is not None:
    s = summary.topic_adherence
    approx = " Approximate: classified offline." if summary.topic_approximate else ""
    kpi(row, f"Topic adherence ({mode})", s.mean, s.ci,
        help=f"Mean over {s.n} conversations with reference topics ({variant}); {level:.0%} t interval.{approx}")
    if summary.topic_counts is not None:
        c = summary.topic_counts
        card(row, "Topic counts", f"{c.tp} / {c.fp} / {c.fn} / {c.tn}",
             help="TP answered on topic / FP answered off topic / FN refused on topic / TN refused off topic.")
if summary.goal_accuracy is not None:
    g = summary.goal_accuracy
    goal_by = metrics.goal_judge or "the run's judge"
    kpi(row, "Goal accuracy", g.rate, g.ci,
        help=f"Share of {g.n} scored conversations whose goal was achieved; {level:.0%} Wilson score interval. "
        f"Judged by {goal_by}.")
if summary.topic_approximate:
    st.caption(":orange[Topic adherence is approximate: queries were classified offline.]")
for name, (missing, reason) in summary.unscored.items():
    if missing:
        st.caption(f"{name.replace('_', ' ')}: {missing:,} conversation(s) unscored ({reason}); left out, not 0.")

if any(v for v in chart_values(summary)):
    show_chart(agentic_figure(summary), key="agentic_chart")
else:  # bars of height 0 or n/a draw an empty chart that reads as a failure to draw
    st.caption("No chart: every metric is 0 or n/a here (the cards above give each value and why).")

st.subheader("Per conversation")
table = agentic_table(metrics, result.session_ids, metrics.view)
below = below_slider(st, "Show conversations with a metric below", "agentic_below",
                     "The last stop shows every conversation; unscored metrics are never below.")
keep = below_any(table, TABLE_METRICS, below)
shown = table if keep is None else table[keep]
st.dataframe(shown.drop(columns=[AgenticCols.CONV]), key="agentic_table", hide_index=True)
for warning in metrics.warnings:
    st.caption(f"Note: {md_text(warning)}")
