"""Real browser, issue 41: → on the abstention band and on the answer threshold moves the Overview's numbers.

Same harness as ``test_browser.py`` (Debian's Chromium, ``streamlit run app.py`` on 127.0.0.1); skipped where
Chromium is absent. The first run is the built-in support sample judged by the default ``learned`` judge (the
shipped verdicts answer it), which abstains on some of its answers. The numbers the page must show after each key
press are the core's, computed here for the settings the press makes; the time from the press to the new number
is measured and printed (the issue asks for under a second; a timed assertion would fail on a loaded machine,
so the test waits up to 30 s and the figure goes to benchmarks/RESULTS.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.harness import chromium, metric_value, open_page, require_chromium, streamlit_server, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip

RATE = "Success rate (pass@1)"
STEP = 0.01


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    tmp = tmp_path_factory.mktemp("band")
    env = {"AGENTIC_CACHE_PATH": str(tmp / "cache.sqlite3"), "AGENTIC_RUNS_PATH": str(tmp / "runs.sqlite3")}
    with streamlit_server(env, tmp / "streamlit.log") as url, chromium() as context:
        yield url, context


@pytest.fixture(scope="module")
def support() -> Any:
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import load_sample

    return evaluate(load_sample("support"), "learned")


def _rate(result: Any, threshold: float, band: tuple[float, float] | None) -> str:
    from agentic_core.analysis.aggregate import aggregate
    from agentic_core.settings import make_settings
    from ui.format import pct

    return pct(aggregate(result, make_settings(threshold=threshold, abstain_band=band)).success_rate.value)


def _thumbs(page: Any, label: str) -> Any:
    slider = page.locator("[data-testid='stSidebar'] [data-testid='stSlider']").filter(has_text=label)
    return slider.locator("input[type='range']")


def _press_and_wait(page: Any, thumb: Any, expected: str, presses: int = 1) -> float:
    """Press → on ``thumb`` ``presses`` times; seconds from the last press until the success rate reads ``expected``."""
    thumb.focus()
    for _ in range(presses - 1):
        # One press at a time, the app settled after each: presses sent while a rerun of the first is under way
        # on a loaded machine were lost once (the rerun drew the slider at the first press's value).
        thumb.press("ArrowRight")
        wait_idle(page)
        thumb.focus()
    start = time.perf_counter()
    thumb.press("ArrowRight")
    page.wait_for_function(
        """(want) => [...document.querySelectorAll("[data-testid='stMetric']")].some(m =>
            m.innerText.startsWith('Success rate') && m.innerText.includes(want))""",
        arg=expected,
        timeout=90_000,  # a bound, not a measure: the elapsed time is printed and RESULTS.md holds the figures
    )
    elapsed = time.perf_counter() - start
    wait_idle(page)
    return elapsed


def test_right_arrow_on_the_band_moves_the_overview(app: tuple[str, Any], support: Any) -> None:
    url, context = app
    fitted = support.judge_run.fitted_band
    assert fitted is not None
    start = (round(fitted.low, 2), round(fitted.high, 2))  # the slider starts at the fitted band, rounded
    page = context.new_page()
    open_page(page, f"{url}/", "Overview", timeout_ms=180_000)
    assert page.locator("[data-testid='stException']").count() == 0
    sidebar = page.locator("[data-testid='stSidebar']").inner_text()
    # The complaint is now said beside the threshold.
    assert "No decided score lies between" in sidebar and "narrow the abstention band" in sidebar
    assert metric_value(page, RATE) == _rate(support, 0.5, None)
    thumbs = _thumbs(page, "Abstention band")
    assert thumbs.count() == 2
    # → on the lower end: the judge decides more. As many presses as the first change of the rate takes (the
    # sample may hold no probability within one step of the fitted edge), computed here by the core.
    now = metric_value(page, RATE)
    presses = next(n for n in range(1, 11) if _rate(support, 0.5, (round(start[0] + n * STEP, 2), start[1])) != now)
    moved = (round(start[0] + presses * STEP, 2), start[1])
    expected = _rate(support, 0.5, moved)
    elapsed = _press_and_wait(page, thumbs.first, expected, presses)
    print(f"band: → to {moved}, success rate {expected} after {elapsed:.2f} s")
    assert "band=" in page.url and page.locator("[data-testid='stException']").count() == 0
    page.close()


def test_right_arrow_on_the_threshold_moves_the_overview_once_the_band_decides(
    app: tuple[str, Any], support: Any
) -> None:
    url, context = app
    band = (0.5, 0.5)  # never abstain: every answer is decided, and the threshold has scores to cross
    # The first threshold from 0.50 where one step right changes the success rate, found with the core.
    threshold = next(
        t for t in (round(0.5 + STEP * i, 2) for i in range(40))
        if _rate(support, t, band) != _rate(support, round(t + STEP, 2), band)
    )  # fmt: skip
    page = context.new_page()
    open_page(page, f"{url}/?band=0.5,0.5&threshold={threshold}", "Overview", timeout_ms=180_000)
    assert metric_value(page, RATE) == _rate(support, threshold, band)
    expected = _rate(support, round(threshold + STEP, 2), band)
    elapsed = _press_and_wait(page, _thumbs(page, "Answer threshold").first, expected)
    print(f"threshold: → to {threshold + STEP:.2f}, success rate {expected} after {elapsed:.2f} s")
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()
