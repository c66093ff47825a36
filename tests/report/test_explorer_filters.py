"""The Explorer's filters, severity order, URL parameters, highlighting and word diff (pure functions)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.data.overrides import Override
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.report.explorer import conversation_index, explorer_table
from agentic_core.report.explorer_filters import (
    DEFAULT_FILTERS,
    ExplorerFilters,
    FilterIndex,
    conversation_param,
    diff_html,
    filter_mask,
    filters_from_query,
    filters_to_query,
    highlight,
    resolve_conversation,
    severity_order,
    tokens,
    word_diff,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import AggregateSettings, make_settings
from tests.conftest import HAND_MADE
from tests.fakes import FakeJudge


def rows(mask: np.ndarray) -> list[int]:
    return np.flatnonzero(mask).tolist()


@pytest.fixture(scope="module")
def labelled() -> EvaluationResult:
    """HAND_MADE plus a third conversation by another assistant/task; h2's i5 has a human label 1."""
    records = copy.deepcopy(HAND_MADE)
    records[1]["conversation"][1]["human_label"] = 1
    records.append(
        {
            "session_id": "h3",
            "assistant_id": "other",
            "task_key": "t3",
            "conversation": [{"qa_id": "i6", "query": "q", "assistant": "a", "ground_truth_assistant": "t"}],
        }
    )
    report = load_records(records)
    assert not report.skipped
    # scores per interaction in judging order: i1 .. i6 (i3 unscored, i5 judged 0.2)
    return evaluate(report, FakeJudge([0.9, 0.8, None, 0.3, 0.2, 0.95]), cache_mode="off")


def test_each_filter_alone_and_combined(labelled: EvaluationResult) -> None:
    agg = aggregate(labelled, AggregateSettings())
    index = FilterIndex.build(labelled)
    assert rows(filter_mask(labelled, agg, index, DEFAULT_FILTERS)) == [0, 1, 2]
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(assistants=("other",)))) == [2]
    task = str(index.task_keys[2])
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(tasks=(task,)))) == [2]
    assert index.tool_names == ["book", "convert", "lookup", "search", "weather"]
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(tools=("lookup",)))) == [0]  # used only
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(tools=("weather",)))) == [0, 1]  # expected
    below = ExplorerFilters(tool_dimension="selection", tool_below=0.99)
    assert 0 in rows(filter_mask(labelled, agg, index, below))
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(tool_below=0.0))) == []
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(score_min=0.0, score_max=0.25))) == [1]
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(score_min=0.9))) == [0, 2]
    failed = str(labelled.interactions["judge_error"].iat[2])[:6]
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(unscored_reason=failed.upper()))) == [0]
    # human_label 1 on i5 vs judge 0.2 < 0.5: a disagreement
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(disagreement=True))) == [1]
    both = ExplorerFilters(assistants=("bot",), score_min=0.85, statuses=("unscored",))
    assert rows(filter_mask(labelled, agg, index, both)) == [0]
    search = np.array([False, True, True])
    assert rows(filter_mask(labelled, agg, index, ExplorerFilters(score_min=0.9), search)) == [2]


def test_an_override_counts_as_a_human_verdict(labelled: EvaluationResult) -> None:
    overridden = EvaluationResult(**{**labelled.__dict__, "overrides": {0: Override(row=0, correct=False)}})
    index = FilterIndex.build(overridden)
    agg = aggregate(overridden, AggregateSettings())
    assert rows(filter_mask(overridden, agg, index, ExplorerFilters(disagreement=True))) == [0, 1]


def test_severity_order_is_the_documented_key() -> None:
    table = pd.DataFrame(
        {
            "row": [0, 1, 2, 3, 4, 5],
            "status": ["correct", "incorrect", "incorrect", "unscored", "incorrect", "incorrect"],
            "interactions": [2, 3, 3, 3, 3, 3],
            "correct": [2, 2, 0, 1, 2, 2],
            "unscored": [0, 0, 0, 1, 0, 1],
            "min_score": [0.9, 0.4, 0.6, 0.2, 0.4, 0.4],
            "tool_correct": [0, 0, 0, 0, 0, 0],
            "tool_scored": [0, 0, 0, 0, 2, 0],
        }
    )
    # 2: three wrong; then one wrong at 0.4: row 5 has no wrong... (3-2-1=0) -> after; 4 has a tool failure
    assert severity_order(table)["row"].tolist() == [2, 4, 1, 5, 3, 0]


def test_explorer_table_uses_the_severity_order(travel: EvaluationResult) -> None:
    table = explorer_table(aggregate(travel, make_settings(threshold=0.7)), conversation_index(travel))
    assert table["row"].tolist() == severity_order(table.sample(frac=1, random_state=1))["row"].tolist()
    wrong = (table["interactions"] - table["correct"] - table["unscored"])[table["status"] == "incorrect"]
    assert wrong.is_monotonic_decreasing


def test_query_round_trip_and_bad_values_named() -> None:
    filters = ExplorerFilters(
        statuses=("incorrect",),
        search="paris",
        tools=("search", "book"),
        tool_dimension="parameters",
        tool_below=0.5,
        score_min=0.2,
        score_max=0.8,
        unscored_reason="timeout",
        disagreement=True,
    )
    query = filters_to_query(filters)
    assert query["tool"] == "search,book" and query["disagree"] == "true" and query["tool_below"] == "0.5"
    assert filters_from_query(query) == (filters, [])
    assert filters_to_query(DEFAULT_FILTERS) == {}
    back, messages = filters_from_query(
        {"status": "wrong", "tool_below": "2", "tool_dim": "speed", "disagree": "maybe", "task": "nope"},
        {"task": ["t1", "t2"]},
    )
    assert back == DEFAULT_FILTERS and len(messages) == 5
    assert all("was ignored" in m for m in messages) and any("t1, t2" in m for m in messages)
    back, messages = filters_from_query({"score_min": "80%", "score_max": "0.3"})
    assert (back.score_min, back.score_max) == (0.0, 1.0) and "empty" in messages[0]


def test_conversation_param_names_a_unique_session_or_the_row() -> None:
    ids = pd.Series(["a", "b", "a"])
    assert [conversation_param(ids, r) for r in range(3)] == ["#0", "b", "#2"]
    assert resolve_conversation(ids, "b") == 1 and resolve_conversation(ids, "a") == 0
    assert resolve_conversation(ids, "#2") == 2
    assert resolve_conversation(ids, "#9") is None and resolve_conversation(ids, "zz") is None


def test_highlight_escapes_and_marks_every_match() -> None:
    assert highlight("Paris <b>paris</b> *x*", "PARIS") == (
        "<mark>Paris</mark> &lt;b&gt;<mark>paris</mark>&lt;/b&gt; *x*"
    )
    assert highlight("a.b", ".") == "a<mark>.</mark>b"  # literal, not a pattern
    assert highlight("<i>", "") == "&lt;i&gt;"


def test_word_diff_marks_numbers_names_and_dates() -> None:
    assert "".join(tokens("It costs $42.50, ok?")) == "It costs $42.50, ok?"
    parts = word_diff(
        "The flight to Lisbon costs 420 euros on 12 May.", "The flight to Porto costs 380 euros on 12 May."
    )
    changed = [(p.op, p.text, p.salient) for p in parts if p.op != "equal"]
    assert ("removed", "Porto", True) in changed and ("added", "Lisbon", True) in changed
    assert ("removed", "380", True) in changed and ("added", "420", True) in changed
    assert all(p.text != "12" for p in parts if p.op != "equal")
    plain = word_diff("it is nice", "it is good")
    assert [(p.op, p.text, p.salient) for p in plain if p.op != "equal"] == [
        ("removed", "good", False),
        ("added", "nice", False),
    ]
    assert word_diff("Same words", "same words")[0].op == "equal"
    html = diff_html(word_diff("<script>1</script>", "<script>2</script>"))
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>2</b>" in html


def test_a_capitalised_word_starting_a_sentence_is_not_a_name() -> None:
    parts = word_diff("There is a flight. Then Rome.", "The flight. Then Paris.")
    flagged = {p.text.strip(): p.salient for p in parts if p.op != "equal"}
    assert flagged.get("Rome") is True and flagged.get("Paris") is True
    assert not any(p.salient for p in parts if p.op != "equal" and "There" in p.text)


def test_the_score_and_unscored_filters_follow_the_abstention_band() -> None:
    from tests.band_fakes import band_run

    # Fitted band (0.2, 0.8): 0.5 and 0.7 abstain, 0.1 and 0.9 are decided.
    run = band_run([0.1, 0.5, 0.7, 0.9])
    index = FilterIndex.build(run)
    fitted = aggregate(run, make_settings())
    narrow = aggregate(run, make_settings(abstain_band=(0.6, 0.6)))  # decides everything but 0.6 itself
    wide = aggregate(run, make_settings(abstain_band=(0.05, 0.95)))  # abstains on all four
    uncertain = ExplorerFilters(unscored_reason="uncertain")
    assert rows(filter_mask(run, fitted, index, uncertain)) == [1, 2]
    assert rows(filter_mask(run, narrow, index, uncertain)) == []
    assert rows(filter_mask(run, wide, index, uncertain)) == [0, 1, 2, 3]
    high = ExplorerFilters(score_min=0.6, score_max=1.0)
    assert rows(filter_mask(run, fitted, index, high)) == [3]
    assert rows(filter_mask(run, narrow, index, high)) == [2, 3]  # 0.7 is scored by its probability there
    assert rows(filter_mask(run, wide, index, high)) == []
