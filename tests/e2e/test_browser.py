"""One real-browser test: every page, no exception element, a slider changes a number, a CSV downloads.

Runs ``streamlit run app.py`` headless on 127.0.0.1 and drives Debian's Chromium
(/usr/bin/chromium) with Playwright. Skipped with a reason where Chromium is absent, except in
CI (``AGENTIC_REQUIRE_BROWSER=1``), where a missing browser is a failure. Screenshots of every
page go to tests/e2e/screenshots/ for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.e2e.harness import (
    chromium,
    docs_screenshot_dir,
    metric_value,
    open_page,
    require_chromium,
    streamlit_server,
    wait_idle,
)

SHOTS = docs_screenshot_dir() or Path(__file__).resolve().parent / "screenshots"
PAGES = [  # (url path, heading); the Overview is the default page, served at "/"
    ("", "Overview"),
    ("data", "Data"),
    ("run", "Run"),
    ("history", "History"),
    ("uncertainty", "Uncertainty"),
    ("tools", "Tools"),
    ("agentic", "Agentic metrics"),
    ("explorer", "Explorer"),
    ("compare", "Compare"),
    ("calibration", "Calibration"),
    ("export", "Export"),
    ("glossary", "Glossary"),
]

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip


def test_every_page_slider_and_download(tmp_path: Path) -> None:
    SHOTS.mkdir(exist_ok=True)
    env = {"AGENTIC_CACHE_PATH": str(tmp_path / "cache.sqlite3")}  # the real default judge
    with streamlit_server(env, tmp_path / "streamlit.log") as url, chromium() as context:
        page = context.new_page()

        # The server's very first session opens a shared sub-page link: app.py's navigation and
        # sidebar must be there (Streamlit's legacy pages/ mode would run the page file alone).
        open_page(page, f"{url}/tools?k=5", "Tools", timeout_ms=180_000)
        sidebar = page.locator("[data-testid='stSidebar']").inner_text()
        assert "Results" in sidebar and "Run:" in sidebar, sidebar[:300]
        assert page.get_by_text("Page not found").count() == 0

        # First run: the built-in sample, judged by the offline default judge, no key.
        open_page(page, f"{url}/", "Overview", timeout_ms=180_000)
        assert page.locator("[data-testid='stException']").count() == 0
        from agentic_core.judges.registry import DEFAULT_JUDGE

        assert DEFAULT_JUDGE in page.locator("[data-testid='stSidebar']").inner_text()
        # K is 'auto' by default: the largest k enough tasks have scored attempts for (every support task has
        # 8 attempts; the default judge's abstentions leave some with fewer), so K > 1.
        labels = page.locator("[data-testid='stMetricLabel']").all_inner_texts()
        k_label = next(label.strip() for label in labels if label.strip().startswith("pass@"))
        assert k_label != "pass@1", labels
        before_label_k = metric_value(page, k_label)
        assert before_label_k.endswith("%")

        # Move the K slider one step with the keyboard: from 'auto' to 1, pass@K becomes pass@1.
        slider = page.locator("[data-testid='stSidebar'] [data-testid='stSlider']").filter(has_text="K (attempts)")
        thumb = slider.locator("input[type='range']")
        thumb.focus()
        thumb.press("ArrowRight")
        page.locator("[data-testid='stMetricLabel']").filter(has_text="pass^1").first.wait_for(timeout=30_000)
        wait_idle(page)
        after = metric_value(page, "pass@1")
        assert after != before_label_k
        assert "k=1" in page.url or "k=1" in page.evaluate("window.location.search")
        page.screenshot(path=str(SHOTS / "overview_k1.png"))

        # Switching pages in the app keeps the settings, and the URL keeps carrying them and the data.
        page.locator("[data-testid='stSidebarNav'] a").filter(has_text="Uncertainty").click()
        page.get_by_role("heading", name="Uncertainty").first.wait_for(timeout=60_000)
        wait_idle(page)
        search = page.evaluate("window.location.search")
        assert "k=1" in search and "data=" in search, search
        assert page.get_by_text("pass^1").count() > 0

        # "/overview" is the Overview (it was "Page not found"), and a shared link's raw values apply.
        open_page(page, f"{url}/overview?ci=0.9&unit=task", "Overview")
        assert page.get_by_text("Page not found").count() == 0
        assert "90%" in page.locator("[data-testid='stSidebar']").inner_text()

        for path, heading in PAGES:
            open_page(page, f"{url}/{path}", heading)
            assert page.locator("[data-testid='stException']").count() == 0, f"exception on {path}"
            assert page.get_by_text("Page not found").count() == 0, f"/{path} is not a page"
            page.screenshot(path=str(SHOTS / f"{path or 'overview'}.png"))

        # Download the per-interaction CSV from the Export page and read it back.
        open_page(page, f"{url}/export", "Export")
        button = page.get_by_role("button", name="Interactions (CSV)", exact=True)
        with page.expect_download(timeout=60_000) as info:
            button.click()
        target = tmp_path / info.value.suggested_filename
        info.value.save_as(target)
        assert target.suffix == ".csv"
        frame = pd.read_csv(target)
        assert len(frame) == 344  # every interaction of the support sample
        assert {"judge_score", "correct", "tool_overall"} <= set(frame.columns)
