"""Real browser, issue 25: what a newcomer sees must not mislead.

Same harness as ``test_browser.py`` (Debian's Chromium), on the shared dashboard of ``tests/e2e/conftest.py`` (the
pages under test differ only by their URL); skipped where Chromium is absent.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.harness import Dashboard, chromium, metric_value, open_page, require_chromium

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip


STORED: dict[str, str] = {}
"""Runs stored in the dashboard's history, by name -> run id (for deep links)."""


@pytest.fixture(scope="module")
def travel_app(dashboard: Dashboard) -> Iterator[tuple[str, Any]]:
    """(base URL, browser context) of the dashboard, whose history holds the single-attempt Travel sample judged by
    its dataset scores (twice: ``STORED["travel-1"]``, ``STORED["travel-2"]``) and a tau-bench run
    (``STORED["tau"]``), judged by its rewards."""
    from agentic_core.evaluate import evaluate
    from agentic_core.io.loader import load_paths
    from agentic_core.io.samples import SAMPLES
    from tests.e2e.harness import ROOT

    tau = evaluate(load_paths([ROOT / "sample_data" / "tau_bench_airline.json"]), "dataset", cache_mode="off")
    STORED["tau"] = dashboard.store.save(tau, "tau_bench_airline.json").id
    travel = evaluate(load_paths([SAMPLES["travel"].path]), "dataset", cache_mode="off")
    STORED["travel-1"] = dashboard.store.save(travel, SAMPLES["travel"].title).id
    STORED["travel-2"] = dashboard.store.save(travel, SAMPLES["travel"].title).id
    with chromium() as context:
        yield dashboard.url, context


def test_single_attempt_data_shows_pass_at_1_only(travel_app: tuple[str, Any]) -> None:
    url, context = travel_app
    page = context.new_page()
    open_page(page, f"{url}/?run={STORED['travel-1']}", "Overview", 180_000)
    assert page.locator("[data-testid='stException']").count() == 0
    labels = page.locator("[data-testid='stMetricLabel']").all_inner_texts()
    k_label = next(label.strip() for label in labels if label.strip().startswith("pass@"))
    assert k_label != "pass@1"
    assert metric_value(page, k_label) == "not measured"
    assert metric_value(page, k_label.replace("@", "^")) == "not measured"
    alerts = " ".join(page.locator("[data-testid='stAlert']").all_inner_texts())
    assert "every task has one attempt" in alerts and "task_id" in alerts
    assert "Inconsistent" not in page.locator("[data-testid='stMain']").inner_text()
    page.close()


def test_tau_bench_upload_preselects_its_defaults(travel_app: tuple[str, Any]) -> None:
    from tests.e2e.harness import ROOT, wait_idle

    url, context = travel_app
    page = context.new_page()
    open_page(page, f"{url}/data", "Data", 180_000)
    # The conversation files' uploader (the first; the reference file's sits in an expander below it).
    page.locator("[data-testid='stFileUploaderDropzoneInput']").first.set_input_files(
        str(ROOT / "sample_data" / "tau_bench_airline.json")
    )
    page.get_by_text("so it is preselected with").first.wait_for(timeout=120_000)
    wait_idle(page)
    text = page.locator("[data-testid='stMain']").inner_text()
    assert "Dataset scores judge" in text and "read-only" in text
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


def test_explorer_shows_the_whole_tau_bench_trajectory(travel_app: tuple[str, Any]) -> None:
    import json

    from tests.e2e.harness import ROOT

    url, context = travel_app
    trials = json.loads((ROOT / "sample_data" / "tau_bench_airline.json").read_text())
    page = context.new_page()
    open_page(page, f"{url}/explorer?run={STORED['tau']}&conversation=task-0-trial-0", "Explorer", 180_000)
    assert page.locator("[data-testid='stException']").count() == 0
    page.get_by_text("Whole trace:").first.wait_for()
    thread = page.locator(".xt").first
    traj = next(t for t in trials if t["task_id"] == 0 and t["trial"] == 0)["traj"]
    assert thread.locator(".m").count() == len(traj)
    assert thread.locator(".m.judged").count() == 2  # the query and the final answer
    text = thread.inner_text()
    first_call = next(m for m in traj if m.get("tool_calls"))["tool_calls"][0]["function"]["name"]
    assert f"calls {first_call}" in text and "Tool result" in text
    assert traj[-2]["content"][:40] in text  # the end of the trajectory, not only its first message
    page.close()


def test_compare_link_keeps_its_runs_and_says_the_same_verdicts(travel_app: tuple[str, Any]) -> None:
    from tests.e2e.harness import wait_idle

    url, context = travel_app
    page = context.new_page()
    a, b = STORED["travel-1"], STORED["travel-2"]
    open_page(page, f"{url}/compare?run_a={a}&run_b={b}", "Compare", 180_000)
    # The alert's own words (the page's collapsed guide says the same words in a hidden list item).
    alert = page.locator("[data-testid='stAlert']").filter(has_text="A and B have the same verdicts")
    alert.first.wait_for(timeout=60_000)
    assert metric_value(page, "Delta (B - A)") == "the same verdicts"
    assert f"run_a={a}" in page.url and f"run_b={b}" in page.url
    # A reload keeps the pair (it used to pair two unrelated runs).
    page.reload()
    page.get_by_role("heading", name="Compare").first.wait_for(timeout=120_000)
    wait_idle(page)
    assert f"run_a={a}" in page.url and f"run_b={b}" in page.url
    assert page.locator("[data-testid='stException']").count() == 0
    page.close()


def test_no_request_leaves_the_server_on_load(travel_app: tuple[str, Any]) -> None:
    url, context = travel_app
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_page(page, url, "Overview", 180_000)
    open_page(page, f"{url}/glossary", "Glossary")
    outside = [u for u in requested if not u.startswith((url, "data:", "blob:"))]
    assert not outside, outside  # the page icon was fetched from another host (fails offline)
    icons = page.locator("link[rel~='icon']")
    assert icons.count() >= 1 and not any(
        (icons.nth(i).get_attribute("href") or "").startswith("http")
        and not (icons.nth(i).get_attribute("href") or "").startswith(url)
        for i in range(icons.count())
    )
    page.close()


def test_glossary_anchor_lands_on_its_entry_and_has_contents(travel_app: tuple[str, Any]) -> None:
    url, context = travel_app
    page = context.new_page()
    open_page(page, f"{url}/glossary#cohens-kappa", "Glossary", 180_000)
    assert page.url.endswith("#cohens-kappa")
    # Scrolled to the entry, not left at the top of the page: Streamlit scrolls when the entry is drawn, and the
    # page's own script (ui/anchor_scroll.py) again once everything above it is drawn.
    page.wait_for_function("() => window.__agenticLanded === 'cohens-kappa'", timeout=15_000)
    page.wait_for_function(
        "() => { const e = document.getElementById('cohens-kappa');"
        " return e && e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().top < 600 }",
        timeout=15_000,
    )
    contents = page.locator(".st-key-glossary_contents a[href='#pass-k']")
    assert contents.count() == 1
    page.close()


def test_calibration_does_not_offer_the_samples_threshold_for_another_run(travel_app: tuple[str, Any]) -> None:
    url, context = travel_app
    page = context.new_page()
    open_page(page, f"{url}/calibration?run={STORED['travel-1']}", "Calibration", 180_000)
    assert page.locator("[data-testid='stException']").count() == 0
    button = page.get_by_role("button", name="Use it")
    assert button.count() == 1 and button.is_disabled()
    main = page.locator("[data-testid='stMain']").inner_text()
    assert "labels belong to the active run" in main and "at least 10" in main
    page.close()
