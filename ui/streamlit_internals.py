"""Every use of Streamlit's non-public API in the dashboard, in one place, checked against its version.

The dashboard needs a few things Streamlit offers no public API for: shutting down the sessions it
keeps after their tab closed (:mod:`ui.housekeeping`), leaving its legacy ``pages/`` mode when a
page file runs on its own (:mod:`ui.state`), the type of an uploaded file (the Data page) and the
name of the logger that warns about a missing script-run context (:mod:`ui.launch`). Those
internals change between Streamlit releases without notice, so the features that need them
(:data:`FEATURES`) are switched on only for the Streamlit minor release this module was written
and tested against (:data:`WRITTEN_FOR`, the release ``requirements.txt`` pins; a test keeps the
two equal). With another release, or when an attribute they use is missing, such a feature
switches off with one logged warning that names the feature, the versions and the fix, and the
dashboard goes on without it: never a crash.

When you upgrade Streamlit: read each function below against the new release, run
``tests/ui/test_streamlit_internals.py`` and ``tests/ui/test_housekeeping.py``, then move
:data:`WRITTEN_FOR` with the pin in ``requirements.txt``.
"""

from __future__ import annotations

import concurrent.futures
import io
import logging
import re
import runpy
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from importlib import metadata
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from streamlit.runtime.uploaded_file_manager import UploadedFile
else:
    try:
        from streamlit.runtime.uploaded_file_manager import UploadedFile
    except ImportError:  # only a type for annotations: a file upload is a BytesIO with a name
        UploadedFile = io.BytesIO

log = logging.getLogger(__name__)

__all__ = [
    "FEATURES",
    "LEGACY_PAGES",
    "SESSION_SWEEP",
    "WRITTEN_FOR",
    "InternalsUnavailable",
    "UploadedFile",
    "active_session_ids",
    "closed_session_cache",
    "empty_session",
    "feature_enabled",
    "installed_version",
    "leave_legacy_pages_mode",
    "on_event_loop",
    "quiet_missing_run_context",
    "run_streamlit",
    "session_state",
    "shut_down",
    "switch_off",
    "version_supported",
]

T = TypeVar("T")

WRITTEN_FOR: tuple[int, int] = (1, 67)
"""The Streamlit release (major, minor) whose internals this module reads: any 1.67.x."""
SESSION_SWEEP = "session sweep"
LEGACY_PAGES = "legacy pages redirect"
FEATURES: dict[str, str] = {
    SESSION_SWEEP: "closed browser sessions are not shut down early; memory is released on schedule only",
    LEGACY_PAGES: "a shared link to a sub-page opened first on a fresh server shows that page without the sidebar",
}
"""The features that need internals, each with what the dashboard does without it."""
# The logger Streamlit warns through when its cache is used outside a script run (as at preload).
RUN_CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"

_OFF: dict[str, str] = {}  # feature -> why it is off (each logged once)
_ON: set[str] = set()  # features whose version check passed (checked once: pages ask on every rerun)
_LOCK = threading.Lock()


class InternalsUnavailable(RuntimeError):
    """An internal Streamlit object this module reads is missing or has another shape."""


def installed_version() -> str | None:
    """The installed Streamlit's version (``None`` when its package metadata cannot be read)."""
    try:
        return metadata.version("streamlit")
    except metadata.PackageNotFoundError:
        return None


def version_supported(version: str | None) -> bool:
    """Whether ``version`` is a release of :data:`WRITTEN_FOR` (``1.67.0``, ``1.67.2``; not ``1.68.0``)."""
    match = re.match(r"(\d+)\.(\d+)", version or "")
    return match is not None and (int(match[1]), int(match[2])) == WRITTEN_FOR


def switch_off(feature: str, reason: str) -> None:
    """Turn ``feature`` off for this process, logging one warning (later calls for it log nothing)."""
    with _LOCK:
        if feature in _OFF:
            return
        _OFF[feature] = reason
        _ON.discard(feature)
    log.warning(
        "Streamlit internals: %s switched off (%s); %s. Fix: install the pinned Streamlit "
        "(pip install -r requirements.txt), or check ui/streamlit_internals.py against this release "
        "and move WRITTEN_FOR with the pin.",
        feature,
        reason,
        FEATURES.get(feature, "the dashboard goes on without it"),
    )


def feature_enabled(feature: str) -> bool:
    """Whether ``feature`` may use Streamlit's internals (the version is in range and it was not switched off)."""
    if feature in _OFF:
        return False
    if feature in _ON:
        return True
    version = installed_version()
    if not version_supported(version):
        written = ".".join(map(str, WRITTEN_FOR))
        switch_off(feature, f"written for Streamlit {written}.x, found {version or 'no version metadata'}")
        return False
    _ON.add(feature)
    return True


def _part(owner: Any, name: str) -> Any:
    # Every private attribute is read here, so a renamed one is one clear error, not an AttributeError deep down.
    try:
        return getattr(owner, name)
    except AttributeError:
        raise InternalsUnavailable(f"{type(owner).__name__} has no attribute {name!r}") from None


# --- Sessions (ui.housekeeping) ---------------------------------------------------------------


def on_event_loop(fn: Callable[[Any], T], timeout: float = 60.0) -> T | None:
    """Run ``fn(session_manager)`` on Streamlit's event loop and wait for its result.

    Streamlit's session objects are not thread-safe: they are touched on its loop only.

    Returns:
        ``fn``'s result, or ``None`` when no Streamlit server runs in this process.

    Raises:
        InternalsUnavailable: the runtime has another shape than :data:`WRITTEN_FOR`'s.
    """
    from streamlit import runtime

    if not runtime.exists():
        return None
    rt = runtime.get_instance()
    loop = _part(_part(rt, "_get_async_objs")(), "eventloop")
    manager = _part(rt, "_session_mgr")
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def call() -> None:
        try:
            future.set_result(fn(manager))
        except BaseException as exc:  # handed to the waiting thread
            future.set_exception(exc)

    loop.call_soon_threadsafe(call)
    return future.result(timeout=timeout)


def closed_session_cache(manager: Any) -> Any:
    """The TTL cache holding closed sessions kept for a reconnect (``expire()``, ``items()``: id -> info).

    Raises:
        InternalsUnavailable: the session manager keeps them elsewhere.
    """
    cache = _part(_part(manager, "_session_storage"), "_cache")
    if not (callable(getattr(cache, "expire", None)) and callable(getattr(cache, "items", None))):
        raise InternalsUnavailable(f"the closed-session cache ({type(cache).__name__}) has no expire() and items()")
    return cache


def active_session_ids(manager: Any) -> set[str]:
    """The ids of the sessions with a connected browser."""
    return {info.session.id for info in manager.list_active_sessions()}


def shut_down(session: Any) -> None:
    """Shut a session down as Streamlit does when it drops one: frees its uploaded files and shown tables."""
    _part(session, "shutdown")()


def session_state(session: Any) -> Mapping[str, Any] | None:
    """A session's state (``st.session_state`` of that session), or ``None`` if it has none."""
    return getattr(session, "_session_state", None)


def empty_session(session: Any) -> None:
    """Clear what a shut-down session still holds: its state, fragments, unsent messages and widgets' metadata.

    Best effort: a part that is missing or cannot be cleared is skipped (logged at debug level).
    ``SessionState.clear()`` keeps the widgets' metadata, whose callbacks and format functions are
    the pages' functions, whose globals hold the pages' variables (the run, the aggregate): cleared too.
    """
    state = session_state(session)
    for name in ("_session_state", "_fragment_storage", "_browser_queue"):
        part: Any = getattr(session, name, None)
        try:
            part.clear()
        except Exception:  # best effort on Streamlit internals
            log.debug("could not clear %s of a closed session", name, exc_info=True)
    widgets = getattr(state, "_new_widget_state", None)
    metadata_ = getattr(widgets, "widget_metadata", None)
    if isinstance(metadata_, dict):
        metadata_.clear()


# --- Pages (ui.state) -------------------------------------------------------------------------


def leave_legacy_pages_mode() -> bool:
    """Take Streamlit out of its legacy ``pages/`` mode; ``True`` if it was in it (then rerun the script).

    Streamlit keeps a process in that mode until the first ``st.navigation`` call (a class-level flag).
    Off (never in the mode) when :data:`LEGACY_PAGES` is switched off.
    """
    if not feature_enabled(LEGACY_PAGES):
        return False
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError as exc:
        switch_off(LEGACY_PAGES, f"streamlit.runtime.pages_manager cannot be imported ({exc})")
        return False
    if not hasattr(PagesManager, "uses_pages_directory"):
        switch_off(LEGACY_PAGES, "PagesManager has no attribute 'uses_pages_directory'")
        return False
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        return True
    return False


# --- The server (ui.launch) -------------------------------------------------------------------


@contextmanager
def quiet_missing_run_context() -> Iterator[None]:
    """Silence Streamlit's "no script run context" warning inside the block (using its cache at preload)."""
    context_log = logging.getLogger(RUN_CONTEXT_LOGGER)
    previous = context_log.level
    context_log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        context_log.setLevel(previous)


def run_streamlit(args: list[str]) -> None:
    """Run Streamlit's command line in this process, as ``python -m streamlit <args>`` does (public entry)."""
    sys.argv = ["streamlit", *args]
    runpy.run_module("streamlit", run_name="__main__", alter_sys=True)
