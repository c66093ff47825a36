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

from agentic_core.io.importers.build import interaction, missing_reply, spread_over_turns, unanswered
from agentic_core.io.importers.common import KeyTally, RecordMap, file_stem, import_records
from agentic_core.io.importers.messages import Call, Turn, read_call, walk_messages, whole_trace
from agentic_core.io.importers.openai_traces import conversation_ids
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


class _RagasImporter:
    """The state of one file's import: its stem (for default ids) and the keys not read."""

    def __init__(self, file: str) -> None:
        self.stem = file_stem(file)
        self.keys = KeyTally("a Ragas sample", _KNOWN, _UNUSED)

    def one(self, rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        """One sample as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
        session_id, assistant_id, task_id = conversation_ids(rec, raw, self.stem)
        messages = raw.get("user_input")
        if isinstance(messages, str):
            turns = [self.single_turn(rec, raw, messages)]
            context_path, context, trace = None, None, None
        elif isinstance(messages, list):
            walk = walk_messages(messages, rec, "user_input", role_key="type", roles=RAGAS_ROLES, ids=False)
            if walk.ended_unanswered is not None:
                unanswered(rec, walk.ended_unanswered)
            turns, context, context_path, trace = walk.turns, walk.context, walk.context_path, whole_trace(walk)
        else:
            rec.error("user_input", f"must be a list of messages (or a string); it is {json_type(messages)}",
                      messages, 'give the sample as {"user_input": [{"type": "human", "content": "..."}, ...]}')
            return None
        if not turns:
            rec.error("user_input", "holds no human message answered by the agent: nothing to evaluate", None,
                      "give at least one human message and the agent's reply")
            return None
        reference = raw.get("reference")
        if reference is not None and not isinstance(reference, str):
            rec.warn("reference", f"must be a string; it is {json_type(reference)}, left out", reference,
                     "give the reference answer as a string")
            reference = None
        expected = self.expected(rec, raw, turns)
        interactions = []
        last = len(turns) - 1
        for t, turn in enumerate(turns):
            if turn.answer is None:
                missing_reply(rec, turn)
            ground_truth = (reference, "reference") if t == last else (None, None)
            interactions.append(
                interaction(
                    rec, f"conversation[{t}]", f"{task_id or session_id}-{t + 1}", turn, ground_truth=ground_truth,
                    expected=None if expected is None else expected[t], sequence=True,
                )
            )
        rec.origin("conversation", "user_input")
        rec.origin("context", context_path)
        out: dict[str, Any] = {"session_id": session_id, "assistant_id": assistant_id, "conversation": interactions}
        if task_id is not None:
            out["task_id"] = task_id
        if context is not None:
            out["context"] = context
        if trace:
            out["trace"] = trace
            rec.origin("trace", "user_input")
        if reference is not None:
            out["reference"] = reference
            rec.origin("reference", "reference")
        if "reference_topics" in raw and raw["reference_topics"] is not None:
            out["reference_topics"] = raw["reference_topics"]
            rec.origin("reference_topics", "reference_topics")
        return out

    @staticmethod
    def single_turn(rec: RecordMap, raw: dict[str, Any], query: str) -> Turn:
        """A ``SingleTurnSample``: the question, the response and nothing in between."""
        turn = Turn(query, "user_input")
        response = raw.get("response")
        if isinstance(response, str) and response.strip():
            turn.answer, turn.answer_path = response, "response"
        turn.last_reply_path = "response"
        return turn

    @staticmethod
    def expected(rec: RecordMap, raw: dict[str, Any], turns: list[Turn]) -> list[list[Call]] | None:
        """``reference_tool_calls`` spread over the turns, or ``None`` when the sample has none."""
        given = raw.get("reference_tool_calls")
        if given is None:
            return None
        if not isinstance(given, list):
            rec.warn("reference_tool_calls", f"must be a list of tool calls; it is {json_type(given)}, left out",
                     given, 'write "reference_tool_calls": [{"name": ..., "args": {...}}]')
            return None
        read = (read_call(c, f"reference_tool_calls[{j}]", rec) for j, c in enumerate(given))
        return spread_over_turns([c for c in read if c is not None], turns)


def import_ragas(file: str, parsed: Parsed) -> Parsed:
    """Map a file of Ragas samples, one per record, to seed-format records (see the module's description).

    As :func:`~agentic_core.io.importers.common.import_records`.
    """
    return import_records(file, parsed, _RagasImporter(file), what="a sample object with 'user_input'")
