"""Ragas samples: human / ai / tool messages, reference tool calls spread over turns, file order, located issues."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_bytes, load_paths, load_records

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "ragas_multiturn.jsonl"


def sample(**extra: Any) -> dict[str, Any]:
    """A two-turn MultiTurnSample: a weather lookup, then a conversion."""
    return {
        "user_input": [
            {"content": "Weather in New York?", "type": "human"},
            {"content": "", "type": "ai", "tool_calls": [{"name": "weather_check", "args": {"location": "New York"}}]},
            {"content": '{"temperature_f": 75}', "type": "tool"},
            {"content": "It's 75°F in New York.", "type": "ai"},
            {"content": "In Celsius?", "type": "human"},
            {"content": "", "type": "ai", "tool_calls": [{"name": "convert", "args": {"f": 75}}]},
            {"content": "23.9", "type": "tool"},
            {"content": "About 23.9°C.", "type": "ai"},
        ],
        "reference": "About 23.9°C.",
        "reference_tool_calls": [
            {"name": "weather_check", "args": {"location": "New York"}},
            {"name": "convert", "args": {"f": 75}},
        ],
        "reference_topics": ["weather"],
        **extra,
    }


def load(*records: Any, fmt: str = "auto") -> LoadReport:
    return load_bytes("ragas.jsonl", "\n".join(json.dumps(r) for r in records).encode(), format=fmt)


def test_human_messages_and_final_replies_become_interactions_with_linked_results() -> None:
    report = load(sample())
    assert report.ok
    (conv,) = report.conversations
    assert conv.session_id == "ragas-1" and conv.assistant_id == "ragas"
    assert conv.reference_topics == ["weather"]
    first, second = conv.conversation
    assert (first.query, first.assistant, first.ground_truth_assistant) == (
        "Weather in New York?",
        "It's 75°F in New York.",
        "",
    )
    assert (second.query, second.assistant, second.ground_truth_assistant) == (
        "In Celsius?",
        "About 23.9°C.",
        "About 23.9°C.",
    )
    assert first.agentic is not None and second.agentic is not None
    assert first.agentic.tools_used[0].result == {"temperature_f": 75}  # linked by position, JSON decoded
    assert second.agentic.tools_used[0].result == 23.9
    assert first.ground_truth_agentic is not None and second.ground_truth_agentic is not None
    assert [t.tool_name for t in first.ground_truth_agentic.expected_tools] == ["weather_check"]
    assert [t.tool_name for t in second.ground_truth_agentic.expected_tools] == ["convert"]
    assert first.ground_truth_agentic.tool_sequence_matters is True  # as Ragas' ToolCallAccuracy


def test_the_reference_is_the_last_turns_and_earlier_turns_are_warned_about() -> None:
    report = load(sample())
    (warning,) = report.warnings
    assert warning.path == "user_input[0]" and "1 of 2 interactions have no reference answer" in warning.rule


def test_the_sample_file_keeps_its_order_and_names_samples_by_line() -> None:
    report = load_paths([SAMPLE])
    assert report.ok
    n = len(SAMPLE.read_text(encoding="utf-8").splitlines())
    assert [c.session_id for c in report.conversations] == [f"ragas_multiturn-{i}" for i in range(1, n + 1)]
    assert report.notes[0].rule.startswith("read as Ragas multi-turn samples")


def test_a_single_turn_sample_is_one_interaction() -> None:
    (conv,) = load({"user_input": "What is 2 + 2?", "response": "4", "reference": "4"}).conversations
    (turn,) = conv.conversation
    assert (turn.query, turn.assistant, turn.ground_truth_assistant) == ("What is 2 + 2?", "4", "4")


def test_malformed_samples_are_skipped_with_located_errors() -> None:
    report = load(sample(), {"user_input": 5}, {"user_input": [{"type": "ai", "content": "Hello"}]})
    assert len(report.conversations) == 1 and [s.record for s in report.skipped] == [1, 2]
    errors = {i.record: i for i in report.errors}
    assert errors[1].path == "user_input" and errors[1].value == "5" and errors[1].line == 2
    assert "must be a list of messages" in errors[1].rule and errors[1].fix
    assert "no human message answered" in errors[2].rule


def test_what_cannot_be_mapped_is_reported_in_place() -> None:
    bad = sample(reference=3, rubrics={"score1": "bad"}, referense_topics=["x"])
    bad["user_input"].insert(1, {"type": "robot", "content": "?"})
    report = load(bad)
    assert len(report.conversations) == 1
    paths = {i.path: i for i in report.warnings}
    assert "not a known message role" in paths["user_input[1].type"].rule
    assert "must be a string" in paths["reference"].rule
    assert "did you mean 'reference_topics'?" in paths["referense_topics"].fix
    note = next(n for n in report.notes if "not used" in n.rule)
    assert "rubrics" in note.rule and "rubric" in note.rule


def test_a_validation_error_names_the_place_in_the_sample() -> None:
    bad = sample()
    bad["user_input"][1]["tool_calls"][0]["name"] = ""
    bad["reference_topics"] = "weather"  # must be a list
    report = load(bad)
    assert not report.conversations
    (error,) = report.errors
    assert error.path == "reference_topics" and error.record == 0
    assert any(w.path == "user_input[1].tool_calls[0].name" for w in report.warnings)


def test_a_forced_wrong_format_is_a_clear_file_error() -> None:
    report = load(sample(), fmt="tau-bench")
    (error,) = report.errors
    assert "set to 'tau-bench'" in error.rule and "Ragas multi-turn samples" in error.rule
    assert "'ragas'" in error.fix


def test_a_json_array_in_memory_loads_with_the_format_forced() -> None:
    report = load_records([sample(), sample()], "dataset.json", format="ragas")
    assert [c.session_id for c in report.conversations] == ["dataset-1", "dataset-2"]
