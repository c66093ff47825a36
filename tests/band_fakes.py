"""A fake judge that abstains by a band as the ``learned`` judge does, with probabilities chosen by the test.

:class:`BandJudge` reads each item's dataset ``score`` as its P(correct) ``p`` (so a test writes the
probabilities into the records, :func:`band_run`) and decides as the learned judge does: ``p <= low`` or
``p >= high`` scored ``p``, strictly between "uncertain" (unscored, carrying ``p``). Items whose score is
missing get a verdict without a probability (score 1.0), as an LLM's verdict in a cascade run has.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.evaluate import evaluate
from agentic_core.judges.base import FittedBand, JudgeIdentity, JudgeItem, ProgressFn, Verdict, uncertain_verdict
from agentic_core.result import EvaluationResult
from tests.datasets import conv, convs

BAND = (0.2, 0.8)
"""The fake judge's fitted band."""


class BandJudge:
    """Abstains strictly inside ``band`` (see the module docstring)."""

    cacheable = False
    recommended_threshold = 0.5
    calls_llm, reads_texts, abstains, notice = False, True, True, None

    def __init__(self, band: tuple[float, float] = BAND, kind: str = "band-test") -> None:
        self.identity = JudgeIdentity(kind=kind, params={"band": list(band)})
        self.fitted_band = FittedBand(low=band[0], high=band[1])

    def verdict(self, item: JudgeItem) -> Verdict:
        """The learned judge's rule on the item's score read as P(correct)."""
        p = item.score
        if p is None:
            return Verdict(score=1.0, reasoning="no probability (as an LLM's verdict)")
        low, high = self.fitted_band.edges
        if p <= low or p >= high:  # written out here: the test must not read the rule it checks
            return Verdict(score=p, probability=p, reasoning=f"P(correct) {p}")
        return uncertain_verdict(p, f"P(correct) {p}", f"{p} is inside the band")

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item."""
        if progress is not None:
            progress(len(items), len(items))
        return [self.verdict(item) for item in items]


def band_run(probabilities: Sequence[float | None], judge: BandJudge | None = None) -> EvaluationResult:
    """One conversation of one interaction per probability (``None``: an item without one), judged by ``judge``."""
    records = []
    for i, p in enumerate(probabilities):
        record = conv(f"s{i}", [0.0])
        record["conversation"][0]["score"] = p
        if p is None:
            del record["conversation"][0]["score"]
        records.append(record)
    return evaluate(convs(records), judge or BandJudge(), cache_mode="off")
