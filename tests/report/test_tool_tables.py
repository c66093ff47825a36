"""The Tools page's tables and the expected-vs-used diff (agentic_core.report.tool_tables)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.report.tool_tables import (
    failing_tool_calls,
    filter_failing_calls,
    interaction_tool_names,
    tool_breakdown,
    tool_diff,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings


def test_tool_breakdown_counts_missing_extra_and_parameter_errors(hand_made: EvaluationResult) -> None:
    table = tool_breakdown(hand_made).set_index("tool_name")
    expected = {
        # expected, used, matched, missing, extra, calls with parameter errors, parameter errors
        "search": (2, 3, 2, 0, 1, 1, 1),
        "book": (1, 1, 1, 0, 0, 1, 1),
        "weather": (2, 0, 0, 1, 0, 0, 0),
        "convert": (1, 1, 1, 0, 0, 1, 2),
        "lookup": (0, 1, 0, 0, 1, 0, 0),
    }
    columns = [
        "expected_calls",
        "used_calls",
        "matched",
        "missing",
        "extra",
        "calls_with_parameter_errors",
        "parameter_errors",
    ]
    assert sorted(table.index) == sorted(expected)
    for name, counts in expected.items():
        assert tuple(int(x) for x in table.loc[name, columns]) == counts, name
    agreement = table["mean_parameter_agreement"]
    assert agreement["search"] == pytest.approx((1.0 + 0.5) / 2)
    assert agreement["book"] == 0.0 and agreement["convert"] == pytest.approx(1 / 3)
    assert math.isnan(agreement["weather"]) and math.isnan(agreement["lookup"])
    # worst first: missing, then extra, then parameter errors
    assert list(table.index) == ["weather", "search", "lookup", "convert", "book"]


def test_failing_tool_calls_are_worst_first(hand_made: EvaluationResult) -> None:
    agg = aggregate(hand_made, make_settings(threshold=0.7, tool_threshold=1.0))
    failing = failing_tool_calls(hand_made, agg)
    assert sorted(failing["qa_id"]) == ["i1", "i2", "i3", "i4"]  # i5 has no tools
    overall = failing["tool_overall"].tolist()
    assert overall == sorted(overall)
    assert failing["qa_id"].iloc[0] == "i2" and overall[0] == 0.0  # nothing called: worst
    assert failing.loc[failing["qa_id"] == "i2", "missing"].item() == "weather"
    assert failing.loc[failing["qa_id"] == "i3", "extra"].item() == "lookup"
    assert failing.loc[failing["qa_id"] == "i3", "parameter_errors"].item() == 2
    assert hand_made.interactions["qa_id"].iloc[failing["row"]].tolist() == failing["qa_id"].tolist()
    # a lower tool threshold keeps only the calls below it
    lenient = failing_tool_calls(hand_made, aggregate(hand_made, make_settings(tool_threshold=0.8)))
    assert set(lenient["qa_id"]) == set(failing.loc[failing["tool_overall"] < 0.8 - 1e-9, "qa_id"])
    assert len(lenient) < len(failing)


def test_tool_diff_pairs_calls_and_splits_parameter_errors_per_pair(hand_made: EvaluationResult) -> None:
    interactions = [i for c in hand_made.conversations for i in c.conversation]
    comps = hand_made.tool_components
    first = tool_diff(interactions[0], comps[0])  # type: ignore[arg-type]
    assert first["diff"].tolist() == ["match", "extra", "parameter mismatch"]
    assert first["used_call"].tolist() == ["#1 search (step 1)", "#2 search (step 2)", "#3 book (step 3)"]
    assert first["mismatches"].iloc[2] == "id: expected 1, got 2 (values differ)"
    assert json.loads(first["expected_parameters"].iloc[2]) == {"id": 1}
    assert first["result"].iloc[0] == '{"ok": true}'
    assert first["agreement"].iloc[0] == 1.0 and math.isnan(first["agreement"].iloc[1])
    second = tool_diff(interactions[1], comps[1])  # type: ignore[arg-type]
    assert second["diff"].tolist() == ["missing"] and second["used_call"].tolist() == [""]
    third = tool_diff(interactions[2], comps[2])  # type: ignore[arg-type]
    assert third["diff"].tolist() == ["parameter mismatch", "extra"]
    assert third["mismatches"].iloc[0].count("expected") == 2  # both swapped parameters, in this pair only
    assert "dst" in third["mismatches"].iloc[0] and "src" in third["mismatches"].iloc[0]
    fourth = tool_diff(interactions[3], comps[3])  # type: ignore[arg-type]
    assert fourth["diff"].tolist() == ["parameter mismatch", "optional, not called"]
    assert fourth["mismatches"].iloc[0] == "page: not expected, got 2"
    assert fourth["expected_call"].iloc[1] == "#2 weather (step 2) (optional)"


def _interaction(qa_id: str, expected: list[str] | None, used: list[str] | None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "qa_id": qa_id,
        "query": "q",
        "assistant": "a",
        "ground_truth_assistant": "a",
        "score": 1.0,
    }
    if used is not None:
        item["agentic"] = {
            "tools_used": [
                {"tool_name": n, "parameters": {}, "result": None, "step": i + 1} for i, n in enumerate(used)
            ],
            "final_answer_uses_tools": True,
        }
    if expected is not None:
        item["ground_truth_agentic"] = {
            "expected_tools": [{"tool_name": n, "parameters": {}, "step": i + 1} for i, n in enumerate(expected)],
            "tool_sequence_matters": False,
        }
    return item


def test_interaction_tool_names_unions_expected_and_used_per_interaction_in_order() -> None:
    records = [
        {
            "session_id": "s1",
            "assistant_id": "a",
            "conversation": [
                _interaction("q1", ["search", "book"], ["search", "search"]),
                _interaction("q2", None, None),
            ],
        },
        {
            "session_id": "s2",
            "assistant_id": "a",
            "conversation": [_interaction("q3", None, ["weather"]), _interaction("q4", ["zeta"], None)],
        },
    ]
    result = evaluate(load_records(json.loads(json.dumps(records))), "dataset", cache_mode="off")
    names = interaction_tool_names(result)
    assert list(names) == [("book", "search"), (), ("weather",), ("zeta",)]
    assert len(names) == result.n_interactions


def test_filter_failing_calls_keeps_rows_by_tool_and_literal_search(hand_made: EvaluationResult) -> None:
    agg = aggregate(hand_made, make_settings())
    failing = failing_tool_calls(hand_made, agg)
    names = interaction_tool_names(hand_made)
    everything = filter_failing_calls(failing, names)
    assert len(everything) == len(failing)
    assert everything["tools"].tolist() == [", ".join(names.iloc[r]) for r in failing["row"]]
    weather = filter_failing_calls(failing, names, ["weather"])
    assert set(weather["qa_id"]) == {"i2", "i4"}  # expected weather (missing, or optional and not called)
    assert filter_failing_calls(failing, names, ["convert"])["qa_id"].tolist() == ["i3"]
    # Search is literal and case-insensitive, over ids, tools, missing / extra calls and reasoning.
    assert filter_failing_calls(failing, names, term="LOOKUP")["qa_id"].tolist() == ["i3"]
    assert filter_failing_calls(failing, names, term="h2")["qa_id"].tolist() == ["i4"]
    assert filter_failing_calls(failing, names, term="(.*)").empty
    assert filter_failing_calls(failing, names, ["convert"], term="h2").empty

