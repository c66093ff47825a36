"""``seed_examples.json``: seed 000's notebook dataset (3 questions x K=3 responses) and seed 001's conversations.

The questions, answers, scores and tool calls are in ``texts/seed_examples.json``; a ``why`` there says what each
task or response shows and is not written out.
"""

from __future__ import annotations

import copy
from typing import Any

from .common import conversation, interaction, load_texts


def _turn(spec: dict[str, Any]) -> dict[str, Any]:
    """One interaction from its description (a used call's ``step`` is its place in the list)."""
    has_tools = "used" in spec or "expected" in spec
    return interaction(
        spec["qa_id"],
        spec["query"],
        spec["answer"],
        spec["ground_truth"],
        spec["score"],
        used=copy.deepcopy(spec.get("used", [])) if has_tools else None,
        expected=copy.deepcopy(spec.get("expected", [])) if has_tools else None,
        sequence_matters=spec.get("sequence_matters", False),
        uses_tools=spec.get("uses_tools"),
    )


def build_seed_examples() -> list[dict[str, Any]]:
    """Seed 000: every task answered K=3 times (one conversation each, ``agent_response_1..3``); then seed 001."""
    texts = load_texts("seed_examples.json")
    convs: list[dict[str, Any]] = []
    for task in texts["notebook_tasks"]:
        shared = {k: v for k, v in task.items() if k not in ("responses", "why", "context")}
        for r, response in enumerate(task["responses"]):
            convs.append(
                conversation(
                    f"agentic_eval_session_{len(convs) + 1:02d}",
                    f"agent_response_{r + 1}",
                    [_turn({**shared, **response})],
                    task_id=task["qa_id"],
                    context=task["context"],
                )
            )
    for conv in texts["conversations"]:
        convs.append(
            conversation(
                conv["session_id"],
                conv["assistant_id"],
                [_turn(turn) for turn in conv["turns"]],
                task_id=conv["task_id"],
                context=conv["context"],
            )
        )
    return convs
