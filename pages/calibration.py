"""Calibration: can the judge be trusted? Its verdicts against people's, and the threshold that agrees best."""

from __future__ import annotations

import math
from typing import Any

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import (
    CELLS,
    MIN_PER_VERDICT,
    run_selective_accuracy,
    run_threshold_advice,
    threshold_text,
)
from ui.band_suggestion import band_section
from ui.calibration_charts import reliability_figure, roc_figure, sweep_figure
from ui.calibration_view import calibration_source, matrix_cell, open_source_as_run, source_calibration
from ui.cards import card, kpi_row
from ui.controls import band_setting, set_value, sidebar_controls, threshold_default, value
from ui.format import md_text
from ui.guide import how_to_read
from ui.memo import session_memo
from ui.selective_chart import selective_figure
from ui.state import ensure_run
from ui.theme import show_chart

CELL_KEY = "calibration_cell"
CELL_ORDER = ["fp", "fn", "tp", "tn"]  # disagreements first
NOTICE_KEY = "_calibration_notice"


def _on_matrix_select() -> None:
    """A clicked cell of the confusion matrix selects that cell's cases below."""
    state = st.session_state.get("calibration_matrix")
    cells = list(state["selection"]["cells"]) if state else []
    cell = matrix_cell(cells[0]) if cells else None
    if cell is not None:
        st.session_state[CELL_KEY] = cell


run = ensure_run()
sidebar_controls(run)
source = calibration_source(run)
threshold = float(value("threshold", threshold_default(run)))
band = band_setting(run)  # the abstention band of every page (None: the judge's fitted band)

st.title("Calibration")
how_to_read("calibration")
if source.active:
    st.caption(
        f"{md_text(source.name)} — judged by {md_text(source.judge_label)}, against the people's verdicts in the data."
    )
else:
    st.info(
        f"The active run (**{run.data_name}**) has no human verdicts, so this page shows the built-in sample "
        f"**{source.name}**, judged by {source.judge_label}. Give interactions `human_label` (0/1) or "
        "`human_score` (0..1), or mark answers correct / incorrect in the **Explorer**, to calibrate your own run.",
        icon=":material/fact_check:",
    )
    if st.button("Open this sample as the active run", key="calibration_open_sample", icon=":material/open_in_new:"):
        open_source_as_run(source)
        st.rerun()

try:
    cal, cases = source_calibration(source, threshold)
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()

notice = st.session_state.pop(NOTICE_KEY, None)
if notice:
    st.success(notice)

point = cal.at_threshold
best = cal.at_suggested
row = kpi_row()
card(row, "Labelled answers", f"{cal.n_labelled:,}", help=f"{cal.n_human_correct:,} marked correct by people")
card(row, "Accuracy", f"{point.accuracy:.1%}", help=f"Judge and people agree, at threshold {threshold_text(threshold)}")
card(
    row,
    "Cohen's kappa",
    f"{point.kappa:.3f}",
    help="Agreement beyond chance: 1 perfect, 0 no better than chance. Unlike accuracy, it is not fooled by "
    "data where most answers are right.",
)
card(
    row,
    "ROC AUC",
    "n/a" if cal.auc is None else f"{cal.auc:.3f}",
    help="The chance that a right answer scores higher than a wrong one (0.5 = chance).",
)
card(
    row,
    "Suggested threshold",
    threshold_text(cal.suggested_threshold),
    help=f"The middle of the thresholds with the highest kappa: {cal.suggestion}.",
    delta=f"kappa {best.kappa:.3f}",
)
for note in cal.notes:
    st.caption(f"Note: {md_text(note)}.")

# The core's suggestion as it is (rounded there to as few decimals as stay inside its range): rounding it
# again here could move it out of a narrow range, to a threshold with another kappa.
suggested = cal.suggested_threshold
suggested_text = threshold_text(suggested)
already = math.isclose(suggested, threshold, abs_tol=1e-9)
with st.container(border=True):
    if already:
        st.markdown(f"The answer threshold is already the suggested **{suggested_text}** (highest kappa).")
    else:
        st.markdown(
            f"At the suggested threshold **{suggested_text}** judge and people agree with kappa "
            f"**{best.kappa:.3f}** (accuracy {best.accuracy:.1%}), against {point.kappa:.3f} at the current "
            f"{threshold_text(threshold)}. Using it sets the answer threshold of every page (the sidebar slider)."
        )
    st.caption(md_text(cal.suggestion[:1].upper() + cal.suggestion[1:] + "."))
    # Offered only for labels of the active run, and enough of both verdicts to mean something.
    advice = session_memo(
        "_threshold_advice",
        source.signature,
        lambda: run_threshold_advice(source.result, labels_of_this_run=source.active),
    )
    if advice.uncertainty:
        st.caption(md_text(advice.uncertainty))
    st.caption(
        f"*Use it* is offered when the labels belong to the active run and hold at least {MIN_PER_VERDICT} "
        f"answers marked correct and {MIN_PER_VERDICT} marked incorrect."
    )
    if not advice.allowed and not already:
        st.info(md_text(advice.reason), icon=":material/info:")
    if st.button(
        f"Use it: set the threshold to {suggested_text}",
        key="calibration_use_threshold",
        type="primary",
        disabled=already or not advice.allowed,
        icon=":material/tune:",
    ):
        set_value("threshold", suggested)
        st.session_state[NOTICE_KEY] = f"The answer threshold is now {suggested_text} on every page."
        st.rerun()

st.subheader(f"Confusion matrix at threshold {threshold_text(threshold)}")
c = point.confusion
matrix = {
    "judge": ["judge correct", "judge incorrect"],
    "human correct": [c.tp, c.fn],
    "human incorrect": [c.fp, c.tn],
}
st.dataframe(
    matrix,
    key="calibration_matrix",
    on_select=_on_matrix_select,
    selection_mode="single-cell",
    hide_index=True,
    column_config={"judge": st.column_config.TextColumn("")},
)
counts = {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn}
if st.session_state.get(CELL_KEY) not in CELL_ORDER:
    st.session_state[CELL_KEY] = next((k for k in CELL_ORDER if counts[k]), "tp")
cell = st.selectbox(
    "Cases in the cell",
    CELL_ORDER,
    format_func=lambda k: f"{CELLS[k]} ({counts[k]})",
    key=CELL_KEY,
    help="Click a cell of the matrix, or pick one here. Disagreements first.",
)
shown = cases[cases["cell"] == cell]
columns: dict[str, Any] = {
    "row": st.column_config.NumberColumn("Row", help="The interaction's row in the run"),
    "session_id": st.column_config.TextColumn("Session"),
    "judge_score": st.column_config.NumberColumn("Judge score", format="%.2f"),
    "human_source": st.column_config.TextColumn("Human verdict from"),
    "query": st.column_config.TextColumn("Query"),
    "answer": st.column_config.TextColumn("Answer"),
    "ground_truth": st.column_config.TextColumn("Ground truth"),
    "judge_reasoning": st.column_config.TextColumn("Judge reasoning"),
}
if shown.empty:
    st.caption("No case in this cell.")
else:
    st.dataframe(shown, key="calibration_cases", hide_index=True, column_order=list(columns), column_config=columns)

left, right = st.columns(2)
with left:
    st.subheader("Threshold sweep")
    show_chart(sweep_figure(cal), key="calibration_sweep")
with right:
    st.subheader("ROC curve")
    show_chart(roc_figure(cal), key="calibration_roc")
st.subheader("Reliability diagram")
st.caption(
    "Per band of judge scores, the share of answers people marked correct. On the diagonal, a score of 0.8 "
    "means right 80% of the time; above it the judge is too strict, below it too lenient."
)
show_chart(reliability_figure(cal), key="calibration_reliability")

st.subheader("Selective accuracy")
try:
    # The band and the threshold in force: the judge's point moves with the sidebar's band.
    selective = run_selective_accuracy(source.result, band, threshold)
except AgenticError as exc:  # a probability on no labelled answer
    selective = None
    st.caption(md_text(exc))
else:
    if selective is None:
        st.caption(
            f"{md_text(source.judge_label)} gives no probability (the run has no `judge_probability` column), so "
            "there is no selective accuracy to show: judge with the learned judge to see it."
        )
if selective is not None:
    curve, own = selective
    st.caption(
        "How right the judge is on the verdicts it gives when it abstains on the answers it is least sure of "
        f"(probability nearest the threshold, {threshold_text(threshold)}), for each share abstained: a curve that "
        "rises as the coverage falls means its confidence is worth trusting. The diamond is where the abstention "
        "band in force (the sidebar's) puts the judge: it moves with the band."
    )
    show_chart(selective_figure(curve, own), key="calibration_selective")
    own_text = "n/a" if own.accuracy is None else f"{own.accuracy:.1%}"
    st.markdown(
        f"The judge abstained on **{own.n_abstained:,}** labelled answer(s) under the band in force: coverage "
        f"**{own.coverage:.0%}**, accuracy **{own_text}** on the {own.n_given:,} verdict(s) it gave."
    )
    st.dataframe(
        curve,
        key="calibration_selective_table",
        hide_index=True,
        column_config={
            "abstained_share": st.column_config.NumberColumn("Abstained", format="percent"),
            "coverage": st.column_config.NumberColumn("Coverage", format="percent"),
            "accuracy": st.column_config.NumberColumn("Accuracy on the rest", format="percent"),
            "n_given": st.column_config.NumberColumn("Verdicts given"),
            "n_abstained": st.column_config.NumberColumn("Abstained on"),
        },
    )

band_section(source, threshold, band)

overrides = run.result.overrides
st.subheader("Overrides")
if overrides:
    st.markdown(
        f"{len(overrides)} answer(s) of the active run are marked correct / incorrect by hand; they count as "
        "people's verdicts here and replace the judge's in every aggregate and export."
    )
else:
    st.caption("No answer of the active run is marked by hand yet.")
st.page_link("pages/explorer.py", label="Mark answers in the Explorer", icon=":material/search:")
