"""Real browser: a slow LLM run shows progress, ETA and partial results, is cancelled, and its partial run kept.

The LLM judge talks to an OpenAI-compatible stand-in on 127.0.0.1 that answers each request after
0.1 s (no network). Same harness as ``test_browser.py``, on the shared dashboard of ``tests/e2e/conftest.py``
(its active data on a first visit: the built-in support sample); skipped where Chromium is absent.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import Dashboard, chromium, open_page, require_chromium, wait_idle
from tests.fakes import OpenAIStandIn

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip


def test_cancel_a_slow_run_and_keep_the_partial_run(dashboard: Dashboard) -> None:
    url = dashboard.url
    with OpenAIStandIn(latency_s=0.1) as server, chromium() as context:
        page = context.new_page()
        open_page(page, f"{url}/run", "Run", 180_000)
        page.get_by_text("LLM judge", exact=True).click()
        page.get_by_text("Base URL (optional)").wait_for()  # the default provider's
        page.locator("[data-testid='stSelectbox']").filter(has_text="Provider").click()
        page.get_by_role("option", name=re.compile("OpenAI-compatible")).click()
        wait_idle(page)
        page.locator("input[aria-label='Model']").fill("judge-model")
        page.locator("input[aria-label='Model']").press("Enter")
        page.locator("input[aria-label='Base URL (required)']").fill(server.base_url)
        page.locator("input[aria-label='Base URL (required)']").press("Enter")
        # One call at a time, 0.1 s each: the 248 distinct calls would take about 25 s.
        page.locator("input[aria-label='Concurrency']").fill("1")
        page.locator("input[aria-label='Concurrency']").press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="Run evaluation").click()

        # Progress with a measured rate and the time left, and partial results, while judging.
        bar = page.locator("[data-testid='stProgress']")
        bar.filter(has_text=re.compile(r"per second · about .* left")).wait_for(timeout=60_000)
        assert re.search(r"Judging: [\d,]+ / 344 interactions", bar.inner_text())
        page.get_by_text("Answers passing so far").wait_for()
        page.get_by_text("Latest verdicts").wait_for()
        assert page.get_by_role("button", name="Run evaluation").is_disabled()

        page.get_by_role("button", name="Cancel").click()
        page.get_by_text("Run cancelled").wait_for(timeout=60_000)
        sent = server.requests
        assert 0 < sent < 344, sent
        page.wait_for_timeout(1_500)
        assert server.requests <= sent + 8, "the judge's calls stop once cancelled"  # calls in flight end

        page.get_by_role("button", name="Keep the partial run").click()
        page.get_by_text("Kept the partial run").wait_for(timeout=60_000)
        wait_idle(page)
        assert page.locator("[data-testid='stException']").count() == 0
        assert "(partial)" in page.locator("[data-testid='stMarkdown']").all_inner_texts().__str__()
        assert re.search(r"run=[\w-]+", page.url), page.url  # the page's URL names the kept run
