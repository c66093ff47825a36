"""Formatting of numbers and settings in words (shared by the pages)."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.aggregate import Aggregate
from agentic_core.stats import describe_method
from agentic_core.wording import sentence_case

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
    """The unit, estimator, mode and interval actually used (the method the core reports), in words."""
    s = agg.settings
    method = describe_method(agg.headline.interval_method)
    if s.mode == "bayesian":
        how = (
            f"Bayesian: Beta({s.prior_a:g}, {s.prior_b:g}) prior, posterior means with "
            f"{s.ci_level:.0%} equal-tailed credible intervals ({method})"
        )
    else:
        how = f"frequentist, {s.estimator} estimator, {s.ci_level:.0%} intervals ({method})"
    return f"Unit of trial: **{agg.unit}**. {sentence_case(agg.unit_reason)}. Statistics: {how}."
