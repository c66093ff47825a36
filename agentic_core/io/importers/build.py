"""Seed-format pieces built from the turns of a chat log, each with the place it came from."""

from __future__ import annotations

from typing import Any

from agentic_core.io.importers.common import RecordMap, spread_expected
from agentic_core.io.importers.messages import Call, Turn


def used_tools(rec: RecordMap, calls: list[Call], at: str) -> list[dict[str, Any]]:
    """``agentic.tools_used`` of the interaction at ``at`` (steps 1..n in call order)."""
    out = []
    for m, call in enumerate(calls):
        where = f"{at}.agentic.tools_used[{m}]"
        out.append({"tool_name": call.name, "parameters": call.parameters, "result": call.result, "step": m + 1})
        rec.origin(where, call.path)
        rec.origin(f"{where}.tool_name", call.name_path)
        rec.origin(f"{where}.parameters", call.arguments_path)
        rec.origin(f"{where}.result", call.result_path)
    return out


def expected_tools(rec: RecordMap, calls: list[Call], at: str, sequence: bool) -> dict[str, Any]:
    """``ground_truth_agentic`` of the interaction at ``at`` (steps 1..n in the given order)."""
    out = []
    for m, call in enumerate(calls):
        where = f"{at}.ground_truth_agentic.expected_tools[{m}]"
        out.append({"tool_name": call.name, "parameters": call.parameters, "step": m + 1})
        rec.origin(where, call.path)
        rec.origin(f"{where}.tool_name", call.name_path)
        rec.origin(f"{where}.parameters", call.arguments_path)
    return {"expected_tools": out, "tool_sequence_matters": sequence}


def interaction(
    rec: RecordMap,
    at: str,
    qa_id: str,
    turn: Turn,
    *,
    ground_truth: tuple[str | None, str | None] = (None, None),
    score: tuple[Any, str | None] = (None, None),
    expected: list[Call] | None = None,
    sequence: bool = False,
) -> dict[str, Any]:
    """One seed interaction from a turn.

    Args:
        rec: The record being mapped (origins go there).
        at: The interaction's path in the mapped record (``conversation[2]``).
        qa_id: Its id.
        turn: The turn (query, answer, calls).
        ground_truth: The reference answer and where it came from (``None``: none, left empty).
        score: The precomputed score and where it came from (``None``: none).
        expected: The expected calls (``None``: tool use has no reference here).
        sequence: Whether the expected calls' order matters.

    Returns:
        The interaction dict; a missing reply is an empty answer (the caller warns about it).
    """
    text, text_path = ground_truth
    value, value_path = score
    out: dict[str, Any] = {
        "qa_id": qa_id,
        "query": turn.query,
        "assistant": turn.answer or "",
        "ground_truth_assistant": text or "",
    }
    rec.origin(at, turn.query_path.rsplit(".", 1)[0])
    rec.origin(f"{at}.query", turn.query_path)
    rec.origin(f"{at}.assistant", turn.answer_path or turn.last_reply_path)
    rec.origin(f"{at}.ground_truth_assistant", text_path)
    if turn.calls:
        out["agentic"] = {"tools_used": used_tools(rec, turn.calls, at)}
    if expected is not None:
        out["ground_truth_agentic"] = expected_tools(rec, expected, at, sequence)
    if value is not None:
        out["score"] = value
        rec.origin(f"{at}.score", value_path)
    return out


def missing_reply(rec: RecordMap, turn: Turn) -> None:
    """Warn about a turn whose agent made tool calls (or replied with nothing) but gave no text answer."""
    rec.warn(
        turn.last_reply_path or turn.query_path,
        "the agent's reply to this user turn is missing (no assistant text after its tool calls); it was mapped "
        "with an empty answer, which judges grade as wrong",
        None,
        "include the agent's final assistant message in the trace",
    )


def unanswered(rec: RecordMap, turn: Turn) -> None:
    """Warn about a last user message the agent never replied to (it is not evaluated)."""
    rec.warn(
        turn.query_path,
        "the trace ends with this user message, which the agent never answered; it is not evaluated",
        turn.query,
        "end each trace with the agent's reply (a closing 'thanks' from the user can be left out)",
    )


def spread_over_turns(calls: list[Call], turns: list[Turn]) -> list[list[Call]]:
    """Expected calls given for a whole chat log, as a list per turn (see :func:`spread_expected`)."""
    where = spread_expected([[c.name for c in turn.calls] for turn in turns], [c.name for c in calls])
    spread: list[list[Call]] = [[] for _ in turns]
    for call, turn in zip(calls, where, strict=True):
        spread[turn].append(call)
    return spread
