"""The Explorer's form for a person's verdict, the list of their verdicts, and the notice after a change.

The words come from :mod:`ui.views.explorer_view`, the verdict proposed from the core
(:func:`agentic_core.report.proposed_verdict`), the change itself from :mod:`ui.overrides`.
"""

from __future__ import annotations

import streamlit as st

from agentic_core.report import InteractionDetail, proposed_verdict
from ui.overrides import clear, mark, overrides_table
from ui.state import ActiveRun
from ui.views import override_line, turn_label

OVERRIDE_NOTICE = "_override_notice"


def show_notice() -> None:
    """What the last change did (saved, cleared, or kept in this session only), once."""
    notice = st.session_state.pop(OVERRIDE_NOTICE, None)
    if notice:
        (st.warning if notice[0] == "warning" else st.success)(notice[1])


def after_change(warning: str | None, done: str) -> None:
    """Say what an override change did (on the next run) and rerun so every count follows it."""
    st.session_state[OVERRIDE_NOTICE] = ("warning", warning) if warning else ("success", done)
    st.rerun()


def overrides_list(run: ActiveRun) -> None:
    """The run's overrides: a table, and a button per override to clear it."""
    table = overrides_table(run.result)
    with st.expander(f"Your verdicts in this run ({len(table)})", expanded=False, icon=":material/gavel:"):
        if table.empty:
            st.caption("None yet: mark an answer below, under the conversation's interactions.")
            return
        st.dataframe(
            table,
            hide_index=True,
            key="overrides_table",
            column_config={"judge_score": st.column_config.NumberColumn("judge score", format="%.2f")},
        )
        for r in table["row"].tolist():
            o = run.result.overrides[r]
            cols = st.columns([4, 1])
            cols[0].markdown(override_line(r, str(table.loc[table["row"] == r, "qa_id"].iat[0]), o))
            if cols[1].button("Clear", key=f"override_clear_{r}", icon=":material/undo:"):
                after_change(clear(run, r), f"Cleared your verdict on row {r}.")


def verdict_form(run: ActiveRun, turns: dict[int, InteractionDetail]) -> None:
    """Pick an interaction of the conversation (``turns``: its row in the run -> its detail) and mark it."""
    st.subheader("Your verdict")
    st.caption(
        "Mark an answer correct or incorrect by hand: your verdict replaces the judge's in every aggregate and export, "
        "is kept with the run in the history, and counts as a person's verdict on the Calibration page."
    )
    if not turns:  # nothing to mark in a conversation without interactions
        return
    if st.session_state.get("override_row") not in turns:
        st.session_state["override_row"] = next(iter(turns))
    target = int(
        st.selectbox("Interaction", list(turns), format_func=lambda r: turn_label(turns[r]), key="override_row")
    )
    current = run.result.overrides.get(target)
    proposed = proposed_verdict(current, turns[target].status)
    cols = st.columns([1, 3])
    verdict = cols[0].radio(
        "The answer is",
        ["correct", "incorrect"],
        index=None if proposed is None else 0 if proposed else 1,
        key=f"override_verdict_{target}",
        horizontal=True,
        help="Starts on the verdict that counts now (yours, else the judge's; none when unscored): pick the "
        "other one to overrule it.",
    )
    note = cols[1].text_input(
        "Note", value=current.note if current else "", key=f"override_note_{target}", placeholder="why (optional)"
    )
    cols = st.columns([1, 1, 3])
    if cols[0].button(
        "Save the verdict", key="override_save", type="primary", icon=":material/gavel:", disabled=verdict is None
    ):
        after_change(mark(run, target, verdict == "correct", note), f"Marked {verdict}.")
    if current is not None and cols[1].button("Clear it", key="override_clear", icon=":material/undo:"):
        after_change(clear(run, target), "Your verdict is cleared: the judge's counts again.")
