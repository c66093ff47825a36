"""What the importers of chat records share (agentic_core.io.importers.chat_records): ids, turns, the conversation."""

from __future__ import annotations

from typing import Any

from agentic_core.io.importers.chat_records import (
    ChatImporter,
    ConversationIds,
    chat_conversation,
    conversation_ids,
    listed_calls,
    spread_calls,
    turn_interactions,
    walked_turns,
)
from agentic_core.io.importers.common import RecordMap
from agentic_core.io.importers.messages import Call, Turn, walk_messages


def record(index: int = 0) -> RecordMap:
    return RecordMap("runs/agent-x.jsonl", index, lambda i: i + 1)


def test_ids_come_from_the_record_else_from_the_file_and_line() -> None:
    rec = record()
    ids = conversation_ids(rec, {"id": 7, "model": "gpt-4o", "task_id": "t1"}, "agent-x")
    assert ids == ConversationIds("7", "gpt-4o", "t1")
    assert rec.session_id == "7"
    assert ("session_id", "id") in rec.origins and ("assistant_id", "model") in rec.origins
    bare = record(4)
    assert conversation_ids(bare, {"session_id": " "}, "agent-x") == ConversationIds("agent-x-5", "agent-x", None)
    assert ("task_id", "task_id") not in bare.origins


def test_the_importer_counts_unread_keys_and_hands_the_ids_to_the_format() -> None:
    seen: list[ConversationIds] = []

    def map_record(rec: RecordMap, raw: dict[str, Any], ids: ConversationIds) -> dict[str, Any] | None:
        seen.append(ids)
        return {"session_id": ids.session_id}

    importer = ChatImporter("runs/agent-x.jsonl", "a test record", frozenset({"id"}), {"tools": "not used"}, map_record)
    assert importer.stem == "agent-x"
    assert importer.one(record(), {"id": "a"}) == {"session_id": "a"}
    assert seen == [ConversationIds("a", "agent-x", None)]
    assert importer.keys.label == "a test record" and importer.keys.unused == {"tools": "not used"}


def test_a_walk_without_an_answered_message_is_an_error_naming_the_speaker() -> None:
    rec = record()
    walk = walk_messages([{"role": "user", "content": "hello?"}], rec, "messages")
    assert walked_turns(rec, walk, "messages", "human") is None
    assert [(e.path, e.rule) for e in rec.errors] == [
        ("messages", "holds no human message answered by the agent: nothing to evaluate")
    ]
    # The unanswered last message is a warning of its own, not left out silently.
    assert [w.path for w in rec.warnings] == ["messages[0].content"]


def test_interactions_per_turn_with_ids_references_and_the_order_rule() -> None:
    rec = record()
    turns = [Turn("q1", "m[0].content", answer="a1", answer_path="m[1].content"), Turn("q2", "m[2].content")]
    ids = ConversationIds("s", "agent", "task")
    made = turn_interactions(
        rec, ids, turns, [(5, "reference[0]"), ("r2", "reference[1]")], scores=[(1.0, "score"), (0.5, "score")],
        expected=[[], []], sequence=(True, "tool_sequence_matters"),
    )
    assert [m["qa_id"] for m in made] == ["task-1", "task-2"]
    assert [m["ground_truth_assistant"] for m in made] == ["", "r2"]
    assert [m["score"] for m in made] == [1.0, 0.5]
    assert all(m["ground_truth_agentic"]["tool_sequence_matters"] is True for m in made)
    # A reference that is not a string is left out with a warning; a turn without a reply is warned about.
    first = rec.warnings[0]
    assert (first.path, first.rule) == ("reference[0]", "must be a string; it is a number, left out")
    assert any(w.path == "m[2].content" and "reply to this user turn is missing" in w.rule for w in rec.warnings)
    assert ("conversation[1].ground_truth_agentic.tool_sequence_matters", "tool_sequence_matters") in rec.origins


def test_the_conversation_keeps_only_what_was_given() -> None:
    rec = record()
    bare = chat_conversation(rec, ConversationIds("s", "a", None), [], "user_input", (None, None), None)
    assert bare == {"session_id": "s", "assistant_id": "a", "conversation": []}
    full = chat_conversation(rec, ConversationIds("s", "a", "t"), [], "messages", ("sys", "messages[0]"), [{"x": 1}])
    assert full == {"session_id": "s", "assistant_id": "a", "conversation": [], "task_id": "t", "context": "sys",
                    "trace": [{"x": 1}]}
    assert ("trace", "messages") in rec.origins and ("context", "messages[0]") in rec.origins


def test_expected_calls_must_be_a_list_and_are_spread_over_the_turns() -> None:
    rec = record()
    assert listed_calls(rec, {}, "reference_tool_calls", "[...]") is None
    assert listed_calls(rec, {"reference_tool_calls": "f"}, "reference_tool_calls", "[...]") is None
    assert [(w.path, w.fix) for w in rec.warnings] == [("reference_tool_calls", 'write "reference_tool_calls": [...]')]
    # Spread by the calls made: "f" was called in the first turn.
    turns = [Turn("q1", "q1", [Call("f", {}, "c", "c.name", "c.args")]), Turn("q2", "q2")]
    spread = spread_calls(rec, [{"name": "f", "args": {}}, {"args": {}}], "reference_tool_calls", turns)
    assert [[c.name for c in calls] for calls in spread] == [["f"], []]
    # The call without a name is left out with a warning at its place.
    assert rec.warnings[-1].path == "reference_tool_calls[1].name"
