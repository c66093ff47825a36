"""AppTest of the Agentic metrics page, driven by widget keys (offline: the dataset judge, a temporary cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pages.conftest import OpenApp

PAGE = "pages/agentic_metrics.py"
RAGAS = Path(__file__).resolve().parents[2] / "sample_data" / "ragas_multiturn.jsonl"


def test_compute_then_selectors_reaggregate_without_judging(open_app: OpenApp) -> None:
    at = open_app(PAGE, RAGAS)
    assert [t.value for t in at.title] == ["Agentic metrics"]
    at.button(key="agentic_compute").click().run()
    assert not at.exception and not at.error
    labels = [m.label for m in at.metric]
    assert "Tool call accuracy" in labels and "Goal accuracy" in labels
    assert "(strict)" in next(m.proto.help for m in at.metric if m.label == "Tool call accuracy")
    at.radio(key="agentic_order").set_value("flexible").run()
    assert not at.exception
    assert "(flexible)" in next(m.proto.help for m in at.metric if m.label == "Tool call accuracy")
    at.radio(key="agentic_variant").set_value("ragas").run()
    at.radio(key="agentic_mode").set_value("precision").run()
    assert any(m.label == "Topic adherence (precision)" for m in at.metric)
    table = at.dataframe[0].value
    assert {"tool_call_accuracy", "topic_adherence", "goal_accuracy"} <= set(table.columns)
    below = at.select_slider(key="agentic_below")
    # Issue 36: the slider read "below 1.01" for "no filter"; its stops are 0.00 to 1.00, then "off".
    assert below.value == "off: every conversation" and len(at.dataframe[0].value) == len(table)
    assert "1.01" not in below.options and below.options[-2:] == ["1.00", "off: every conversation"]
    below.set_value(0.5).run()
    assert not at.exception
    assert len(at.dataframe[0].value) <= len(table)


def test_without_metrics_the_page_offers_the_compute_button(open_app: OpenApp) -> None:
    at = open_app(PAGE)
    assert not at.exception and at.button(key="agentic_compute")
    assert any("evaluated without the agentic metrics" in i.value for i in at.info)


def test_the_explorer_filters_by_an_agentic_metric(open_app: OpenApp) -> None:
    at = open_app(PAGE, RAGAS)
    at.button(key="agentic_compute").click().run()
    at.switch_page("pages/explorer.py").run()
    assert not at.exception
    at.selectbox(key="explorer_agentic_metric").set_value("tool call accuracy").run()
    at.select_slider(key="explorer_agentic_below").set_value(0.5).run()
    assert not at.exception
    assert any("Showing **1** of 5" in c.value for c in at.caption)


def test_computed_metrics_are_kept_in_the_run_history(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, open_app: OpenApp
) -> None:
    from agentic_core.runs import RunStore
    from ui import runs

    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(tmp_path / "runs.sqlite3"))
    runs._open_store.clear()
    try:
        # The first run (not stored yet) is stored when its metrics are computed, with them.
        at = open_app(PAGE, RAGAS)
        assert any("made on the **Run** page" in i.value for i in at.info)  # LLM-judged ones: not here
        at.button(key="agentic_compute").click().run()
        assert not at.exception and not at.warning
        [meta] = RunStore().runs()
        first = RunStore().open(meta.id).agentic
        assert first is not None and first.goal_judge.startswith("lexical")

        # A run made on the Run page is stored at once; computing later records them on that same run.
        at.switch_page("pages/run.py").run()
        at.radio(key="run_judge").set_value("lexical").run()
        at.button(key="run_start").click().run()
        assert not at.exception
        at.switch_page(PAGE).run()
        at.button(key="agentic_compute").click().run()
        assert not at.exception and not at.warning
        stored = RunStore().runs()
        assert len(stored) == 2
        newest = RunStore().open(stored[0].id).agentic
        assert newest is not None and newest.metrics == ("tool_call_accuracy", "topic_adherence", "goal_accuracy")
    finally:
        runs._open_store.clear()
