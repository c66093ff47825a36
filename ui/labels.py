"""The dashboard's side of human labels: stored in the run history the moment they are given, read back on each run.

Labels (:class:`agentic_core.data.HumanLabel`) are evidence about the judge, not overrides: they never change a
verdict, they make the corrected headline (``Aggregate.corrected``). The run's result gets the stored labels (a
copy: the first run's result is shared by every session and never changed) and the run's revision goes up, so
the memoised aggregates are made again — re-aggregated, never re-judged. Every page run reads the history again,
so a reload or a second tab loses none. A label the history cannot store is kept in this session (said with
``st.error``), never dropped.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import Aggregate
from agentic_core.data import HumanLabel
from agentic_core.settings import AggregateSettings
from ui.controls import results_page
from ui.runs import run_store, store_error, store_run
from ui.state import ActiveRun, ensure_run

log = logging.getLogger(__name__)
PENDING_KEY = "_labels_not_stored"  # run identity -> labels the history could not store (kept in this session)


def _run_key(run: ActiveRun) -> str:
    return run.stored_id or f"{run.data_name}:{run.judge_label}:{run.created_at}"


def _pending(run: ActiveRun) -> list[HumanLabel]:
    return list(st.session_state.get(PENDING_KEY, {}).get(_run_key(run), []))


def _keep_pending(run: ActiveRun, labels: Sequence[HumanLabel]) -> None:
    pending = dict(st.session_state.get(PENDING_KEY, {}))
    chosen = {lab.key: lab for lab in [*pending.get(_run_key(run), []), *labels]}
    pending[_run_key(run)] = list(chosen.values())
    st.session_state[PENDING_KEY] = pending


def _signature(labels: Sequence[HumanLabel]) -> list[tuple[object, ...]]:
    return sorted((lab.key, lab.label, lab.design, lab.inclusion, lab.source) for lab in labels)


def _set_labels(run: ActiveRun, labels: list[HumanLabel]) -> None:
    if _signature(labels) != _signature(run.result.labels):
        run.result = dataclasses.replace(run.result, labels=labels)
        run.revision += 1


def sync_labels(run: ActiveRun) -> str | None:
    """Give the run the labels stored with it (and those kept in this session); returns an error to show."""
    stored: list[HumanLabel] = []
    problem = None
    if run.stored_id is not None:
        store = run_store()
        if store is None:
            problem = f"The stored labels cannot be read: {store_error()}"
        else:
            try:
                stored = store.labels(run.stored_id)
            except (AgenticError, OSError) as exc:
                log.error("reading labels failed: %s", exc)
                problem = f"The stored labels cannot be read from the run history ({exc})."
        if problem is not None:  # keep what the run already holds rather than lose it
            stored = list(run.result.labels)
    else:
        stored = list(run.result.labels)
    by_key = {lab.key: lab for lab in stored}
    by_key.update({lab.key: lab for lab in _pending(run)})
    _set_labels(run, list(by_key.values()))
    return problem


def give_labels(run: ActiveRun, labels: Sequence[HumanLabel]) -> str | None:
    """Store ``labels`` with the run now (storing the run first if needed) and give them to the run.

    Returns:
        An error to show when the history could not store them: they are then kept in this session.
    """
    if not labels:
        return None
    problem = None
    if run.stored_id is None:
        problem = store_run(run)
    if run.stored_id is not None:
        store = run_store()
        if store is None:
            problem = f"{len(labels)} label(s) kept in this session only: {store_error()}"
        else:
            try:
                store.add_labels(run.stored_id, list(labels))
                problem = None
            except (AgenticError, OSError) as exc:
                log.error("storing labels failed: %s", exc)
                problem = (
                    f"{len(labels)} label(s) could not be stored in the run history ({exc}): they are kept in this "
                    "session only; export the queue to keep them."
                )
    elif problem is not None:
        problem = f"{len(labels)} label(s) kept in this session only: {problem}"
    if problem is not None:
        _keep_pending(run, labels)
    by_key = {lab.key: lab for lab in run.result.labels}
    by_key.update({lab.key: lab for lab in labels})
    _set_labels(run, list(by_key.values()))
    return problem



def labelled_results_page() -> tuple[ActiveRun, AggregateSettings, Aggregate]:
    """:func:`ui.controls.results_page` with the run's stored labels read first (so its aggregate counts them)."""
    problem = sync_labels(ensure_run())
    if problem:
        st.error(problem, icon=":material/label_off:")
    return results_page()
