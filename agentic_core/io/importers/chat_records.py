"""What the importers of chat records share: one record per conversation, its messages walked into turns.

OpenAI traces (:mod:`~agentic_core.io.importers.openai_traces`) and Ragas samples
(:mod:`~agentic_core.io.importers.ragas_samples`) differ in their keys and in how references and
expected calls are given; the conversation's ids, the checks on the walked turns, the interactions
built turn by turn and the conversation around them are the same, and are written here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from agentic_core.io.importers.build import interaction, missing_reply, spread_over_turns, unanswered
from agentic_core.io.importers.common import KeyTally, RecordMap, file_stem, text_id
from agentic_core.io.importers.messages import Call, Turn, Walk, read_call
from agentic_core.io.render import json_type


class ConversationIds(NamedTuple):
    """A record's conversation ids (their origins are noted by :func:`conversation_ids`)."""

    session_id: str
    assistant_id: str
    task_id: str | None


def conversation_ids(rec: RecordMap, raw: dict[str, Any], stem: str) -> ConversationIds:
    """The ids of a trace or sample, with their origins noted.

    Args:
        rec: The record (origins go there; its ``session_id`` is set for messages).
        raw: The original record.
        stem: The file's stem: the agent when the record names none, and the start of a default
            session id (``<stem>-<line>``).
    """
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
    return ConversationIds(session_id, raw[agent_key] if agent_key else stem, task_id)


MapRecord = Callable[[RecordMap, dict[str, Any], ConversationIds], dict[str, Any] | None]
"""A format's mapping of one record, given its ids: the seed conversation, or ``None`` (with an error) to skip it."""


class ChatImporter:
    """The state of one file's import of chat records: its stem (for default ids) and the keys not read.

    Args:
        file: The file name.
        label: The record in words, for messages (``an OpenAI chat trace``).
        known: The keys the format's mapping reads.
        unused: The keys it knows but does not use, with the reason.
        map_record: The format's mapping of one record.
    """

    def __init__(self, file: str, label: str, known: frozenset[str], unused: dict[str, str], map_record: MapRecord):
        self.stem = file_stem(file)
        self.keys = KeyTally(label, known, unused)
        self.map_record = map_record

    def one(self, rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        """One record as a seed conversation (``None``, with an error recorded, when it cannot be mapped)."""
        return self.map_record(rec, raw, conversation_ids(rec, raw, self.stem))


def walked_turns(rec: RecordMap, walk: Walk, key: str, speaker: str) -> list[Turn] | None:
    """The turns of a walk; ``None``, with an error, when no ``speaker`` message was answered.

    A last message the agent never answered is warned about (it is not evaluated).
    """
    if walk.ended_unanswered is not None:
        unanswered(rec, walk.ended_unanswered)
    if not walk.turns:
        rec.error(key, f"holds no {speaker} message answered by the agent: nothing to evaluate", None,
                  f"give at least one {speaker} message and the agent's reply")
        return None
    return walk.turns


def turn_interactions(
    rec: RecordMap,
    ids: ConversationIds,
    turns: list[Turn],
    ground_truths: list[tuple[Any, str | None]],
    *,
    scores: list[tuple[Any, str | None]] | None = None,
    expected: list[list[Call]] | None = None,
    sequence: tuple[bool, str | None] = (False, None),
) -> list[dict[str, Any]]:
    """The seed interactions of the turns, one each, ids ``<task or session id>-<n>``.

    A turn without a text reply is warned about (:func:`~agentic_core.io.importers.build.missing_reply`).

    Args:
        rec: The record (issues and origins go there).
        ids: The conversation's ids.
        turns: The turns.
        ground_truths: Each turn's reference answer and where it came from (one that is not a string
            is warned about and left out).
        scores: Each turn's precomputed score and where it came from (``None``: no scores).
        expected: Each turn's expected calls (``None``: tool use has no reference).
        sequence: Whether the expected calls' order matters, and where that came from.
    """
    out = []
    for t, turn in enumerate(turns):
        if turn.answer is None:
            missing_reply(rec, turn)
        at = f"conversation[{t}]"
        text, text_path = ground_truths[t]
        if text is not None and not isinstance(text, str):
            rec.warn(text_path or at, f"must be a string; it is {json_type(text)}, left out", text,
                     "give each reference answer as a string")
            text = None
        out.append(
            interaction(
                rec, at, f"{ids.task_id or ids.session_id}-{t + 1}", turn, ground_truth=(text, text_path),
                score=(None, None) if scores is None else scores[t],
                expected=None if expected is None else expected[t], sequence=sequence[0],
            )
        )
        if expected is not None:
            rec.origin(f"{at}.ground_truth_agentic.tool_sequence_matters", sequence[1])
    return out


def chat_conversation(
    rec: RecordMap,
    ids: ConversationIds,
    interactions: list[dict[str, Any]],
    source: str,
    context: tuple[str | None, str | None],
    trace: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    """The seed conversation of a chat record, before the format's own keys are added.

    Args:
        rec: The record (origins go there).
        ids: The conversation's ids.
        interactions: Its interactions.
        source: The key that holds the messages.
        context: The system messages' text and where it came from (``None``: none).
        trace: Every message, as ``Conversation.trace`` holds it (``None`` or empty: none).
    """
    text, text_path = context
    rec.origin("conversation", source)
    rec.origin("context", text_path)
    out: dict[str, Any] = {"session_id": ids.session_id, "assistant_id": ids.assistant_id, "conversation": interactions}
    if ids.task_id is not None:
        out["task_id"] = ids.task_id
    if text is not None:
        out["context"] = text
    if trace:
        out["trace"] = trace
        rec.origin("trace", source)
    return out


def listed_calls(rec: RecordMap, raw: dict[str, Any], key: str, example: str) -> list[Any] | None:
    """The expected calls given under ``key``; ``None`` when there are none, or (with a warning) not a list.

    Args:
        rec: The record (issues go there).
        raw: The original record.
        key: The key (``expected_tool_calls``, ``reference_tool_calls``).
        example: The list as the format writes it, for the fix.
    """
    given = raw.get(key)
    if given is None:
        return None
    if not isinstance(given, list):
        rec.warn(key, f"must be a list of tool calls; it is {json_type(given)}, left out", given,
                 f'write "{key}": {example}')
        return None
    return given


def spread_calls(rec: RecordMap, given: list[Any], key: str, turns: list[Turn]) -> list[list[Call]]:
    """Expected calls given for the whole record under ``key``, read and spread over its turns."""
    read = (read_call(c, f"{key}[{j}]", rec) for j, c in enumerate(given))
    return spread_over_turns([c for c in read if c is not None], turns)
