"""Whether the final answer uses the tool results: inferring utilization from evidence.

Used when ``final_answer_uses_tools`` is absent: a tool result value (a number, or text of two or
more characters) that appears in the final answer is evidence that the answer used it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from agentic_core.tools.values import is_number

# Cap on result values examined per interaction when inferring utilization, so one huge tool
# result (a whole document as JSON) cannot make scoring slow.
MAX_RESULT_LEAVES = 256

_NUMBER_TOKEN = re.compile(r"\d+(?:,\d{3}(?!\d))*(?:\.\d+)?")
_NUMERIC_STRING = re.compile(r"[-+]?(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)")


def result_leaves(value: Any, out: list[Any]) -> None:
    """Collect usable scalar leaves of a result (dict keys sorted so evidence is key-order free)."""
    if len(out) >= MAX_RESULT_LEAVES or value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        if len(value.strip()) >= 2:
            out.append(value.strip())
        return
    if is_number(value):
        try:
            if math.isfinite(float(value)):
                out.append(value)
        except OverflowError:  # an int beyond float range cannot be matched numerically
            pass
        return
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            result_leaves(value[key], out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            result_leaves(item, out)


class Answer:
    """The final answer, case-folded and tokenised into numbers once, on first need."""

    def __init__(self, text: str) -> None:
        self.folded = text.casefold()
        self._numbers: list[tuple[float, int]] | None = None

    def numbers(self) -> list[tuple[float, int]]:
        if self._numbers is None:
            tokens = _NUMBER_TOKEN.findall(self.folded)
            self._numbers = [(float(t.replace(",", "")), len(t.partition(".")[2])) for t in tokens]
        return self._numbers


def _number_in(value: float, answer: Answer) -> bool:
    """Whether a number appears in the answer as a token (sign-free, rounding allowed).

    The sign is ignored because "-5" and "5 below zero" both show the value was used, and a
    hyphen ("15-27") must not hide a number. A token with d decimals matches a value that
    rounds to it ("3.14" for 3.14159); an integer token matches a non-integer value of
    magnitude >= 10 that rounds to it ("1,235" for 1234.6), never small ones ("3" for 3.4).
    """
    target = abs(float(value))
    for token, decimals in answer.numbers():
        if token == target:
            return True
        if decimals > 0:
            if abs(target - token) <= 0.5 * 10.0**-decimals * (1 + 1e-9):
                return True
        elif target >= 10 and not target.is_integer() and abs(target - token) <= 0.5:
            return True
    return False


def _text_in(needle: str, answer: Answer) -> bool:
    """Case-insensitive containment; an alphanumeric edge must not continue a word ("ab" in "about")."""
    needle = needle.casefold()
    hay = answer.folded
    start = hay.find(needle)
    while start >= 0:
        end = start + len(needle)
        left_ok = not (needle[0].isalnum() and start > 0 and hay[start - 1].isalnum())
        right_ok = not (needle[-1].isalnum() and end < len(hay) and hay[end].isalnum())
        if left_ok and right_ok:
            return True
        start = hay.find(needle, start + 1)
    return False


def leaf_in(leaf: Any, answer: Answer) -> bool:
    if isinstance(leaf, str):
        if _text_in(leaf, answer):
            return True
        if _NUMERIC_STRING.fullmatch(leaf):
            return _number_in(float(leaf.replace(",", "")), answer)
        return False
    return _number_in(leaf, answer)
