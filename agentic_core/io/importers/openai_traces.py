"""OpenAI-style chat traces (JSON Lines, one trace per line) mapped to the seed format.

A trace::

    {"id": "t-17", "task_id": "refund-4", "model": "gpt-4o",
     "messages": [{"role": "system", "content": "..."},
                  {"role": "user", "content": "Where is order 7?"},
                  {"role": "assistant", "content": null,
                   "tool_calls": [{"id": "c1", "type": "function",
                                   "function": {"name": "lookup_order", "arguments": "{\\"order_id\\": 7}"}}]},
                  {"role": "tool", "tool_call_id": "c1", "content": "{\\"status\\": \\"shipped\\"}"},
                  {"role": "assistant", "content": "It has shipped."}],
     "expected_tool_calls": [{"name": "lookup_order", "arguments": {"order_id": 7}}],
     "reference": ["Order 7 has shipped."], "score": 1.0}

Each user turn and the agent's final reply to it become one interaction (see
:mod:`agentic_core.io.importers.messages`); system messages the context. Optional keys:

- ``id`` / ``session_id``: the conversation's id (default ``<file stem>-<line>``); ``task_id``:
  traces sharing it are repeated attempts at one task; ``assistant_id`` or ``model``: the agent
  (default: the file stem).
- ``reference``: the reference answers, a list with one per user turn (``null`` for none), or
  one string for the last turn.
- ``score``: a precomputed grade in [0, 1], a list with one per user turn, or one number for
  every turn (a trace-level grade: the conversation is then correct exactly when it passes).
- ``expected_tool_calls``: in the ``tool_calls`` shape, or ``{name, arguments}``; a list for
  the whole trace (spread over its turns by matching the calls made, see
  :func:`~agentic_core.io.importers.common.spread_expected`) or a list of lists, one per user
  turn. ``tool_sequence_matters`` (default false) says whether their order counts.
"""

from __future__ import annotations

from typing import Any

from agentic_core.io.importers import chat_records
from agentic_core.io.importers.common import RecordMap, import_records
from agentic_core.io.importers.messages import Call, Turn, read_call, walk_messages, whole_trace
from agentic_core.io.parsed import Parsed
from agentic_core.io.render import json_type

_KNOWN = frozenset(
    {
        "messages", "id", "session_id", "task_id", "assistant_id", "model", "reference", "score",
        "expected_tool_calls", "tool_sequence_matters", "language",
    }
)
_UNUSED = {
    "tools": "the tool schemas offered to the model are not evaluated (the calls made are)",
    "metadata": "trace metadata is not evaluated",
}


def per_turn(
    rec: RecordMap, raw: dict[str, Any], key: str, n_turns: int, kinds: tuple[type, ...], single_for_all: bool
) -> list[tuple[Any, str | None]]:
    """A per-turn value given as a list aligned with the user turns, or one value.

    Args:
        rec: The record (issues go there).
        raw: The original record.
        key: The key (``reference``, ``score``).
        n_turns: The number of user turns.
        kinds: The types one value may have (others are passed on, for the validation to name).
        single_for_all: One value applies to every turn (a score); else to the last one (a reference).

    Returns:
        ``(value, source path)`` per turn; ``(None, None)`` where there is none.
    """
    value = raw.get(key)
    out: list[tuple[Any, str | None]] = [(None, None)] * n_turns
    if value is None or n_turns == 0:
        return out
    if not isinstance(value, list):
        if single_for_all:
            return [(value, key)] * n_turns
        if not isinstance(value, kinds):
            rec.warn(key, f"must be a string or a list with one per user turn; it is {json_type(value)}, left out",
                     value, f'write "{key}": ["...", ...]')
            return out
        out[-1] = (value, key)
        return out
    if len(value) != n_turns:
        rec.warn(key, f"has {len(value)} items but the trace has {n_turns} user turns with a reply; they were "
                 "matched from the first turn on, the rest left out", None,
                 f"give one item per user turn (null where there is none): {n_turns} here")
    for t, item in enumerate(value[:n_turns]):
        out[t] = (item, f"{key}[{t}]")
    return out


def expected_per_turn(rec: RecordMap, raw: dict[str, Any], turns: list[Turn]) -> list[list[Call]] | None:
    """The expected calls of each turn, or ``None`` when the trace gives none."""
    given = chat_records.listed_calls(rec, raw, "expected_tool_calls", '[{"name": ..., "arguments": {...}}]')
    if given is None:
        return None
    if given and all(isinstance(item, list) for item in given):
        if len(given) != len(turns):
            rec.warn("expected_tool_calls", f"has {len(given)} lists but the trace has {len(turns)} user turns with "
                     "a reply; they were matched from the first turn on", None, "give one list per user turn")
        out: list[list[Call]] = [[] for _ in turns]
        for t, calls in enumerate(given[: len(turns)]):
            read = (read_call(c, f"expected_tool_calls[{t}][{j}]", rec) for j, c in enumerate(calls))
            out[t] = [c for c in read if c is not None]
        return out
    return chat_records.spread_calls(rec, given, "expected_tool_calls", turns)


def _trace(rec: RecordMap, raw: dict[str, Any], ids: chat_records.ConversationIds) -> dict[str, Any] | None:
    """One trace as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
    messages = raw.get("messages")
    if not isinstance(messages, list):
        rec.error("messages", f"must be a list of chat messages; it is {json_type(messages)}", messages,
                  'give the trace as {"messages": [{"role": "user", "content": "..."}, ...]}')
        return None
    walk = walk_messages(messages, rec, "messages")
    turns = chat_records.walked_turns(rec, walk, "messages", "user")
    if turns is None:
        return None
    references = per_turn(rec, raw, "reference", len(turns), (str,), single_for_all=False)
    scores = per_turn(rec, raw, "score", len(turns), (int, float), single_for_all=True)
    expected = expected_per_turn(rec, raw, turns)
    sequence = (raw.get("tool_sequence_matters", False), "tool_sequence_matters")
    interactions = chat_records.turn_interactions(
        rec, ids, turns, references, scores=scores, expected=expected, sequence=sequence
    )
    context = (walk.context, walk.context_path)
    out = chat_records.chat_conversation(rec, ids, interactions, "messages", context, whole_trace(walk))
    if isinstance(raw.get("language"), str):
        out["language"] = raw["language"]
    return out


def import_openai(file: str, parsed: Parsed) -> Parsed:
    """Map a file of OpenAI-style chat traces, one per record, to seed-format records (see the module's description).

    As :func:`~agentic_core.io.importers.common.import_records`.
    """
    importer = chat_records.ChatImporter(file, "an OpenAI chat trace", _KNOWN, _UNUSED, _trace)
    return import_records(file, parsed, importer, what="a trace object with 'messages'")
