"""The pass@K and pass^K cards of a results page, or "not measured" when the data has no repeated attempts.

The Overview and the Uncertainty page show the same two cards from different numbers (the
headline's estimates, the posterior's means); whether K attempts were measured at all is the core's
decision (:attr:`agentic_core.analysis.Aggregate.k_evidence`), read here, never recomputed.
"""

from __future__ import annotations

from typing import Any

from agentic_core.analysis import KEvidence
from ui.cards import card, kpi


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
        up_to = evidence.measured_up_to
        delta = "pass@1 only" if up_to == 1 else f"measured up to k = {up_to}"
        for name in (f"pass@{k}", f"pass^{k}"):
            card(row, name, "not measured", help=evidence.sentence, delta=delta)
        return
    kpi(row, f"pass@{k}", at[0], at[1], help=at[2])
    kpi(row, f"pass^{k}", pow_k[0], pow_k[1], help=pow_k[2])
