"""``seed_examples.json``: seed 000's notebook dataset (3 questions x K=3 responses) and seed 001's conversations.

The questions, answers, scores and tool calls are in ``texts/seed_examples.json``; a ``why`` there says what each
task or response shows and is not written out.
"""

from __future__ import annotations

import copy
from typing import Any

from .common import check_keys, conversation, interaction, load_texts

TURN_KEYS = {"qa_id", "query", "answer", "ground_truth", "score", "used", "expected", "sequence_matters", "uses_tools"}
TASK_KEYS = TURN_KEYS - {"answer", "score", "used", "uses_tools"} | {"context", "responses", "why"}
RESPONSE_KEYS = {"answer", "score", "used", "uses_tools", "why"}
CONVERSATION_KEYS = {"session_id", "assistant_id", "task_id", "context", "turns"}
TEXTS_KEYS = {"notebook_tasks", "seed001_why", "conversations"}


def _turn(spec: dict[str, Any]) -> dict[str, Any]:
    """One interaction from its description (a used call's ``step`` is its place in the list)."""
    check_keys(spec, TURN_KEYS | {"why"}, f"texts/seed_examples.json, {spec.get('qa_id')!r}")
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
    check_keys(texts, TEXTS_KEYS, "texts/seed_examples.json", required=TEXTS_KEYS - {"seed001_why"})
    convs: list[dict[str, Any]] = []
    for task in texts["notebook_tasks"]:
        check_keys(task, TASK_KEYS, f"texts/seed_examples.json, task {task.get('qa_id')!r}")
        for response in task["responses"]:
            check_keys(response, RESPONSE_KEYS, f"texts/seed_examples.json, a response of {task['qa_id']!r}")
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
        check_keys(conv, CONVERSATION_KEYS, f"texts/seed_examples.json, {conv.get('session_id')!r}")
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
