"""A fake abstaining offline judge for the cascade's tests (CLI, endpoint, Run page, judge).

:class:`AbstainingJudge` answers ``uncertain`` (with a probability) for every item whose answer
holds :data:`UNSURE`, fails on items whose answer holds :data:`BROKEN`, and otherwise scores 1.0
when the answer contains the ground truth, else 0.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict, uncertain_verdict

UNSURE = "UNSURE"
BROKEN = "BROKEN"


class AbstainingJudge:
    """An offline judge that abstains on marked answers; records what it was asked.

    Args:
        version: Recorded in the identity (two versions have two fingerprints).
        threshold: Its recommended threshold.
        score_sure: The score of a sure "correct" verdict.
    """

    cacheable = True
    calls_llm, reads_texts, abstains, notice = False, True, True, None

    def __init__(self, version: str = "v1", threshold: float = 0.7, score_sure: float = 1.0) -> None:
        self.identity = JudgeIdentity(kind="abstaining-fake", params={"version": version})
        self.recommended_threshold = threshold
        self.score_sure = score_sure
        self.judged: list[JudgeItem] = []
        self.warnings: list[str] = []

    def verdict(self, item: JudgeItem) -> Verdict:
        """The verdict for one item (see the module docstring)."""
        if UNSURE in item.answer:
            return uncertain_verdict(0.55, "features disagree", "P(correct) 0.55 is inside the band")
        if BROKEN in item.answer:
            return Verdict(status="failed", error="cannot read this answer")
        right = item.ground_truth.lower() in item.answer.lower()
        score = self.score_sure if right else 0.0
        return Verdict(score=score, probability=0.99 if right else 0.01, reasoning=f"fake sure {score}")

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        self.judged.extend(items)
        out = [self.verdict(item) for item in items]
        if progress is not None:
            progress(len(items), len(items))
        return out


def use_abstaining_default(monkeypatch: Any) -> AbstainingJudge:
    """Make the registry's default offline judge an :class:`AbstainingJudge` (what the cascade builds)."""
    from agentic_core.judges.spec import DEFAULT_JUDGE
    from tests.fakes import replace_judge

    judge = AbstainingJudge()
    replace_judge(monkeypatch, DEFAULT_JUDGE, lambda: judge)
    return judge


def cascade_dataset(n_sure: int = 4, n_unsure: int = 2) -> list[dict[str, Any]]:
    """Seed-format conversations: ``n_sure`` answers the fake judge is sure of, ``n_unsure`` it abstains on."""
    answers = [f"It is Paris ({i})." for i in range(n_sure)] + [f"{UNSURE} Paris-ish ({i})" for i in range(n_unsure)]
    return [
        {
            "session_id": f"s{i}",
            "assistant_id": "bot",
            "task_id": "capital",
            "conversation": [
                {"qa_id": f"q{i}", "query": "What is the capital of France?", "assistant": answer,
                 "ground_truth_assistant": "Paris"}
            ],
        }
        for i, answer in enumerate(answers)
    ]
