"""The dashboard's side of the run history: storing runs as they are made, reopening them.

Every run made on the Run page is stored (:class:`agentic_core.runs.RunStore`); its id goes into the
page's URL (``run=...``, see :mod:`ui.url_state`), so a reload, or the link opened later, reopens it
without judging again.
"""

from __future__ import annotations

import logging

import streamlit as st

from agentic_core import AgenticError, EvaluationResult
from agentic_core.runs import RunStore, known_tags
from ui.state import ActiveData, ActiveRun, set_data, set_run

log = logging.getLogger(__name__)
STORE_ERROR_KEY = "_run_store_error"


@st.cache_resource(show_spinner=False)
def _open_store() -> RunStore:
    # One per process: the store opens a connection per operation, so sessions can share it.
    return RunStore()


def run_store() -> RunStore | None:
    """The run history, or ``None`` when it cannot be used (the reason is kept for the History page)."""
    try:
        return _open_store()
    except AgenticError as exc:
        st.session_state[STORE_ERROR_KEY] = str(exc)
        return None


def store_error() -> str | None:
    """Why the run history cannot be used, if it cannot."""
    return st.session_state.get(STORE_ERROR_KEY)


PARTIAL = " (partial)"
"""What a cancelled run's judge label and stored name end with, wherever it is shown."""


def is_partial(result: EvaluationResult) -> bool:
    """Whether the run was cancelled and kept (its judge run says so; stored with it, so a reopened run knows)."""
    return any(w.startswith("Partial run:") for w in result.judge_run.warnings)


def known_run_tags() -> list[str]:
    """The tags the stored runs carry (what the tag fields offer); none when the history cannot be read."""
    store = run_store()
    try:
        return known_tags(store.runs()) if store is not None else []
    except AgenticError:  # a damaged history is said on the History page; the fields still take new tags
        return []


def store_run(run: ActiveRun) -> str | None:
    """Store a new run; sets its ``stored_id``. Returns a warning to show when it could not be stored."""
    store = run_store()
    if store is None:
        return f"This run is not kept in the history: {store_error()}"
    try:
        # A cancelled run's name says so: History, Compare's picker and `runs list` show the name.
        name = f"{run.data_name} · {run.judge_label}" if is_partial(run.result) else None
        run.stored_id = store.save(run.result, run.data_name, name=name, tags=run.tags).id
    except (AgenticError, OSError) as exc:
        log.error("storing a run failed: %s", exc)
        return f"This run could not be stored in the history ({exc}); it stays open in this session."
    return None


def keep_agentic(run: ActiveRun) -> str | None:
    """Record the run's agentic metrics (computed after the run) in the history.

    A run not stored yet (the sample shown at first) is stored then, with them, as overrides do.
    Returns a warning to show when they could not be recorded (they stay in this session).
    """
    if run.stored_id is None:
        return store_run(run)
    store = run_store()
    if store is None:
        return f"The agentic metrics are kept in this session only: {store_error()}"
    try:
        store.set_agentic(run.stored_id, run.result.agentic)
    except (AgenticError, OSError) as exc:
        log.error("recording agentic metrics failed: %s", exc)
        return f"The agentic metrics are kept in this session only: the run history could not record them ({exc})."
    return None


def open_stored_run(run_id: str) -> ActiveRun:
    """Reopen a stored run and make it (and its data) active; no judge is called.

    Raises:
        AgenticError: unknown, damaged or unreadable run, or no history.
    """
    store = run_store()
    if store is None:
        raise AgenticError("run history", "cannot be used", store_error(), "see the History page")
    meta = store.meta(run_id)
    result = store.open(run_id)
    run = ActiveRun(
        data_name=meta.data_name,
        result=result,
        judge_label=meta.judge.label() + (PARTIAL if is_partial(result) else ""),
        created_at=meta.created_at,
        stored_id=meta.id,
    )
    set_run(run)
    if result.load_report is not None:
        set_data(ActiveData(name=meta.data_name, report=result.load_report, source="history"))
    return run
