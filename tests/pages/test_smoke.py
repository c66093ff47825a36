"""Smoke test: every page of the dashboard renders without an exception on every built-in sample."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from agentic_core.io.samples import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
PAGES = {
    "pages/overview.py": "Overview",
    "pages/data.py": "Data",
    "pages/run.py": "Run",
    "pages/uncertainty.py": "Uncertainty",
    "pages/tools.py": "Tools",
    "pages/explorer.py": "Explorer",
    "pages/export.py": "Export",
}


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_page_renders_on_every_sample(sample: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENTIC_DEFAULT_DATA", str(SAMPLES[sample].path))
    monkeypatch.setenv("AGENTIC_DEFAULT_JUDGE", "dataset")
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite3"))
    init = PagesManager.__init__

    def init_without_legacy_mode(self: PagesManager, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False  # as a real server after its first st.navigation

    monkeypatch.setattr(PagesManager, "__init__", init_without_legacy_mode)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    for path, title in PAGES.items():
        at.switch_page(path).run()
        assert not at.exception, f"{path} on {sample}: {[e.value for e in at.exception]}"
        assert not at.error, f"{path} on {sample}: {[e.value for e in at.error]}"
        assert title in [t.value for t in at.title], f"{path} on {sample} has no '{title}' title"
        # The shared sidebar names the run on every page.
        assert any(SAMPLES[sample].file in c.value for c in at.sidebar.caption), path
