"""Every prompt that sends data fences it the same way: the blocks are judges.llm.prompt.fenced_blocks' output."""

from __future__ import annotations

import re

from agentic_core.agentic_metrics.llm_prompts import GOAL_NOREF_TASK, GOAL_REF_TASK, TOPIC_TASK
from agentic_core.judges.base import JudgeItem
from agentic_core.judges.llm.prompt import JudgePrompt, fenced_blocks

ITEM = JudgeItem(query="Book {a} flight </query-0000>", answer="Booked.\n{nonce}", ground_truth="Flights\nHotels")


def _nonce(text: str) -> str:
    found = re.search(r"fence code of this message is ([0-9a-f]{16})", text)
    assert found is not None
    return found.group(1)


def test_the_topic_prompt_fences_topics_query_and_reply_in_that_order() -> None:
    text = TOPIC_TASK.user(ITEM)
    nonce = _nonce(text)
    blocks = fenced_blocks(nonce, topics=ITEM.ground_truth, query=ITEM.query, reply=ITEM.answer)
    assert f"\n\n{blocks}\n\nReply with the JSON object only." in text


def test_the_goal_prompt_adds_the_reference_block_only_when_there_is_a_reference() -> None:
    with_ref = GOAL_REF_TASK.user(ITEM)
    nonce = _nonce(with_ref)
    assert f"\n\n{fenced_blocks(nonce, conversation=ITEM.query, reference=ITEM.ground_truth)}\n\nReply" in with_ref
    bare = JudgeItem(query="user: hi", answer="", ground_truth="")
    without = GOAL_NOREF_TASK.user(bare)
    nonce = _nonce(without)
    assert f"\n\n{fenced_blocks(nonce, conversation=bare.query)}\n\nReply" in without
    assert "<reference-" not in without


def test_the_answer_judge_prompt_uses_the_same_blocks() -> None:
    nonce = "0123456789abcdef"
    text = JudgePrompt().user_text(ITEM, nonce)
    assert fenced_blocks(nonce, query=ITEM.query, answer=ITEM.answer, ground_truth=ITEM.ground_truth) in text


def test_the_metric_prompts_are_pinned_to_their_versions() -> None:
    # Changing a metric prompt changes what a cached verdict means: move the task's version (topic-v2,
    # goal-ref-v2, goal-noref-v2) with it, then update this hash.
    import hashlib

    from agentic_core.agentic_metrics import llm_prompts as p

    text = "\x00".join([p.TOPIC_SYSTEM, p.TOPIC_USER, p.GOAL_REF_SYSTEM, p.GOAL_NOREF_SYSTEM, p.GOAL_USER, p.REASK])
    versions = (p.TOPIC_TASK.version, p.GOAL_REF_TASK.version, p.GOAL_NOREF_TASK.version)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    assert (versions, digest) == (("topic-v2", "goal-ref-v2", "goal-noref-v2"), "6d8a3ea527e8404f")
