"""Formatting of numbers and settings in words (shared by the pages)."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.analysis import Aggregate
from agentic_core.common import md_text, sentence_case

__all__ = ["INTERPRETATION_BADGES", "ci_text", "md_text", "pct", "prob_text", "settings_sentence"]

INTERPRETATION_BADGES = {
    "reliable": ":green-badge[Reliable]",
    "inconsistent": ":orange-badge[Inconsistent]",
    "functional": ":blue-badge[Functional]",
    "needs_improvement": ":red-badge[Needs improvement]",
    None: ":gray-badge[Undefined]",
}


def pct(x: float | None, digits: int = 1) -> str:
    """``0.945`` -> ``94.5%``; ``None`` -> ``n/a``."""
    return "n/a" if x is None else f"{x:.{digits}%}"


def ci_text(ci: Sequence[float] | None, digits: int = 1) -> str:
    """``(0.77, 0.99)`` -> ``[77.0%, 99.0%]``; empty when there is no interval."""
    return "" if ci is None else f"[{ci[0]:.{digits}%}, {ci[1]:.{digits}%}]"


def prob_text(prob: float) -> str:
    """A probability in words that never prints a Monte Carlo 0 or 1 as certainty."""
    if prob < 0.001:
        return "< 0.1%"
    if prob > 0.999:
        return "> 99.9%"
    return pct(prob)


def settings_sentence(agg: Aggregate) -> str:
    """The unit, K, mode, target, estimator or prior and interval method the core used, in words."""
    return (
        f"Unit of trial: **{agg.unit}**. {sentence_case(agg.unit_reason)}. "
        f"K = **{agg.k}**: {sentence_case(agg.k_reason)}. {agg.statistics.description}"
    )
