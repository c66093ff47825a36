"""Canonical numbers and dates: how the lexical judge writes them and when two of them are equal.

Every number and date the tokenizer (:mod:`agentic_core.judges.tokens`) finds is written in one
canonical form (``42.0`` -> ``42``, ``(2025, 3, 14)`` -> ``2025-03-14``), and the lexical judge compares
them with the two rules here (float artefacts tolerated; a date may omit its year but not its day).
They sit apart from the text handling because the rewriting, the tokenizer and the judge's gates all
use them, and they use nothing.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

__all__ = [
    "DateValue",
    "NumberValue",
    "date_satisfies",
    "format_date",
    "format_number",
    "numbers_equal",
]

DateValue = tuple[int | None, int | None, int | None]
"""(year, month, day); a part the text does not give is ``None``."""

NumberValue = tuple[float, float | None, str | None]
"""(value, value in the base unit or ``None``, unit family or ``None``)."""


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
