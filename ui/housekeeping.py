"""Giving memory back when browser sessions end (a server is shared by every session).

What kept a closed session's data (measured with a 100k-interaction upload per session: the
server stayed at its peak, 2.15 GB, long after both sessions had closed):

* Streamlit keeps a closed tab's session for ``server.disconnectedSessionTTL`` seconds in case the
  browser reconnects, in a TTL cache that drops expired entries only when touched, and then
  without shutting the session down (its uploaded files and shown tables stay registered).
* Its message loop keeps the last session it served in a local variable until its next round,
  which an idle server never starts.
* ``SessionState.clear()`` keeps the widgets' metadata, whose callbacks and format functions are
  the pages' functions, whose globals hold the pages' variables (the run, the aggregate); the
  last script run's module stays in ``sys.modules``.

One daemon thread per process looks every :data:`SWEEP_SECONDS`. On Streamlit's event loop (its
session objects are not thread-safe) it expires the cache, shuts down every session that has left
it (expired or dropped) unless it reconnected, and empties what such a session still holds (see
:func:`_drop_state`); for a few sweeps after, it collects the garbage and returns freed memory to
the system (:func:`agentic_core.common.gc_control.release_memory`). Measured by
``benchmarks/bench_memory.py`` (numbers in the README).

The sessions are reached through Streamlit's runtime objects, which are not a public API; when
they change shape the sweep logs once and falls back to releasing memory on its schedule.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import sys
import threading
import types
import weakref
from typing import Any

from agentic_core.common.gc_control import release_memory
from agentic_core.evaluation_job import EvaluationJob
from ui.run_job import JOB_KEY

log = logging.getLogger(__name__)

ENV_SWEEP = "AGENTIC_SWEEP_SECONDS"
MODULES_KEY = "_script_modules"
SWEEP_SECONDS = 30.0
_STARTED = threading.Event()
_LOCK = threading.Lock()


def _interval() -> float:
    """Seconds between sweeps: ``$AGENTIC_SWEEP_SECONDS`` (0 switches sweeping off), else 30."""
    try:
        value = float(os.environ.get(ENV_SWEEP, SWEEP_SECONDS))
    except ValueError:
        return SWEEP_SECONDS
    return 0.0 if value <= 0 else max(1.0, value)


class SessionSweeper:
    """Shuts down the sessions Streamlit has let go of, and remembers those it keeps.

    Attributes:
        kept: Closed sessions Streamlit keeps for a reconnect, by id (as of the last sweep).
    """

    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}

    def sweep(self, manager: Any) -> int:
        """One look at a session manager (on its event loop); returns how many sessions were shut down."""
        cache: Any = manager._session_storage._cache
        gone = dict(cache.expire())  # expired now: Streamlit would drop them unseen, never shut down
        stored = dict(cache.items())
        active = {info.session.id for info in manager.list_active_sessions()}
        for session_id, session in self.kept.items():
            if session_id not in stored and session_id not in active:
                gone.setdefault(session_id, session)  # left the cache some other way
        closed = 0
        for session_id, entry in gone.items():
            session = getattr(entry, "session", entry)
            if session_id not in active:
                session.shutdown()  # frees its uploaded files and the tables it showed
                _drop_state(session)
                closed += 1
        self.kept = {session_id: info.session for session_id, info in stored.items()}
        return closed


def remember_script_module() -> None:
    """Note this script run's module in the session (call from dashboard.py on every run).

    Streamlit runs each script in a fresh ``__main__`` module; the app's and the pages' variables
    (the run, the aggregate) live in its globals, which the functions a page defines (fragments,
    format functions of widgets) keep alive, and the last run's module stays in ``sys.modules``.
    A closed session's modules are emptied by :func:`_drop_state`.
    """
    import streamlit as st

    module = sys.modules.get("__main__")
    if module is None:
        return
    modules: list[weakref.ref[types.ModuleType]] = st.session_state.setdefault(MODULES_KEY, [])
    modules[:] = [ref for ref in modules if ref() is not None and ref() is not module]
    modules.append(weakref.ref(module))


def _drop_state(session: Any) -> None:
    """Empty what a shut-down session holds: its script modules' globals, its state (dataset,
    runs, memos), its fragments and its unsent messages.

    Streamlit keeps parts of a closed session reachable (the last session its message loop served
    sits in a local variable until the next round, which an idle server never starts; the last
    script module stays in ``sys.modules``): without this, that session's data outlived it.
    """
    state = getattr(session, "_session_state", None)
    try:
        modules = state[MODULES_KEY] if state is not None else []
    except KeyError:
        modules = []
    try:
        job = state[JOB_KEY] if state is not None else None
    except KeyError:
        job = None
    if isinstance(job, EvaluationJob):
        # Nobody can see or keep that run any more: stop spending judge calls on it (what it
        # judged stays in the cache, so running the data again continues from there).
        job.cancel()
    for ref in modules:
        module = ref()
        if module is not None:  # no fragment of a closed session reruns: its globals can go
            for name in [n for n in vars(module) if not n.startswith("__")]:
                delattr(module, name)
    for name in ("_session_state", "_fragment_storage", "_browser_queue"):
        part = getattr(session, name, None)
        try:
            part.clear()
        except Exception:  # best effort on Streamlit internals
            log.debug("could not clear %s of a closed session", name, exc_info=True)
    # SessionState.clear() keeps the widgets' metadata, whose callbacks and format functions are
    # the pages' functions, whose globals hold the pages' variables: the run, the aggregate.
    widgets = getattr(state, "_new_widget_state", None)
    metadata = getattr(widgets, "widget_metadata", None)
    if isinstance(metadata, dict):
        metadata.clear()


def _on_event_loop(fn: Any) -> Any:
    """Run ``fn(manager)`` on Streamlit's event loop and wait for its result (``None`` without a runtime)."""
    from streamlit import runtime

    if not runtime.exists():
        return None
    rt: Any = runtime.get_instance()
    loop = rt._get_async_objs().eventloop
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()

    def call() -> None:
        try:
            future.set_result(fn(rt._session_mgr))
        except BaseException as exc:  # handed to the waiting thread
            future.set_exception(exc)

    loop.call_soon_threadsafe(call)
    return future.result(timeout=60)


# Sweeps that also release memory after a session was shut down: a session's objects finish
# becoming garbage over the next moments (its script thread ends), and an idle server allocates
# too little for Python's collector to run on its own.
RELEASES_AFTER_CLOSE = 3


def _loop(interval: float) -> None:
    sweeper = SessionSweeper()
    warned = False
    releases = 0
    while True:
        threading.Event().wait(interval)
        try:
            closed = _on_event_loop(sweeper.sweep)
        except Exception:  # Streamlit internals moved: keep releasing on schedule
            if not warned:
                log.warning("session sweep unavailable; releasing memory on schedule only", exc_info=True)
                warned = True
            release_memory()
            continue
        releases = RELEASES_AFTER_CLOSE if closed else releases
        if releases:
            release_memory()
            releases -= 1


def start_housekeeping() -> None:
    """Start the sweeping thread once per process (later calls do nothing; none when switched off)."""
    interval = _interval()
    with _LOCK:
        if _STARTED.is_set() or interval == 0:
            return
        _STARTED.set()
    threading.Thread(target=_loop, args=(interval,), name="agentic-housekeeping", daemon=True).start()
