"""Seed-format interactions built from turns, each part with the place it came from."""

from __future__ import annotations

from agentic_core.io.importers.build import expected_tools, interaction, missing_reply, spread_over_turns, used_tools
from agentic_core.io.importers.common import RecordMap
from agentic_core.io.importers.messages import Call, Turn


def call(name: str, at: str, **parameters: object) -> Call:
    return Call(name, dict(parameters), at, f"{at}.function.name", f"{at}.function.arguments", result={"ok": True})


def test_an_interaction_with_calls_reference_score_and_expected_calls() -> None:
    rec = RecordMap("f", 0, lambda _i: 1)
    turn = Turn("Q", "messages[1].content", [call("f", "messages[2].tool_calls[0]", x=1)], "A", "messages[4].content")
    out = interaction(
        rec,
        "conversation[0]",
        "q-1",
        turn,
        ground_truth=("R", "reference[0]"),
        score=(0.5, "score"),
        expected=[call("f", "expected_tool_calls[0]", x=1)],
        sequence=True,
    )
    assert out == {
        "qa_id": "q-1",
        "query": "Q",
        "assistant": "A",
        "ground_truth_assistant": "R",
        "score": 0.5,
        "agentic": {"tools_used": [{"tool_name": "f", "parameters": {"x": 1}, "result": {"ok": True}, "step": 1}]},
        "ground_truth_agentic": {
            "expected_tools": [{"tool_name": "f", "parameters": {"x": 1}, "step": 1}],
            "tool_sequence_matters": True,
        },
    }
    origins = dict(rec.origins)
    assert origins["conversation[0].query"] == "messages[1].content"
    assert origins["conversation[0].ground_truth_assistant"] == "reference[0]"
    assert origins["conversation[0].agentic.tools_used[0].parameters"] == "messages[2].tool_calls[0].function.arguments"
    assert origins["conversation[0].ground_truth_agentic.expected_tools[0].tool_name"] == (
        "expected_tool_calls[0].function.name"
    )


def test_no_reply_no_reference_and_no_expected_calls() -> None:
    rec = RecordMap("f", 0, lambda _i: 1)
    turn = Turn("Q", "messages[0].content", last_reply_path="messages[1]")
    out = interaction(rec, "conversation[0]", "q", turn)
    assert out == {"qa_id": "q", "query": "Q", "assistant": "", "ground_truth_assistant": ""}
    missing_reply(rec, turn)
    assert rec.warnings[0].path == "messages[1]" and "reply to this user turn is missing" in rec.warnings[0].rule


def test_steps_count_from_one_in_call_order() -> None:
    rec = RecordMap("f", 0, lambda _i: 1)
    calls = [call("a", "m[1]"), call("b", "m[2]")]
    assert [t["step"] for t in used_tools(rec, calls, "c[0]")] == [1, 2]
    assert expected_tools(rec, calls, "c[0]", False)["tool_sequence_matters"] is False


def test_expected_calls_spread_over_the_turns_that_made_them() -> None:
    turns = [Turn("Q1", "m[0]", [call("a", "m[1]")]), Turn("Q2", "m[3]", [call("b", "m[4]")])]
    spread = spread_over_turns([call("b", "e[0]"), call("c", "e[1]")], turns)
    assert [[c.name for c in calls] for calls in spread] == [[], ["b", "c"]]
