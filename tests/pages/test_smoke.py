"""Smoke test, one per page and sample: each page renders without an exception or an error."""

from __future__ import annotations

import pytest

from agentic_core.io.samples import SAMPLES
from tests.pages.conftest import OpenApp
from ui.format import md_text

PAGES = {
    "pages/overview.py": "Overview",
    "pages/data.py": "Data",
    "pages/run.py": "Run",
    "pages/history.py": "History",
    "pages/uncertainty.py": "Uncertainty",
    "pages/tools.py": "Tools",
    "pages/agentic_metrics.py": "Agentic metrics",
    "pages/explorer.py": "Explorer",
    "pages/review.py": "Review queue",
    "pages/compare.py": "Compare",
    "pages/calibration.py": "Calibration",
    "pages/export.py": "Export",
    "pages/glossary.py": "Glossary",
}


@pytest.mark.parametrize("sample", sorted(SAMPLES))
@pytest.mark.parametrize("path", list(PAGES))
def test_page_renders_on_sample(path: str, sample: str, open_app: OpenApp) -> None:
    at = open_app(path, data=sample)
    assert not at.exception, f"{path} on {sample}: {[e.value for e in at.exception]}"
    assert not at.error, f"{path} on {sample}: {[e.value for e in at.error]}"
    assert PAGES[path] in [t.value for t in at.title], f"{path} on {sample} has no '{PAGES[path]}' title"
    # The shared sidebar names the run on every page (as text: the file name's underscores escaped).
    assert any(md_text(SAMPLES[sample].file) in c.value for c in at.sidebar.caption), path
