"""The Explorer's filters beyond status and search, and its parameters in the URL (deep links).

The filtering itself is in :mod:`agentic_core.report.explorer_filters` (pure, tested); this module
binds it to widgets and to the URL: a link's ``status=``, ``task=``, ..., ``conversation=`` are
applied when they are new (a shared link), and the URL follows the widgets after that.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agentic_core.common import ExplorerCols, md_code, md_text
from agentic_core.report import (
    CONVERSATION_PARAM,
    PAGE_PARAMS,
    STATUSES,
    TOOL_DIMENSIONS,
    ExplorerFilters,
    filters_from_query,
    resolve_conversation,
)
from ui.state import ActiveRun

LINK_KEY = "_explorer_link"  # the Explorer parameters this session last wrote into the URL
BELOW_OFF = 1.01  # the "below" slider's value for "no filter"

WIDGETS = {  # ExplorerFilters field -> widget key
    "statuses": "explorer_status",
    "search": "explorer_search",
    "tasks": "explorer_task",
    "assistants": "explorer_assistant",
    "tools": "explorer_tool",
    "tool_dimension": "explorer_tool_dim",
    "tool_below": "explorer_tool_below",
    "unscored_reason": "explorer_reason",
    "disagreement": "explorer_disagree",
}
MORE_KEYS = (
    "explorer_task",
    "explorer_assistant",
    "explorer_tool",
    "explorer_tool_below",
    "explorer_reason",
    "explorer_disagree",
)


def page_query() -> dict[str, str]:
    return {key: st.query_params[key] for key in st.query_params if key in PAGE_PARAMS}


def apply_link(run: ActiveRun, tables: dict[str, Any], choices: dict[str, list[str]]) -> tuple[list[str], int | None]:
    """Apply the URL's Explorer parameters when they are new (a shared link, a deep link).

    Returns:
        Messages naming what could not be used, and the linked conversation's row (if any).
    """
    query = page_query()
    if not query or query == st.session_state.get(LINK_KEY):
        return [], None
    filters, messages = filters_from_query(query, choices)
    for name, key in WIDGETS.items():
        value = getattr(filters, name)
        if name in ("statuses", "tasks", "assistants", "tools"):
            value = list(value)
        if name == "tool_below":
            value = BELOW_OFF if value is None else value
        st.session_state[key] = value
    st.session_state["explorer_score"] = (filters.score_min, filters.score_max)
    linked_row = None
    wanted = query.get(CONVERSATION_PARAM)
    if wanted:
        linked_row = resolve_conversation(tables["index"][ExplorerCols.SESSION_ID], wanted)
        if linked_row is None:
            messages.append(
                f"The link's conversation {md_code(wanted)} is not in this run ({md_text(run.data_name)}): pick one "
                "from the list below, or open the run it belongs to from the **History** page."
            )
        else:
            st.session_state["conversation"] = linked_row
    st.session_state[LINK_KEY] = query
    return messages, linked_row


def write_page_params(params: dict[str, str]) -> None:
    """Make the URL's Explorer parameters ``params`` (the shared settings and the run stay)."""
    for key in PAGE_PARAMS:
        if key in params:
            if st.query_params.get(key) != params[key]:
                st.query_params[key] = params[key]
        elif key in st.query_params:
            del st.query_params[key]
    st.session_state[LINK_KEY] = dict(params)


def more_filters(choices: dict[str, list[str]], statuses: list[str], term: str) -> ExplorerFilters:
    """The filters beyond status and search, in an expander (open when one is in use)."""
    in_use = any(st.session_state.get(key) not in (None, [], "", False, BELOW_OFF) for key in MORE_KEYS) or tuple(
        st.session_state.get("explorer_score", (0.0, 1.0))
    ) != (0.0, 1.0)
    with st.expander(
        "More filters: task, assistant, tool, scores, human verdicts", expanded=in_use, icon=":material/filter_alt:"
    ):
        cols = st.columns(3)
        tasks = cols[0].multiselect("Task", choices["task"], key="explorer_task", persist_state="session")
        assistants = cols[1].multiselect(
            "Assistant", choices["assistant"], key="explorer_assistant", persist_state="session"
        )
        tools = cols[2].multiselect(
            "Tool",
            choices["tool"],
            key="explorer_tool",
            persist_state="session",
            help="Conversations where this tool was expected or called.",
        )
        tool_cols = st.columns([1, 2, 2])
        dimension = tool_cols[0].selectbox(
            "Tool dimension",
            TOOL_DIMENSIONS,
            index=TOOL_DIMENSIONS.index("overall"),
            key="explorer_tool_dim",
            persist_state="session",
            help="Overall is the weighted score under the current tool weights.",
        )
        below = tool_cols[1].slider(
            "Tool dimension below",
            0.0,
            BELOW_OFF,
            BELOW_OFF,
            0.05,
            key="explorer_tool_below",
            persist_state="session",
            help="Keep conversations with an interaction whose tool dimension is scored and below this; "
            f"{BELOW_OFF} keeps all.",
        )
        low, high = tool_cols[2].slider(
            "Judge score between",
            0.0,
            1.0,
            (0.0, 1.0),
            0.05,
            key="explorer_score",
            persist_state="session",
            help="Keep conversations with an interaction the judge scored in this range (the full range keeps all).",
        )
        last_cols = st.columns([3, 2])
        reason = last_cols[0].text_input(
            "Unscored reason",
            key="explorer_reason",
            persist_state="session",
            placeholder="text in the judge's error, e.g. timeout or uncertain",
            help="Keep conversations with an unscored interaction whose judge error contains this text "
            "(uncertain: the judge abstained).",
        )
        disagree = last_cols[1].toggle(
            "Human and judge disagree",
            key="explorer_disagree",
            persist_state="session",
            help="Keep conversations where a person's verdict (human_label, human_score, or yours below) "
            "differs from the judge's score against the answer threshold.",
        )
    return ExplorerFilters(
        statuses=tuple(s for s in STATUSES if s in statuses),
        search=term.strip(),
        tasks=tuple(tasks),
        assistants=tuple(assistants),
        tools=tuple(tools),
        tool_dimension=str(dimension),
        tool_below=None if below > 1.0 else float(below),
        score_min=float(low),
        score_max=float(high),
        unscored_reason=reason.strip(),
        disagreement=bool(disagree),
    )


DATA_KEY = "_explorer_filters_data"  # the data the filters were last used on
FILTER_DEFAULTS: dict[str, Any] = {
    "explorer_status": list(STATUSES),
    "explorer_search": "",
    "explorer_task": [],
    "explorer_assistant": [],
    "explorer_tool": [],
    "explorer_tool_dim": "overall",
    "explorer_tool_below": BELOW_OFF,
    "explorer_score": (0.0, 1.0),
    "explorer_reason": "",
    "explorer_disagree": False,
}
"""Every filter widget at "keep all"."""


def reset_for_other_data(run: ActiveRun) -> bool:
    """Put every filter back to "keep all" when the run shows other data than the filters were set on.

    A task, a search or a status chosen on one dataset hid every row of the next ("Showing 0 of 200").

    Returns:
        Whether a filter in use was reset (the page says so).
    """
    before = st.session_state.get(DATA_KEY)
    st.session_state[DATA_KEY] = run.data_name
    if before is None or before == run.data_name:
        return False
    in_use = any(_differs(st.session_state.get(key, default), default) for key, default in FILTER_DEFAULTS.items())
    for key, default in FILTER_DEFAULTS.items():
        st.session_state[key] = list(default) if isinstance(default, list) else default
    return in_use


def _differs(value: Any, default: Any) -> bool:
    if isinstance(default, list | tuple):
        return list(value or []) != list(default)
    return bool(value != default)


def filters_in_use(filters: ExplorerFilters) -> list[str]:
    """Each filter that hides conversations, in words (for "no conversation matches")."""
    said = []
    if set(filters.statuses) != set(STATUSES):
        said.append(f"status: {', '.join(filters.statuses) or 'none selected'}")
    if filters.search:
        said.append(f"search: “{filters.search}”")
    for name, values in (("task", filters.tasks), ("assistant", filters.assistants), ("tool", filters.tools)):
        if values:
            said.append(f"{name}: {', '.join(values)}")
    if filters.tool_below is not None:
        said.append(f"tool {filters.tool_dimension} below {filters.tool_below:.2f}")
    if (filters.score_min, filters.score_max) != (0.0, 1.0):
        said.append(f"judge score between {filters.score_min:.2f} and {filters.score_max:.2f}")
    if filters.unscored_reason:
        said.append(f"unscored reason: “{filters.unscored_reason}”")
    if filters.disagreement:
        said.append("human and judge disagree")
    return said
