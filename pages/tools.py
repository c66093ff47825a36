"""Tools: the four tool-correctness dimensions, per-tool-name breakdown, failing tool calls."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import Aggregate
from agentic_core.io import FORMAT_NEEDS
from agentic_core.report import (
    FAILING_PAGE_ROWS,
    failing_tool_calls,
    filter_failing_calls,
    interaction_tool_names,
    tool_breakdown,
)
from agentic_core.settings import AggregateSettings
from agentic_core.tools import NOT_SCORED
from ui.cards import card, kpi, kpi_row
from ui.charts import tool_dimension_figure
from ui.controls import page_number, settings_or_error, tool_controls
from ui.format import md_text
from ui.format_defaults import applied_here, defaults_of
from ui.memo import session_memo
from ui.page_head import page_head
from ui.state import ActiveRun, get_aggregate
from ui.theme import show_chart
from ui.url_state import write_url
from ui.views import FAILING_COLUMNS, dimensions_caption, failing_page, failing_signature, tool_cards, weights_caption

RUN_MEMO_KEY = "_tools_run_memo"
FAILING_MEMO_KEY = "_tools_failing_memo"
_FAILING_MEMO_SIZE = 8
FILTER_HELP = "Keep interactions that expected or called any of these tools."
SEARCH_PLACEHOLDER = "session, qa_id, tool or words in the reasoning"
SEARCH_HELP = "Case-insensitive substring search over session_id, qa_id, tools, missing / extra calls and reasoning."


def per_run(run: ActiveRun) -> dict[str, Any]:
    """Weight-independent tables, computed once per run: breakdown and tool names per interaction."""
    return session_memo(
        RUN_MEMO_KEY,
        run.run_id,
        lambda: {"breakdown": tool_breakdown(run.result), "names": interaction_tool_names(run.result)},
    )


run = page_head("Tools", "tools")
result = run.result

n_tool = result.n_tool_interactions
if n_tool == 0:
    st.info(
        "No interaction in this dataset has tool expectations or tool calls, so there is nothing to score here. "
        "To evaluate tool use, give interactions a `ground_truth_agentic` with `expected_tools` (and the agent's "
        "`agentic.tools_used`), then load the file on the **Data** page and evaluate it on **Run**. The "
        "*Travel agent* sample shows the format.",
        icon=":material/build:",
    )
    st.stop()

st.markdown(
    f"**{n_tool:,} of {result.n_interactions:,} interactions** have tool expectations or tool calls and are scored "
    "on four dimensions: *selection* (the right tools: F1 of matched calls), *parameters* (agreement of matched "
    "calls' parameters), *sequence* (relative order, when it matters) and *utilization* (the final answer uses the "
    "tool results). The overall score is their weighted mean; tool use is correct when it reaches the threshold."
)
try:
    run_tables = per_run(run)
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()


def failing_calls(settings: AggregateSettings, agg: Aggregate) -> None:
    """The failing tool calls under the current tool settings: filters, a page of rows, its caption."""
    st.subheader("Failing tool calls")
    try:
        failing = session_memo(
            FAILING_MEMO_KEY,
            (run.run_id, failing_signature(settings)),
            lambda: failing_tool_calls(result, agg),
            size=_FAILING_MEMO_SIZE,
        )
    except AgenticError as exc:
        st.error(md_text(exc))
        return
    if failing.empty:
        st.success(
            f"No failing tool calls: every scored interaction reaches the tool threshold {settings.tool_threshold:g}."
        )
        return
    filter_cols = st.columns([2, 3])
    names = sorted(run_tables["breakdown"]["tool_name"].astype(str))
    chosen = filter_cols[0].multiselect("Filter by tool name", names, key="tools_filter", help=FILTER_HELP)
    search = filter_cols[1].text_input("Search", key="tools_search", placeholder=SEARCH_PLACEHOLDER, help=SEARCH_HELP)
    view = filter_failing_calls(failing, run_tables["names"], chosen, search)
    wanted = 1
    if len(view) > FAILING_PAGE_ROWS:
        wanted = page_number(
            len(view),
            FAILING_PAGE_ROWS,
            "tools_page",
            "rows",
            "Every failing interaction is listed, worst first, a page at a time.",
        )
    page = failing_page(view, len(failing), settings.tool_threshold, wanted, FAILING_PAGE_ROWS)
    st.caption(page.caption)
    st.dataframe(
        page.rows,
        hide_index=True,
        key="tools_failing",
        column_order=FAILING_COLUMNS,
        column_config={
            "session_id": st.column_config.TextColumn("Session"),
            "qa_id": st.column_config.TextColumn("qa_id"),
            "position": st.column_config.NumberColumn("Turn", help="0-based position in the conversation"),
            "tool_overall": st.column_config.ProgressColumn("Overall", min_value=0.0, max_value=1.0, format="%.2f"),
            "tools": st.column_config.TextColumn("Tools", help="Tools expected or called"),
            "missing": st.column_config.TextColumn("Missing", help="Required calls never made"),
            "extra": st.column_config.TextColumn("Extra", help="Calls nobody expected"),
            "parameter_errors": st.column_config.NumberColumn("Param. errors"),
            "reasoning": st.column_config.TextColumn("Reasoning", width="large"),
        },
    )


@st.fragment
def weighted_view() -> None:
    """Weights, threshold and everything that depends on them (reruns alone on a slider move)."""
    st.subheader("Weights and threshold")
    tool_controls()
    stated = defaults_of(run.result.load_report) if run.result.load_report is not None else None
    if stated is not None and stated.ignore_extra_tools is not None and applied_here("ignore_extra"):
        why = FORMAT_NEEDS[stated.format].extra_words
        st.caption(f"*Ignore extra calls* is preselected for {stated.format} data: {why}.")
    write_url(run)  # a fragment rerun skips dashboard.py, which keeps the URL in step otherwise
    settings = settings_or_error(run)
    if settings is None:
        return
    agg = get_aggregate(run, settings)
    if not settings.tool_weights.scores_tools:
        st.warning(NOT_SCORED, icon=":material/warning:")
        show_chart(tool_dimension_figure(agg.tool_summary), key="tools_dimensions")
        st.caption(dimensions_caption(settings))
        return
    st.caption(weights_caption(settings))
    row = kpi_row()
    for c in tool_cards(agg.tool_summary, settings):
        if c.text is None:
            kpi(row, c.label, c.proportion, c.ci, help=c.help)
        else:
            card(row, c.label, c.text, delta=c.delta, help=c.help)
    show_chart(tool_dimension_figure(agg.tool_summary), key="tools_dimensions")
    st.caption(dimensions_caption(settings))
    failing_calls(settings, agg)


weighted_view()

st.subheader("Per tool name")
breakdown: pd.DataFrame = run_tables["breakdown"]
st.caption(
    "Counts over all interactions, independent of the weights and threshold. A *missing* call was required and "
    "never made; an *extra* call matched no expected call; a *parameter error* is one disagreeing parameter of a "
    "matched call. Sorted by missing, extra, then parameter errors."
)
st.dataframe(
    breakdown,
    hide_index=True,
    key="tools_breakdown",
    column_config={
        "tool_name": st.column_config.TextColumn("Tool"),
        "expected_calls": st.column_config.NumberColumn("Expected calls"),
        "used_calls": st.column_config.NumberColumn("Calls made"),
        "matched": st.column_config.NumberColumn("Matched"),
        "missing": st.column_config.NumberColumn("Missing"),
        "extra": st.column_config.NumberColumn("Extra"),
        "calls_with_parameter_errors": st.column_config.NumberColumn("Calls with param. errors"),
        "parameter_errors": st.column_config.NumberColumn("Param. errors"),
        "mean_parameter_agreement": st.column_config.ProgressColumn(
            "Mean param. agreement", min_value=0.0, max_value=1.0, format="%.2f"
        ),
    },
)
