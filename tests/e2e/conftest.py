"""The real-browser tests' shared dashboard: one Streamlit server per test process for the modules that can share it.

A server's start costs seconds on 2 cores (its Python imports, the first script run, the first visit's judging of
the built-in sample), and most browser modules need nothing but a cheap first run and the runs their deep links open:
they store those runs in this server's history (:attr:`Dashboard.store`) and open them by id, each in browser
sessions of its own. Modules whose check needs a server of its own (the very first session of a server, the default
judge's first run, a history that holds only their runs) still start one with
:func:`tests.e2e.harness.streamlit_server`.

The browser stays per module (``harness.chromium``): Playwright's sync API marks the thread's event loop as running
between its calls, so a browser kept for the whole session would break the ``asyncio.run`` of the tests that run in
the same process after the browser modules.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agentic_core.runs import RunStore
from tests.e2e.harness import Dashboard, require_chromium, streamlit_server


@pytest.fixture(scope="session")
def dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """The dashboard whose first run is the built-in sample judged by its dataset scores (``AGENTIC_DEFAULT_JUDGE``:
    no model to load), with a judge cache and a run history of its own; started by the first module that asks for it
    in this process and stopped at the end of the session."""
    require_chromium()
    tmp = tmp_path_factory.mktemp("dashboard")
    runs = tmp / "runs.sqlite3"
    env = {
        "AGENTIC_CACHE_PATH": str(tmp / "cache.sqlite3"),
        "AGENTIC_RUNS_PATH": str(runs),
        "AGENTIC_DEFAULT_JUDGE": "dataset",
    }
    with streamlit_server(env, tmp / "streamlit.log") as url:
        yield Dashboard(url=url, store=RunStore(runs))
