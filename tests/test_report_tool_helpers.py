"""Unit tests of the small report helpers used by the Tools page."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.report import interaction_tool_names, normalised_tool_weights
from agentic_core.settings import ToolWeights


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


def test_normalised_tool_weights_sum_to_one_and_keep_ratios() -> None:
    out = normalised_tool_weights(ToolWeights(selection=2.0, parameters=1.0, sequence=1.0, utilization=0.0))
    assert out == pytest.approx({"selection": 0.5, "parameters": 0.25, "sequence": 0.25, "utilization": 0.0})
    assert normalised_tool_weights(ToolWeights()) == pytest.approx(dict.fromkeys(out, 0.25))
