"""OpenAI-style chat traces: turns, tool calls linked to results, references, scores, and located issues."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.io.load_report import Issue, LoadReport
from agentic_core.io.loader import load_bytes, load_paths, load_records

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "openai_traces.jsonl"


def call(ident: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"id": ident, "type": "function", "function": {"name": name, "arguments": arguments}}


def trace(**extra: Any) -> dict[str, Any]:
    """A two-turn trace: a tool call with its result in the first turn, a plain reply in the second."""
    return {
        "id": "t-1",
        "task_id": "weather",
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "You are a weather bot."},
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": None, "tool_calls": [call("c1", "weather", '{"city": "Paris"}')]},
            {"role": "tool", "tool_call_id": "c1", "content": '{"temp_c": 18}'},
            {"role": "assistant", "content": "It is 18 °C in Paris."},
            {"role": "user", "content": "And tomorrow?"},
            {"role": "assistant", "content": "I only know today's weather."},
        ],
        **extra,
    }


def load(*records: Any, fmt: str = "auto") -> LoadReport:
    data = "\n".join(json.dumps(r) for r in records).encode()
    return load_bytes("traces.jsonl", data, format=fmt)


def only(issues: list[Issue], path: str) -> Issue:
    found = [i for i in issues if i.path == path]
    assert len(found) == 1, [i.message() for i in issues]
    return found[0]


def test_each_user_turn_and_its_final_reply_become_one_interaction() -> None:
    report = load(trace(reference=["18 °C in Paris.", "Unknown."], score=[1.0, 0.5]))
    assert report.ok and not report.warnings, [i.message() for i in report.issues]
    (conv,) = report.conversations
    assert (conv.session_id, conv.task_id, conv.assistant_id) == ("t-1", "weather", "gpt-4o")
    assert conv.context == "You are a weather bot."
    first, second = conv.conversation
    assert (first.query, first.assistant, first.ground_truth_assistant, first.score) == (
        "Weather in Paris?",
        "It is 18 °C in Paris.",
        "18 °C in Paris.",
        1.0,
    )
    assert first.agentic is not None
    (used,) = first.agentic.tools_used
    assert (used.tool_name, used.parameters, used.result, used.step) == (
        "weather",
        {"city": "Paris"},
        {"temp_c": 18},
        1,
    )
    assert (second.query, second.assistant, second.score) == ("And tomorrow?", "I only know today's weather.", 0.5)
    assert second.agentic is None
    assert report.notes[0].rule.startswith("read as OpenAI chat traces (detected from the content)")


def test_expected_calls_for_the_whole_trace_go_to_the_turn_that_made_them() -> None:
    expected = [{"name": "weather", "arguments": {"city": "Paris"}}]
    (conv,) = load(trace(expected_tool_calls=expected, reference=["a", "b"])).conversations
    first, second = conv.conversation
    assert first.ground_truth_agentic is not None and second.ground_truth_agentic is not None
    assert [t.tool_name for t in first.ground_truth_agentic.expected_tools] == ["weather"]
    assert first.ground_truth_agentic.expected_tools[0].parameters == {"city": "Paris"}
    assert second.ground_truth_agentic.expected_tools == []


def test_one_score_applies_to_every_turn_and_one_reference_to_the_last() -> None:
    (conv,) = load(trace(score=0.8, reference="Unknown.")).conversations
    assert [t.score for t in conv.conversation] == [0.8, 0.8]
    assert [t.ground_truth_assistant for t in conv.conversation] == ["", "Unknown."]


def test_without_ids_a_trace_is_named_after_the_file_and_line() -> None:
    record = trace(reference=["a", "b"])
    del record["id"], record["model"]
    report = load(record, record)
    assert [c.session_id for c in report.conversations] == ["traces-1", "traces-2"]
    assert {c.assistant_id for c in report.conversations} == {"traces"}


def test_the_sample_file_loads_without_issues_and_in_file_order() -> None:
    report = load_paths([SAMPLE])
    assert report.ok and not report.warnings
    lines = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    assert [c.session_id for c in report.conversations] == [r["id"] for r in lines]
    assert len({c.task_id for c in report.conversations}) == 4


def test_malformed_arguments_keep_the_call_and_are_located() -> None:
    bad = trace(reference=["a", "b"])
    bad["messages"][2]["tool_calls"][0]["function"]["arguments"] = '{"city": "Paris"'
    report = load(bad)
    assert len(report.conversations) == 1
    issue = only(report.warnings, "messages[2].tool_calls[0].function.arguments")
    assert (issue.file, issue.record, issue.line) == ("traces.jsonl", 0, 1)
    assert "is not valid JSON" in issue.rule and issue.value == repr('{"city": "Paris"')
    assert "JSON object" in issue.fix
    tools = report.conversations[0].conversation[0].agentic
    assert tools is not None and tools.tools_used[0].parameters == {"_raw": '{"city": "Paris"'}


def test_a_tool_result_for_an_unknown_call_is_reported() -> None:
    bad = trace(reference=["a", "b"])
    bad["messages"][3]["tool_call_id"] = "c9"
    issue = only(load(bad).warnings, "messages[3].tool_call_id")
    assert "matches no tool call" in issue.rule and issue.value == "'c9'"


def test_a_validation_error_names_the_place_in_the_trace() -> None:
    bad = trace(reference=["a", "b"], score=[1.0, 1.7])
    report = load(bad)
    assert not report.conversations
    issue = only(report.errors, "score[1]")
    assert "[0, 1]" in issue.rule and issue.session_id == "t-1" and issue.line == 1
    assert report.skipped[0].message.startswith("score[1]:")


def test_records_that_cannot_be_mapped_are_skipped_with_a_reason_never_silently() -> None:
    report = load(
        trace(reference=["a", "b"]),
        {"id": "x", "messages": "hi"},
        [1, 2],
        {"messages": [{"role": "assistant", "content": "Hello!"}]},
    )
    assert len(report.conversations) == 1
    assert [s.record for s in report.skipped] == [1, 2, 3]
    assert {i.record: i.path for i in report.errors} == {1: "messages", 2: "", 3: "messages"}
    assert report.errors[2].value is None and "no user message answered" in report.errors[2].rule
    assert any("must be a trace object" in i.rule and i.record == 2 for i in report.errors)
    assert "could not be mapped" in report.notes[0].rule


def test_unread_keys_are_warnings_and_known_unused_keys_one_note() -> None:
    report = load(trace(reference=["a", "b"], refrence=["x"], metadata={"user": 1}, tools=[]))
    typo = only(report.warnings, "refrence")
    assert "is not a key of an OpenAI chat trace" in typo.rule and "did you mean 'reference'?" in typo.fix
    note = next(n for n in report.notes if "not used" in n.rule)
    assert "metadata" in note.rule and "tools" in note.rule


def test_missing_replies_and_references_are_warned_about() -> None:
    record = trace()
    record["messages"] = [*record["messages"][:4], {"role": "user", "content": "thanks"}]
    report = load(record)
    rules = " | ".join(i.message() for i in report.warnings)
    assert "reply to this user turn is missing" in rules
    assert "never answered" in rules
    assert "no reference answer and no score" in rules
    assert report.conversations[0].conversation[0].assistant == ""


def test_a_forced_wrong_format_is_a_clear_file_error() -> None:
    report = load(trace(), fmt="ragas")
    assert not report.conversations
    (error,) = report.errors
    assert error.record is None
    assert "set to 'ragas'" in error.rule and "OpenAI chat traces" in error.rule and "'messages'" in error.rule
    assert "'openai'" in error.fix


def test_python_api_takes_records_and_a_forced_format() -> None:
    report = load_records([trace(reference=["a", "b"])], format="openai")
    assert len(report.conversations) == 1
    assert "the format chosen" in report.notes[0].rule


@pytest.mark.parametrize("content", [[{"type": "text", "text": "Hi"}, {"type": "image_url", "image_url": {}}]])
def test_non_text_content_parts_are_left_out_with_a_warning(content: list[dict[str, Any]]) -> None:
    record = trace(reference=["a", "b"])
    record["messages"][1]["content"] = content
    report = load(record)
    assert report.conversations[0].conversation[0].query == "Hi"
    assert "'image_url'" in only(report.warnings, "messages[1].content[1]").rule
