"""Small datasets built in code for the tests (one conversation record per call)."""

from __future__ import annotations

from typing import Any

from agentic_core.data.schemas import Conversation


def conv(
    session: str,
    scores: list[float],
    *,
    task: str | None = None,
    tools: bool = False,
    used_b: int = 2,
) -> dict[str, Any]:
    """A conversation record with one interaction per score (dataset-judge scores)."""
    turns = []
    for i, s in enumerate(scores):
        turn: dict[str, Any] = {
            "qa_id": f"{task or session}-q{i}",
            "query": f"{session}: question {i}",
            "assistant": f"answer {i} is 3",
            "ground_truth_assistant": f"answer {i} is 3",
            "score": s,
        }
        if tools:
            turn["agentic"] = {
                "tools_used": [{"tool_name": "add", "parameters": {"a": 1, "b": used_b}, "result": 3, "step": 1}],
                "final_answer_uses_tools": True,
            }
            turn["ground_truth_agentic"] = {
                "expected_tools": [{"tool_name": "add", "parameters": {"a": 1, "b": 2}, "step": 1}],
                "tool_sequence_matters": False,
            }
        turns.append(turn)
    rec: dict[str, Any] = {"session_id": session, "assistant_id": "agent", "conversation": turns}
    if task is not None:
        rec["task_id"] = task
    return rec


def convs(records: list[dict[str, Any]]) -> list[Conversation]:
    return [Conversation.model_validate(r) for r in records]
