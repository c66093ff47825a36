"""Compare's "Answers side by side": pick a task, see A's and B's answers, verdicts, the reference and the diffs.

What is listed, which attempts there are and what a link asks for are decided in the core
(:mod:`agentic_core.report.compare_answers`); this module reads the widgets, keeps the view in the URL
(``pair_show``, ``pair_task``, ``attempt_a``, ``attempt_b``) and draws it.
"""

from __future__ import annotations

from collections.abc import Hashable

import streamlit as st

from agentic_core.analysis import RunComparison, Side, aggregate
from agentic_core.report import (
    PAIR_FILTERS,
    PAIR_PARAMS,
    AnswerAttempt,
    PairView,
    TurnPair,
    attempts_caption,
    filter_counts,
    pair_query,
    paired_tasks,
    pick_attempt,
    read_pair_link,
    side_attempts,
    side_by_side_html,
    turn_pairs,
)
from ui.format import md_text
from ui.memo import session_memo

LINK_KEY = "_compare_pair_link"  # the view this session last wrote into the URL
AGG_MEMO_KEY = "_compare_pair_aggs"
SHOW_KEY, TASK_KEY = "compare_pair_show", "compare_pair_task"
ATTEMPT_KEYS = {"A": "compare_attempt_a", "B": "compare_attempt_b"}
_STATUS_COLOUR = {"correct": "green", "incorrect": "red", "unscored": "gray"}


def _apply_link(cmp: RunComparison) -> bool:
    """Put a new link's view into the widgets (with a warning per value it could not use); whether one came."""
    query = {key: st.query_params.get(key, "") for key in PAIR_PARAMS}
    if query == st.session_state.get(LINK_KEY):
        return False
    view, messages = read_pair_link(query, cmp)
    st.session_state[SHOW_KEY] = view.show
    if view.task is not None:
        st.session_state[TASK_KEY] = view.task
    st.session_state[ATTEMPT_KEYS["A"]], st.session_state[ATTEMPT_KEYS["B"]] = view.attempt_a, view.attempt_b
    for message in messages:
        st.warning(message, icon=":material/link:")
    return True


def _attempt(name: str, attempts: list[AnswerAttempt], from_link: bool) -> AnswerAttempt | None:
    """The side's attempt shown: picked in a box when it made several."""
    key = ATTEMPT_KEYS[name]
    chosen, message = pick_attempt(int(st.session_state.get(key, 1)), attempts, name)
    if message and from_link:
        st.warning(message, icon=":material/link:")
    if chosen is not None:
        st.session_state[key] = chosen.number
    if len(attempts) > 1:
        labels = {a.number: a.label for a in attempts}
        number = st.selectbox(f"{name}'s attempt", list(labels), format_func=lambda n: labels[n], key=key)
        chosen = attempts[int(number or 1) - 1]
    return chosen


def _verdict(name: str, label: str, detail: TurnPair, side: str) -> None:
    turn = detail.a if side == "A" else detail.b
    st.markdown(f"**{name}: {md_text(label)}**")
    if turn is None:
        st.caption(f"{name}'s attempt has no turn {detail.position}.")
        return
    st.text(turn.answer if turn.answer else "(empty)")
    colour = _STATUS_COLOUR.get(turn.status, "gray")
    st.markdown(f":{colour}[**{turn.status}**] · {md_text(turn.verdict)}")


def _turn(cmp: RunComparison, pair: TurnPair, several: bool) -> None:
    with st.container(border=True, key=f"compare_pair_turn_{pair.position}"):
        if several:
            st.markdown(f"**Turn {pair.position}**")
        st.markdown("**Query**")
        st.text(pair.query or "(empty)")
        references = pair.references
        st.markdown("**Reference**" if len(references) < 2 else "**References** (A's, then B's: they differ)")
        for reference in references or [""]:
            st.text(reference or "(none)")
        cols = st.columns(2)
        for col, name, label in ((cols[0], "A", cmp.a_label), (cols[1], "B", cmp.b_label)):
            with col:
                _verdict(name, label, pair, name)
        a, b = pair.a, pair.b
        if a is not None and b is not None:
            if a.answer.strip() == b.answer.strip():
                st.caption("A and B gave the same answer.")
            else:
                st.caption("A against B, word by word (case ignored); a number, a name or a date that differs in bold.")
                st.html(side_by_side_html(a.answer, b.answer, "A (green: only in A)", "B (red: only in B)"))
        with st.expander("Each answer against the reference, word by word", key=f"compare_pair_ref_{pair.position}"):
            for name, turn in (("A", a), ("B", b)):
                if turn is not None:
                    st.html(side_by_side_html(turn.answer, turn.ground_truth, f"{name}'s answer (green: only in it)",
                                              "Reference (red: only in the reference)"))


def answers_side_by_side(cmp: RunComparison, a: Side, b: Side, signature: Hashable) -> None:
    """Draw the section: the filter, the task, each side's attempt, and the answers turn by turn.

    Args:
        cmp: The comparison shown.
        a: Side A.
        b: Side B.
        signature: What the comparison depends on (the sides' aggregates are memoised under it).
    """
    st.subheader("Answers side by side")
    st.caption(
        "Pick a task both sides attempted and read A's and B's answers next to each other, with both verdicts and "
        "the reference. A side passes a task when most of its attempts are correct; the link in the address bar "
        "opens this exact view."
    )
    from_link = _apply_link(cmp)
    counts = filter_counts(cmp)
    show = str(st.radio(
        "Show", list(PAIR_FILTERS), format_func=lambda k: f"{PAIR_FILTERS[k]} ({counts[k]})", key=SHOW_KEY,
        horizontal=True,
    ))  # fmt: skip
    tasks = [t.task for t in paired_tasks(cmp, show)]
    view = PairView(show, None, int(st.session_state.get(ATTEMPT_KEYS["A"], 1)),
                    int(st.session_state.get(ATTEMPT_KEYS["B"], 1)))
    if not tasks:
        st.caption(f"No task is {PAIR_FILTERS[show].lower()}.")
        _write_link(view)
        return
    if st.session_state.get(TASK_KEY) not in tasks:
        st.session_state[TASK_KEY] = tasks[0]
    task = str(st.selectbox("Task", tasks, key=TASK_KEY))
    agg_a, agg_b = session_memo(
        AGG_MEMO_KEY, signature, lambda: (aggregate(a.result, a.settings), aggregate(b.result, b.settings))
    )
    cols = st.columns(2)
    chosen = {}
    for col, name, side, agg in ((cols[0], "A", a, agg_a), (cols[1], "B", b, agg_b)):
        with col:
            attempts = side_attempts(side, agg, task)
            chosen[name] = _attempt(name, attempts, from_link)
            st.caption(md_text(attempts_caption(name, attempts, chosen[name])))
    view = PairView(show, task, chosen["A"].number if chosen["A"] else 1, chosen["B"].number if chosen["B"] else 1)
    _write_link(view)
    pairs = turn_pairs(a, agg_a, chosen["A"], b, agg_b, chosen["B"])
    for pair in pairs:
        _turn(cmp, pair, len(pairs) > 1)


def _write_link(view: PairView) -> None:
    """The view into the URL (the other parameters stay), remembered so it is not read back as a new link."""
    params = pair_query(view)
    for key in PAIR_PARAMS:
        if key in params:
            if st.query_params.get(key) != params[key]:
                st.query_params[key] = params[key]
        elif key in st.query_params:
            del st.query_params[key]
    st.session_state[LINK_KEY] = {key: params.get(key, "") for key in PAIR_PARAMS}
