"""Shared fixtures for the page tests: a fresh app, offline and fast, with its own judge cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    """A fresh ``AppTest`` of app.py, run once (Overview of the default sample, ``dataset`` judge)."""
    monkeypatch.setenv("AGENTIC_DEFAULT_JUDGE", "dataset")
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.delenv("AGENTIC_DEFAULT_DATA", raising=False)

    # AppTest resets Streamlit's legacy ``pages/`` flag before every run, so each run starts in
    # legacy mode, where app.py's own ``st.navigation`` then forces a rerun that drops a button
    # click of that run. A real server clears the flag once, at its first ``st.navigation``;
    # clear it the same way so every ``at.run()`` behaves as in the browser.
    init = PagesManager.__init__

    def init_without_legacy_mode(self: PagesManager, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init_without_legacy_mode)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at
