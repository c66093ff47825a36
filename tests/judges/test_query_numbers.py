"""A number the question states is no evidence that the answer states it (issue: "What is 102?" / "902")."""

from __future__ import annotations

import asyncio

import pytest

from agentic_core.judges.base import JudgeItem
from agentic_core.judges.registry import build_judge

# (query, answer, ground truth)
WRONG_NUMBER = [
    ("What is 102?", "The answer is 902.", "102."),
    ("Is flight 450 on time at gate 12?", "Flight 450 is on time at gate 14.", "Flight 450 is on time, gate 12."),
]
# The query's number may go unrepeated when the answer gives no other number of its kind.
NOT_REPEATED = [
    ("Which gate does flight 450 leave from?", "It leaves from gate 12.", "Flight 450 leaves from gate 12."),
]


def scores(judge_name: str, cases: list[tuple[str, str, str]]) -> list[float]:
    judge = build_judge(judge_name)
    verdicts = asyncio.run(judge.ajudge([JudgeItem(query=q, answer=a, ground_truth=g) for q, a, g in cases]))
    assert all(v.score is not None for v in verdicts)
    return [float(v.score) for v in verdicts]  # type: ignore[arg-type]


@pytest.mark.parametrize("judge_name", ["lexical", "hybrid"])
def test_a_wrong_number_fails_though_the_question_states_the_right_one(judge_name: str) -> None:
    threshold = build_judge(judge_name).recommended_threshold
    assert all(s < threshold for s in scores(judge_name, WRONG_NUMBER))


@pytest.mark.parametrize("judge_name", ["lexical", "hybrid"])
def test_the_questions_number_need_not_be_repeated(judge_name: str) -> None:
    threshold = build_judge(judge_name).recommended_threshold
    assert all(s >= threshold for s in scores(judge_name, NOT_REPEATED))
