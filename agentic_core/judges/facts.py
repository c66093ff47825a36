"""Facts a text states, parsed with well-kept libraries: numbers, dates, times and amounts with units.

The learned judge compares the facts of the reference with those of the answer
(:func:`fact_agreement`). Each text is read once, in this order, and each span is read as one kind
only (a date's day is not also a number):

1. number words become digits with ``text2num`` (``"twenty-five"`` -> ``25``), scale words are
   multiplied out first (``"$2.3 billion"``, ``"$85k"``) and fractions in words after (``"two
   thirds"``, ``"two and a half"``). Chosen over ``number-parser`` by measurement on the devset's
   answers and references: the two read the same numbers but where ``number-parser`` also turned
   ``"first"`` and ``"one of"`` into ``1``, and ``text2num`` was several hundred times faster.
2. clock times with a regular expression (``14:30``, ``4:30 pm``, ``3pm``, ``9h00``, ``noon``), and
   dates with ``dateparser``'s search, kept only where the match says a month beside a number or a
   numeric date (``2025-03-14``): its search also reads ``"75%"`` as the year 1975 and ``"$19"`` as
   a day. A date is compared at the precision it states (``"July 1969"`` matches ``"20 July 1969"``).
   dateparser runs only on a text that names a month or holds a numeric date (it is the slow step).
3. amounts: a number followed by a unit ``pint`` knows (``5 km`` == ``5000 m``; adjacent amounts of
   one dimension, the larger unit first, add up: ``2 hours 30 minutes`` == ``2.5 h``), or a currency
   symbol or code with a number (``$19.99``, ``19.99 USD``).
4. the numbers left; a percentage is its fraction (``75%`` == ``0.75``, and ``50%`` is not ``50``).

Numbers agree within :data:`TOLERANCE`. Numbers the question states are not evidence: a reference
fact the question already states is expected only when the reference states nothing new, and an
answer repeating the question's facts does not contradict the reference.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal

__all__ = ["KINDS", "FactAgreement", "Facts", "fact_agreement", "text_facts"]

FactKind = Literal["number", "date", "time", "amount"]
KINDS: tuple[FactKind, ...] = ("number", "date", "time", "amount")
"""The kinds of fact, in the order the judge's features name them."""

_BASE = datetime(2000, 1, 1)
"""dateparser's base for incomplete dates: fixed, so a verdict never depends on today's date."""
_MONTH = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\b(?=\s*\d)|"
    r"\b\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)",
    re.IGNORECASE,
)
_NUMERIC_DATE = re.compile(r"\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b")
_MERIDIEM = re.compile(r"\b([ap])\.m\.?(?=\W|$)", re.IGNORECASE)
_TIME = re.compile(
    r"\b(\d{1,2})(?:[:h](\d\d))?\s*([ap]m)\b|\b(\d{1,2})[:h](\d\d)\b(?!\s*[ap]m\b)|\b(noon|midnight)\b", re.IGNORECASE
)
"""A clock time (``14:30``, ``4:30 pm``, ``3pm``, ``9h00``, ``noon``): a regular expression is enough, and
dateparser read ``11 a.m.`` as the 1st of November."""
_DATEISH = re.compile(
    r"\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b|"
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)
"""Cheap test for "may hold a date or time": dateparser's search (the slow step) runs only then."""
_NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_AMOUNT = re.compile(rf"({_NUMBER})\s*([A-Za-z°µ][A-Za-z°µ/²³0-9]*)")
_CURRENCY = re.compile(
    rf"([$€£¥₹])\s?({_NUMBER})|({_NUMBER})\s?(?:US\s)?(USD|EUR|GBP|JPY|INR|CHF|CAD|AUD|dollars?|euros?)\b",
    re.IGNORECASE,
)
_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "dollar": "USD", "euro": "EUR"}
_PLAIN = re.compile(rf"(?<![\w.])({_NUMBER})(?:(\s?%|\s?percent\b)|(?!\w))", re.IGNORECASE)
"""A number glued to letters (``14A``, ``3rd``) is a code or an ordinal, not a number."""
_SCALE = re.compile(
    r"(\d+(?:\.\d+)?)\s?(thousand|million|billion|trillion|bn)\b|(?<=[$€£¥₹])(\d+(?:\.\d+)?)([kKMB])\b", re.IGNORECASE
)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12}
_FRACTION = re.compile(
    r"\b(\d+)\s+(?:and\s+)?(a|1)\s+(half|quarter)\b|\b(\d+|a)\s+(halfs?|halves|3rds?|thirds?|quarters?|4ths?|5ths?|fifths?)\b",
    re.IGNORECASE,
)
_PARTS = {"half": 2, "halfs": 2, "halves": 2, "3rd": 3, "3rds": 3, "third": 3, "thirds": 3, "quarter": 4}
_PARTS |= {"quarters": 4, "4th": 4, "4ths": 4, "5th": 5, "5ths": 5, "fifth": 5, "fifths": 5}
"""Fractions in words, which text2num leaves as words: "2 and a half" is 2.5, "2 3rds" (two thirds) 0.667."""
_DEGREES = (
    (re.compile(r"\s?(?:°|degrees?|degrés)\s?(?:F\b|Fahrenheit)", re.IGNORECASE), " degF"),
    (re.compile(r"\s?(?:°|degrees?|degrés)\s?(?:C\b|Celsius|centigrade)|\s?degrés", re.IGNORECASE), " degC"),
)
"""Temperatures as pint names them (pint reads a bare "degrees" as an angle)."""
_NOT_UNITS = frozenset(
    {"a", "an", "at", "in", "of", "or", "to", "by", "per", "and", "am", "pm", "th", "st", "nd", "rd", "percent", "bag"}
)
"""Words pint would read as units (``a``: a year, ``at``: an atmosphere) that in a sentence are words."""
_SAME_AMOUNT = re.compile(r"\s*(?:,|and)?\s*")
"""What may stand between the parts of one amount (``2 hours and 30 minutes``)."""
TOLERANCE = 0.01
"""Two numbers agree within 1% (``0.30000000000000004`` is ``0.3``; two thirds is ``67%``)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """The facts one text states, by kind, as comparable keys.

    Attributes:
        keys: For each kind, the set of normalised values (a float, a ``(year, month, day)`` tuple
            with ``None`` for an unstated part, ``(hour, minute)``, or ``(unit, base value)``).
        words: For each kind, the text of each fact as written, for the reasoning.
        written: The numbers of the amounts as written (``366 days`` states the number 366).
    """

    keys: dict[FactKind, frozenset[Any]]
    words: dict[FactKind, tuple[str, ...]]
    written: frozenset[float] = frozenset()


@lru_cache(maxsize=1)
def _units() -> Any:
    import pint  # imported on first use: about 0.3 s to build the registry

    return pint.UnitRegistry()


def _search_dates(text: str) -> list[tuple[str, datetime]]:
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": _BASE, "PREFER_DATES_FROM": "past", "STRICT_PARSING": False}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dateparser warns about its own use of deprecated APIs
        return search_dates(text, languages=["en"], settings=settings) or []


def _float_of(text: str) -> float:
    return float(text.replace(",", ""))


def _times(text: str) -> Iterator[tuple[FactKind, Any, str]]:
    for m in _TIME.finditer(text):
        if m.group(6):
            yield "time", (12 if m.group(6).lower() == "noon" else 0, 0), m.group(0)
        elif m.group(3):
            hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "pm" else 0)
            yield "time", (hour, int(m.group(2) or 0)), m.group(0)
        else:
            yield "time", (int(m.group(4)), int(m.group(5))), m.group(0)


def _dates(text: str) -> Iterator[tuple[FactKind, Any, str]]:
    if not _DATEISH.search(text):
        return
    for span, when in _search_dates(text):
        if _NUMERIC_DATE.search(span):
            yield "date", (when.year, when.month, when.day), span
        elif _MONTH.search(span):
            # The precision said: a day only when a number other than the year is written.
            small = [d for d in re.findall(r"\d+", span) if len(d) <= 2]
            year = when.year if re.search(r"\d{4}", span) else None
            yield "date", (year, when.month, when.day if small else None), span


def _unit(units: Any, word: str) -> Any | None:
    """pint's unit for ``word``, or ``None`` where pint would read an ordinary word as one."""
    if word.lower() in _NOT_UNITS or len(word) > 20 or (len(word) == 1 and word not in "mglLhsKCF"):
        return None
    if word.endswith("s") and len(word) <= 3 and word[:-1] in ("ha", "a", "h"):
        return None  # "has" is not hectares
    try:
        parsed = units.parse_unit_name(word)
    except Exception:  # not a unit pint knows
        return None
    # A prefix is taken only when written as one ("km", "kilometres"): pint reads "cats" as centi-"ats".
    if not parsed or any(pre and len(word) > 3 and not word.lower().startswith(pre) for pre, _, _ in parsed):
        return None
    return units.Unit(word)


def _amounts(text: str) -> Iterator[tuple[str, Any, tuple[int, int], float]]:
    units = _units()
    for m in _CURRENCY.finditer(text):
        symbol = (m.group(1) or m.group(4)).lower().rstrip("s")
        value = _float_of(m.group(2) or m.group(3))
        yield m.group(0), (_SYMBOLS.get(symbol, symbol.upper()), value), m.span(), value
    run: list[tuple[Any, str, tuple[int, int], float, Any]] = []
    for m in _AMOUNT.finditer(text):
        unit = _unit(units, m.group(2))
        if unit is None:
            continue
        value = _float_of(m.group(1))
        quantity = units.Quantity(value, unit).to_base_units()
        if (
            run
            and run[-1][0].dimensionality == quantity.dimensionality
            and _SAME_AMOUNT.fullmatch(text[run[-1][2][1] : m.start()])
            and units.Quantity(1, unit) < units.Quantity(1, run[-1][4])
        ):
            # "2 hours 30 minutes", "5 ft 11 in": one amount (a larger unit after is another amount).
            last = run.pop()
            run.append((last[0] + quantity, last[1] + " " + m.group(0), (last[2][0], m.end()), last[3], unit))
        else:
            run.append((quantity, m.group(0), m.span(), value, unit))
    for quantity, said, span, value, _ in run:
        yield said, (str(quantity.dimensionality), round(float(quantity.magnitude), 6)), span, value


def _spelled_fraction(m: re.Match[str]) -> str:
    if m.group(1):  # "2 and a half": a whole and a part
        return f"{int(m.group(1)) + 1 / _PARTS[m.group(3).lower()]:g}"
    count = 1 if m.group(4).lower() == "a" else int(m.group(4))
    return f"{count / _PARTS[m.group(5).lower()]:.4g}"


def _normalised(text: str) -> str:
    from text_to_num import alpha2digit

    # Scale words first: text2num reads "2.3 billion" as "2.3 1000000000".
    text = _SCALE.sub(
        lambda m: f"{float(m.group(1) or m.group(3)) * _SCALES[(m.group(2) or m.group(4)).lower()]:.0f}", text
    )
    text = _MERIDIEM.sub(r"\1m", alpha2digit(text, "en", threshold=1))
    text = _FRACTION.sub(_spelled_fraction, text)
    for pattern, unit in _DEGREES:
        text = pattern.sub(unit, text)
    return text


@lru_cache(maxsize=4096)
def text_facts(text: str) -> Facts:
    """Every fact ``text`` states (see the module docstring for how each kind is read).

    Args:
        text: Any text (a question, an answer, a reference).

    Returns:
        Its facts by kind; a text without facts gives empty sets.
    """
    rest = _normalised(text)
    keys: dict[FactKind, set[Any]] = {k: set() for k in KINDS}
    words: dict[FactKind, list[str]] = {k: [] for k in KINDS}
    written: set[float] = set()
    for kind, key, said in [*_times(rest), *_dates(rest)]:
        keys[kind].add(key)
        words[kind].append(said)
        rest = rest.replace(said, " ")
    cut: list[tuple[int, int]] = []
    for said, key, where, value in _amounts(rest):
        if any(a < where[1] and where[0] < b for a, b in cut):
            continue  # "$5 km" is read once, as money
        keys["amount"].add(key)
        words["amount"].append(said)
        written.add(value)
        cut.append(where)
    for a, b in sorted(cut, reverse=True):
        rest = rest[:a] + " " + rest[b:]
    for m in _PLAIN.finditer(rest):
        value = _float_of(m.group(1))
        keys["number"].add(value / 100 if m.group(2) else value)  # 75% is 0.75
        words["number"].append(m.group(0).strip())
    frozen = {k: frozenset(v) for k, v in keys.items()}
    return Facts(frozen, {k: tuple(v) for k, v in words.items()}, frozenset(written))


@dataclass(frozen=True, slots=True)
class FactAgreement:
    """How the answer's facts agree with the reference's, per kind.

    Attributes:
        missing: Per kind, the share of the reference's facts the answer does not state (0 when
            the reference states none of that kind).
        conflict: Per kind, 1 when the answer states a fact of that kind that neither the
            reference nor the question states while the reference states one, else 0.
        words: Per kind that disagrees, what was expected and what was said, for the reasoning.
    """

    missing: dict[FactKind, float]
    conflict: dict[FactKind, float]
    words: dict[FactKind, str]


def _same(kind: FactKind, a: Any, b: Any) -> bool:
    if kind == "date":  # a stated part must agree; an unstated one (None) agrees with anything
        return all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))
    if kind == "amount":  # the same unit (or dimension), then the magnitudes as numbers
        if a[0] != b[0]:
            return False
        a, b = a[1], b[1]
    elif kind == "time":
        return bool(a == b)
    return bool(abs(a - b) <= TOLERANCE * max(abs(a), abs(b)))


def _stated(kind: FactKind, fact: Any, facts: Facts) -> bool:
    said = facts.keys[kind] | (facts.written if kind == "number" else frozenset())
    return any(_same(kind, fact, s) for s in said)


def fact_agreement(query: str, answer: str, ground_truth: str) -> FactAgreement:
    """Compare the facts of the answer with the reference's, the question's set aside.

    Args:
        query: The question (its facts are not evidence).
        answer: The answer judged.
        ground_truth: The reference answer.

    Returns:
        The share missing and the conflict per kind, and the words for each disagreement.
    """
    asked, said, truth = text_facts(query), text_facts(answer), text_facts(ground_truth)
    new = {k: frozenset(f for f in truth.keys[k] if not _stated(k, f, asked)) for k in KINDS}
    # A reference that only repeats the question's facts ("What is 102?" / "102.") still expects them.
    expected = new if any(new.values()) else truth.keys
    missing: dict[FactKind, float] = {}
    conflict: dict[FactKind, float] = {}
    words: dict[FactKind, str] = {}
    for kind in KINDS:
        absent = [f for f in expected[kind] if not _stated(kind, f, said)]
        others = [f for f in said.keys[kind] if not _stated(kind, f, truth) and not _stated(kind, f, asked)]
        missing[kind] = len(absent) / len(expected[kind]) if expected[kind] else 0.0
        conflict[kind] = float(bool(absent) and bool(others))
        if absent:
            stated = ", ".join(said.words[kind]) or "none"
            words[kind] = f"reference {kind}s {', '.join(truth.words[kind])} not all stated (answer: {stated})"
    return FactAgreement(missing, conflict, words)
