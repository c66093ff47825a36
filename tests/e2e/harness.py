"""Start the dashboard and drive it with Playwright + Debian's Chromium (never `playwright install`).

Shared by the real-browser test and ``benchmarks/bench_dashboard.py``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentic_core.runs import RunStore

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


DOCS_SHOTS_ENV = "AGENTIC_DOCS_SCREENSHOTS"


def docs_screenshot_dir() -> Path | None:
    """``docs/img/`` when ``AGENTIC_DOCS_SCREENSHOTS=1``: the browser tests then make the docs' screenshots.

    ``AGENTIC_DOCS_SCREENSHOTS=1 .venv/bin/python -m pytest tests/e2e/test_browser.py
    tests/e2e/test_history_compare.py`` refreshes every image the docs show; otherwise they go to
    tests/e2e/screenshots/ (ignored by git) for a person to look at.
    """
    if os.environ.get(DOCS_SHOTS_ENV) != "1":
        return None
    return ROOT / "docs" / "img"


def require_chromium() -> None:
    """Called at the top of each browser test module: Debian's Chromium must be there.

    Without it the module is skipped, except under ``AGENTIC_REQUIRE_BROWSER=1`` (``.ci/run``), where
    a missing browser is a failure: the real-browser tests must run in CI, never skip.
    """
    if CHROMIUM.exists():
        return
    if os.environ.get("AGENTIC_REQUIRE_BROWSER") == "1":
        raise RuntimeError("AGENTIC_REQUIRE_BROWSER=1 but /usr/bin/chromium is missing: apt-get install chromium")
    import pytest

    pytest.skip(
        "Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def streamlit_server(
    env: dict[str, str],
    log_path: Path,
    timeout_s: float = 90.0,
    *,
    launcher: bool = False,
    pid: list[int] | None = None,
) -> Iterator[str]:
    """Run the dashboard headless on 127.0.0.1; yield its base URL once healthy.

    ``launcher=False`` runs ``streamlit run app.py``; ``True`` runs ``python -m ui.launch``
    (what start.sh uses: it prepares the first-run results before serving). The server's process
    id is appended to ``pid`` when given (benchmarks read its memory).
    """
    port = free_port()
    full_env = {**os.environ, **env, "PYTHONUNBUFFERED": "1"}
    head = ["-m", "ui.launch"] if launcher else ["-m", "streamlit", "run", "app.py"]
    options = ["--server.headless", "true", "--server.address", "127.0.0.1", "--server.port", str(port)]
    options += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, *head, *options], cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        if pid is not None:
            pid.append(proc.pid)
        try:
            deadline = time.monotonic() + timeout_s
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"streamlit exited with {proc.returncode}: {log_path.read_text()[-2000:]}")
                with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"streamlit not healthy after {timeout_s}s: {log_path.read_text()[-2000:]}")
                time.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@dataclass(frozen=True)
class Dashboard:
    """A running dashboard shared by browser modules (the ``dashboard`` fixture of ``tests/e2e/conftest.py``).

    Attributes:
        url: Its base URL on 127.0.0.1.
        store: Its run history: a run saved here opens at ``{url}/<page>?run=<id>``.
    """

    url: str
    store: RunStore


@contextlib.contextmanager
def chromium(downloads: Path | None = None, *, reduced_motion: bool = True) -> Iterator[Any]:
    """A Playwright browser context on Debian's Chromium with a tall viewport (for screenshots).

    ``reduced_motion`` (the tests' default) asks the page for reduced motion, as a user's system setting can: the
    animations a page runs while it loads (skeletons, spinners) were composited in software, 10-20% of Chromium's
    CPU time per page opened (``--disable-gpu``), with nothing for a test to see. The benchmarks that time what a
    user waits for pass ``False``.
    """
    from playwright.sync_api import sync_playwright

    args = [*CHROMIUM_ARGS, "--force-prefers-reduced-motion"] if reduced_motion else CHROMIUM_ARGS
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=args, headless=True)
        try:
            context = browser.new_context(
                viewport={"width": 1400, "height": 1800},
                accept_downloads=True,
                reduced_motion="reduce" if reduced_motion else "no-preference",
            )
            yield context
        finally:
            browser.close()


def wait_idle(page: Any, timeout_ms: int = 90_000) -> None:
    """Wait until the Streamlit script has finished running and the page has settled.

    The script-state attribute can read "notRunning" for a moment before a (re)run starts, and
    placeholders (skeletons) stay until their element arrives, so: idle, no skeleton, and idle
    again after a short pause.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        remaining = max(1, int((deadline - time.monotonic()) * 1000))
        page.wait_for_selector(IDLE, timeout=remaining)
        page.wait_for_function(
            "() => document.querySelectorAll(\"[data-testid='stSkeleton']\").length === 0",
            timeout=remaining,
        )
        page.wait_for_timeout(250)
        if page.locator(IDLE).count() == 1 and page.locator("[data-testid='stSkeleton']").count() == 0:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("the page did not settle")


def open_page(page: Any, url: str, heading: str, timeout_ms: int = 90_000) -> float:
    """Navigate, wait for the page's title heading and an idle script; return seconds taken."""
    start = time.perf_counter()
    page.goto(url)
    page.get_by_role("heading", name=heading, exact=False).first.wait_for(timeout=timeout_ms)
    wait_idle(page, timeout_ms)
    return time.perf_counter() - start


def time_to_results(page: Any, url: str, timeout_ms: int = 300_000) -> tuple[float, float]:
    """Open the Overview; seconds until its KPI values are visible, and until the page settled."""
    start = time.perf_counter()
    page.goto(url)
    page.locator("[data-testid='stMetricValue']").first.wait_for(timeout=timeout_ms)
    visible = time.perf_counter() - start
    wait_idle(page, timeout_ms)
    return visible, time.perf_counter() - start


def metric_value(page: Any, label_prefix: str) -> str:
    """The displayed value of the first ``st.metric`` whose label starts with ``label_prefix``."""
    metrics = page.locator("[data-testid='stMetric']")
    for i in range(metrics.count()):
        m = metrics.nth(i)
        label = m.locator("[data-testid='stMetricLabel']").inner_text().strip()
        if label.startswith(label_prefix):
            return str(m.locator("[data-testid='stMetricValue']").inner_text().strip())
    raise AssertionError(f"no metric labelled {label_prefix!r}")
