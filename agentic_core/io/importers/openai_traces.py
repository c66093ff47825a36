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

from agentic_core.io.importers.build import interaction, missing_reply, spread_over_turns, unanswered
from agentic_core.io.importers.common import (
    KeyTally,
    RecordMap,
    file_stem,
    import_records,
    text_id,
)
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
    given = raw.get("expected_tool_calls")
    if given is None:
        return None
    if not isinstance(given, list):
        rec.warn("expected_tool_calls", f"must be a list of tool calls; it is {json_type(given)}, left out",
                 given, 'write "expected_tool_calls": [{"name": ..., "arguments": {...}}]')
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
    read = (read_call(c, f"expected_tool_calls[{j}]", rec) for j, c in enumerate(given))
    return spread_over_turns([c for c in read if c is not None], turns)


def conversation_ids(rec: RecordMap, raw: dict[str, Any], stem: str) -> tuple[str, str, str | None]:
    """``(session_id, assistant_id, task_id)`` of a trace or sample, with their origins noted."""
    key = next((k for k in ("session_id", "id") if text_id(raw.get(k)) is not None), None)
    session_id = text_id(raw.get(key)) if key else None
    if session_id is None:
        session_id = f"{stem}-{rec.line or rec.index + 1}"
    rec.session_id = session_id
    rec.origin("session_id", key)
    agent_key = next((k for k in ("assistant_id", "model") if isinstance(raw.get(k), str) and raw[k].strip()), None)
    rec.origin("assistant_id", agent_key)
    task_id = text_id(raw.get("task_id"))
    if task_id is not None:
        rec.origin("task_id", "task_id")
    return session_id, raw[agent_key] if agent_key else stem, task_id


class _OpenAIImporter:
    """The state of one file's import: its stem (for default ids) and the keys not read."""

    def __init__(self, file: str) -> None:
        self.stem = file_stem(file)
        self.keys = KeyTally("an OpenAI chat trace", _KNOWN, _UNUSED)

    def one(self, rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        """One trace as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
        session_id, assistant_id, task_id = conversation_ids(rec, raw, self.stem)
        messages = raw.get("messages")
        if not isinstance(messages, list):
            rec.error("messages", f"must be a list of chat messages; it is {json_type(messages)}", messages,
                      'give the trace as {"messages": [{"role": "user", "content": "..."}, ...]}')
            return None
        walk = walk_messages(messages, rec, "messages")
        if walk.ended_unanswered is not None:
            unanswered(rec, walk.ended_unanswered)
        turns = walk.turns
        if not turns:
            rec.error("messages", "holds no user message answered by the agent: nothing to evaluate", None,
                      "give at least one user message and the agent's reply")
            return None
        references = per_turn(rec, raw, "reference", len(turns), (str,), single_for_all=False)
        scores = per_turn(rec, raw, "score", len(turns), (int, float), single_for_all=True)
        expected = expected_per_turn(rec, raw, turns)
        sequence = raw.get("tool_sequence_matters", False)
        interactions = []
        for t, turn in enumerate(turns):
            if turn.answer is None:
                missing_reply(rec, turn)
            text, text_path = references[t]
            if text is not None and not isinstance(text, str):
                rec.warn(text_path or "reference", f"must be a string; it is {json_type(text)}, left out", text,
                         "give each reference answer as a string")
                text = None
            at = f"conversation[{t}]"
            interactions.append(
                interaction(
                    rec, at, f"{task_id or session_id}-{t + 1}", turn, ground_truth=(text, text_path),
                    score=scores[t], expected=None if expected is None else expected[t], sequence=sequence,
                )
            )
            if expected is not None:
                rec.origin(f"{at}.ground_truth_agentic.tool_sequence_matters", "tool_sequence_matters")
        rec.origin("conversation", "messages")
        rec.origin("context", walk.context_path)
        out: dict[str, Any] = {"session_id": session_id, "assistant_id": assistant_id, "conversation": interactions}
        if task_id is not None:
            out["task_id"] = task_id
        if walk.context is not None:
            out["context"] = walk.context
        out["trace"] = whole_trace(walk)
        rec.origin("trace", "messages")
        if isinstance(raw.get("language"), str):
            out["language"] = raw["language"]
        return out


def import_openai(file: str, parsed: Parsed) -> Parsed:
    """Map a file of OpenAI-style chat traces, one per record, to seed-format records (see the module's description).

    As :func:`~agentic_core.io.importers.common.import_records`.
    """
    return import_records(file, parsed, _OpenAIImporter(file), what="a trace object with 'messages'")
