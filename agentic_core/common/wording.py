"""Small wording helpers shared by every message the core writes (one copy each)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import pairwise


def plural(count: int, word: str) -> str:
    """``plural(1, "group")`` -> ``"1 group"``; ``plural(3, "group")`` -> ``"3 groups"``.

    Args:
        count: How many.
        word: The singular noun (regular plurals only: an ``s`` is appended).

    Returns:
        The count followed by the noun in the right number.
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def sentence_case(text: str) -> str:
    """The text with its first character upper-cased (the rest untouched), for reasons used as sentences."""
    return text[:1].upper() + text[1:]


def decimals_apart(values: Sequence[float], least: int = 2, most: int = 6) -> int:
    """The fewest decimals, from ``least`` to ``most``, at which values that differ also print differently.

    A sentence that compares numbers must not contradict itself on screen: "P(correct) 0.93 is between
    0.07 and 0.93" was 0.9301 against a band edge of 0.9317. Rounding keeps the order of the values, so
    at the decimals returned each strict inequality among them still reads as one.

    Args:
        values: The numbers one sentence prints (NaN ignored).
        least: Decimals to print at the least.
        most: Decimals to print at the most (values closer than that may still print alike).

    Returns:
        The number of decimals.
    """
    distinct = sorted({float(v) for v in values if v == v})
    for decimals in range(least, most):
        printed = [round(v, decimals) for v in distinct]
        if all(a < b for a, b in pairwise(printed)):
            return decimals
    return most


def age_text(created_at: float, now: float | None = None) -> str:
    """``3 min ago``, ``2 h ago``, ``5 days ago``: an age for lists (a run's, a live run's last update)."""
    seconds = max(0.0, (now or time.time()) - created_at)
    if seconds < 90:
        return "just now"
    if seconds < 5400:
        return f"{round(seconds / 60)} min ago"
    if seconds < 129600:
        return f"{round(seconds / 3600)} h ago"
    return f"{round(seconds / 86400)} days ago"
