"""The ``dataset`` judge: each interaction's own precomputed ``score`` (reward, human grade)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict, score_key


class DatasetJudge:
    """Uses the score already in the data; an interaction without one is unscored, never 0."""

    identity = JudgeIdentity(kind="dataset")
    recommended_threshold = 0.7
    cacheable = False
    calls_llm = False
    reads_texts = False
    """Only the score matters (see :func:`agentic_core.judges.base.capabilities`)."""
    abstains = False
    notice = None
    _MEMO = 65_536
    """Distinct scores remembered (a bound: scores with many decimals could all differ)."""

    def __init__(self) -> None:
        self._by_score: dict[Hashable, Verdict] = {}

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Return each item's own score; items without a ``score`` field are failed (unscored).

        Equal scores share one verdict object (verdicts are never changed in place), across the
        runner's batches too: a million interactions hold a few thousand distinct scores, not a
        million models (building them was half of a dataset-judge run).
        """
        by_score = self._by_score
        if len(by_score) > self._MEMO:
            by_score.clear()
        verdicts = []
        for item in items:
            score = item.score
            key = score_key(score)  # 0.0 and -0.0 read differently ("score -0 taken from ...")
            verdict = by_score.get(key)
            if verdict is None:
                verdict = by_score[key] = _verdict(score)
            verdicts.append(verdict)
        if progress is not None:
            progress(len(items), len(items))
        return verdicts


def _verdict(score: float | None) -> Verdict:
    if score is None:
        return Verdict(
            status="failed",
            error="no 'score' field on this interaction: the dataset judge needs one "
            '(add "score": <0..1> or choose another judge)',
        )
    return Verdict(score=score, reasoning=f"score {score:g} taken from the dataset")
