"""Facts a text states, parsed with well-kept libraries: numbers, dates, times and amounts with units.

The learned judge compares the facts of the reference with those of the answer
(:func:`fact_agreement`). Each text is read once, in this order, and each span is read as one kind
only (a date's day is not also a number):

1. number words become digits with ``text2num`` (``"twenty-five"`` -> ``25``), scale words are
   multiplied out first (``"$2.3 billion"``, ``"$85k"``) and fractions in words after (``"two
   thirds"``, ``"two and a half"``). Chosen over ``number-parser`` by measurement on the devset's
   answers and references: the two read the same numbers but where ``number-parser`` also turned
   ``"first"`` and ``"one of"`` into ``1``, and ``text2num`` was several hundred times faster. A lone
   ``"one"`` stays a word (``"no one"``, ``"one of"``: :data:`NUMBER_WORD_THRESHOLD`).
2. clock times with a regular expression (``14:30``, ``4:30 pm``, ``3pm``, ``9h00``, ``noon``), and
   dates with ``dateparser``'s search, kept only where the match says a month beside a number or a
   numeric date (``2025-03-14``): its search also reads ``"75%"`` as the year 1975 and ``"$19"`` as
   a day. A date is compared at the precision it states (``"July 1969"`` matches ``"20 July 1969"``).
   dateparser (the slow step) reads only a few words around each place that says a month beside a
   number or a numeric date, at most :data:`MAX_DATE_CANDIDATES` places per text, so its cost stays
   bounded on any input; a later place is read by the steps below (its numbers stay numbers).
   A time inside a date (``on 12 Dec at 14:30``, ``2025-03-14T23:30:00Z``) is read as a time and
   the rest as the date: spans are cut by their positions, so neither is left behind as numbers.
3. amounts: a number followed by a unit ``pint`` knows (``5 km`` == ``5000 m``; adjacent amounts of
   one dimension, the larger unit first, add up: ``2 hours 30 minutes`` == ``2.5 h``, ``5 ft 11 in``
   == ``71 in``), or a currency symbol or code with a number (``$19.99``, ``19.99 USD``). A
   temperature never adds up (``38 °C, 100 °F`` are two readings), and a bare ``C`` or ``F`` right
   after a number is degrees (``25C``), not coulombs or farads.
4. the numbers left; a percentage is its fraction (``75%`` == ``0.75``, and ``50%`` is not ``50``).

A number is at most :data:`MAX_DIGITS` digits on each side of the point (a longer run of digits is
an identifier, not a quantity, and is no fact): every value is then a finite float, and every
pattern here scans a text in linear time.

How an answer's facts agree with the reference's (the same, near, missing, another, an extra) is
:mod:`agentic_core.judges.offline.fact_agreement`'s.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Literal

__all__ = [
    "FACTS_VERSION",
    "KINDS",
    "NUMBER_WORD_THRESHOLD",
    "Facts",
    "library_versions",
    "spelled_numbers",
    "text_facts",
]

FACTS_VERSION = "facts-4"
"""Bump when this module reads any text differently: the learned judge's identity (its cache key) holds it."""
LIBRARIES = ("text2num", "dateparser", "pint", "snowballstemmer")
"""The parsing libraries whose versions are part of the learned judge's identity."""
MAX_DIGITS = 30
"""The most digits a number has before (and after) its point; a longer run is no number."""
MAX_DATE_CANDIDATES = 16
"""The most places per text dateparser reads (see the module docstring)."""
NUMBER_WORD_THRESHOLD = 2
"""text2num turns a lone number word into digits from this value up: "one" stays a word, since "no one",
"one of" and "one thing" are no quantity (at 1 they all read as the number 1). Measured on the devset:
against 1, only two pairs' fact features changed, both "one third"/"one fifth", read by :data:`_FRACTION`."""
_DATE_WINDOW = 40
"""How many characters either side of a date candidate dateparser sees ("on 14 March 2025 at 23:30 UTC")."""

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
_NUMERIC_DATE = re.compile(r"(?<![\d.,/-])\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?!\d)")
r"""``(?!\d)``, not ``\b``: ``\b`` never matches before the ``T`` of ``2025-03-14T23:30:00Z``."""
_MERIDIEM = re.compile(r"\b([ap])\.m\.?(?=\W|$)", re.IGNORECASE)
_TIME = re.compile(
    r"\b(?P<h>\d{1,2})(?:[:h.](?P<m>\d\d))?\s*(?:o'?clock\s+)?"
    r"(?:(?P<ap>[ap]m)\b|in\s+the\s+(?P<part>morning|afternoon|evening)\b|(?P<night>at\s+night)\b)"
    r"|(?:\b|(?<=\dT))(?P<h24>\d{1,2})[:h](?P<m24>\d\d)\b(?!\s*[ap]m\b)"
    r"|\b(?P<q>quarter|half)\s+(?P<dir>past|to)\s+(?P<qh>\d{1,2})\b|\b(?P<word>noon|midnight)\b",
    re.IGNORECASE,
)
"""A clock time (``14:30``, ``4:30 pm``, ``3pm``, ``9h00``, ``6 in the evening``, ``quarter to 9``, ``noon``, the
``23:30`` of ``...T23:30:00Z``): a regular expression is enough, and dateparser read ``11 a.m.`` as the 1st of
November."""
_NUMBER = r"(?<![\d,.])[-+]?(?:\d{1,3}(?:,\d{3}){1,9}|\d{1,30})(?:\.\d{1,30})?(?!\.?\d)"
"""At most :data:`MAX_DIGITS` digits a side; the lookbehind starts a number only at its first digit, so a
long run of digits is tried once, not from each of its positions (which took seconds on 10,000 digits)."""
_AMOUNT = re.compile(rf"({_NUMBER})\s*([A-Za-z°µ][A-Za-z°µ/²³0-9]*)")
_CURRENCY = re.compile(
    rf"([$€£¥₹])\s?({_NUMBER})|({_NUMBER})\s?(?:US\s)?(USD|EUR|GBP|JPY|INR|CHF|CAD|AUD|dollars?|euros?)\b",
    re.IGNORECASE,
)
_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "dollar": "USD", "euro": "EUR"}
_PLAIN = re.compile(rf"(?<![\w.])({_NUMBER})(?:(\s?%|\s?percent\b)|(?!\w))", re.IGNORECASE)
"""A number glued to letters (``14A``, ``3rd``) is a code or an ordinal, not a number."""
_SCALE = re.compile(
    r"(?<![\d.])(\d{1,30}(?:\.\d{1,30})?)\s?(thousand|million|billion|trillion|bn)\b|"
    r"(?<=[$€£¥₹])(\d{1,30}(?:\.\d{1,30})?)([kKMB])\b",
    re.IGNORECASE,
)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12}
_HALF_OF = re.compile(
    r"\b(half|a\s+quarter)\s+(?:of\s+)?an?\s+(?=[a-z])|\b(?:an?|one)\s+([a-z]+)\s+and\s+a\s+half\b", re.IGNORECASE
)
"""``half a year`` is 0.5 year, ``a quarter of an hour`` 0.25 hour, ``an hour and a half`` 1.5 hour (text2num
leaves them as words)."""
_RATIO = re.compile(
    r"(?<![\d.,/-])(?:(\d{1,4})(?:\s+out\s+of\s+|/)(\d{1,4})|(\d{1,3})\s+in\s+(\d{1,3}))(?![\d/]|\.\d)"
)
"""A share written as a ratio (``9 out of 10``, ``1 in 4``, ``3/4``): the number ``a / b`` when ``a <= b``, its parts
stated too (``24/7`` and ``5 in 2010`` are no share)."""
_FRACTION = re.compile(
    r"\b(\d{1,30})\s+(?:and\s+)?(a|1|one)\s+(half|quarter)\b|"
    r"\b(\d{1,30}|a|one)\s+(halfs?|halves|3rds?|thirds?|quarters?|4ths?|5ths?|fifths?)\b(?!\s+(?:past|to)\b)",
    re.IGNORECASE,
)
_PARTS = {"half": 2, "halfs": 2, "halves": 2, "3rd": 3, "3rds": 3, "third": 3, "thirds": 3, "quarter": 4}
_PARTS |= {"quarters": 4, "4th": 4, "4ths": 4, "5th": 5, "5ths": 5, "fifth": 5, "fifths": 5}
"""Fractions in words, which text2num leaves as words: "2 and a half" is 2.5, "2 3rds" (two thirds) 0.667,
"one third" 0.333 (text2num leaves "one" a word, :data:`NUMBER_WORD_THRESHOLD`)."""
_DEGREES = (
    (re.compile(r"\s?(?:°|degrees?|degrés)\s?(?:F\b|Fahrenheit)", re.IGNORECASE), " degF"),
    (re.compile(r"\s?(?:°|degrees?|degrés)\s?(?:C\b|Celsius|centigrade)|\s?degrés", re.IGNORECASE), " degC"),
)
"""Temperatures as pint names them (pint reads a bare "degrees" as an angle)."""
_LETTER_UNITS = {"C": "degC", "F": "degF", "KB": "kB"}
"""A bare C or F right after a number (``25C``, ``25 C``) is a temperature: pint would read coulombs, farads; and
``KB`` is pint's ``kB`` (kilobytes)."""
_NOT_UNITS = frozenset(
    {"a", "an", "at", "in", "of", "or", "to", "by", "per", "and", "am", "pm", "th", "st", "nd", "rd", "percent", "bag"}
)
"""Words pint would read as units (``a``: a year, ``at``: an atmosphere) that in a sentence are words.
``in`` is an inch only right after a number that follows an amount in feet (``5 ft 11 in``)."""
_SAME_AMOUNT = re.compile(r"\s*(?:,|and)?\s*")
"""What may stand between the parts of one amount (``2 hours and 30 minutes``)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """The facts one text states, by kind, as comparable keys.

    Attributes:
        keys: For each kind, the set of normalised values (a float, a ``(year, month, day)`` tuple
            with ``None`` for an unstated part, ``(hour, minute)``, or ``(unit, base value)``).
        words: For each kind, the text of each fact as written, for the reasoning.
        written: The numbers of the amounts and the day and year of the dates as written (``366 days``
            states the number 366, ``June 10`` the number 10: dateparser may read a date on one side only).
    """

    keys: dict[FactKind, frozenset[Any]]
    words: dict[FactKind, tuple[str, ...]]
    written: frozenset[float] = frozenset()


@lru_cache(maxsize=1)
def _units() -> Any:
    import pint  # imported on first use: about 0.3 s to build the registry

    return pint.UnitRegistry()


@lru_cache(maxsize=4096)
def _search_dates(text: str) -> tuple[tuple[str, datetime], ...]:
    """dateparser's search of one window (memoised: the slowest step of the judge, benchmarks/RESULTS.md, and
    attempts at one task often repeat the sentence that gives a date)."""
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": _BASE, "PREFER_DATES_FROM": "past", "STRICT_PARSING": False}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dateparser warns about its own use of deprecated APIs
        return tuple(search_dates(text, languages=["en"], settings=settings) or ())


@lru_cache(maxsize=1)
def library_versions() -> str:
    """The installed versions of the parsing libraries, for the learned judge's identity.

    Returns:
        ``"text2num 3.1.0, dateparser 1.5.0, pint 0.25.3, snowballstemmer 3.1.1"`` (``?`` for one not installed).
    """
    from importlib.metadata import PackageNotFoundError, version

    def one(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "?"

    return ", ".join(f"{name} {one(name)}" for name in LIBRARIES)


def _float_of(text: str) -> float:
    return float(text.replace(",", ""))


Found = tuple[FactKind, Any, str, tuple[int, int]]
"""A fact read: its kind, its key, its words and where they stand in the text."""


def _clock(m: re.Match[str]) -> tuple[int, int] | None:
    """The ``(hour, minute)`` of a :data:`_TIME` match, or ``None`` for an impossible one (``25:00``)."""
    g = m.groupdict()
    if g["word"]:
        return (12 if g["word"].lower() == "noon" else 0, 0)
    if g["q"]:  # "quarter to 9" is 8:45, "half past 9" 9:30
        minutes = int(g["qh"]) * 60 + (15 if g["q"].lower() == "quarter" else 30) * (-1 if g["dir"] == "to" else 1)
        hour, minute = divmod(minutes % 1440, 60)
    elif g["h24"]:
        hour, minute = int(g["h24"]), int(g["m24"])
    else:
        later = (g["ap"] or "").lower() == "pm" or (g["part"] or "").lower() in ("afternoon", "evening")
        hour, minute = int(g["h"]) % 12 + (12 if later or g["night"] else 0), int(g["m"] or 0)
    return (hour, minute) if hour < 24 and minute < 60 else None


def _times(text: str) -> Iterator[Found]:
    for m in _TIME.finditer(text):
        clock = _clock(m)
        if clock is not None:
            yield "time", clock, m.group(0), m.span()


def _date_windows(text: str) -> list[tuple[int, int]]:
    """The stretches dateparser reads: a few words around each date candidate, merged, at most
    :data:`MAX_DATE_CANDIDATES` candidates (the search's cost grows with the text it is given)."""
    found = sorted(m.span() for pattern in (_MONTH, _NUMERIC_DATE) for m in pattern.finditer(text))
    windows: list[tuple[int, int]] = []
    for start, end in found[:MAX_DATE_CANDIDATES]:
        # Widened to whole words: a cut word could read as another date.
        a, b = max(0, start - _DATE_WINDOW), min(len(text), end + _DATE_WINDOW)
        while a > 0 and not text[a - 1].isspace() and a > start - 2 * _DATE_WINDOW:
            a -= 1
        while b < len(text) and not text[b].isspace() and b < end + 2 * _DATE_WINDOW:
            b += 1
        if windows and a <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(b, windows[-1][1]))
        else:
            windows.append((a, b))
    return windows


def _dates(text: str) -> Iterator[Found]:
    for a, b in _date_windows(text):
        window, at = text[a:b], 0
        for span, when in _search_dates(window):
            where = window.find(span, at)
            if where < 0:  # dateparser returns the words as written; if not, they cannot be cut
                continue
            at = where + len(span)
            place = (a + where, a + at)
            if _NUMERIC_DATE.search(span):
                yield "date", (when.year, when.month, when.day), span, place
            elif _MONTH.search(span):
                # The precision said: a day only when a number other than the year (or a time's) is written.
                bare = _TIME.sub(" ", span)
                small = [d for d in re.findall(r"\d+", bare) if len(d) <= 2]
                year = when.year if re.search(r"\d{4}", bare) else None
                yield "date", (year, when.month, when.day if small else None), span, place


@lru_cache(maxsize=4096)
def _unit(word: str) -> Any | None:
    """pint's unit for ``word``, or ``None`` where pint would read an ordinary word as one (memoised: a unit word
    recurs in text after text, and pint's name parsing is slow; benchmarks/RESULTS.md, issue 38)."""
    units = _units()
    if word in _LETTER_UNITS:
        return units.Unit(_LETTER_UNITS[word])
    if word.lower() in _NOT_UNITS or len(word) > 20 or (len(word) == 1 and word not in "mglLhsKCF"):
        return None
    if word.endswith("s") and len(word) <= 3 and word[:-1] in ("ha", "a", "h"):
        return None  # "has" is not hectares
    if "/" in word:  # "km/h", "m/s": a compound unit, each part one pint knows
        parts = word.split("/")
        named = [_unit(part) for part in parts if part]
        if len(named) != len(parts) or any(n is None for n in named):
            return None
        return units.parse_units(word)
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
        follows = bool(run) and _SAME_AMOUNT.fullmatch(text[run[-1][2][1] : m.start()]) is not None
        if m.group(2) == "in":  # an inch only in "5 ft 11 in"; elsewhere the word "in"
            unit = units.inch if follows and run[-1][4] == units.foot else None
        else:
            unit = _unit(m.group(2))
        if unit is None:
            continue
        value = _float_of(m.group(1))
        quantity = units.Quantity(value, unit).to_base_units()
        if (
            follows
            and run[-1][0].dimensionality == quantity.dimensionality
            # Temperatures never add up: "38 °C, 100 °F" are two readings, and an offset scale has no sum.
            and str(quantity.dimensionality) != "[temperature]"
            and units.Quantity(1, unit) < units.Quantity(1, run[-1][4])
        ):
            # "2 hours 30 minutes", "5 ft 11 in": one amount (a larger unit after is another amount).
            last = run.pop()
            run.append((last[0] + quantity, last[1] + " " + m.group(0), (last[2][0], m.end()), last[3], unit))
        else:
            run.append((quantity, m.group(0), m.span(), value, unit))
    for quantity, said, span, value, _ in run:
        # Significant figures, not decimals: 6 decimals of kilograms made 5 µg equal to 50 µg.
        yield said, (str(quantity.dimensionality), float(f"{float(quantity.magnitude):.12g}")), span, value


def _spelled_fraction(m: re.Match[str]) -> str:
    # In floats: an int of many digits overflows when divided or added to a float.
    if m.group(1):  # "2 and a half": a whole and a part
        return _written(float(m.group(1)) + 1 / _PARTS[m.group(3).lower()])
    count, parts = 1 if m.group(4).lower() in ("a", "one") else int(m.group(4)), _PARTS[m.group(5).lower()]
    # "three quarters" is written 3/4, so either reader keeps its parts ("two thirds" is then 67%, not 0.6667).
    return f"{count}/{parts}" if count <= parts else _written(count / parts)


def _written(value: float) -> str:
    """``value`` as digits without an exponent (``1e+06`` would read as the numbers 1 and 6)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _half_of(m: re.Match[str]) -> str:
    if m.group(2):  # "an hour and a half"
        return f"1.5 {m.group(2)}"
    return "0.5 " if m.group(1).lower() == "half" else "0.25 "


@lru_cache(maxsize=16384)
def spelled_numbers(text: str) -> str:
    """Numbers written in words, and scale words, as digits: the one number-word reader of the judges.

    ``forty-two`` -> ``42`` and ``three hundred sixty-six`` -> ``366`` (``text2num``; a lone ``one`` stays a
    word, :data:`NUMBER_WORD_THRESHOLD`), ``2.5 thousand`` -> ``2500``, ``three quarters`` -> ``0.75``, ``two and
    a half hours`` -> ``2.5 hours``, ``half a year`` -> ``0.5 year``; a clock phrase (``a quarter past 3``) stays.
    The lexical analysis (:mod:`agentic_core.judges.offline.findings.text_fold`) reads numbers through it too
    (memoised: both read the same texts, and a reference recurs across attempts).

    Args:
        text: Any text.

    Returns:
        The text with those numbers as digits; other text unchanged.
    """
    from text_to_num import alpha2digit

    # Scale words first: text2num reads "2.3 billion" as "2.3 1000000000".
    text = _SCALE.sub(
        lambda m: f"{float(m.group(1) or m.group(3)) * _SCALES[(m.group(2) or m.group(4)).lower()]:.0f}", text
    )
    text = str(alpha2digit(text, "en", threshold=NUMBER_WORD_THRESHOLD))
    text = _HALF_OF.sub(_half_of, text)
    return _FRACTION.sub(_spelled_fraction, text)


def _normalised(text: str) -> str:
    text = _MERIDIEM.sub(r"\1m", spelled_numbers(text))
    for pattern, unit in _DEGREES:
        text = pattern.sub(unit, text)
    return text


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by as many spaces (one pass, linear in the text)."""
    if not spans:
        return text
    parts: list[str] = []
    at = 0
    for a, b in sorted(spans):
        if b > at:
            parts += [text[at : max(a, at)], " " * (b - max(a, at))]
            at = b
    return "".join([*parts, text[at:]])


@lru_cache(maxsize=4096)
def text_facts(text: str) -> Facts:
    """Every fact ``text`` states (see the module docstring for how each kind is read).

    Args:
        text: Any text (a question, an answer, a reference).

    Returns:
        Its facts by kind; a text without facts gives empty sets.
    """
    normalised = _normalised(text)
    keys: dict[FactKind, set[Any]] = {k: set() for k in KINDS}
    words: dict[FactKind, list[str]] = {k: [] for k in KINDS}
    written: set[float] = set()
    # Both read from the whole text: a date's span may hold a time ("on 12 Dec at 14:30"), and each is kept.
    found = [*_times(normalised), *_dates(normalised)]
    for kind, key, said, _ in found:
        keys[kind].add(key)
        words[kind].append(said)
        if kind == "date":
            written.update(float(part) for part in (key[0], key[2]) if part is not None)
    # Cut by position, blanked to the same length so later positions still hold ("14:30" cut out of
    # a date by its words would leave the date's own words unmatched and its day and year as numbers).
    rest = _blanked(normalised, [where for *_, where in found])
    cut: list[tuple[int, int]] = []
    for said, key, where, value in _amounts(rest):
        if any(a < where[1] and where[0] < b for a, b in cut):
            continue  # "$5 km" is read once, as money
        if not math.isfinite(key[1]):
            continue  # no finite amount (a unit conversion overflowed): not a fact
        keys["amount"].add(key)
        words["amount"].append(said)
        written.add(value)
        cut.append(where)
    rest = _blanked(rest, cut)
    ratios: list[tuple[int, int]] = []
    for m in _RATIO.finditer(rest):
        a, b = (float(m.group(i) or m.group(i + 2)) for i in (1, 2))
        if b > 0 and a <= b:
            keys["number"].add(a / b)  # "9 out of 10" is 0.9, and states 9 and 10 too
            words["number"].append(m.group(0))
            written.update((a, b))
            ratios.append(m.span())
    for m in _PLAIN.finditer(_blanked(rest, ratios)):
        value = _float_of(m.group(1))
        keys["number"].add(value / 100 if m.group(2) else value)  # 75% is 0.75
        words["number"].append(m.group(0).strip())
    frozen = {k: frozenset(v) for k, v in keys.items()}
    return Facts(frozen, {k: tuple(v) for k, v in words.items()}, frozenset(written))
