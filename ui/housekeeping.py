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

The sessions are reached through Streamlit's runtime objects, which are not a public API: every
such access is in :mod:`ui.streamlit_internals`, which switches the sweep off (one logged warning)
with a Streamlit release it was not written for or when they change shape; then the thread only
releases memory on its schedule.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import types
import weakref
from typing import Any

from agentic_core import EvaluationJob
from agentic_core.common import release_memory
from ui import streamlit_internals as internals
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
        failures: Sweeps in a row that failed for a passing cause (reset by one that works).
    """

    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}
        self.failures = 0  # passing failures in a row (see tick)

    def sweep(self, manager: Any) -> int:
        """One look at a session manager (on its event loop); returns how many sessions were shut down."""
        cache = internals.closed_session_cache(manager)
        gone = dict(cache.expire())  # expired now: Streamlit would drop them unseen, never shut down
        stored = dict(cache.items())
        active = internals.active_session_ids(manager)
        for session_id, session in self.kept.items():
            if session_id not in stored and session_id not in active:
                gone.setdefault(session_id, session)  # left the cache some other way
        closed = 0
        for session_id, entry in gone.items():
            session = getattr(entry, "session", entry)
            if session_id not in active:
                internals.shut_down(session)  # frees its uploaded files and the tables it showed
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
    state = internals.session_state(session)
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
    internals.empty_session(session)  # its state, fragments, unsent messages, widgets' metadata


# Sweeps that also release memory after a session was shut down: a session's objects finish
# becoming garbage over the next moments (its script thread ends), and an idle server allocates
# too little for Python's collector to run on its own.
RELEASES_AFTER_CLOSE = 3


MOVED = (internals.InternalsUnavailable, AttributeError, ImportError, TypeError)
"""What a sweep raises when Streamlit's internals moved (off for good), as against a passing failure."""
FAILURES_BEFORE_OFF = 5
"""Passing failures in a row (a busy event loop timing out, a session whose shutdown raised) before the sweep stops."""


def tick(sweeper: SessionSweeper, releases: int) -> int:
    """One round of the thread: sweep (when Streamlit allows it) and release memory; returns the releases left.

    Never raises for Streamlit's sake: with a release the sweep was not written for, or when its
    internals moved (:data:`MOVED`), the sweep switches off (one warning) and memory is released every
    round instead. A passing failure is tried again next round; only :data:`FAILURES_BEFORE_OFF` in a
    row switch the sweep off.
    """
    if not internals.feature_enabled(internals.SESSION_SWEEP):
        release_memory()  # no sweep with this Streamlit: memory is still given back on schedule
        return releases
    try:
        closed = internals.on_event_loop(sweeper.sweep)
    except Exception as exc:
        log.debug("session sweep failed", exc_info=True)
        sweeper.failures += 1
        why = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, MOVED) or sweeper.failures >= FAILURES_BEFORE_OFF:
            internals.switch_off(internals.SESSION_SWEEP, why)  # one warning, off for this process
        else:
            log.warning("session sweep failed (%d in a row; tried again next round): %s", sweeper.failures, why)
        release_memory()
        return releases
    sweeper.failures = 0
    releases = RELEASES_AFTER_CLOSE if closed else releases
    if releases:
        release_memory()
        releases -= 1
    return releases


def _loop(interval: float) -> None:
    sweeper = SessionSweeper()
    releases = 0
    while True:
        threading.Event().wait(interval)
        releases = tick(sweeper, releases)


def start_housekeeping() -> None:
    """Start the sweeping thread once per process (later calls do nothing; none when switched off)."""
    interval = _interval()
    with _LOCK:
        if _STARTED.is_set() or interval == 0:
            return
        _STARTED.set()
    threading.Thread(target=_loop, args=(interval,), name="agentic-housekeeping", daemon=True).start()
