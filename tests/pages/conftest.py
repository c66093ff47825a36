"""Shared fixtures for the page tests: a fresh app, offline and fast, with its own judge cache."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit import config
from streamlit.components.v2 import manifest_scanner
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

from agentic_core.io.samples import SAMPLES

APP = str(Path(__file__).resolve().parents[2] / "dashboard.py")
STREAMLIT_SCAN = manifest_scanner.scan_component_manifests
"""Streamlit's own scan of the installed packages for components (replaced for the session below)."""
OpenApp = Callable[..., AppTest]


@pytest.fixture(scope="session", autouse=True)
def _components_scanned_once() -> Iterator[None]:
    """Every ``AppTest`` scans the installed packages for Streamlit components (parsing the metadata of each, about
    0.35 s of CPU): the packages do not change during a session, so the first scan's result serves every app."""
    found = STREAMLIT_SCAN()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", lambda max_workers=None: list(found))
        yield


@pytest.fixture(scope="session", autouse=True)
def _scripts_compiled_once() -> Iterator[None]:
    """Every ``AppTest`` run makes new script caches, so dashboard.py and the page were read, rewritten by Streamlit's
    magic (a pass over their syntax trees) and compiled on every run: about a tenth of the page tests' CPU. A server
    keeps one cache per process; the session keeps one here, by file and its last change (an edited script is
    compiled again), holding what Streamlit's own cache compiles."""
    compiled: dict[tuple[str, int, int, bool], Any] = {}
    compile_script = ScriptCache.get_bytecode

    def get_bytecode(cache: ScriptCache, script_path: str) -> Any:
        path = os.path.abspath(script_path)
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size, bool(config.get_option("runner.magicEnabled")))
        if key not in compiled:
            compiled[key] = compile_script(cache, script_path)
        return compiled[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ScriptCache, "get_bytecode", get_bytecode)
        yield


@pytest.fixture
def open_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> OpenApp:
    """A factory: ``open_app(page=None, data=None)`` -> a fresh, run ``AppTest`` of dashboard.py.

    Offline and fast: the ``dataset`` judge and a judge cache in ``tmp_path``. ``data`` is a
    built-in sample name or a file path (default: the built-in default sample); ``page`` is a
    page file to switch to (default: the Overview).
    """
    monkeypatch.setenv("AGENTIC_DEFAULT_JUDGE", "dataset")
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))

    # AppTest resets Streamlit's legacy ``pages/`` flag before every run, so each run starts in
    # legacy mode, where dashboard.py's own ``st.navigation`` then forces a rerun that drops a button
    # click of that run. A real server clears the flag once, at its first ``st.navigation``;
    # clear it the same way so every ``at.run()`` behaves as in the browser.
    init = PagesManager.__init__

    def init_without_legacy_mode(self: PagesManager, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init_without_legacy_mode)

    def factory(page: str | None = None, data: str | Path | None = None) -> AppTest:
        if data is None:
            monkeypatch.delenv("AGENTIC_DEFAULT_DATA", raising=False)
        else:
            path = SAMPLES[data].path if isinstance(data, str) else data
            monkeypatch.setenv("AGENTIC_DEFAULT_DATA", str(path))
        at = AppTest.from_file(APP, default_timeout=60)
        at.run()
        assert not at.exception
        if page is not None:
            at.switch_page(page).run()
            assert not at.exception
        return at

    return factory


@pytest.fixture
def app(open_app: OpenApp) -> AppTest:
    """A fresh ``AppTest`` of the dashboard, run once (Overview of the default sample, ``dataset`` judge)."""
    return open_app()


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A fresh run history for this test (the dashboard opens one store per process: reset it)."""
    from ui import runs

    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(path))
    runs._open_store.clear()
    yield path
    runs._open_store.clear()


def judge_travel(at: AppTest) -> AppTest:
    """Load the travel sample and judge it with the dataset judge on the Run page."""
    at.switch_page("pages/data.py").run()
    at.button(key="sample_travel").click().run()
    at.switch_page("pages/run.py").run()
    at.radio(key="run_judge").set_value("dataset").run()
    at.button(key="run_start").click().run()
    assert not at.exception
    return at
