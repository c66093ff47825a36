"""The page tests scan the installed Streamlit components once per session (tests/pages/conftest.py)."""

from __future__ import annotations

import pytest
from streamlit.components.v2 import manifest_scanner

from tests.pages.conftest import STREAMLIT_SCAN, OpenApp


def test_apps_reuse_the_sessions_scan_which_is_what_a_fresh_scan_finds(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = manifest_scanner.scan_component_manifests
    assert shared is not STREAMLIT_SCAN  # what every AppTest calls is the session's one scan...
    assert shared() == STREAMLIT_SCAN()  # ... and it finds what scanning again finds
    asked: list[int] = []

    def counted(max_workers: int | None = None) -> object:
        asked.append(1)
        return shared(max_workers)

    monkeypatch.setattr(manifest_scanner, "scan_component_manifests", counted)
    open_app()
    open_app()
    assert len(asked) == 2  # each new app asks (and gets the shared answer)
