"""Why a run has no scored interaction, in words: what the command line and the endpoint both say."""

from __future__ import annotations

from agentic_core.common.frame_columns import ResultCols
from agentic_core.judges.verdict_counts import verdict_counts
from agentic_core.result import EvaluationResult


def why_nothing_scored(result: EvaluationResult) -> str:
    """What the judge did when it scored nothing, and the first failure reason it gave.

    Args:
        result: A run in which the judge scored no interaction.

    Returns:
        ``failed on all N interaction(s)`` or, when it abstained on some, ``scored none of the N
        interaction(s) (<counts>)``; then `` (first reason: ...)`` when a reason was recorded.
    """
    counts = verdict_counts(result)
    n = result.n_interactions
    what = f"failed on all {n} interaction(s)" if not counts.uncertain else (
        f"scored none of the {n} interaction(s) ({counts.words()})"
    )
    reasons = result.interactions[ResultCols.JUDGE_ERROR].dropna()
    return what + (f" (first reason: {reasons.iloc[0]})" if len(reasons) else "")
