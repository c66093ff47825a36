"""The chat-message walker shared by the importers: turns, calls in three shapes, linked results, warnings."""

from __future__ import annotations

from typing import Any

from agentic_core.io.importers.common import RecordMap
from agentic_core.io.importers.messages import read_call, walk_messages
from agentic_core.io.importers.ragas_samples import RAGAS_ROLES


def record() -> RecordMap:
    return RecordMap("f.jsonl", 0, lambda _i: 1)


def user(text: Any) -> dict[str, Any]:
    return {"role": "user", "content": text}


def say(text: Any, **extra: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": text, **extra}


def test_system_messages_are_the_context_and_user_messages_in_a_row_are_one_query() -> None:
    rec = record()
    walk = walk_messages(
        [
            {"role": "system", "content": "Be brief."},
            {"role": "developer", "content": "No jokes."},
            user("Hi."),
            user("Weather?"),
            say("Sunny."),
        ],
        rec,
        "messages",
    )
    assert walk.context == "Be brief.\n\nNo jokes." and walk.context_path == "messages[0].content"
    (turn,) = walk.turns
    assert (turn.query, turn.answer, turn.answer_path) == ("Hi.\nWeather?", "Sunny.", "messages[4].content")
    assert not rec.warnings


def test_the_answer_is_the_last_assistant_text_of_the_turn() -> None:
    call = {"id": "c1", "function": {"name": "f", "arguments": "{}"}}
    walk = walk_messages(
        [
            user("Q"),
            say("Let me check.", tool_calls=[call]),
            {"role": "tool", "tool_call_id": "c1", "content": "42"},
            say("It is 42."),
        ],
        record(),
        "m",
    )
    (turn,) = walk.turns
    assert turn.answer == "It is 42." and turn.calls[0].result == 42 and turn.calls[0].linked


def test_the_three_call_shapes() -> None:
    rec = record()
    openai = read_call({"id": "a", "function": {"name": "f", "arguments": '{"x": 1}'}}, "c", rec)
    inspect = read_call({"id": "b", "function": "f", "arguments": {"x": 1}}, "c", rec)
    ragas = read_call({"name": "f", "args": {"x": 1}}, "c", rec)
    tau = read_call({"name": "f", "kwargs": {"x": 1}}, "c", rec)
    assert openai and inspect and ragas and tau
    assert {c.name for c in (openai, inspect, ragas, tau)} == {"f"}
    assert [c.parameters for c in (openai, inspect, ragas, tau)] == [{"x": 1}] * 4
    assert (openai.arguments_path, inspect.arguments_path, ragas.arguments_path, tau.arguments_path) == (
        "c.function.arguments",
        "c.arguments",
        "c.args",
        "c.kwargs",
    )
    assert not rec.warnings


def test_a_call_without_a_name_is_left_out_with_a_warning() -> None:
    rec = record()
    assert read_call({"function": {"name": " ", "arguments": "{}"}}, "m[1].tool_calls[0]", rec) is None
    assert read_call("lookup", "m[1].tool_calls[1]", rec) is None
    assert [w.path for w in rec.warnings] == ["m[1].tool_calls[0].function.name", "m[1].tool_calls[1]"]


def test_legacy_function_calls_and_function_results() -> None:
    walk = walk_messages(
        [
            user("Q"),
            say(None, function_call={"name": "f", "arguments": "{}"}),
            {"role": "function", "name": "f", "content": "done"},
            say("Done."),
        ],
        record(),
        "m",
    )
    (call,) = walk.turns[0].calls
    assert (call.name, call.result, call.path) == ("f", "done", "m[1].function_call")


def test_tool_results_are_linked_by_position_when_messages_carry_no_ids() -> None:
    rec = record()
    messages = [
        {"type": "human", "content": "Q"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {}}, {"name": "g", "args": {}}]},
        {"type": "tool", "content": "1"},
        {"type": "tool", "content": "2"},
        {"type": "ai", "content": "A"},
    ]
    walk = walk_messages(messages, rec, "user_input", role_key="type", roles=RAGAS_ROLES, ids=False)
    assert [(c.name, c.result) for c in walk.turns[0].calls] == [("f", 1), ("g", 2)]
    assert not rec.warnings


def test_what_cannot_be_placed_is_warned_about_never_dropped_silently() -> None:
    rec = record()
    call = {"id": "c1", "function": {"name": "f", "arguments": "{}"}}
    walk_messages(
        [
            say("Hello! How can I help?"),  # before any user message
            user("Q"),
            say("", tool_calls=[call]),
            {"role": "tool", "content": "no id"},  # linked to the waiting call, with a warning
            {"role": "tool", "tool_call_id": "c1", "content": "again"},  # a second result for c1
            {"role": "tool", "tool_call_id": "zz", "content": "?"},  # no such call
            {"role": "critic", "content": "?"},  # unknown role
            "not a message",
            say("A"),
            user("Bye"),  # never answered
        ],
        rec,
        "m",
    )
    paths = [w.path for w in rec.warnings]
    assert paths == ["m[0]", "m[3]", "m[4].tool_call_id", "m[5].tool_call_id", "m[6].role", "m[7]"]


def test_an_unanswered_last_message_is_set_apart() -> None:
    walk = walk_messages([user("Q"), say("A"), user("Thanks!")], record(), "m")
    assert len(walk.turns) == 1 and walk.ended_unanswered is not None
    assert walk.ended_unanswered.query == "Thanks!"


def test_a_refusal_is_the_reply_and_reasoning_parts_are_not() -> None:
    rec = record()
    walk = walk_messages(
        [
            user("Q"),
            say(None, refusal="I can't help with that."),
            user("Q2"),
            say([{"type": "reasoning", "text": "hmm"}, {"type": "text", "text": "A2"}]),
        ],
        rec,
        "m",
    )
    assert [t.answer for t in walk.turns] == ["I can't help with that.", "A2"]
    assert walk.turns[0].answer_path == "m[1].refusal" and not rec.warnings
