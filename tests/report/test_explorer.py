"""The Explorer's tables: failing first, search, drill-down (agentic_core.report.explorer)."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.errors import DataError
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.report.explorer import (
    STATUS_ORDER,
    SearchIndex,
    conversation_detail,
    conversation_index,
    explorer_table,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import AggregateSettings, make_settings
from tests.conftest import HAND_MADE, by_session, turn
from tests.fakes import FakeJudge


def test_explorer_table_lists_failing_first_and_filters(travel: EvaluationResult) -> None:
    agg = aggregate(travel, make_settings(threshold=0.7))
    index = conversation_index(travel)
    table = explorer_table(agg, index)
    assert len(table) == 40
    ranks = table["status"].map(STATUS_ORDER).tolist()
    assert ranks == sorted(ranks) and table["status"].iloc[0] == "incorrect"
    assert (table["status"] == "correct").sum() == 19  # sample README: 19 of 40 fully correct
    correct_only = explorer_table(agg, index, statuses=["correct"])
    assert len(correct_only) == 19 and set(correct_only["status"]) == {"correct"}
    mask = np.zeros(40, dtype=bool)
    mask[[0, 5]] = True
    assert sorted(explorer_table(agg, index, mask=mask)["row"]) == [0, 5]
    # a stricter threshold moves conversations to incorrect
    strict = explorer_table(aggregate(travel, make_settings(threshold=0.95)), index)
    assert (strict["status"] == "incorrect").sum() > (table["status"] == "incorrect").sum()


def test_conversation_index_identifies_repeated_session_ids_by_row() -> None:
    records = [
        {"session_id": "same", "assistant_id": f"agent_response_{i}", "conversation": [turn("q", None, None)]}
        for i in (1, 2, 3)
    ]
    result = evaluate(load_records(records, duplicate_key="session_id+assistant_id"), "dataset", cache_mode="off")
    index = conversation_index(result)
    assert index["row"].tolist() == [0, 1, 2]
    assert index["session_id"].tolist() == ["same"] * 3
    assert index["assistant_id"].tolist() == ["agent_response_1", "agent_response_2", "agent_response_3"]
    assert SearchIndex(result).search("RESPONSE_2").tolist() == [False, True, False]


def test_search_matches_ids_queries_and_answers_literally(travel: EvaluationResult) -> None:
    search = SearchIndex(travel)
    assert search.search("").all() and search.search("   ").all()
    by_id = search.search("TRV-007")
    assert by_id.tolist() == [c.session_id == "trv-007" for c in travel.conversations]
    lisbon = search.search("lisbon")
    expected = [
        any("lisbon" in (i.query + "\n" + i.assistant).lower() for i in c.conversation) for c in travel.conversations
    ]
    assert lisbon.tolist() == expected and 0 < lisbon.sum() < 40
    assert not search.search("(.*)").any()  # literal, not a regular expression
    assert not search.search("no such text anywhere").any()


def test_conversation_detail_shows_verdicts_and_the_tool_diff(seeds: EvaluationResult) -> None:
    agg = aggregate(seeds, make_settings(threshold=0.7))
    kyoto = conversation_detail(seeds, agg, by_session(seeds, "agentic_eval_session_08"))
    assert len(kyoto) == 1
    detail = kyoto[0]
    assert detail.status == "incorrect" and "<" in detail.verdict and "0.70" in detail.verdict
    assert detail.tool is not None and not detail.tool.is_correct
    assert detail.tool_diff is not None
    mismatch = detail.tool_diff[detail.tool_diff["diff"] == "parameter mismatch"]
    # the wrong city, and the converter fed the wrong city's temperature: one mismatch per pair
    assert mismatch["mismatches"].tolist() == [
        'city: expected "Tokyo", got "Kyoto" (values differ)',
        "value: expected 18, got 21 (values differ)",
    ]
    skipped = conversation_detail(seeds, agg, by_session(seeds, "agentic_eval_session_09"))[0]
    assert skipped.tool_diff is not None
    missing = skipped.tool_diff[skipped.tool_diff["diff"] == "missing"]
    assert missing["expected_call"].str.contains("unit_converter").all() and len(missing) == 1
    assert skipped.tool is not None and "unit_converter" in skipped.tool.reasoning
    capital = conversation_detail(seeds, agg, by_session(seeds, "agentic_eval_session_04"))[0]
    assert capital.tool is None and capital.tool_diff is None and capital.status == "correct"
    # the same interaction is incorrect under a stricter threshold
    strict = conversation_detail(seeds, aggregate(seeds, make_settings(threshold=0.99)), 0)[0]
    assert strict.status == "incorrect" and "0.99" in strict.verdict


def test_conversation_detail_explains_unscored_and_bad_rows() -> None:
    result = evaluate(load_records(HAND_MADE), FakeJudge([0.9, None, 0.9, 0.9, 0.9]), cache_mode="off")
    agg = aggregate(result, AggregateSettings())
    turns = conversation_detail(result, agg, 0)
    assert [t.status for t in turns] == ["correct", "unscored", "correct"]
    assert turns[1].judge_score is None and "Unscored" in turns[1].verdict and "excluded" in turns[1].verdict
    counted = conversation_detail(result, aggregate(result, make_settings(unscored_as_incorrect=True)), 0)
    assert "counted as incorrect" in counted[1].verdict
    for bad in (-1, 2, 99):
        with pytest.raises(DataError, match="conversation"):
            conversation_detail(result, agg, bad)
