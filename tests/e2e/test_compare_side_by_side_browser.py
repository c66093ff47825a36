"""Real browser: Compare's answers side by side, its filters, and a deep link that opens the exact view.

Two stored runs of the same tasks (``tests/report/test_compare_answers.py``'s: a task flipped to worse, two to
better, one wrong on both sides, two attempts per side on most). In Chromium: the filters list their tasks, both
answers show with their verdicts and the word diff, the URL follows every choice, and opening that URL in a new
page (a new session) shows the same view. Same harness as ``test_browser.py``, on the shared dashboard of
``tests/e2e/conftest.py``; skipped where Chromium is absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.e2e.harness import (
    Dashboard,
    chromium,
    docs_screenshot_dir,
    open_page,
    require_chromium,
    wait_idle,
)

if TYPE_CHECKING:
    from agentic_core.runs import RunStore

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip

SHOTS = docs_screenshot_dir() or Path(__file__).resolve().parent / "screenshots"


def _store(store: RunStore) -> tuple[str, str]:
    from tests.report.test_compare_answers import A_RUN, B_RUN, _run

    return store.save(_run("v1", A_RUN), "before").id, store.save(_run("v2", B_RUN), "after").id


def _query(page: Any) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def _choose(page: Any, label: str) -> None:
    """Click a radio choice of the "Show" filter by its label's start."""
    page.locator(".st-key-compare_pair_show label").filter(has_text=label).first.click()
    wait_idle(page)


def _selected(page: Any, key: str) -> str:
    """What a select box shows (its text, or its search input's value in this Streamlit)."""
    box = page.locator(f".st-key-{key}")
    return f"{box.inner_text()} {box.locator('input').input_value()}"


def _main_text(page: Any) -> str:
    return str(page.locator("[data-testid='stMain']").inner_text())


def test_filters_and_a_deep_link_open_the_same_side_by_side_view(dashboard: Dashboard) -> None:
    SHOTS.mkdir(exist_ok=True)
    run_a, run_b = _store(dashboard.store)
    url = dashboard.url
    with chromium() as context:
        page = context.new_page()
        open_page(page, f"{url}/compare?run_a={run_a}&run_b={run_b}", "Compare", 180_000)
        assert page.locator("[data-testid='stException']").count() == 0
        page.get_by_role("heading", name="Answers side by side").wait_for()

        # Flipped to worse: the one task, A's right answer and B's wrong one, with both verdicts and the diff.
        _choose(page, "Flipped to worse (1)")
        text = _main_text(page)
        assert "You have 30 days to return it." in text and "You have 14 days to return it." in text
        assert _query(page)["pair_show"] == "worse" and _query(page)["pair_task"] == "refund"
        assert page.locator("ins b", has_text="30").count() >= 1 and page.locator("del b", has_text="14").count() >= 1

        # Both wrong: the task neither side passes; pick B's second attempt.
        _choose(page, "Both wrong (1)")
        assert _query(page)["pair_task"] == "warranty"
        page.locator(".st-key-compare_attempt_b input").click()
        page.get_by_role("option", name="#2 · v2-warranty-1 · incorrect").click()
        wait_idle(page)
        assert _query(page)["attempt_b"] == "2"
        text = _main_text(page)
        assert "One year." in text and "Two years." in text  # A's first attempt, B's second; the reference
        assert "B made 2 attempts: 1 correct, 1 incorrect; showing #2 (v2-warranty-1)." in text

        # The URL is the view: a new page (a new session) opens it as it was.
        link = page.url
        other = context.new_page()
        open_page(other, link, "Compare", 180_000)
        other.get_by_role("heading", name="Answers side by side").wait_for()
        assert other.locator("[data-testid='stAlert']").filter(has_text="link").count() == 0
        assert other.locator(".st-key-compare_pair_show input[type='radio']:checked").evaluate(
            "e => e.closest('label').innerText").startswith("Both wrong")
        assert "warranty" in _selected(other, "compare_pair_task")
        assert "#2 · v2-warranty-1" in _selected(other, "compare_attempt_b")
        assert "One year." in _main_text(other) and _query(other) == _query(page)
        turn = other.locator(".st-key-compare_pair_turn_1")
        turn.scroll_into_view_if_needed()
        turn.screenshot(path=str(SHOTS / "compare_side_by_side.png"))
