"""The pass@K and pass^K cards of a results page, or "not measured" when the data has no repeated attempts.

The Overview and the Uncertainty page show the same two cards from different numbers (the
headline's estimates, the posterior's means); whether K attempts were measured at all is one
question with one answer for both, computed once per run and settings.
"""

from __future__ import annotations

from typing import Any

from agentic_core.analysis import Aggregate, KEvidence, k_evidence
from agentic_core.settings import AggregateSettings
from ui.cards import card, kpi
from ui.memo import session_memo
from ui.state import ActiveRun

EVIDENCE_MEMO_KEY = "_k_evidence"


def evidence_for(run: ActiveRun, settings: AggregateSettings, agg: Aggregate) -> KEvidence:
    """What the run's data says about K under ``settings`` (memoised per session)."""
    return session_memo(
        EVIDENCE_MEMO_KEY, (run.run_id, settings.model_dump_json()), lambda: k_evidence(run.result, agg)
    )


def pass_k_cards(
    row: Any,
    k: int,
    evidence: KEvidence,
    at: tuple[float | None, tuple[float, float] | None, str],
    pow_k: tuple[float | None, tuple[float, float] | None, str],
) -> None:
    """The pass@K and pass^K cards in ``row``: each ``(value, interval, tooltip)``, or "not measured" twice.

    One attempt per task says nothing about K attempts: then no number a reader would take as
    measured is shown, only why (the evidence's sentence).
    """
    if not evidence.measured:
        for name in (f"pass@{k}", f"pass^{k}"):
            card(row, name, "not measured", help=evidence.sentence, delta="pass@1 only")
        return
    kpi(row, f"pass@{k}", at[0], at[1], help=at[2])
    kpi(row, f"pass^{k}", pow_k[0], pow_k[1], help=pow_k[2])
