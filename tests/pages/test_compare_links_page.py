"""Compare keeps its two runs in the URL, defaults A to the previous run of the same data, says "the same verdicts"."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from agentic_core.evaluate import evaluate
from agentic_core.runs import RunStore
from tests.analysis.test_compare_runs import agent
from tests.datasets import convs
from tests.pages.conftest import APP, OpenApp

COMPARE = "pages/compare.py"


def param(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def stored(history: Path) -> dict[str, str]:
    store = RunStore(history)
    v1 = evaluate(convs(agent("v1", set(range(15)))), "dataset", cache_mode="off")
    v2 = evaluate(convs(agent("v2", set(range(20)))), "dataset", cache_mode="off")
    ids = {"v1": store.save(v1, "agent-v1").id}
    ids["v2"] = store.save(v2, "agent-v2").id
    ids["v1-again"] = store.save(v1, "agent-v1").id  # the same data and verdicts as v1
    return ids


def open_compare(open_app: OpenApp, **query: str) -> AppTest:
    open_app()  # the offline environment
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(COMPARE).run()
    assert not at.exception
    return at


def chosen(at: AppTest) -> tuple[str, str]:
    return at.selectbox(key="compare_run_a").value, at.selectbox(key="compare_run_b").value


def test_both_runs_go_into_the_url_and_a_link_reopens_them(open_app: OpenApp, history: Path) -> None:
    ids = stored(history)
    at = open_compare(open_app)
    # B the newest, A the previous run of the same data (not the unrelated v2 run in between).
    assert chosen(at) == (ids["v1"], ids["v1-again"])
    assert (param(at, "run_a"), param(at, "run_b")) == chosen(at)
    at.selectbox(key="compare_run_b").set_value(ids["v2"]).run()
    assert param(at, "run_b") == ids["v2"]
    again = open_compare(open_app, run_a=ids["v1"], run_b=ids["v2"])
    assert chosen(again) == (ids["v1"], ids["v2"])
    assert {m.label: m.value for m in again.metric}["Delta (B - A)"] == "+16.7 pts"


def test_a_link_to_a_missing_run_says_so(open_app: OpenApp, history: Path) -> None:
    ids = stored(history)
    at = open_compare(open_app, run_a="20990101-000000-dead", run_b=ids["v2"])
    assert chosen(at)[1] == ids["v2"]
    assert any("`20990101-000000-dead` is not in this history" in w.value for w in at.warning)
    assert not at.error


def test_identical_runs_say_the_same_verdicts(open_app: OpenApp, history: Path) -> None:
    ids = stored(history)
    at = open_compare(open_app, run_a=ids["v1"], run_b=ids["v1-again"])
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Delta (B - A)"] == "the same verdicts"
    assert "P(B > A)" not in metrics
    assert any("A and B have the same verdicts" in i.value for i in at.info)
