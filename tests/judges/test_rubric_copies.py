"""Issue 40: replies that are not judgements (a copy of the rubric's placeholders, one reply for every item)."""

from __future__ import annotations

import json

import pytest

from agentic_core.judges.llm.prompt import REASK_PROMPT, SYSTEM_PROMPT, USER_TEMPLATE
from agentic_core.judges.llm.rubric import PLACEHOLDERS, WATCH_REPLIES, copied_placeholder
from agentic_core.judges.runner import judge_sync, run_judge_sync
from tests.fakes import judgement_json, make_items
from tests.judges.conftest import ScriptedChatModel, fast_judge

# What Gemma 3 270M sent for every item in the run: the rubric's template, with a number in it.
GEMMA_LIKE = json.dumps({"score": 0.8, "reasoning": "<short explanation>"})


def test_the_placeholders_are_read_from_the_prompts_themselves() -> None:
    assert "<short explanation>" in PLACEHOLDERS and "<one or two sentences" in " ".join(PLACEHOLDERS)
    assert all(p in SYSTEM_PROMPT + USER_TEMPLATE + REASK_PROMPT for p in PLACEHOLDERS)
    # The fence tags (one word each, the data's delimiters) are not placeholders.
    assert not any(p.startswith(("<query", "<answer", "<ground_truth")) for p in PLACEHOLDERS)


@pytest.mark.parametrize(
    ("reasoning", "copied"),
    [
        ("<short explanation>", "<short explanation>"),
        ("  <Short   Explanation>. ", "<short explanation>"),
        ("short explanation", "<short explanation>"),
        ("The score is <a number from 0 to 1> here.", "<a number from 0 to 1>"),
        ("The answer gives a short explanation of the capital: Paris, as the ground truth says.", None),
        ("Same key facts as the ground truth (EXACT band).", None),
    ],
)
def test_a_copied_placeholder_is_found_and_a_real_reasoning_is_not(reasoning: str, copied: str | None) -> None:
    assert copied_placeholder(reasoning) == copied


def test_a_reply_copying_the_placeholder_leaves_its_item_unscored_and_the_run_says_why() -> None:
    model = ScriptedChatModel(replies=[GEMMA_LIKE])
    judge = fast_judge(model)
    run = run_judge_sync(judge, make_items(WATCH_REPLIES + 3), cache_mode="off")
    assert run.counts["failed"] == WATCH_REPLIES + 3 and all(v.cause == "invalid_reply" for v in run.verdicts)
    assert "copies the rubric's placeholder '<short explanation>'" in (run.verdicts[0].error or "")
    warnings = [w for w in run.warnings if "does not follow the rubric" in w]
    assert len(warnings) == 1  # once, however many replies copy it
    assert "Qwen2.5-Coder-1.5B-Instruct" in warnings[0] and "12 of 12" in warnings[0] and "Gemma 3 270M" in warnings[0]
    assert f"{WATCH_REPLIES} of its first {WATCH_REPLIES} replies" in warnings[0]


def test_a_short_run_is_warned_at_its_end() -> None:
    judge = fast_judge(ScriptedChatModel(replies=[GEMMA_LIKE]))
    run = run_judge_sync(judge, make_items(2), cache_mode="off")
    assert any("2 of its first 2 replies" in w for w in run.warnings)


def test_one_copy_among_real_judgements_is_unscored_without_a_run_warning() -> None:
    replies = [GEMMA_LIKE] + [judgement_json(0.9, f"Reasoning {i}") for i in range(WATCH_REPLIES)]
    judge = fast_judge(ScriptedChatModel(replies=replies), concurrency=1)
    verdicts = judge_sync(judge, make_items(WATCH_REPLIES + 1))
    assert [v.cause for v in verdicts].count("invalid_reply") == 1
    assert not any("does not follow the rubric" in w for w in judge.warnings)


def test_the_same_reply_to_every_item_is_flagged_but_kept() -> None:
    # The same words can be a real verdict on uniform data, so the scores stay; the run warns. The
    # reply's words are not quoted (a warning is not masked of what a server may echo).
    secretish = "Looks right (debug: token sk-not-shown-123)."
    judge = fast_judge(ScriptedChatModel(replies=[judgement_json(0.9, secretish)]))
    run = run_judge_sync(judge, make_items(WATCH_REPLIES), cache_mode="off")
    assert run.counts["ok"] == WATCH_REPLIES
    same = [w for w in run.warnings if "same reply" in w]
    assert len(same) == 1 and "calibrate" in same[0] and "sk-not-shown" not in same[0]


def test_different_replies_raise_no_warning() -> None:
    replies = [judgement_json(0.9, f"Reasoning {i}") for i in range(WATCH_REPLIES)]
    judge = fast_judge(ScriptedChatModel(replies=replies), concurrency=1)
    run = run_judge_sync(judge, make_items(WATCH_REPLIES), cache_mode="off")
    assert run.counts["ok"] == WATCH_REPLIES and not any("rubric" in w for w in run.warnings)
