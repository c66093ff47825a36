"""Real browser: five items labelled in the review queue BY KEYBOARD are stored, survive a reload, and move the
corrected interval (issue 37).

The corrected value needs 20 labelled tasks, so the state is prepared first: the labelled support sample without
its own ``human_label`` values (28 tasks x 2 attempts, one turn each), stored as a run whose queue's first 22
tasks (44 items) already hold their people's labels, given as the queue gives them. Five keys then label the
next items. Same harness as ``test_browser.py`` (Debian's Chromium), on the shared dashboard of
``tests/e2e/conftest.py``; skipped where Chromium is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.harness import Dashboard, chromium, open_page, require_chromium, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

require_chromium()  # a failure under AGENTIC_REQUIRE_BROWSER=1 (CI), else a skip

PRELABELLED_TASKS = 22


def _corrected_interval(page: object) -> str:
    metric = page.locator("[data-testid='stMetric']").filter(has_text="Success rate, corrected")  # type: ignore[attr-defined]
    return str(metric.locator("[data-testid='stMetricDelta']").inner_text().strip())


def _progress(page: object) -> str:
    return str(page.locator("[data-testid='stProgress']").inner_text().strip())  # type: ignore[attr-defined]


def test_five_keyboard_labels_survive_a_reload_and_move_the_interval(tmp_path: Path, dashboard: Dashboard) -> None:
    from agentic_core.analysis import aggregate, label_queue, queue_label
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import SAMPLES
    from agentic_core.settings import make_settings

    truth: dict[str, int] = {}
    lines = []
    for line in SAMPLES["labelled"].path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for turn in record["conversation"]:
            if turn.get("human_label") is not None:
                truth[record["session_id"]] = int(turn.pop("human_label"))
        lines.append(json.dumps(record))
    data = tmp_path / "unlabelled_support.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = evaluate(data, "dataset", cache_mode="off")
    store = dashboard.store
    run_id = store.save(result, "Support answers, labels removed").id
    queue = label_queue(result, aggregate(result, make_settings()), [], seed=0)
    first = set(queue.tasks[:PRELABELLED_TASKS])
    given = [queue_label(queue, item, truth.get(item.session_id, 1)) for item in queue.items if item.task in first]
    store.add_labels(run_id, given)
    total = len(queue.items)

    url = dashboard.url
    with chromium() as context:
        page = context.new_page()
        open_page(page, f"{url}/review?run={run_id}", "Review queue", 180_000)
        assert page.locator("[data-testid='stException']").count() == 0
        assert f"{len(given)} of {total} labelled" in _progress(page)
        before = _corrected_interval(page)
        assert before.startswith("[")  # a corrected interval already (22 labelled tasks)
        page.get_by_role("heading", name="Review queue").first.click()  # focus on the page, not in a box
        for i, key in enumerate("yynyn"):
            page.keyboard.press(key)
            page.wait_for_timeout(300)
            wait_idle(page)
            assert f"{len(given) + i + 1} of {total} labelled" in _progress(page), (key, _progress(page))
        moved = _corrected_interval(page)
        assert len(store.labels(run_id)) == len(given) + 5  # stored the moment they were given

        page.reload()
        wait_idle(page, 180_000)
        page.get_by_role("heading", name="Review queue").first.wait_for()
        assert f"{len(given) + 5} of {total} labelled" in _progress(page)
        assert _corrected_interval(page) == moved != before
