"""What a calibration used and what it left out: labelled, scored, unscored by cause, and the cascade's split.

The calibration (:mod:`agentic_core.analysis.calibration`) compares the judge with people on the labelled
interactions the judge *scored*; the others are left out. Said nowhere, a judge that abstains on 60 of 160
labelled pairs looked as if it had been checked on 160. :func:`calibration_coverage` counts them, by cause
(:mod:`agentic_core.judges.causes`), and for the cascade judge says who decided (the offline judge, or the
LLM) and how the LLM alone agreed with people on the labelled items it scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.calibration import calibrate, run_verdicts
from agentic_core.common.frame_columns import ResultCols
from agentic_core.judges.cascade import LLM_PREFIX, result_cascade_counts
from agentic_core.judges.verdict_counts import cause_counts, verdict_counts

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult


class LLMAgreement(BaseModel):
    """The cascade's LLM judge against people, on the labelled interactions it scored.

    Attributes:
        scored: Labelled interactions the offline judge sent to the LLM and the LLM scored.
        threshold: The answer threshold of the figures.
        accuracy: Share of those where the LLM's pass / fail matches the people's verdict.
        kappa: Cohen's kappa of the same.
    """

    model_config = ConfigDict(frozen=True)

    scored: int
    threshold: float
    accuracy: float
    kappa: float


class CalibrationCoverage(BaseModel):
    """The interactions a calibration used and left out.

    Attributes:
        labelled: Interactions with a human verdict (a label, a grade or an override).
        scored: Of those, the ones the judge scored: what the calibration's figures use.
        unscored: Of those, the ones the judge left unscored (left out of the figures).
        unscored_causes: ``unscored`` by cause (every cause present).
        unscored_summary: The same in words, with what to do (``""`` when none).
        cascade: For the cascade judge, who decided over the run's interactions (``decided_offline``,
            ``sent_to_llm``, ``llm_failed``, ..., as ``evaluate --json``'s ``cascade``); ``None`` otherwise.
        llm_agreement: For the cascade, the LLM's own agreement with people on the labelled interactions it
            scored; ``None`` otherwise, or when it scored none of them.
    """

    model_config = ConfigDict(frozen=True)

    labelled: int
    scored: int
    unscored: int
    unscored_causes: dict[str, int]
    unscored_summary: str
    cascade: dict[str, float | int | None] | None = None
    llm_agreement: LLMAgreement | None = None

    def lines(self) -> list[str]:
        """The coverage as the text report's lines."""
        lines = [
            f"labelled: {self.labelled:,} interactions with a human verdict; {self.scored:,} scored by the judge and "
            f"used below, {self.unscored:,} unscored and left out"
            + (f": {self.unscored_summary}" if self.unscored_summary else "")
        ]
        if self.cascade is not None:
            sent, total = int(self.cascade["sent_to_llm"] or 0), int(self.cascade["total"] or 0)
            lines.append(
                f"cascade: {int(self.cascade['decided_offline'] or 0):,} of {total:,} interaction(s) decided by the "
                f"offline judge, {sent:,} sent to the LLM judge ({int(self.cascade['llm_failed'] or 0):,} of them "
                "unscored)"
            )
            agreement = self.llm_agreement
            lines.append(
                "the LLM judge scored none of the labelled interactions sent to it: its own agreement is unknown"
                if agreement is None
                else f"the LLM judge alone, on the {agreement.scored:,} labelled interaction(s) it scored: accuracy "
                f"{agreement.accuracy:.3f}, Cohen's kappa {agreement.kappa:.3f} at threshold {agreement.threshold:.2f}"
            )
        return lines


def calibration_coverage(result: EvaluationResult, threshold: float) -> CalibrationCoverage:
    """What a calibration of ``result`` at ``threshold`` uses and leaves out (see the module docstring).

    Args:
        result: The evaluated run.
        threshold: The answer threshold of the calibration (the LLM's agreement is at the same one).

    Returns:
        The coverage.
    """
    human, _ = run_verdicts(result)
    labelled = ~np.isnan(human)
    scores = result.interactions[ResultCols.SCORE].to_numpy(dtype=np.float64)
    verdicts = result.judge_run.verdicts
    rows = np.flatnonzero(labelled & np.isnan(scores))
    counts = verdict_counts({"failed": len(rows)}).model_copy(
        update={"causes": cause_counts(verdicts[i] for i in rows.tolist())}
    )
    cascade = result_cascade_counts(result)
    agreement = None
    if cascade is not None:
        by_llm = np.fromiter((v.reasoning.startswith(LLM_PREFIX) for v in verdicts), dtype=bool, count=len(verdicts))
        seen = by_llm & labelled & ~np.isnan(scores)
        if seen.any():
            point = calibrate(scores[seen], human[seen], threshold).at_threshold
            agreement = LLMAgreement(
                scored=int(seen.sum()), threshold=float(threshold), accuracy=point.accuracy, kappa=point.kappa
            )
    return CalibrationCoverage(
        labelled=int(labelled.sum()),
        scored=int((labelled & ~np.isnan(scores)).sum()),
        unscored=len(rows),
        unscored_causes=counts.causes,
        unscored_summary="; ".join(counts.cause_parts(result.judge_run.llm_calls)),
        cascade=None if cascade is None else cascade.as_json(),
        llm_agreement=agreement,
    )
