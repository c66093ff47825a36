"""Ragas samples (an ``EvaluationDataset`` saved with ``to_jsonl``, or its ``to_list`` as a JSON array).

A multi-turn sample (``MultiTurnSample``)::

    {"user_input": [{"content": "Weather in Paris?", "type": "human"},
                    {"content": "", "type": "ai", "tool_calls": [{"name": "weather", "args": {"city": "Paris"}}]},
                    {"content": "{\\"temp_c\\": 18}", "type": "tool"},
                    {"content": "18 °C in Paris.", "type": "ai"}],
     "reference": "It is 18 °C in Paris.",
     "reference_tool_calls": [{"name": "weather", "args": {"city": "Paris"}}],
     "reference_topics": ["weather"]}

Each human message and the agent's final reply become one interaction; a tool message is the
result of the first unanswered call before it (Ragas messages carry no ids). ``reference`` is the
ground truth of the *last* turn (Ragas gives one per sample, so earlier turns have none: the load
says so); ``reference_tool_calls`` are the expected calls, spread over the turns by matching the
calls made (:func:`~agentic_core.io.importers.common.spread_expected`), with their order counted,
as Ragas' ``ToolCallAccuracy`` does by default; ``reference_topics`` is kept on the conversation.
``rubrics`` is not used (a note says so).

Samples keep the file's order. Ragas samples have no ids: a sample's ``session_id`` is
``<file stem>-<line>`` (an ``id`` / ``session_id`` / ``task_id`` key, if added, is used).
A single-turn sample (``user_input`` a string, with ``response`` and ``reference``) becomes
one interaction.
"""

from __future__ import annotations

from typing import Any

from agentic_core.io.importers import chat_records
from agentic_core.io.importers.common import RecordMap, import_records
from agentic_core.io.importers.messages import Call, Turn, walk_messages, whole_trace
from agentic_core.io.parsed import Parsed
from agentic_core.io.render import json_type

RAGAS_ROLES = {"human": "user", "ai": "assistant", "tool": "tool", "system": "system"}
"""Ragas message types as the message walker's roles."""

_KNOWN = frozenset(
    {
        "user_input", "reference", "reference_tool_calls", "reference_topics", "response", "id", "session_id",
        "task_id", "assistant_id",
    }
)
_UNUSED = {
    "rubrics": "the workbench's judges grade against the reference answer, not a rubric",
    "rubric": "the workbench's judges grade against the reference answer, not a rubric",
    "retrieved_contexts": "retrieval contexts are not graded by the workbench",
    "reference_contexts": "retrieval contexts are not graded by the workbench",
    "multi_responses": "only the single response is evaluated",
}


def _sample(rec: RecordMap, raw: dict[str, Any], ids: chat_records.ConversationIds) -> dict[str, Any] | None:
    """One sample as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
    messages = raw.get("user_input")
    if isinstance(messages, str):
        turns: list[Turn] | None = [_single_turn(rec, raw, messages)]
        context: tuple[str | None, str | None] = (None, None)
        trace = None
    elif isinstance(messages, list):
        walk = walk_messages(messages, rec, "user_input", role_key="type", roles=RAGAS_ROLES, ids=False)
        turns = chat_records.walked_turns(rec, walk, "user_input", "human")
        context, trace = (walk.context, walk.context_path), whole_trace(walk)
    else:
        rec.error("user_input", f"must be a list of messages (or a string); it is {json_type(messages)}",
                  messages, 'give the sample as {"user_input": [{"type": "human", "content": "..."}, ...]}')
        return None
    if turns is None:
        return None
    reference = raw.get("reference")
    if reference is not None and not isinstance(reference, str):
        rec.warn("reference", f"must be a string; it is {json_type(reference)}, left out", reference,
                 "give the reference answer as a string")
        reference = None
    expected = _expected(rec, raw, turns)
    # Ragas gives one reference per sample: the last turn's.
    ground_truths: list[tuple[str | None, str | None]] = [(None, None)] * (len(turns) - 1)
    ground_truths.append((reference, "reference"))
    interactions = chat_records.turn_interactions(
        rec, ids, turns, ground_truths, expected=expected, sequence=(True, None)
    )
    out = chat_records.chat_conversation(rec, ids, interactions, "user_input", context, trace)
    if reference is not None:
        out["reference"] = reference
        rec.origin("reference", "reference")
    if "reference_topics" in raw and raw["reference_topics"] is not None:
        out["reference_topics"] = raw["reference_topics"]
        rec.origin("reference_topics", "reference_topics")
    return out


def _single_turn(rec: RecordMap, raw: dict[str, Any], query: str) -> Turn:
    """A ``SingleTurnSample``: the question, the response and nothing in between."""
    turn = Turn(query, "user_input")
    response = raw.get("response")
    if isinstance(response, str) and response.strip():
        turn.answer, turn.answer_path = response, "response"
    turn.last_reply_path = "response"
    return turn


def _expected(rec: RecordMap, raw: dict[str, Any], turns: list[Turn]) -> list[list[Call]] | None:
    """``reference_tool_calls`` spread over the turns, or ``None`` when the sample has none."""
    given = chat_records.listed_calls(rec, raw, "reference_tool_calls", '[{"name": ..., "args": {...}}]')
    return None if given is None else chat_records.spread_calls(rec, given, "reference_tool_calls", turns)


def import_ragas(file: str, parsed: Parsed) -> Parsed:
    """Map a file of Ragas samples, one per record, to seed-format records (see the module's description).

    As :func:`~agentic_core.io.importers.common.import_records`.
    """
    importer = chat_records.ChatImporter(file, "a Ragas sample", _KNOWN, _UNUSED, _sample)
    return import_records(file, parsed, importer, what="a sample object with 'user_input'")
