"""Shared fixtures for the page tests: a fresh app, offline and fast, with its own judge cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    """A fresh ``AppTest`` of app.py, run once (Overview of the default sample, ``dataset`` judge)."""
    monkeypatch.setenv("AGENTIC_DEFAULT_JUDGE", "dataset")
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.delenv("AGENTIC_DEFAULT_DATA", raising=False)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    return at
