"""The Explorer's span tree of a traced conversation: one expander, a page of steps at a time.

What the tree holds and how it is drawn is decided in the core (:mod:`agentic_core.report.span_tree`,
:mod:`agentic_core.report.span_tree_html`); this module reads the page number and draws the HTML.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from agentic_core.data import TraceSpan
from agentic_core.report import SPAN_PAGE, span_tree, span_tree_html
from ui.controls import page_number
from ui.memo import session_memo

MEMO_KEY = "_explorer_span_tree_memo"
PAGE_KEY = "explorer_span_page"


def span_tree_section(run_id: str, row: int, spans: Sequence[TraceSpan], statuses: Sequence[str]) -> None:
    """Draw the conversation's span tree (nothing when it has no spans).

    Args:
        run_id: The run's id (with ``row``, what the memoised tree depends on).
        row: The conversation's row.
        spans: Its ``spans``.
        statuses: Per interaction, its status under the current settings (the judged answer's mark).
    """
    if not spans:
        return
    with st.expander(f"Span tree: {len(spans):,} steps", expanded=True, key="explorer_spans"):
        st.caption(
            "Each step of the trace inside the step it ran in (click a step to fold or unfold it), with a bar "
            "placed on the trace's timeline, its duration, tokens and cost where recorded. Red: a step that "
            "failed. Outlined: the step whose output is the judged answer, with its verdict."
        )
        page = 1
        if len(spans) > SPAN_PAGE:
            page = page_number(
                len(spans), SPAN_PAGE, PAGE_KEY, "steps", "A large trace is shown a page of steps at a time, "
                "depth first: a step, then the steps inside it in the order they started."
            )
        tree = session_memo(MEMO_KEY, (run_id, row, page), lambda: span_tree(spans, page - 1), size=4)
        st.html(span_tree_html(tree, statuses))
