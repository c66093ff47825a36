"""Explorer: conversations failing first, filter and search, drill into one conversation.

The drill-down shows every interaction's query, answer, ground truth, judge score and reasoning
(or why it is unscored), its verdict under the current threshold, and the expected-vs-used tool
diff with the tool reasoning under the current weights.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from agentic_core import AgenticError
from agentic_core.data import Override
from agentic_core.report import (
    CONVERSATION_PARAM,
    STATUSES,
    FilterIndex,
    InteractionDetail,
    SearchIndex,
    conversation_detail,
    conversation_index,
    conversation_param,
    explorer_filters,
    explorer_table,
    filter_mask,
    filters_to_query,
    highlight,
    side_by_side_html,
    table_page,
    thread_html,
)
from ui.agentic_filter import agentic_filter
from ui.controls import page_number, results_page
from ui.explorer_filters import apply_link, filters_in_use, more_filters, reset_for_other_data, write_page_params
from ui.format import md_text, pct
from ui.memo import session_memo
from ui.overrides import clear, mark, overrides_table
from ui.state import ActiveRun
from ui.telemetry_cost import telemetry_caption

log = logging.getLogger(__name__)

MEMO_KEY = "_explorer_memo"
SEARCH_MEMO_KEY = "_explorer_search_memo"
ROWS_KEY = "_explorer_rows"  # conversation rows in the order the table shows them
OVERRIDE_NOTICE = "_override_notice"
_SEARCH_MEMO = 16
STATUS_BADGES = {
    "incorrect": ":red-badge[incorrect]",
    "unscored": ":gray-badge[unscored]",
    "correct": ":green-badge[correct]",
}
DIFF_LABELS = {  # plain text: emoji do not render in every browser's table canvas
    "match": "match",
    "parameter mismatch": "PARAMETER MISMATCH",
    "missing": "MISSING",
    "extra": "EXTRA",
    "optional, not called": "optional, not called",
}
DIFF_COLORS = {
    "parameter mismatch": "background-color: rgba(255, 170, 0, 0.18)",
    "missing": "background-color: rgba(214, 39, 40, 0.16)",
    "extra": "background-color: rgba(31, 119, 180, 0.14)",
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


def _styled_diff(diff: pd.DataFrame) -> Any:
    shown = diff.assign(diff=diff["diff"].map(lambda d: DIFF_LABELS.get(d, d)))

    def colour(row: pd.Series) -> list[str]:
        css = DIFF_COLORS.get(diff.at[row.name, "diff"], "")
        return [css] * len(row)

    return shown.style.apply(colour, axis=1).format({"agreement": lambda x: "" if pd.isna(x) else f"{x:.0%}"})


HIGHLIGHT_CSS = (
    "<style>.xq mark{background:rgba(255,200,0,.45);color:inherit;padding:0 1px}"
    ".xq{white-space:pre-wrap;font-size:.9rem}"
    ".xq ins{background:rgba(46,160,67,.22);text-decoration:none}"
    ".xq del{background:rgba(214,39,40,.22)}"
    ".xq ins.salient,.xq del.salient{outline:1px solid currentColor}</style>"
)


def _text_block(label: str, text: str, term: str = "") -> None:
    st.markdown(f"**{label}**")
    if term and text and term.lower() in text.lower():
        # The search's matches marked; escaped HTML, so the data's text never becomes markup or Markdown.
        st.html(f'{HIGHLIGHT_CSS}<div class="xq" title="search matches">{highlight(text, term)}</div>')
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


def _render_interaction(detail: InteractionDetail, k: int, override: Override | None, term: str = "") -> None:
    with st.container(border=True):
        st.markdown(f"**Turn {detail.position + 1}** · {md_text(detail.qa_id)} · {STATUS_BADGES[detail.status]}")
        if override is not None:
            note = f" — {md_text(override.note)}" if override.note else ""
            marked = "correct" if override.correct else "incorrect"
            st.markdown(f"**Verdict:** :violet-badge[marked {marked} by hand] (replaces the judge's){note}")
        else:
            st.markdown(f"**Verdict:** {detail.verdict}")
        cols = st.columns(3)
        with cols[0]:
            _text_block("Query", detail.query, term)
        with cols[1]:
            _text_block("Answer", detail.answer, term)
        with cols[2]:
            _text_block("Ground truth", detail.ground_truth, term)
        _answer_diff(detail)
        if detail.judge_score is None and detail.judge_status == "uncertain":
            why = detail.judge_error or "uncertain"
            st.markdown(f"**Judge uncertain** (unscored, never 0 or 1): {md_text(why)}")
            if detail.judge_reasoning:
                st.markdown(f"**Judge reasoning:** {md_text(detail.judge_reasoning)}")
        elif detail.judge_score is None:
            st.markdown(f"**Judge failure:** {md_text(detail.judge_error or 'no score was returned')}")
        elif detail.judge_reasoning:
            st.markdown(f"**Judge reasoning** ({detail.judge_status}): {md_text(detail.judge_reasoning)}")
        if detail.tool is None or detail.tool_diff is None:
            st.caption("No tools were expected or used here: tool correctness does not apply.")
            return
        tool = detail.tool
        overall = "undefined" if tool.overall_correctness is None else f"{tool.overall_correctness:.2f}"
        utilization = "not assessable" if tool.result_utilization is None else f"{tool.result_utilization:.2f}"
        badge = ":green-badge[tool use correct]" if tool.is_correct else ":red-badge[tool use below threshold]"
        st.markdown(
            f"**Tool calls: expected vs used** — {badge}"
            f"  \nselection {tool.tool_selection_correct:.2f} · parameters {tool.parameter_accuracy:.2f} · "
            f"sequence {tool.sequence_correct:.2f} · utilization {utilization} · **overall {overall}**"
        )
        st.dataframe(
            _styled_diff(detail.tool_diff),
            key=f"explorer_diff_{detail.row}_{k}",
            hide_index=True,
            column_order=[
                "diff",
                "expected_call",
                "used_call",
                "agreement",
                "mismatches",
                "expected_parameters",
                "used_parameters",
                "result",
            ],
            column_config={
                "diff": st.column_config.TextColumn("Diff"),
                "expected_call": st.column_config.TextColumn("Expected call"),
                "expected_parameters": st.column_config.TextColumn("Expected parameters"),
                "used_call": st.column_config.TextColumn("Used call"),
                "used_parameters": st.column_config.TextColumn("Used parameters"),
                "result": st.column_config.TextColumn("Result"),
                "agreement": st.column_config.TextColumn("Parameter agreement"),
                "mismatches": st.column_config.TextColumn("Parameter mismatches"),
            },
        )
        st.markdown(f"**Tool reasoning:** {md_text(tool.reasoning)}")


def _after_change(warning: str | None, done: str) -> None:
    """Say what an override change did (on the next run) and rerun so every count follows it."""
    st.session_state[OVERRIDE_NOTICE] = ("warning", warning) if warning else ("success", done)
    st.rerun()


def _overrides_list(run: ActiveRun) -> None:
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
            cols[0].markdown(
                f"Row {r} · {md_text(table.loc[table['row'] == r, 'qa_id'].iat[0])} · marked "
                f"{'correct' if o.correct else 'incorrect'}" + (f" — {md_text(o.note)}" if o.note else "")
            )
            if cols[1].button("Clear", key=f"override_clear_{r}", icon=":material/undo:"):
                _after_change(clear(run, r), f"Cleared your verdict on row {r}.")


run, settings, agg = results_page()
tables = _run_tables(run)
choices = {
    "task": sorted(set(tables["index"]["task_key"].astype(str))),
    "assistant": sorted(set(tables["index"]["assistant_id"].astype(str))),
    "tool": tables["filters"].tool_names,
}
notice = st.session_state.pop(OVERRIDE_NOTICE, None)
if notice:
    (st.warning if notice[0] == "warning" else st.success)(notice[1])

st.title("Explorer")
st.caption(
    f"{run.data_name} — judged by {run.judge_label}. Conversations failing first (incorrect, then unscored, "
    f"then correct) under the current settings: answer threshold {settings.threshold:.2f}"
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
total = run.result.n_conversations
by_status = agg.conversations["status"].value_counts()
st.caption(
    f"Showing **{len(table):,}** of {total:,} conversations. In the run: "
    + ", ".join(f"{int(by_status.get(s, 0)):,} {s}" for s in STATUSES)
    + "."
)
if table.empty:
    hiding = "; ".join(md_text(f) for f in filters_in_use(filters))
    st.info(
        f"No conversation matches these filters ({hiding}). Clear the search or a filter, or select more statuses."
        if statuses
        else "Select at least one status to list conversations."
    )
    st.stop()

all_rows = table["row"].tolist()
if len(table) > explorer_filters.EXPLORER_PAGE_ROWS:  # a page at a time: the browser gets at most this many rows
    size = explorer_filters.EXPLORER_PAGE_ROWS
    # A deep link opens the page holding its conversation.
    jump = all_rows.index(linked_row) if linked_row is not None and linked_row in all_rows else None
    wanted = page_number(
        len(table), size, "explorer_page", "conversations",
        "Every listed conversation is reachable, failing first, a page at a time.", jump,
    )
    table, page, n_pages = table_page(table, wanted, size)
    st.caption(f"Page {page:,} of {n_pages:,}.")
rows = table["row"].tolist()
st.session_state[ROWS_KEY] = rows
st.dataframe(
    table,
    key="explorer_table",
    on_select=_on_table_select,
    selection_mode="single-row",
    hide_index=True,
    height=320,
    column_config={
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
    },
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
labels = dict(
    zip(
        rows,
        (table["session_id"] + " · " + table["assistant_id"] + " — " + table["status"]).tolist(),
        strict=True,
    )
)
row = st.selectbox(
    "Conversation",
    rows,
    format_func=lambda r: f"#{r} {labels.get(r, '')}",
    key="conversation",
    help="Session ids can repeat across attempts, so conversations are listed by row and assistant.",
    persist_state="session",
)

try:
    details = conversation_detail(run.result, agg, int(row))
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()
except Exception:  # never a traceback on screen
    log.exception("explorer drill-down failed for row %s", row)
    st.error("This conversation could not be displayed. Pick another one, or reload the page; the log has details.")
    st.stop()

write_page_params(
    {**filters_to_query(filters), CONVERSATION_PARAM: conversation_param(tables["index"]["session_id"], int(row))}
)
conv = agg.conversations.iloc[int(row)]
conversation = run.result.conversations[int(row)]
st.subheader(f"{md_text(conversation.session_id)} · {md_text(conversation.assistant_id)}")
facts = [
    STATUS_BADGES[str(conv["status"])],
    f"row {int(row)}",
    f"task {md_text(conv['task_key'])}",
    f"{int(conv['correct_interactions'])} of {int(conv['total_interactions'])} interactions correct",
]
if conv.get("pass_at_k") is not None and not pd.isna(conv.get("pass_at_k")):
    facts.append(f"per-conversation pass@{agg.k} {pct(float(conv['pass_at_k']))} (over its interactions)")
st.markdown(" · ".join(facts))
about = [
    md_text(conversation.context or ""),
    f"language: {md_text(conversation.language)}" if conversation.language else "",
]
if any(about):
    st.caption(" · ".join(x for x in about if x))
telemetry_caption(conversation)  # model, agent, tokens and latency per turn, for traced data
if conversation.trace:
    # The imported chat log whole (every message, call and result), the judged messages outlined.
    with st.expander(f"Whole trace: {len(conversation.trace):,} messages", expanded=True, key="explorer_trace"):
        st.caption(
            "Every message of the imported trace in order: the system prompt, each user and assistant message, "
            "each tool call with its arguments and each tool's result. Outlined: what the judge graded, each "
            "turn's query and final answer, with its verdict."
        )
        st.html(thread_html(conversation.trace, [d.status for d in details], (term or "").strip()))
start = int(run.result.conversation_bounds()[0][int(row)])  # the conversation's first interaction row
for k, detail in enumerate(details):
    _render_interaction(detail, k, run.result.overrides.get(start + k), (term or "").strip())

st.subheader("Your verdict")
st.caption(
    "Mark an answer correct or incorrect by hand: your verdict replaces the judge's in every aggregate and export, "
    "is kept with the run in the history, and counts as a person's verdict on the Calibration page."
)
turns = {start + k: d for k, d in enumerate(details)}  # interaction row -> its detail
if st.session_state.get("override_row") not in turns:
    st.session_state["override_row"] = start
target = st.selectbox(
    "Interaction",
    list(turns),
    format_func=lambda r: f"Turn {turns[r].position + 1} · {turns[r].qa_id} ({turns[r].status})",
    key="override_row",
)
current = run.result.overrides.get(int(target))
# Proposed: the person's verdict if there is one, else the opposite of what counts now (why one overrides).
proposed = current.correct if current is not None else turns[int(target)].status != "correct"
cols = st.columns([1, 3])
verdict = cols[0].radio(
    "The answer is",
    ["correct", "incorrect"],
    index=0 if proposed else 1,
    key=f"override_verdict_{target}",
    horizontal=True,
)
note = cols[1].text_input(
    "Note", value=current.note if current else "", key=f"override_note_{target}", placeholder="why (optional)"
)
cols = st.columns([1, 1, 3])
if cols[0].button("Save the verdict", key="override_save", type="primary", icon=":material/gavel:"):
    _after_change(mark(run, int(target), verdict == "correct", note), f"Marked {verdict}.")
if current is not None and cols[1].button("Clear it", key="override_clear", icon=":material/undo:"):
    _after_change(clear(run, int(target)), "Your verdict is cleared: the judge's counts again.")

_overrides_list(run)
