"""Compare page: two stored runs or two assistants of the current run, flipped tasks into the Explorer, leaderboard."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.evaluate import evaluate
from agentic_core.runs import RunStore
from tests.analysis.test_compare_runs import agent
from tests.datasets import convs
from tests.pages.conftest import OpenApp

COMPARE = "pages/compare.py"


@pytest.fixture
def three_agents(tmp_path: Path) -> Path:
    path = tmp_path / "three.jsonl"
    records = [*agent("low", set(range(5))), *agent("mid", set(range(15))), *agent("high", set(range(27)))]
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    return path


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first table with ``column`` (AppTest does not carry a dataframe's key)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def text_of(at: object) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]  # type: ignore[attr-defined]
    return " ".join(str(p) for p in parts)


def test_with_one_assistant_and_no_history_it_says_what_is_needed(open_app: OpenApp, history: Path) -> None:
    at = open_app(COMPARE)
    assert not at.exception and not at.error
    assert at.radio(key="compare_source").value == "runs"
    assert "Two stored runs are needed" in text_of(at)
    at.radio(key="compare_source").set_value("assistants").run()
    assert "has one assistant" in text_of(at)
    assert "three or more assistants" in text_of(at)


def test_two_assistants_of_the_current_run_and_the_leaderboard(
    open_app: OpenApp, history: Path, three_agents: Path
) -> None:
    at = open_app(COMPARE, data=three_agents)
    assert not at.exception and not at.error
    assert at.radio(key="compare_source").value == "assistants"
    at.selectbox(key="compare_assistant_a").set_value("mid").run()
    at.selectbox(key="compare_assistant_b").set_value("high").run()
    assert not at.exception and not at.error
    values = {m.label: m.value for m in at.metric}
    assert values["Paired tasks"] == "30"
    assert values["Delta (B - A)"] == "+40.0 pts"
    flipped = table_with(at, "change")
    assert list(flipped["task"]) == [f"t{i}" for i in range(15, 27)]
    assert set(flipped["change"]) == {"fixed in B"}
    board = table_with(at, "P(rank 1)")
    assert list(board["assistant"]) == ["high", "mid", "low"]
    assert board["P(rank 1)"].iloc[0] > 0.95
    at.radio(key="compare_leaderboard_metric").set_value("pass_pow_k").run()
    assert not at.exception and "pass^k" in text_of(at)


def test_two_stored_runs_and_a_flipped_task_opens_in_the_explorer(open_app: OpenApp, history: Path) -> None:
    store = RunStore(history)
    old = store.save(evaluate(convs(agent("v1", set(range(15)))), "dataset", cache_mode="off"), "before")
    new = store.save(evaluate(convs(agent("v2", set(range(20)))), "dataset", cache_mode="off"), "after")
    at = open_app(COMPARE)
    assert at.radio(key="compare_source").value == "runs"
    assert (at.selectbox(key="compare_run_a").value, at.selectbox(key="compare_run_b").value) == (old.id, new.id)
    assert not at.exception and not at.error
    assert {m.label: m.value for m in at.metric}["Delta (B - A)"] == "+16.7 pts"
    assert len(table_with(at, "change")) == 5
    at.selectbox(key="compare_flipped_task").set_value("t17").run()
    at.button(key="compare_open_explorer").click().run()
    assert not at.exception
    assert at.text_input(key="explorer_search").value == "v2-17"
    assert at.query_params.get("run") in (new.id, [new.id])


def test_p_b_greater_a_is_explained_in_the_glossary_s_words(
    open_app: OpenApp, history: Path, three_agents: Path
) -> None:
    # Issue 36: the page's guide said "near 50% means no real difference" and its card the method, while the
    # Glossary spoke of bootstrap shares; the page now shows the glossary's one text, in the guide and the card.
    from agentic_core.glossary import ANCHORS

    words = ANCHORS["p-b-greater-a"].plain
    at = open_app(COMPARE, data=three_agents)
    at.selectbox(key="compare_assistant_a").set_value("mid").run()
    at.selectbox(key="compare_assistant_b").set_value("high").run()
    assert not at.exception and not at.error
    card = next(m for m in at.metric if m.label == "P(B > A)")
    assert card.proto.help.startswith(words) and "/glossary#p-b-greater-a" in card.proto.help
    assert words in text_of(at)  # the "How to read this page" guide
    assert "no real difference" not in text_of(at)
