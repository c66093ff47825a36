"""Compare: B against A task by task (two stored runs, or two assistants of the current run), and a leaderboard.

Thin: widgets -> :func:`agentic_core.analysis.compare_sides` -> :mod:`ui.views.compare_view` -> charts and
tables. Both sides are aggregated with the sidebar's settings; the statistics are the same as
``python -m agentic_core compare``.
"""

from __future__ import annotations

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import SAME_VERDICTS_TEXT, RunComparison, Side, compare_sides, leaderboard_of
from agentic_core.glossary import ANCHORS, glossary_link
from agentic_core.report import (
    ASSISTANT_A_PARAM,
    ASSISTANT_B_PARAM,
    RUN_A_PARAM,
    RUN_B_PARAM,
    linked_assistants,
    linked_pair,
    linked_source,
)
from agentic_core.runs import RunMeta
from agentic_core.settings import AggregateSettings
from agentic_core.stats import describe_method
from ui import views
from ui.cards import card, kpi, kpi_row
from ui.charts import delta_figure, pair_scatter_figure
from ui.compare_answers import answers_side_by_side
from ui.compare_groups import grouped_run_ids, picker_label
from ui.controls import results_page
from ui.format import ci_text, md_text, prob_text
from ui.guide import how_to_read
from ui.memo import session_memo
from ui.planner_view import render_planner
from ui.runs import open_stored_run, run_store
from ui.state import ActiveRun
from ui.theme import show_chart

MEMO_KEY = "_compare_memo"
RUNS_MEMO_KEY = "_compare_runs_memo"
BOARD_MEMO_KEY = "_compare_board_memo"
LINK_KEY = "_compare_link"  # the pair this session last wrote into the URL
SOURCE_LINK_KEY = "_compare_source_link"  # the runs or assistants the URL named when last read
ASSISTANTS_LINK_KEY = "_compare_assistants_link"  # the assistants this session last wrote into the URL
SIDE_PARAMS = (RUN_A_PARAM, RUN_B_PARAM, ASSISTANT_A_PARAM, ASSISTANT_B_PARAM)


def _delta_chart(rows: views.DeltaRows, title: str, hover: list[str], key: str) -> None:
    show_chart(delta_figure(rows.labels, rows.deltas, rows.lows, rows.highs, title, hover=hover), key=key)


def _stored_sides(run: ActiveRun, settings: AggregateSettings, stored: list[RunMeta]) -> tuple[Side, Side] | None:
    """The two stored runs the selectboxes name (reopened once per pair), or ``None`` with fewer than two."""
    if len(stored) < 2:
        st.info(
            "Two stored runs are needed. Every run made on the **Run** page is stored (see **History**): judge the "
            "data again after a change to your agent, then compare the two runs here.",
            icon=":material/compare_arrows:",
        )
        return None
    names = {m.id: f"{m.name} ({m.id})" for m in stored}
    shown = {m.id: picker_label(m) for m in stored}
    ids_a, ids_b = grouped_run_ids(stored)  # every run, or each side's group (a tag or a metadata value)
    # The link's pair (a reopened link shows the same comparison), else B the active run and A the one
    # before it of the same data; read when the URL changes to a pair this session did not write.
    query = {key: st.query_params.get(key, "") for key in (RUN_A_PARAM, RUN_B_PARAM)}
    if query != st.session_state.get(LINK_KEY) or "compare_run_a" not in st.session_state:
        link_a, link_b, messages = linked_pair(query, stored, run.stored_id)
        st.session_state["compare_run_a"], st.session_state["compare_run_b"] = link_a, link_b
        for message in messages:
            st.warning(message, icon=":material/link:")
    for key, side in (("compare_run_a", ids_a), ("compare_run_b", ids_b)):
        if st.session_state.get(key) not in side:  # a run deleted since, or not in the side's group
            fallback = linked_pair({}, stored, run.stored_id)[key == "compare_run_b"]
            st.session_state[key] = fallback if fallback in side else side[0]
    cols = st.columns(2)
    id_a = str(cols[0].selectbox("A (baseline)", ids_a, format_func=shown.__getitem__, key="compare_run_a"))
    id_b = str(cols[1].selectbox("B (candidate)", ids_b, format_func=shown.__getitem__, key="compare_run_b"))
    st.query_params[RUN_A_PARAM], st.query_params[RUN_B_PARAM] = id_a, id_b
    st.session_state[LINK_KEY] = {RUN_A_PARAM: id_a, RUN_B_PARAM: id_b}
    for key in (ASSISTANT_A_PARAM, ASSISTANT_B_PARAM):  # the link names what is compared: two runs
        if key in st.query_params:
            del st.query_params[key]
    store = run_store()
    assert store is not None
    a, b = session_memo(RUNS_MEMO_KEY, (id_a, id_b), lambda: (store.open(id_a), store.open(id_b)))
    label_a, label_b = views.side_labels(names[id_a], names[id_b])
    return Side(a, settings, label_a, run_id=id_a), Side(b, settings, label_b, run_id=id_b)


def _assistant_sides(run: ActiveRun, settings: AggregateSettings, assistants: list[str]) -> tuple[Side, Side] | None:
    """The two assistants of the current run the selectboxes name, or ``None`` when it has only one."""
    if len(assistants) < 2:
        st.info(
            f"The current run has one assistant ({assistants[0] if assistants else 'none'}). Load data with several "
            "`assistant_id` values, or compare two stored runs.",
            icon=":material/compare_arrows:",
        )
        return None
    query = {key: st.query_params.get(key, "") for key in (ASSISTANT_A_PARAM, ASSISTANT_B_PARAM)}
    if query != st.session_state.get(ASSISTANTS_LINK_KEY) or "compare_assistant_a" not in st.session_state:
        link_a, link_b, messages = linked_assistants(query, assistants)  # a shared link opens its two assistants
        st.session_state["compare_assistant_a"], st.session_state["compare_assistant_b"] = link_a, link_b
        for message in messages:
            st.warning(message, icon=":material/link:")
    for key, fallback in (("compare_assistant_a", assistants[0]), ("compare_assistant_b", assistants[1])):
        if st.session_state.get(key) not in assistants:  # other data since
            st.session_state[key] = fallback
    cols = st.columns(2)
    x = str(cols[0].selectbox("A (baseline)", assistants, key="compare_assistant_a"))
    y = str(cols[1].selectbox("B (candidate)", assistants, key="compare_assistant_b"))
    for key in (RUN_A_PARAM, RUN_B_PARAM):  # the link names what is compared: two assistants, not runs
        if key in st.query_params:
            del st.query_params[key]
    st.query_params[ASSISTANT_A_PARAM], st.query_params[ASSISTANT_B_PARAM] = x, y
    st.session_state[ASSISTANTS_LINK_KEY] = {ASSISTANT_A_PARAM: x, ASSISTANT_B_PARAM: y}
    label_x, label_y = views.side_labels(x, y)
    return (
        Side(run.result, settings, label_x, assistant=x, run_id=run.stored_id),
        Side(run.result, settings, label_y, assistant=y, run_id=run.stored_id),
    )


def _open_in_explorer(side: Side, session: str, run: ActiveRun) -> None:
    """Make the side's run active (when it is another stored run) and show the conversation in the Explorer."""
    if side.run_id is not None and side.run_id != run.stored_id:
        open_stored_run(side.run_id)
    st.session_state["explorer_search"] = session
    st.switch_page("pages/explorer.py")


def _render(cmp: RunComparison, a: Side, b: Side, run: ActiveRun) -> None:
    p = cmp.paired
    success = p.metrics[0]
    row = kpi_row()
    card(row, "Paired tasks", f"{p.n_tasks:,}", help="Tasks both sides attempted (task_id, else the questions).")
    kpi(row, f"A: {cmp.a_label}", success.a, success.a_ci, help="Success rate of A on the paired tasks.")
    kpi(row, f"B: {cmp.b_label}", success.b, success.b_ci, help="Success rate of B on the paired tasks.")
    if cmp.same_verdicts:
        # No difference to test: an interval around 0 and P(B > A) = 50% would only suggest one.
        card(row, "Delta (B - A)", "the same verdicts", help="Every task has the same correct attempts in A and B.")
        head, _, rest = SAME_VERDICTS_TEXT.partition(": ")
        st.info(
            f"**{head}**: {rest}. Pick two runs that differ (for example before and after a change to your agent).",
            icon=":material/drag_handle:",
        )
        return
    delta = ci_text(success.delta_ci) or None
    card(row, "Delta (B - A)", views.delta_words(success.delta), help="Success rate of B minus A.", delta=delta)
    better = "n/a" if success.p_b_better is None else prob_text(success.p_b_better)
    meaning = ANCHORS["p-b-greater-a"].plain  # the glossary's words, the one explanation of P(B > A)
    card(row, "P(B > A)", better, help=f"{meaning} {glossary_link('p-b-greater-a')}")
    corrected = cmp.corrected
    if corrected is not None:  # human labels in a run: the same difference corrected for the judge's errors
        value = "n/a" if corrected.estimate is None else views.delta_words(corrected.estimate)
        card(
            row, "Corrected delta (B - A)", value, delta=ci_text(corrected.ci) or None,
            help="Success rate of B minus A, corrected for the judge's errors with human labels on the tasks "
            "labelled in both runs (PPI++ on the paired task differences; frequentist).",
        )  # fmt: skip
        st.caption(md_text(corrected.summary()))

    shown = views.delta_rows(p.metrics)
    if shown:
        _delta_chart(shown, f"B - A with {p.level:.0%} intervals", views.pass_hover(shown.rows), "compare_deltas")
    st.caption(f"Intervals: {describe_method(success.interval_method)}. P(B > A): {describe_method(success.p_method)}.")
    for note in cmp.notes:
        st.caption(f"Note: {md_text(note)}")

    paired = [t for t in cmp.tasks if t.a_rate is not None and t.b_rate is not None]
    if paired:
        st.subheader("Task by task")
        show_chart(
            pair_scatter_figure(
                [t.a_rate or 0.0 for t in paired],
                [t.b_rate or 0.0 for t in paired],
                [t.task for t in paired],
                cmp.a_label,
                cmp.b_label,
            ),
            key="compare_scatter",
        )
    flipped = cmp.flipped()
    st.subheader(f"Flipped tasks ({len(flipped)})")
    if flipped:
        st.dataframe(views.flipped_table(cmp), hide_index=True, key="compare_flipped_table")
        cols = st.columns([3, 1, 2])
        task = cols[0].selectbox("Task", [t.task for t in flipped], key="compare_flipped_task")
        side_name = cols[1].radio("Side", ["B", "A"], key="compare_flipped_side", horizontal=True)
        chosen = next(t for t in flipped if t.task == task)
        side, sessions = (b, chosen.b_sessions) if side_name == "B" else (a, chosen.a_sessions)
        if cols[2].button(
            "Open in the Explorer",
            key="compare_open_explorer",
            icon=":material/search:",
            help="Shows this task's conversation on the chosen side; a stored run becomes the active run.",
        ):
            try:
                _open_in_explorer(side, sessions[0], run)
            except AgenticError as exc:
                st.error(md_text(exc))
    else:
        st.caption("No task changed from mostly wrong to mostly right, or back.")

    st.subheader("Tool use")
    tools = views.delta_rows(cmp.tools)
    if tools:
        title = "Tool dimensions: B - A (per-task means)"
        _delta_chart(tools, title, views.tool_hover(tools.rows), "compare_tool_deltas")
    else:
        st.caption("No paired task has tool expectations on both sides.")
    unpaired = cmp.unpaired()
    if unpaired:
        with st.expander(f"Tasks only one side attempted ({len(unpaired)}): not compared"):
            st.dataframe(views.unpaired_table(cmp), hide_index=True, key="compare_unpaired")


def _leaderboard(run: ActiveRun, settings: AggregateSettings, assistants: list[str]) -> None:
    st.subheader("Leaderboard")
    if len(assistants) < 3:
        st.caption("With three or more assistants in the current run, they are ranked here.")
        return
    metric = st.radio(
        "Rank by",
        list(views.COMPARED_METRICS),
        format_func=views.COMPARED_METRICS.get,
        key="compare_leaderboard_metric",
        horizontal=True,
    )
    try:
        board = session_memo(
            BOARD_MEMO_KEY,
            (run.run_id, settings.model_dump_json(), metric),
            lambda: leaderboard_of(run.result, settings, metric=metric),
        )
    except AgenticError as exc:
        st.info(f"No leaderboard: {md_text(exc)}", icon=":material/leaderboard:")
        return
    table, probs = views.leaderboard_table(board)
    progress = {name: st.column_config.ProgressColumn(name, min_value=0.0, max_value=1.0, format="percent")
                for name in probs}
    st.dataframe(table, hide_index=True, key="compare_leaderboard", column_config=progress)
    st.caption(views.leaderboard_caption(board, metric))


run, settings, run_agg = results_page()
st.title("Compare")
how_to_read("compare")
st.caption(
    "Did the change help? B against A on the tasks both attempted, with an interval for each difference and the "
    "probability that B is better. Both sides use the sidebar's settings. The same numbers on the command line: "
    "`python -m agentic_core compare A B --json`."
)
assistants = list(dict.fromkeys(run.result.assistant_ids()))  # in the order of the data
store = run_store()
stored = store.runs() if store is not None else []
side_query = {key: st.query_params.get(key, "") for key in SIDE_PARAMS}
if side_query != st.session_state.get(SOURCE_LINK_KEY) or "compare_source" not in st.session_state:
    # A link names two runs or two assistants (and so does the URL when the page is opened again).
    st.session_state["compare_source"] = linked_source(side_query, "assistants" if len(assistants) >= 2 else "runs")
source = st.radio(
    "What to compare",
    list(views.COMPARE_SOURCES),
    format_func=views.COMPARE_SOURCES.get,
    key="compare_source",
    horizontal=True,
)
sides = _stored_sides(run, settings, stored) if source == "runs" else _assistant_sides(run, settings, assistants)
if sides is not None:
    side_a, side_b = sides
    signature = (
        source,
        side_a.label,
        side_b.label,
        side_a.assistant,
        side_b.assistant,
        run.run_id,
        settings.model_dump_json(),
    )
    try:
        comparison = session_memo(MEMO_KEY, signature, lambda: compare_sides(side_a, side_b))
    except AgenticError as exc:  # e.g. no task in common: a fact about the data, not a failure
        st.warning(md_text(exc), icon=":material/compare_arrows:")
    else:
        _render(comparison, side_a, side_b, run)
        answers_side_by_side(comparison, side_a, side_b, signature)  # two runs, one task: the answers
st.session_state[SOURCE_LINK_KEY] = {key: st.query_params.get(key, "") for key in SIDE_PARAMS}
_leaderboard(run, settings, assistants)
render_planner(run_agg, settings, key="compare_planner", compare=True)
