"""Live runs on screen: History and Overview follow a run that OTLP traces are still growing, without a reload.

Only while such a run is shown (a live run of today, :func:`agentic_core.runs.receiving`) a fragment looks at the
history every :data:`LIVE_REFRESH_S` seconds. The look reads run descriptions only (one small query, never a
run's conversations); when the shown run has grown, the page is drawn again (History) or the run reopened first
(Overview: no judge is called, its new conversations are simply there).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import streamlit as st

from agentic_core import AgenticError
from agentic_core.runs import RunMeta, RunStore, receiving
from ui.format import md_text
from ui.runs import open_stored_run, run_store
from ui.state import ActiveRun

log = logging.getLogger(__name__)

LIVE_REFRESH_S = 5.0
"""Seconds between two looks at a live run (a description read: cheap, so a few seconds is fine)."""


def _sizes(metas: Sequence[RunMeta]) -> dict[str, int]:
    return {m.id: m.n_conversations for m in metas if receiving(m)}


def follow_history(store: RunStore, shown: Sequence[RunMeta]) -> None:
    """On History: redraw the list when a live run of today in it grows (nothing when none is shown)."""
    sizes = _sizes(shown)
    if not sizes:
        return
    names = ", ".join(f"**{md_text(m.name)}**" for m in shown if m.id in sizes)
    st.caption(f":material/sensors: Live: {names} grow as traces arrive; this list follows them "
               f"(checked every {LIVE_REFRESH_S:g} s).")

    @st.fragment(run_every=LIVE_REFRESH_S)
    def look() -> None:
        try:
            latest = _sizes(store.runs())
        except AgenticError as exc:  # the page itself says what is wrong with the history on its next draw
            log.warning("looking at the live runs failed: %s", exc)
            return
        if any(latest.get(run_id, count) != count for run_id, count in sizes.items()):
            st.rerun()

    look()


def follow_active(run: ActiveRun) -> None:
    """On Overview: when the run shown is a live run of today, reopen it as it grows (nothing otherwise)."""
    store = run_store() if run.stored_id is not None else None
    if store is None or run.stored_id is None:
        return
    stored_id = run.stored_id
    try:
        meta = store.meta(stored_id)
    except AgenticError:  # deleted meanwhile: the run stays open in this session, no longer live
        return
    if not receiving(meta):
        return
    assert meta.live is not None  # receiving() says so
    st.caption(f":material/sensors: Live run of **{md_text(meta.live.service)}**: conversations are added as their "
               f"traces arrive and are judged; this page follows (checked every {LIVE_REFRESH_S:g} s).")

    @st.fragment(run_every=LIVE_REFRESH_S)
    def look() -> None:
        try:
            latest = store.meta(stored_id)
            if latest.n_conversations != run.result.n_conversations:
                open_stored_run(stored_id)  # the grown run becomes the active one (no judge is called)
            else:
                return
        except AgenticError as exc:
            log.warning("reopening the live run %s failed: %s", stored_id, exc)
            return
        st.rerun()

    look()
