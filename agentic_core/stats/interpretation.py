"""Seed 001's interpretation labels of an agent's dataset-level pass@K and pass^K, and their wording.
"""

from __future__ import annotations

from typing import Literal

from agentic_core.errors import SettingsError
from agentic_core.settings import check_fraction, check_k

Label = Literal["reliable", "inconsistent", "functional", "needs_improvement"]


# Interpretation thresholds (seed 001).
RELIABLE_PASS_AT = 0.95
RELIABLE_PASS_POW = 0.70
INCONSISTENT_PASS_POW = 0.50
NEEDS_IMPROVEMENT_PASS_AT = 0.70


def interpret(pass_at_k: float, pass_pow_k: float) -> Label:
    """Label an agent from its dataset-level pass@K and pass^K (seed 001's table).

    - ``reliable``: pass@K > 0.95 and pass^K > 0.70
    - ``inconsistent``: pass@K > 0.95 and pass^K < 0.50
    - ``needs_improvement``: pass@K < 0.70
    - ``functional``: otherwise (pass@K in [0.70, 0.95], or pass@K > 0.95 with pass^K in [0.50, 0.70])

    Raises:
        SettingsError: a value outside [0, 1] or not a number.
    """
    at = check_fraction(pass_at_k, "pass_at_k", "give a probability such as 0.8")
    pw = check_fraction(pass_pow_k, "pass_pow_k", "give a probability such as 0.8")
    if at > RELIABLE_PASS_AT and pw > RELIABLE_PASS_POW:
        return "reliable"
    if at > RELIABLE_PASS_AT and pw < INCONSISTENT_PASS_POW:
        return "inconsistent"
    if at < NEEDS_IMPROVEMENT_PASS_AT:
        return "needs_improvement"
    return "functional"


def _threshold_safe_text(x: float) -> str:
    # Three decimals, more when rounding would print a value equal to the threshold it is compared with.
    text = f"{x:.3f}"
    thresholds = (RELIABLE_PASS_AT, RELIABLE_PASS_POW, INCONSISTENT_PASS_POW, NEEDS_IMPROVEMENT_PASS_AT)
    if any(abs(float(text) - t) < 1e-12 for t in thresholds) and x not in thresholds:
        text = f"{x:.6f}"
    return text


_LABEL_TEXT: dict[str, str] = {
    "reliable": "Reliable: pass@K > 0.95 and pass^K > 0.70, so it succeeds and does so consistently.",
    "inconsistent": "Inconsistent: pass@K > 0.95 but pass^K < 0.50, so it can succeed but is unreliable.",
    "functional": "Functional: it works but could improve (pass@K between 0.70 and 0.95, or pass^K "
    "between 0.50 and 0.70).",
    "needs_improvement": "Needs improvement: pass@K < 0.70, so even with K attempts it often fails.",
}


def explain_label(
    label: str, pass_at_k: float | None = None, pass_pow_k: float | None = None, k: int | None = None
) -> str:
    """One-line human explanation of an :func:`interpret` label.

    With only the label, a general sentence with the thresholds; with the numbers and k, a sentence
    quoting them (and the label must be the one they give).

    Raises:
        SettingsError: unknown label, invalid numbers or k, or numbers that give another label.
    """
    if label not in _LABEL_TEXT:
        raise SettingsError(
            "label", f"must be one of {', '.join(_LABEL_TEXT)}", label, "pass the result of interpret()"
        )
    if pass_at_k is None or pass_pow_k is None or k is None:
        return _LABEL_TEXT[label]
    k_ = check_k(k)
    if interpret(pass_at_k, pass_pow_k) != label:
        raise SettingsError(
            "label",
            f"must match the numbers, which give {interpret(pass_at_k, pass_pow_k)!r}",
            label,
            "pass interpret(pass_at_k, pass_pow_k)",
        )
    at, pw = f"pass@{k_} = {_threshold_safe_text(pass_at_k)}", f"pass^{k_} = {_threshold_safe_text(pass_pow_k)}"
    if label == "reliable":
        return f"Reliable: {at} > 0.95 and {pw} > 0.70, so it succeeds and does so consistently."
    if label == "inconsistent":
        return (
            f"Inconsistent: {at} > 0.95 but {pw} < 0.50, so it can succeed "
            f"but rarely gets all {k_} attempts right."
        )
    if label == "needs_improvement":
        return f"Needs improvement: {at} < 0.70, so even with {k_} attempts it often fails."
    if pass_at_k > RELIABLE_PASS_AT:
        return (
            f"Functional: {at} > 0.95 with {pw} between 0.50 and 0.70, so it succeeds "
            "but is only moderately consistent."
        )
    return f"Functional: {at} is between 0.70 and 0.95, so it works but could improve."
