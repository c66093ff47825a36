"""Tags, note and metadata on the pages: set on the Run page, filtered and edited on History, trend lines per
group, Compare's sides picked per group."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from agentic_core.evaluate import evaluate
from agentic_core.runs import RunMeta, RunStore, RunTags
from tests.analysis.test_compare_runs import agent
from tests.datasets import convs
from tests.pages.conftest import OpenApp, judge_travel

HISTORY = "pages/history.py"
COMPARE = "pages/compare.py"


def _save(store: RunStore, passing: int, tags: list[str], name: str | None = None, **metadata: str) -> RunMeta:
    result = evaluate(convs(agent("bot", set(range(passing)), tasks=range(10))), "dataset", cache_mode="off")
    return store.save(result, "bot.jsonl", name=name, tags=RunTags.checked(tags, "", metadata))


def _chart(at: AppTest, key: str) -> dict[str, Any] | None:
    """The figure of the plotly chart with ``key`` (its element id ends with the key), if drawn."""
    for chart in at.get("plotly_chart"):
        if chart.proto.id.endswith(f"-{key}") or chart.proto.id == key:
            return dict(json.loads(chart.proto.spec))
    return None


def test_the_run_page_stores_its_tags_with_the_run(open_app: OpenApp, history: Path) -> None:
    at = open_app()
    at.switch_page("pages/data.py").run()
    at.button(key="sample_travel").click().run()
    at.switch_page("pages/run.py").run()
    at.radio(key="run_judge").set_value("dataset").run()
    at.multiselect(key="run_tags").set_value(["nightly", "prompt-v2"]).run()
    at.text_area(key="run_note").set_value("after the prompt change").run()
    at.text_area(key="run_meta").set_value("model=gpt-4o\nagent_version=1.4.2").run()
    assert not at.exception and not at.error
    at.button(key="run_start").click().run()
    assert not at.exception
    (stored,) = RunStore(history).runs()
    assert stored.run_tags == RunTags.checked(
        ["nightly", "prompt-v2"], "after the prompt change", {"model": "gpt-4o", "agent_version": "1.4.2"}
    )


def test_the_run_page_refuses_a_credential_and_will_not_run(open_app: OpenApp, history: Path) -> None:
    at = judge_travel(open_app())  # one run stored, without tags
    at.text_area(key="run_meta").set_value("api_key=abc").run()
    assert "must not name a credential" in " ".join(e.value for e in at.error)
    assert at.button(key="run_start").disabled
    at.text_area(key="run_meta").set_value("model=sk-abcdefghijklmnopqrstuvwxyz").run()
    errors = " ".join(e.value for e in at.error)
    assert "must not hold a credential" in errors and "sk-abcdefghijklmnopqrstuvwxyz" not in errors
    assert at.button(key="run_start").disabled
    assert [m.run_tags for m in RunStore(history).runs()] == [RunTags()]


def test_history_filters_on_tags_words_and_metadata(open_app: OpenApp, history: Path) -> None:
    store = RunStore(history)
    a = _save(store, 3, ["baseline"], model="gpt-4o")
    b = _save(store, 6, ["candidate", "prompt-v2"], model="claude")
    c = _save(store, 8, [])
    store.set_tags(c.id, RunTags.checked(note="retry with the Prompt fix"))
    at = open_app(HISTORY)
    table = lambda: at.dataframe[0].value["id"].tolist()  # noqa: E731
    assert table() == [c.id, b.id, a.id]
    assert at.dataframe[0].value["tags"].tolist() == ["", "candidate, prompt-v2", "baseline"]
    assert at.multiselect(key="history_filter_tags").options == ["baseline", "candidate", "prompt-v2"]

    at.multiselect(key="history_filter_tags").set_value(["prompt-v2"]).run()
    assert table() == [b.id]
    at.multiselect(key="history_filter_tags").set_value([]).run()
    at.text_input(key="history_search").set_value("prompt FIX").run()
    assert table() == [c.id]
    at.text_input(key="history_search").set_value("").run()
    at.selectbox(key="history_filter_key").set_value("model").run()
    at.selectbox(key="history_filter_value").set_value("gpt-4o").run()
    assert table() == [a.id] and not at.exception
    at.text_input(key="history_search").set_value("nothing like this").run()
    assert "matches the filters" in " ".join(i.value for i in at.info) and not at.exception


def test_history_edits_the_selected_runs_tags(open_app: OpenApp, history: Path) -> None:
    store = RunStore(history)
    a = _save(store, 3, ["baseline"], model="gpt-4o")
    b = _save(store, 6, ["candidate"])
    at = open_app(HISTORY)
    at.selectbox(key="history_run").set_value(a.id).run()
    assert at.multiselect(key="history_edit_tags").value == ["baseline"]
    assert at.text_area(key="history_edit_meta").value == "model=gpt-4o"
    at.multiselect(key="history_edit_tags").set_value(["baseline", "reviewed"]).run()
    at.text_area(key="history_edit_note").set_value("checked by hand").run()
    at.text_area(key="history_edit_meta").set_value("model=gpt-4o\nprompt_hash=9f2c").run()
    at.button(key="history_save_tags").click().run()
    assert not at.exception and "Saved the tags" in " ".join(s.value for s in at.success)
    assert store.meta(a.id).run_tags == RunTags.checked(
        ["baseline", "reviewed"], "checked by hand", {"model": "gpt-4o", "prompt_hash": "9f2c"}
    )
    at.selectbox(key="history_run").set_value(b.id).run()  # the editor now holds the other run's own
    assert at.multiselect(key="history_edit_tags").value == ["candidate"]
    assert at.text_area(key="history_edit_note").value == ""
    at.multiselect(key="history_edit_tags").set_value(["two words"]).run()
    assert "one word" in " ".join(e.value for e in at.error) and at.button(key="history_save_tags").disabled
    assert store.meta(b.id).run_tags.tags == ("candidate",)


def test_the_trend_draws_one_line_per_metadata_value(open_app: OpenApp, history: Path) -> None:
    # A trend is of one dataset: the same data judged three times, told apart by name.
    store = RunStore(history)
    _save(store, 5, ["baseline"], "first", model="gpt-4o")
    _save(store, 5, ["candidate"], "second", model="claude")
    _save(store, 5, ["candidate"], "third", model="gpt-4o")
    at = open_app(HISTORY)
    assert _chart(at, "history_trend_chart") is not None and _chart(at, "history_trend_grouped_chart") is None
    assert at.selectbox(key="history_trend_group").options[1:] == ["tag", "metadata: model"]
    assert at.dataframe[1].value["tags"].tolist() == ["baseline", "candidate", "candidate"]  # the trend's table

    def lines() -> dict[str, list[str]]:
        figure = _chart(at, "history_trend_grouped_chart")
        assert figure is not None and not at.exception and not at.error
        return {trace["name"]: [row[1] for row in trace["customdata"]] for trace in figure["data"]}

    at.selectbox(key="history_trend_group").set_value("metadata: model").run()
    assert lines() == {"claude": ["second"], "gpt-4o": ["first", "third"]}
    at.selectbox(key="history_trend_group").set_value("tag").run()
    assert lines() == {"baseline": ["first"], "candidate": ["second", "third"]}
    assert _chart(at, "history_trend_chart") is None


def test_compare_picks_each_side_from_a_group(open_app: OpenApp, history: Path) -> None:
    store = RunStore(history)
    gpt_old = _save(store, 3, ["nightly"], model="gpt-4o")
    claude = _save(store, 6, ["nightly"], model="claude")
    gpt_new = _save(store, 8, [], model="gpt-4o")
    at = open_app(COMPARE)
    assert at.radio(key="compare_source").value == "runs"
    assert at.selectbox(key="compare_group_by").options[1:] == ["tag", "metadata: model"]
    at.selectbox(key="compare_group_by").set_value("metadata: model").run()
    at.selectbox(key="compare_group_a").set_value(1).run()  # groups sorted: claude, gpt-4o
    at.selectbox(key="compare_group_b").set_value(0).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="compare_run_a").options == [f"{gpt_new.name} ({gpt_new.id})",
                                                         f"{gpt_old.name} [nightly] ({gpt_old.id})"]  # fmt: skip
    assert at.selectbox(key="compare_run_a").value in (gpt_new.id, gpt_old.id)
    assert at.selectbox(key="compare_run_b").value == claude.id
    assert at.query_params["run_b"] in (claude.id, [claude.id])
