"""Real browser: the Explorer's span tree folds and unfolds, draws duration bars, marks the answer and the error, and
fits a 390 px phone.

The OpenTelemetry sample (``sample_data/otel_traces.json`` with its golden set) is judged by the lexical judge and
stored; a deep link opens its conversation whose first tool call failed. Same harness as ``test_browser.py``
(Debian's Chromium), on the shared dashboard of ``tests/e2e/conftest.py``; skipped where Chromium is absent, never
in CI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.harness import Dashboard, chromium, docs_screenshot_dir, open_page, require_chromium

if TYPE_CHECKING:
    from agentic_core.runs import RunStore

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
SHOTS = docs_screenshot_dir() or Path(__file__).resolve().parent / "screenshots"
RED = "rgb(214, 39, 40)"


def _store_traced_run(store: RunStore) -> str:
    from agentic_core import evaluate
    from agentic_core.io.otel_load import load_otel

    report = load_otel([SAMPLES / "otel_traces.json"], references=SAMPLES / "otel_references.jsonl")
    return store.save(evaluate(report, "lexical", cache_mode="off"), "trip-helper traces").id


def _overflow(page: Any) -> dict[str, int]:
    """How far the page and the tree are wider than what shows them (0: no horizontal overflow)."""
    return dict(page.evaluate(
        """() => {
            const main = document.querySelector("[data-testid='stMain']");
            const tree = document.querySelector('.stree');
            return {
                page: document.documentElement.scrollWidth - window.innerWidth,
                main: main.scrollWidth - main.clientWidth,
                tree: tree.scrollWidth - tree.clientWidth,
            };
        }"""
    ))


def test_the_span_tree_folds_shows_bars_the_answer_and_the_error_and_fits_a_phone(dashboard: Dashboard) -> None:
    SHOTS.mkdir(exist_ok=True)
    run_id = _store_traced_run(dashboard.store)
    url = dashboard.url
    link = f"/explorer?run={run_id}&conversation=otel-train-bergen"
    with chromium() as context:
        page = context.new_page()
        open_page(page, url + link, "Explorer", 180_000)
        assert page.locator("[data-testid='stException']").count() == 0
        tree = page.locator(".stree")
        tree.wait_for()
        tree.scroll_into_view_if_needed()

        # Folding: the agent span holds the calls; a click on its line hides them, another shows them again.
        agent = tree.locator("details").first
        inside = agent.locator(".kids .leaf").first
        assert agent.get_attribute("open") is not None and inside.is_visible()
        agent.locator("summary").first.click()
        page.wait_for_function("() => !document.querySelector('.stree details').open")
        assert not inside.is_visible()
        agent.locator("summary").first.click()
        page.wait_for_function("() => document.querySelector('.stree details').open")
        assert inside.is_visible()

        # Each step's bar sits on the trace's timeline: the 10 s failed call is the widest after the agent's.
        bars = tree.locator(".bar span")
        assert bars.count() == tree.locator("[data-span]").count() == 6
        widths = [bars.nth(i).bounding_box()["width"] for i in range(bars.count())]
        failed = tree.locator(".leaf.err")
        assert failed.count() == 1
        failed_width = failed.locator(".bar span").bounding_box()["width"]
        assert widths[0] > failed_width > max(widths[1:]) * 0.99 and failed_width > 0
        # The failed call is red, with its error.
        assert failed.locator(".nm").evaluate("e => getComputedStyle(e).color") == RED
        assert "did not answer within 10 s" in failed.inner_text()
        # The judged answer is outlined, with its turn and verdict.
        answer = tree.locator(".ans")
        assert answer.count() == 1 and "judged answer · turn 1 ·" in answer.inner_text()
        assert answer.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
        tree.screenshot(path=str(SHOTS / "explorer_span_tree.png"))

        # A 390 px phone: the page does not scroll sideways, nor does the tree.
        page.set_viewport_size({"width": 390, "height": 1800})
        open_page(page, url + link, "Explorer", 180_000)
        page.locator(".stree").wait_for()
        assert _overflow(page) == {"page": 0, "main": 0, "tree": 0}, _overflow(page)
        assert page.locator(".stree .ans").is_visible()
        page.locator(".stree").screenshot(path=str(SHOTS / "explorer_span_tree_390.png"))
