"""Real browser: a deep link opens a stored run's conversation with its filters; highlights and the word diff show.

Same harness as ``test_browser.py`` (Debian's Chromium), on the shared dashboard of ``tests/e2e/conftest.py``;
skipped where Chromium is absent.
"""

from __future__ import annotations

import pytest

from tests.e2e.harness import Dashboard, chromium, open_page, require_chromium, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip


def test_deep_link_filter_highlight_and_diff(dashboard: Dashboard) -> None:
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import SAMPLES, load_sample

    result = evaluate(load_sample("travel"), "dataset", cache_mode="off")
    run_id = dashboard.store.save(result, SAMPLES["travel"].title).id
    url = dashboard.url
    with chromium() as context:
        page = context.new_page()
        open_page(page, f"{url}/explorer?run={run_id}&conversation=trv-011&q=lisbon", "Explorer", 180_000)
        assert page.locator("[data-testid='stException']").count() == 0
        assert page.get_by_role("heading", name="trv-011").count() > 0
        assert SAMPLES["travel"].title in page.locator("[data-testid='stSidebar']").inner_text()
        assert page.locator("mark").count() > 0  # the search's matches, highlighted
        page.get_by_text("Answer vs ground truth, word by word").first.wait_for()
        assert page.locator("ins, del").count() > 0
        assert "conversation=trv-011" in page.url and f"run={run_id}" in page.url and "q=lisbon" in page.url

        # A link to a run that is not here says so.
        open_page(page, f"{url}/explorer?run=20990101-000000-dead&conversation=x", "Explorer")
        text = page.locator("[data-testid='stAlert']").all_inner_texts()
        wait_idle(page)
        assert any("20990101-000000-dead" in t for t in text), text
