"""Explorer: conversations failing first, filter and search, drill into one conversation.

The drill-down shows every interaction's query, answer, ground truth, judge score and reasoning
(or why it is unscored), its verdict under the current threshold, and the expected-vs-used tool
diff with the tool reasoning under the current weights.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import streamlit as st

from agentic_core import AgenticError
from agentic_core.common import ExplorerCols
from agentic_core.report import (
    CONVERSATION_PARAM,
    EXPLORER_PAGE_ROWS,
    STATUSES,
    FilterIndex,
    SearchIndex,
    conversation_detail,
    conversation_facts,
    conversation_index,
    conversation_param,
    conversations_by_status,
    explorer_table,
    filter_mask,
    filters_to_query,
    interaction_rows,
    position_of,
    table_page,
    thread_html,
)
from ui.agentic_filter import agentic_filter
from ui.controls import page_number, results_page
from ui.explorer_detail import render_interaction
from ui.explorer_filters import apply_link, filters_in_use, more_filters, reset_for_other_data, write_page_params
from ui.format import md_text
from ui.memo import session_memo
from ui.span_tree_view import span_tree_section
from ui.state import ActiveRun
from ui.telemetry_cost import telemetry_caption
from ui.verdict_form import overrides_list, show_notice, verdict_form
from ui.views import (
    about_line,
    conversation_labels,
    empty_message,
    facts_line,
    list_caption,
)

log = logging.getLogger(__name__)

MEMO_KEY = "_explorer_memo"
SEARCH_MEMO_KEY = "_explorer_search_memo"
ROWS_KEY = "_explorer_rows"  # conversation rows in the order the table shows them
_SEARCH_MEMO = 16
TABLE_CONFIG = {
    "row": st.column_config.NumberColumn("Row", help="Position of the conversation in the data"),
    "status": st.column_config.TextColumn("Status"),
    "session_id": st.column_config.TextColumn("Session"),
    "assistant_id": st.column_config.TextColumn("Assistant"),
    "task_key": st.column_config.TextColumn("Task"),
    "interactions": st.column_config.NumberColumn("Interactions"),
    "correct": st.column_config.NumberColumn("Correct", help="Interactions counted correct"),
    "unscored": st.column_config.NumberColumn("Unscored", help="Interactions the judge failed or abstained on"),
    "min_score": st.column_config.NumberColumn("Lowest score", format="%.2f"),
    "tool_correct": st.column_config.NumberColumn("Tools correct", help="Interactions with correct tool use"),
    "tool_scored": st.column_config.NumberColumn("Tools scored", help="Interactions where tools apply"),
    "first_query": st.column_config.TextColumn("First query"),
}


def _run_tables(run: ActiveRun) -> dict[str, Any]:
    """Weight-independent helpers of the run (conversation identities, search text), built once."""
    return session_memo(
        MEMO_KEY,
        run.run_id,  # includes the overrides' revision (the disagreement filter reads them)
        lambda: {
            "index": conversation_index(run.result),
            "search": SearchIndex(run.result),
            "filters": FilterIndex.build(run.result),
        },
    )


def _search(run: ActiveRun, search: SearchIndex, term: str) -> np.ndarray | None:
    """Conversation mask for ``term`` (None = no search), memoised per run and term."""
    term = term.strip()
    if not term:
        return None
    return session_memo(SEARCH_MEMO_KEY, (run.run_id, term), lambda: search.search(term), size=_SEARCH_MEMO)


def _on_table_select() -> None:
    """A clicked table row selects that conversation in the drill-down."""
    state = st.session_state.get("explorer_table")
    rows = list(state["selection"]["rows"]) if state else []
    shown: list[int] = st.session_state.get(ROWS_KEY, [])
    if rows and 0 <= rows[0] < len(shown):
        st.session_state["conversation"] = shown[rows[0]]


run, settings, agg = results_page()
tables = _run_tables(run)
choices = {
    "task": sorted(set(tables["index"][ExplorerCols.TASK_KEY].astype(str))),
    "assistant": sorted(set(tables["index"][ExplorerCols.ASSISTANT_ID].astype(str))),
    "tool": tables["filters"].tool_names,
}
show_notice()

st.title("Explorer")
st.caption(
    f"{md_text(run.data_name)} — judged by {md_text(run.judge_label)}. Conversations failing first (incorrect, then "
    f"unscored, then correct) under the current settings: answer threshold {settings.threshold:.2f}"
    + (", tool use required" if settings.require_tool_correctness else "")
    + "."
)
if reset_for_other_data(run):
    st.info("The filters were reset: they were chosen on other data.", icon=":material/filter_alt_off:")
link_messages, linked_row = apply_link(run, tables, choices)
for message in link_messages:
    st.warning(message, icon=":material/link:")
cols = st.columns([2, 3])
statuses = cols[0].multiselect(
    "Status",
    STATUSES,
    default=STATUSES,
    key="explorer_status",
    help="Correct: every interaction reaches the threshold. Unscored: the judge failed on an interaction, "
    "or abstained (uncertain).",
    persist_state="session",
)
term = cols[1].text_input(
    "Search",
    key="explorer_search",
    type="search",
    placeholder="session id, assistant id, or text in a query or answer",
    help="Case-insensitive, literal text (not a pattern). Matches are highlighted in the conversation below.",
    persist_state="session",
)
filters = more_filters(choices, statuses, term or "")
mask = _search(run, tables["search"], term or "")
agentic_mask = agentic_filter(run.result)  # seed 004's metrics, when the run has them
if agentic_mask is not None:
    mask = agentic_mask if mask is None else mask & agentic_mask
mask = filter_mask(run.result, agg, tables["filters"], filters, mask)
write_page_params(filters_to_query(filters))
table = explorer_table(agg, tables["index"], mask=mask)
st.caption(list_caption(len(table), run.result.n_conversations, conversations_by_status(agg)))
if table.empty:
    st.info(empty_message(statuses, filters_in_use(filters)))
    st.stop()

all_rows = table[ExplorerCols.ROW].tolist()
if len(table) > EXPLORER_PAGE_ROWS:  # a page at a time: the browser gets at most this many rows
    wanted = page_number(
        len(table), EXPLORER_PAGE_ROWS, "explorer_page", "conversations",
        "Every listed conversation is reachable, failing first, a page at a time.",
        position_of(all_rows, linked_row),  # a deep link opens the page holding its conversation
    )
    table, page, n_pages = table_page(table, wanted, EXPLORER_PAGE_ROWS)
    st.caption(f"Page {page:,} of {n_pages:,}.")
rows = table[ExplorerCols.ROW].tolist()
st.session_state[ROWS_KEY] = rows
st.dataframe(
    table,
    key="explorer_table",
    on_select=_on_table_select,
    selection_mode="single-row",
    hide_index=True,
    height=320,
    column_config=TABLE_CONFIG,
)
st.caption("Click a row, or pick a conversation below, to see its interactions.")

if linked_row is not None and linked_row not in all_rows:
    st.warning(
        f"The link's conversation {md_text(st.query_params.get(CONVERSATION_PARAM))} is hidden by the filters: "
        "clear them (or select every status) to see it.",
        icon=":material/link:",
    )
if st.session_state.get("conversation") not in rows:
    st.session_state["conversation"] = rows[0]
labels = conversation_labels(table)
row = int(
    st.selectbox(
        "Conversation",
        rows,
        format_func=lambda r: f"#{r} {labels.get(r, '')}",
        key="conversation",
        help="Session ids can repeat across attempts, so conversations are listed by row and assistant.",
        persist_state="session",
    )
)

try:
    details = conversation_detail(run.result, agg, row)
    facts = conversation_facts(run.result, agg, row)
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()
except Exception:  # never a traceback on screen
    log.exception("explorer drill-down failed for row %s", row)
    st.error("This conversation could not be displayed. Pick another one, or reload the page; the log has details.")
    st.stop()

linked = conversation_param(tables["index"][ExplorerCols.SESSION_ID], row)
write_page_params({**filters_to_query(filters), CONVERSATION_PARAM: linked})
conversation = run.result.conversations[row]
st.subheader(f"{md_text(facts.session_id)} · {md_text(facts.assistant_id)}")
st.markdown(facts_line(facts))
if about_line(facts):
    st.caption(about_line(facts))
telemetry_caption(conversation)  # model, agent, tokens and latency per turn, for traced data
term = (term or "").strip()
if conversation.trace:
    # The imported chat log whole (every message, call and result), the judged messages outlined.
    with st.expander(f"Whole trace: {len(conversation.trace):,} messages", expanded=True, key="explorer_trace"):
        st.caption(
            "Every message of the imported trace in order: the system prompt, each user and assistant message, "
            "each tool call with its arguments and each tool's result. Outlined: what the judge graded, each "
            "turn's query and final answer, with its verdict."
        )
        st.html(thread_html(conversation.trace, [d.status for d in details], term))
span_tree_section(run.run_id, row, conversation.spans or [], [d.status for d in details])  # traced data's steps
turns = interaction_rows(run.result, row, details)  # interaction row -> its detail
for k, (r, detail) in enumerate(turns.items()):
    render_interaction(detail, k, run.result.overrides.get(r), term)

verdict_form(run, turns)
overrides_list(run)
