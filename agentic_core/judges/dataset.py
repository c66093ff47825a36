"""The ``dataset`` judge: each interaction's own precomputed ``score`` (reward, human grade)."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict


class DatasetJudge:
    """Uses the score already in the data; an interaction without one is unscored, never 0."""

    identity = JudgeIdentity(kind="dataset")
    recommended_threshold = 0.7
    cacheable = False

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Return each item's own score; items without a ``score`` field are failed (unscored)."""
        verdicts = [
            Verdict(score=item.score, reasoning=f"score {item.score:g} taken from the dataset")
            if item.score is not None
            else Verdict(
                status="failed",
                error="no 'score' field on this interaction: the dataset judge needs one "
                '(add "score": <0..1> or choose another judge)',
            )
            for item in items
        ]
        if progress is not None:
            progress(len(items), len(items))
        return verdicts
