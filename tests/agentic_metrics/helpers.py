"""Conversations built in code for the agentic metrics' tests."""

from __future__ import annotations

from typing import Any

from agentic_core.data.schemas import Conversation


def conv(
    sid: str,
    turns: list[tuple[str, str]],
    *,
    topics: list[str] | None = None,
    reference: str | None = None,
    used: list[list[tuple[str, dict[str, Any]]]] | None = None,
    expected: list[list[tuple[str, dict[str, Any]]]] | None = None,
) -> Conversation:
    """A conversation of ``(query, answer)`` turns, with optional topics, reference and tool calls per turn."""
    interactions = []
    for n, (query, answer) in enumerate(turns):
        record: dict[str, Any] = {"qa_id": f"{sid}-{n}", "query": query, "assistant": answer,
                                  "ground_truth_assistant": answer}
        if used is not None:
            record["agentic"] = {"tools_used": [{"tool_name": t, "parameters": p} for t, p in used[n]]}
        if expected is not None:
            record["ground_truth_agentic"] = {"expected_tools": [{"tool_name": t, "parameters": p}
                                                                 for t, p in expected[n]]}
        interactions.append(record)
    data: dict[str, Any] = {"session_id": sid, "assistant_id": "bot", "conversation": interactions}
    if topics is not None:
        data["reference_topics"] = topics
    if reference is not None:
        data["reference"] = reference
    return Conversation.model_validate(data)


BOOKING = conv(
    "booking",
    [("Book a table at a Chinese restaurant for 8pm.", "I found Golden Dragon and Jade Palace. Which one?"),
     ("Golden Dragon, please.", "Your table at Golden Dragon is booked for 8:00pm.")],
    topics=["restaurant booking"],
    reference="Table booked at Golden Dragon for 8pm.",
    used=[[("restaurant_search", {"cuisine": "Chinese", "time": "8pm"})],
          [("restaurant_book", {"name": "Golden Dragon", "time": "8pm"})]],
    expected=[[("restaurant_search", {"cuisine": "Chinese", "time": "8pm"})],
              [("restaurant_book", {"name": "Golden Dragon", "time": "8pm"})]],
)

OFF_TOPIC = conv(
    "science",
    [("Can you explain Einstein's theory of relativity?", "Relativity says space and time are linked."),
     ("Do you know a good chocolate cake recipe?", "I'm sorry, I can only help with science questions."),
     ("Who won the world cup in 2018?", "France won the 2018 world cup.")],
    topics=["science"],
)
