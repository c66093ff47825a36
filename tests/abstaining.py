"""A fake offline judge that abstains on some items, for the tests of "abstention is a verdict".

:class:`AbstainingJudge` abstains (``uncertain``, unscored, with a probability) on the items
:func:`abstains_on` picks (about a quarter, by a hash of the answer, so the same item always gets
the same verdict, as an offline judge's does); otherwise it scores 1.0 when the answer contains
the ground truth and 0.0 when not, with a probability that says so.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict, uncertain_verdict


def _hash(item: JudgeItem) -> int:
    return zlib.crc32(f"{item.query}\x00{item.answer}".encode())


def abstains_on(item: JudgeItem) -> bool:
    """Whether :class:`AbstainingJudge` abstains on ``item``."""
    return _hash(item) % 4 == 0


def right(item: JudgeItem) -> bool:
    """What :class:`AbstainingJudge` says when it is sure: the ground truth is in the answer."""
    return item.ground_truth.strip().lower() in item.answer.lower()


class AbstainingJudge:
    """An offline judge that abstains on :func:`abstains_on`'s items; counts the items it judged."""

    cacheable = True
    recommended_threshold = 0.5
    calls_llm, reads_texts, abstains, notice = False, True, True, None

    def __init__(self) -> None:
        self.identity = JudgeIdentity(kind="abstaining-test", params={"version": 1})
        self.calls = 0

    def verdict(self, item: JudgeItem) -> Verdict:
        """The verdict for one item (see the module docstring)."""
        if abstains_on(item):
            p = (40 + (_hash(item) >> 2) % 21) / 100  # in the band 0.40 .. 0.60
            return uncertain_verdict(p, f"test features, P(correct) {p:.2f}", "inside the band 0.40 .. 0.60")
        sure = right(item)
        return Verdict(score=1.0 if sure else 0.0, probability=0.95 if sure else 0.05, reasoning=f"sure: {sure}")

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item."""
        self.calls += len(items)
        if progress is not None:
            progress(len(items), len(items))
        return [self.verdict(item) for item in items]


def records(n: int = 24) -> list[dict[str, Any]]:
    """``n`` conversation records of three interactions each, right and wrong answers mixed (seed format)."""
    out = []
    for c in range(n):
        turns = [
            {
                "qa_id": f"c{c}-q{i}",
                "query": f"conversation {c}: what is item {i}?",
                "assistant": f"it is value {c * 3 + i}" if (c * 3 + i) % 7 else "I do not know",
                "ground_truth_assistant": f"value {c * 3 + i}",
            }
            for i in range(3)
        ]
        out.append({"session_id": f"s{c}", "assistant_id": "a", "conversation": turns})
    return out


def register(monkeypatch: Any, name: str) -> None:
    """Make the registry judge ``name`` an :class:`AbstainingJudge` (the CLI and the endpoint build judges by name)."""
    from tests.fakes import replace_judge

    replace_judge(monkeypatch, name, AbstainingJudge)


def unsure_record() -> dict[str, Any]:
    """One conversation the real default (learned) judge abstains on: an answer that states nothing checkable."""
    return {
        "session_id": "s1",
        "assistant_id": "a1",
        "conversation": [
            {
                "qa_id": "q1",
                "query": "What is the capital of Australia?",
                "assistant": "N/A",
                "ground_truth_assistant": "Canberra",
            }
        ],
    }
