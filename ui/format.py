"""Formatting of numbers and settings in words (shared by the pages)."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.evaluate import Aggregate

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


def settings_sentence(agg: Aggregate) -> str:
    """The unit, estimator, mode and interval actually used, in words."""
    s = agg.settings
    if s.mode == "bayesian":
        how = (
            f"Bayesian: Beta({s.prior_a:g}, {s.prior_b:g}) prior, posterior means with "
            f"{s.ci_level:.0%} equal-tailed credible intervals"
        )
    else:
        interval = "Wilson interval" if agg.counts["groups"] == 1 else "seeded bootstrap over groups"
        how = f"frequentist, {s.estimator} estimator, {s.ci_level:.0%} {interval}"
    return f"Unit of trial: **{agg.unit}**. {agg.unit_reason[0].upper()}{agg.unit_reason[1:]}. Statistics: {how}."
