"""AppTests of the trend (History) and the per-assistant breakdown (Overview), found by widget key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.assistant_breakdown import by_assistant
from agentic_core.evaluate import evaluate
from agentic_core.runs import RunStore
from agentic_core.settings import make_settings
from tests.datasets import conv, convs
from tests.pages.conftest import OpenApp, judge_travel
from ui.format import pct

HISTORY = "pages/history.py"


def _by_key(at: AppTest, kind: str, key: str) -> list[Any]:
    """Elements of a kind whose key (or whose keyed container's key) is ``key``."""
    found = []

    def walk(node: Any, inside: bool) -> None:
        proto_id = getattr(getattr(node, "proto", None), "id", "") or ""
        here = inside or proto_id.endswith(f"-{key}") or proto_id == key
        if getattr(node, "type", None) == kind and here:
            found.append(node)
        for child in getattr(node, "children", {}).values():
            walk(child, here)

    walk(at._tree, False)
    return found


def test_one_run_of_a_dataset_says_so_and_two_draw_the_trend(open_app: OpenApp, history: Path) -> None:
    at = open_app()
    judge_travel(at)
    at.switch_page(HISTORY).run()
    assert not at.exception
    assert "only stored run of this dataset" in " ".join(i.value for i in at.info)
    assert not _by_key(at, "plotly_chart", "history_trend_chart")

    at.switch_page("pages/run.py").run()
    at.button(key="run_start").click().run()
    at.switch_page(HISTORY).run()
    assert not at.exception and not at.error
    assert _by_key(at, "plotly_chart", "history_trend_chart"), "the trend chart is drawn"
    tables = _by_key(at, "dataframe", "history_trend")
    assert len(tables) == 1
    table = tables[0].value
    store = RunStore(history)
    older, newer = sorted(store.runs(), key=lambda m: m.created_at)
    assert table["id"].tolist() == [older.id, newer.id]
    result = store.open(older.id)
    agg = aggregate(result, make_settings(threshold=round(result.recommended_threshold, 2)))
    assert table["success rate"].tolist() == [pct(agg.headline.success_rate)] * 2
    assert table["selected"].tolist().count("●") == 1


def _two_assistants(path: Path) -> Path:
    records = []
    for t in range(3):
        for i in range(3):
            records.append({**conv(f"a-{t}-{i}", [1.0], task=f"t{t}"), "assistant_id": "alpha"})
            records.append({**conv(f"b-{t}-{i}", [1.0 if i == 0 else 0.0], task=f"t{t}"), "assistant_id": "beta"})
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    return path


def test_overview_breaks_a_run_down_by_assistant(open_app: OpenApp, tmp_path: Path) -> None:
    data = _two_assistants(tmp_path / "two.jsonl")
    at = open_app(data=data)
    assert not at.exception and not at.error
    assert "By assistant" in [s.value for s in at.subheader]
    assert _by_key(at, "plotly_chart", "overview_assistant_chart")
    (table,) = _by_key(at, "dataframe", "overview_by_assistant")
    frame = table.value
    assert frame["assistant"].tolist() == ["alpha", "beta"]
    records = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    settings = make_settings(threshold=at.slider(key="threshold").value)
    rows = by_assistant(aggregate(evaluate(convs(records), "dataset", cache_mode="off"), settings))
    assert frame["success rate"].tolist() == [pct(r.success_rate) for r in rows]
    # Settings move the breakdown with the cards.
    at.select_slider(key="k").set_value(2).run()
    frame = _by_key(at, "dataframe", "overview_by_assistant")[0].value
    assert "pass@2" in frame.columns


def test_one_assistant_has_no_breakdown(open_app: OpenApp) -> None:
    at = open_app()
    assert "By assistant" not in [s.value for s in at.subheader]
    assert not _by_key(at, "plotly_chart", "overview_assistant_chart")
