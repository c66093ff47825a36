"""How an answer's facts agree with the reference's: the same, near, missing, another instead, or an extra.

The facts are read by :mod:`agentic_core.judges.offline.facts` (the tokenizer's, with pint); this module compares them,
per kind, the question's facts set aside. Its figures are features of the learned model
(:mod:`agentic_core.judges.offline.features`): ``number_missing``, ``amount_near``, ``date_conflict``, ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from agentic_core.judges.offline.facts import KINDS, FactKind, Facts, text_facts

__all__ = ["NEAR", "NEAR_KELVIN", "NEAR_KINDS", "TOLERANCE", "FactAgreement", "fact_agreement"]

TOLERANCE = 1e-6
"""Two numbers are the same within a relative 1e-6 (``0.30000000000000004`` is ``0.3``)."""
NEAR = 0.02
"""Two numbers or amounts in units are near within 2% (two thirds and ``67%``, ``3 miles`` and ``4.8 km``, ``2.5
thousand`` and ``2,512``): a rounding or a conversion, or a wrong digit; the fitted model weighs which. Amounts of
money are never near (another price), temperatures by :data:`NEAR_KELVIN`."""
NEAR_KELVIN = 0.6
"""Two temperatures are near within 0.6 K (about 1 °F: ``100 °F`` and ``38 °C``); a relative 2% of an absolute
temperature would be 6 K."""
NEAR_KINDS: tuple[FactKind, ...] = ("number", "amount")
"""The kinds whose facts can be near (a date or a time is the same or another)."""


@dataclass(frozen=True, slots=True)
class FactAgreement:
    """How the answer's facts agree with the reference's, per kind.

    Attributes:
        missing: Per kind, the share of the reference's expected facts the answer does not state exactly (0 when
            the reference expects none of that kind).
        near: Per kind of :data:`NEAR_KINDS`, the share of those the answer states only within :data:`NEAR`.
        conflict: Per kind, 1 when a reference fact is missing (not even near) and the answer states a fact of
            that kind that neither the reference nor the question states, else 0.
        extra: Per kind, 1 when no reference fact is missing but the answer states such another fact beside them
            ("it was $20, now it is $35"), else 0.
        words: Per kind that disagrees, what was expected and what was said, for the reasoning.
    """

    missing: dict[FactKind, float]
    near: dict[FactKind, float]
    conflict: dict[FactKind, float]
    extra: dict[FactKind, float]
    words: dict[FactKind, str]


def _same(kind: FactKind, a: Any, b: Any, tolerance: float = TOLERANCE, strict: bool = False) -> bool:
    """Whether fact ``a`` is fact ``b``; ``strict``: ``b`` must state ``a``'s day and month (not its year)."""
    if kind == "date":  # a stated part must agree; an unstated one (None) agrees, but for a strict day or month
        return all(
            x == y or x is None or (y is None and not (strict and i > 0))
            for i, (x, y) in enumerate(zip(a, b, strict=True))
        )
    if kind == "amount":  # the same unit (or dimension), then the magnitudes as numbers
        if a[0] != b[0]:
            return False
        if tolerance > TOLERANCE and not a[0].startswith("["):
            tolerance = TOLERANCE  # money is exact: $1,175 is not "near" $1,196, it is another price
        elif tolerance > TOLERANCE and a[0] == "[temperature]":
            return bool(abs(a[1] - b[1]) <= NEAR_KELVIN)  # kelvins: 2% of 295 K would make 22 °C near 24 °C
        a, b = a[1], b[1]
    elif kind == "time":
        return bool(a == b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return False  # an infinite value agrees with nothing (inf - inf is NaN; inf's 1% is everything)
    return bool(abs(a - b) <= tolerance * max(abs(a), abs(b)))


def _stated(kind: FactKind, fact: Any, facts: Facts, tolerance: float = TOLERANCE, strict: bool = False) -> bool:
    said = facts.keys[kind] | (facts.written if kind == "number" else frozenset())
    return any(_same(kind, fact, s, tolerance, strict) for s in said)


def fact_agreement(query: str, answer: str, ground_truth: str) -> FactAgreement:
    """Compare the facts of the answer with the reference's, the question's set aside.

    A reference fact the question states is expected only when the answer states another fact of its kind
    ("What is 102?" / "102." / "The answer is 902."): repeating the question is no answer, and leaving its
    number out is no error ("Was a refund issued for order 5512?" / "Yes, it was.").

    Args:
        query: The question (its facts are not evidence).
        answer: The answer judged.
        ground_truth: The reference answer.

    Returns:
        Per kind: the share missing, the share only near, the conflict, the extra, and the words for each
        disagreement.
    """
    asked, said, truth = text_facts(query), text_facts(answer), text_facts(ground_truth)
    missing: dict[FactKind, float] = {}
    near: dict[FactKind, float] = {}
    conflict: dict[FactKind, float] = {}
    extra: dict[FactKind, float] = {}
    words: dict[FactKind, str] = {}
    for kind in KINDS:
        loose = NEAR if kind in NEAR_KINDS else TOLERANCE
        others = [f for f in said.keys[kind] if not _stated(kind, f, truth, loose) and not _stated(kind, f, asked)]
        new = [f for f in truth.keys[kind] if not _stated(kind, f, asked)]
        expected = new or (list(truth.keys[kind]) if others else [])
        absent = [f for f in expected if not _stated(kind, f, said, strict=True)]
        far = [f for f in absent if not _stated(kind, f, said, loose, strict=True)]
        missing[kind] = len(absent) / len(expected) if expected else 0.0
        if kind in NEAR_KINDS:
            near[kind] = (len(absent) - len(far)) / len(expected) if expected else 0.0
        conflict[kind] = float(bool(far) and bool(others))
        extra[kind] = float(bool(expected) and not absent and bool(others))
        if absent:
            stated = ", ".join(said.words[kind]) or "none"
            words[kind] = f"reference {kind}s {', '.join(truth.words[kind])} not all stated (answer: {stated})"
        elif extra[kind]:
            words[kind] = f"answer states other {kind}s beside the reference's (answer: {', '.join(said.words[kind])})"
    return FactAgreement(missing, near, conflict, extra, words)
