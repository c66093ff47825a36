"""Why a run has no scored interaction (or its LLM scored nothing), in words: what the CLI and the endpoint say."""

from __future__ import annotations

from agentic_core.common.frame_columns import ResultCols
from agentic_core.judges.cascade import LLM_PREFIX, result_cascade_counts
from agentic_core.judges.verdict_counts import cause_counts, verdict_counts
from agentic_core.result import EvaluationResult


def why_nothing_scored(result: EvaluationResult) -> str:
    """What the judge did when it scored nothing, why by cause, and the first failure reason it gave.

    Args:
        result: A run in which the judge scored no interaction.

    Returns:
        ``failed on all N interaction(s)`` or, when it abstained on some, ``scored none of the N
        interaction(s) (<counts>)``; then the causes in words (``: 12 timed out after 60 s (...)``) and
        `` (first reason: ...)`` when a reason was recorded.
    """
    counts = verdict_counts(result)
    n = result.n_interactions
    what = f"failed on all {n} interaction(s)" if not counts.uncertain else (
        f"scored none of the {n} interaction(s) ({counts.words()})"
    )
    parts = counts.cause_parts(result.judge_run.llm_calls, uncertain=False)
    if parts:
        what += f": {'; '.join(parts)}"
    reasons = result.interactions[ResultCols.JUDGE_ERROR].dropna()
    return what + (f" (first reason: {reasons.iloc[0]})" if len(reasons) else "")


def why_llm_scored_nothing(result: EvaluationResult) -> str | None:
    """When a cascade's LLM failed on every interaction sent to it, that and why by cause; else ``None``.

    The offline judge may have scored the rest, so the run is not "nothing scored", but every LLM call
    failing is a fault to name (a timeout too short for the server, a wrong base URL, ...).
    """
    cascade = result_cascade_counts(result)
    if cascade is None or not cascade.sent_to_llm or cascade.llm_failed < cascade.sent_to_llm:
        return None
    sent = [v for v in result.judge_run.verdicts if v.reasoning.startswith(LLM_PREFIX)]
    counts = verdict_counts({"failed": len(sent)}).model_copy(update={"causes": cause_counts(sent)})
    parts = counts.cause_parts(result.judge_run.llm_calls)
    why = f": {'; '.join(parts)}" if parts else ""
    return f"the LLM judge scored none of the {cascade.sent_to_llm} interaction(s) the offline judge sent it{why}"
