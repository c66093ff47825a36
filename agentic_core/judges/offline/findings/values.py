"""Canonical numbers and dates: how the lexical judge writes them and when two of them are equal.

Every number and date the tokenizer (:mod:`agentic_core.judges.offline.findings.tokens`) finds is written in one
canonical form (``42.0`` -> ``42``, ``(2025, 3, 14)`` -> ``2025-03-14``), and the lexical judge compares
them with the two rules here (float artefacts tolerated; a date may omit its year but not its day).
They sit apart from the text handling because the rewriting, the tokenizer and the judge's gates all
use them, and they use nothing.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

__all__ = [
    "FRACTION_FAMILY",
    "DateValue",
    "NumberValue",
    "date_satisfies",
    "format_date",
    "format_number",
    "numbers_equal",
    "same_share",
]

DateValue = tuple[int | None, int | None, int | None]
"""(year, month, day); a part the text does not give is ``None``."""

NumberValue = tuple[float, float | None, str | None]
"""(value, value in the base unit or ``None``, unit family or ``None``)."""

FRACTION_FAMILY = "fraction"
"""The family of a fraction's value (``3/4`` -> 0.75) in a :data:`NumberValue`; a percentage is
``"percent"`` and a plain number ``None``."""


def format_number(value: Decimal | float | str) -> str:
    """Canonical text of a number: no exponent, no trailing zeros (``42.0`` -> ``42``).

    Args:
        value: A number or its decimal text.

    Returns:
        The canonical decimal string.
    """
    try:
        dec = Decimal(str(value))
    except InvalidOperation:
        return str(value)
    if not dec.is_finite():
        return str(value)
    # format(..., "f") never rounds and never uses an exponent, whatever the number of digits
    # (quantize would fail beyond the 28-digit context precision).
    if dec == dec.to_integral_value():
        return format(dec.to_integral_value(), "f")
    return format(dec.normalize(), "f")


def format_date(date: DateValue) -> str:
    """ISO-like text of a possibly partial date: ``2025-03-14``, ``2025-03``, ``--03-14``."""
    y, m, d = date
    if y is not None and m is not None and d is not None:
        return f"{y:04d}-{m:02d}-{d:02d}"
    if y is not None and m is not None:
        return f"{y:04d}-{m:02d}"
    if m is not None and d is not None:
        return f"--{m:02d}-{d:02d}"
    return "?"


def numbers_equal(a: float, b: float) -> bool:
    """Numeric equality with a tolerance for float artefacts only (``0.30000000000000004`` == ``0.3``)."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def date_satisfies(truth: DateValue, given: DateValue) -> bool:
    """Whether a date in the answer states the ground-truth date.

    The month must match; the day must match when the truth has one; the year must match when both
    give one. An answer may omit the year of a full date (``May 2`` for ``2 May 2025``: the year is
    context) but not the day (``July 1969`` does not state ``20 July 1969``).

    Args:
        truth: The ground-truth date.
        given: A date found in the answer.

    Returns:
        True when ``given`` states ``truth``.
    """
    ty, tm, td = truth
    gy, gm, gd = given
    if tm != gm:
        return False
    if td is not None and gd != td:
        return False
    if td is None and gd is not None and ty is None:
        return False
    if ty is not None:
        if gy is None:
            return td is not None
        return gy == ty
    return True


def _decimals(value: float) -> int:
    """Decimal places of a number as written canonically (``4.2`` -> 1, ``67`` -> 0)."""
    return len(format_number(value).partition(".")[2])


def _as_share(value: float, family: str | None) -> tuple[float, bool] | None:
    """A number read as a share of one, and whether it is exact (a fraction is a rounded value).

    Only forms that plainly state a share qualify: a percentage, a fraction, or a plain decimal
    strictly between -10 and 10 that is not whole ("0.75"; a bare "75" or "1" is not a share).
    """
    if family == "percent":
        return value / 100, True
    if family == FRACTION_FAMILY:
        return value, False
    if family is None and value != int(value) and abs(value) < 10:
        return value, True
    return None


def same_share(truth: float, truth_family: str | None, given: float, given_family: str | None) -> bool:
    """Whether two numbers in different forms state the same share: ``75%`` == ``0.75`` == ``3/4``.

    Exact forms must agree exactly (``0.57`` is not ``57.4%``); a fraction agrees with a number
    written with ``d`` decimals when it rounds to it (``2/3`` == ``67%`` == ``0.67``, but not ``66%``).

    Args:
        truth: The ground-truth number.
        truth_family: Its family (``"percent"``, :data:`FRACTION_FAMILY` or ``None``).
        given: A number found in the answer.
        given_family: Its family.

    Returns:
        True when both are shares, of different forms, and equal as explained.
    """
    if truth_family == given_family:
        return False  # same form: plain numeric equality decides, elsewhere
    a = _as_share(truth, truth_family)
    b = _as_share(given, given_family)
    if a is None or b is None:
        return False
    (ta, exact_a), (gb, exact_b) = a, b
    if exact_a == exact_b:
        return numbers_equal(ta, gb)
    # One side is a fraction: round it to the places the other side is written with.
    shown, shown_family, raw = (truth, truth_family, gb) if exact_a else (given, given_family, ta)
    scale = 100 if shown_family == "percent" else 1
    return numbers_equal(round(raw * scale, _decimals(shown)), shown)
