"""The Explorer's drill-down of one interaction: query, answer and ground truth, the judge, the tool diff.

What to say is decided by :func:`ui.views.interaction_view`; this module only draws it.
"""

from __future__ import annotations

import streamlit as st

from agentic_core.data import Override
from agentic_core.report import InteractionDetail, side_by_side_html
from ui.views import DIFF_COLUMNS, highlighted, interaction_view, styled_diff

DIFF_CONFIG = {
    "diff": st.column_config.TextColumn("Diff"),
    "expected_call": st.column_config.TextColumn("Expected call"),
    "expected_parameters": st.column_config.TextColumn("Expected parameters"),
    "used_call": st.column_config.TextColumn("Used call"),
    "used_parameters": st.column_config.TextColumn("Used parameters"),
    "result": st.column_config.TextColumn("Result"),
    "agreement": st.column_config.TextColumn("Parameter agreement"),
    "mismatches": st.column_config.TextColumn("Parameter mismatches"),
}


def _text_block(label: str, text: str, term: str = "") -> None:
    st.markdown(f"**{label}**")
    marked = highlighted(text, term)
    if marked is not None:
        st.html(marked)
    else:
        st.text(text if text else "(empty)")


def _answer_diff(detail: InteractionDetail) -> None:
    """The word-level diff of the answer against the ground truth (numbers, names, dates boxed)."""
    if not detail.answer or not detail.ground_truth or detail.answer.strip() == detail.ground_truth.strip():
        return
    with st.expander("Answer vs ground truth, word by word, side by side", expanded=detail.status != "correct"):
        st.caption(
            "Each text whole in its own column. Green: words only the answer has; red: words only the ground truth "
            "has; bold and boxed: a number, a name or a date that differs. Case is ignored when matching words."
        )
        st.html(side_by_side_html(detail.answer, detail.ground_truth))


def render_interaction(detail: InteractionDetail, k: int, override: Override | None, term: str = "") -> None:
    """Draw interaction ``k`` of the conversation, with the person's verdict if any and the search's matches."""
    view = interaction_view(detail, override)
    with st.container(border=True):
        st.markdown(view.heading)
        st.markdown(view.verdict)
        for column, (label, text) in zip(
            st.columns(3),
            (("Query", detail.query), ("Answer", detail.answer), ("Ground truth", detail.ground_truth)),
            strict=True,
        ):
            with column:
                _text_block(label, text, term)
        _answer_diff(detail)
        for line in view.judge:
            st.markdown(line)
        if view.tool is None or detail.tool_diff is None:
            st.caption("No tools were expected or used here: tool correctness does not apply.")
            return
        st.markdown(view.tool)
        st.dataframe(
            styled_diff(detail.tool_diff),
            key=f"explorer_diff_{detail.row}_{k}",
            hide_index=True,
            column_order=DIFF_COLUMNS,
            column_config=DIFF_CONFIG,
        )
        st.markdown(view.tool_reasoning)
