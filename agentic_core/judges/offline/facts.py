"""Facts a text states: numbers, dates, times and amounts with units, read off the lexical analysis' tokens.

There is one reader of numbers, dates and times in the judges: the tokenizer
(:mod:`agentic_core.judges.offline.findings.tokens`, after the folding of
:mod:`agentic_core.judges.offline.findings.text_fold`, where ``text2num`` turns number words into digits). The
detectors and this module read the same tokens of the same memoised analysis, so a text is parsed once, and a
number is never read one way by a finding and another way by a fact. This module only turns tokens into
comparable keys:

1. a date token is its ``(year, month, day)`` at the precision it states (``"July 1969"`` has no day), and
   states its day and year as numbers (:attr:`Facts.written`); a time token is its ``(hour, minute)``;
2. a number with a unit is an amount, converted by ``pint`` to its base unit (``5 km`` == ``5000 m``,
   ``392 °F`` == ``200 °C``, ``1,000 GB`` == ``1 TB``); a word right after a number that pint knows as a unit is
   one too (``5 mg``, ``25C``: a bare C or F is degrees), where it is no ordinary word (``at``, ``has``).
   Adjacent amounts of one dimension, the larger unit first, add up (``5 ft 11 in`` == ``71 in``), but for
   temperatures (``38 °C, 100 °F`` are two readings). Money is ``(currency, value)``, never converted;
3. a percentage is its fraction (``75%`` == ``0.75``, and ``50%`` is not ``50``); a ratio ``a/b`` with ``a <= b``
   (``9 out of 10``, ``3/4``) is ``a / b`` and states ``a`` and ``b`` (``24/7`` is the numbers 24 and 7);
4. any other number is itself.

A number of more than :data:`MAX_DIGITS` digits before its point is an identifier, not a quantity, and no fact:
every value is then a finite float.

How an answer's facts agree with the reference's (the same, near, missing, another, an extra) is
:mod:`agentic_core.judges.offline.fact_agreement`'s.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from agentic_core.judges.offline.findings.text_analysis import analyze_text
from agentic_core.judges.offline.findings.tokens import Token, unit_family

__all__ = [
    "FACTS_VERSION",
    "KINDS",
    "MAX_DIGITS",
    "Facts",
    "library_versions",
    "text_facts",
]

FACTS_VERSION = "facts-5"
"""Bump when this module reads any text differently: the learned judge's identity (its cache key) holds it."""
LIBRARIES = ("text2num", "pint", "snowballstemmer")
"""The parsing libraries whose versions are part of the learned judge's identity."""
MAX_DIGITS = 30
"""The most digits a number has before its point; a longer run is an identifier, no fact."""

FactKind = Literal["number", "date", "time", "amount"]
KINDS: tuple[FactKind, ...] = ("number", "date", "time", "amount")
"""The kinds of fact, in the order the judge's features name them."""

_PINT_NAMES = {
    "°c": "degC", "°f": "degF", "km/h": "km/h", "mph": "mile/hour", "m/s": "m/s", "km": "km", "cm": "cm",
    "mm": "mm", "m": "m", "mi": "mile", "ft": "foot", "in": "inch", "kg": "kg", "g": "gram", "lb": "pound",
    "oz": "ounce", "ml": "ml", "l": "liter", "tb": "terabyte", "gb": "gigabyte", "mb": "megabyte", "h": "hour",
    "min": "minute", "s": "second", "day": "day", "week": "week", "month": "month", "year": "year",
}
"""The tokenizer's canonical units as pint names them (its bare ``deg``, with no scale, is no amount pint reads:
pint's ``degree`` is an angle)."""
_LETTER_UNITS = {"C": "degC", "F": "degF", "KB": "kB"}
"""A bare C or F right after a number (``25C``, ``25 C``) is a temperature: pint would read coulombs, farads; and
``KB`` is pint's ``kB`` (kilobytes)."""
_NOT_UNITS = frozenset(
    {"a", "an", "at", "in", "of", "or", "to", "by", "per", "and", "am", "pm", "th", "st", "nd", "rd", "percent", "bag"}
)
"""Words pint would read as units (``a``: a year, ``at``: an atmosphere) that in a sentence are words.
``in`` is an inch only right after an amount in feet (``5 ft 11 in``)."""
_GLUED_UNIT = re.compile(r"(\d{1,30}(?:\.\d{1,30})?)([A-Za-z°µ][A-Za-z°µ/²³0-9]*)")
"""A code that is a number glued to a unit (``25C``, ``5kWh``); the tokenizer reads ``14A`` alike, a seat."""
_TEMPERATURE = "[temperature]"
_JOINERS = frozenset({",", "and"})
"""What may stand between the parts of one amount (``2 hours and 30 minutes``)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """The facts one text states, by kind, as comparable keys.

    Attributes:
        keys: For each kind, the set of normalised values (a float, a ``(year, month, day)`` tuple
            with ``None`` for an unstated part, ``(hour, minute)``, or ``(unit, base value)``).
        words: For each kind, the text of each fact as written, for the reasoning.
        written: The numbers of the amounts and ratios and the day and year of the dates as written (``366 days``
            states the number 366, ``June 10`` the number 10).
    """

    keys: dict[FactKind, frozenset[Any]]
    words: dict[FactKind, tuple[str, ...]]
    written: frozenset[float] = frozenset()


@lru_cache(maxsize=1)
def _units() -> Any:
    import pint  # imported on first use: about 0.3 s to build the registry

    return pint.UnitRegistry()


@lru_cache(maxsize=1)
def library_versions() -> str:
    """The installed versions of the parsing libraries, for the learned judge's identity.

    Returns:
        ``"text2num 3.1.0, pint 0.25.3, snowballstemmer 3.1.1"`` (``?`` for one not installed).
    """
    from importlib.metadata import PackageNotFoundError, version

    def one(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "?"

    return ", ".join(f"{name} {one(name)}" for name in LIBRARIES)


@lru_cache(maxsize=4096)
def _unit(word: str) -> Any | None:
    """pint's unit for ``word``, or ``None`` where pint would read an ordinary word as one (memoised: a unit word
    recurs in text after text, and pint's name parsing is slow)."""
    units = _units()
    if word in _LETTER_UNITS:
        return units.Unit(_LETTER_UNITS[word])
    if word.lower() in _NOT_UNITS or len(word) > 20 or (len(word) == 1 and word not in "mglLhsKCF"):
        return None
    if word.endswith("s") and len(word) <= 3 and word[:-1] in ("ha", "a", "h"):
        return None  # "has" is not hectares
    if "/" in word:  # "kWh/day": a compound unit, each part one pint knows
        parts = word.split("/")
        if not all(parts) or any(_unit(part) is None for part in parts):
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


@lru_cache(maxsize=1024)
def _dimension(unit: Any) -> tuple[str, float]:
    """``unit``'s dimension and its size in base units (``km`` -> ``("[length]", 1000.0)``; memoised: pint's
    conversions are slow and a text's units are few). A temperature's size means nothing (its scale has an offset)."""
    base = _units().Quantity(1.0, unit).to_base_units()
    return str(base.dimensionality), float(base.magnitude)


def _in_base(value: float, unit: Any) -> float | None:
    """``value`` in ``unit`` in its base units, or ``None`` when the conversion leaves the finite floats."""
    dimension, size = _dimension(unit)
    # An offset scale (°C, °F) is converted by pint; any other unit is a factor.
    if dimension == _TEMPERATURE:
        base = float(_units().Quantity(value, unit).to_base_units().magnitude)
    else:
        base = value * size
    return base if math.isfinite(base) else None


def _is_joiner(tok: Token) -> bool:
    return tok.key in _JOINERS if tok.kind == "sep" else tok.kind == "word" and tok.raw.lower() == "and"


def _too_long(digits: str) -> bool:
    return len(digits.lstrip("-").split(".")[0]) > MAX_DIGITS


def _amounts(tokens: tuple[Token, ...]) -> Iterator[tuple[int, int, Any, str, float]]:
    """``(index of the number, index of its last token, unit, words, number)`` of each number with a unit pint
    converts (``unit`` ``None``: a candidate inch, kept only after feet)."""
    for i, tok in enumerate(tokens):
        if tok.kind == "num" and tok.value is not None and tok.parts is None and not _too_long(tok.key):
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if tok.unit in _PINT_NAMES:
                yield i, i, _units().Unit(_PINT_NAMES[tok.unit]), tok.raw, tok.value
            elif tok.unit is None and nxt is not None and nxt.kind == "word":
                unit = _unit(nxt.raw)
                if unit is not None or nxt.raw == "in":
                    yield i, i + 1, unit, f"{tok.raw} {nxt.raw}", tok.value
        elif tok.kind == "code" and (glued := _GLUED_UNIT.fullmatch(tok.raw)):
            glued_unit = _unit(glued.group(2))
            if glued_unit is not None:
                yield i, i, glued_unit, tok.raw, float(glued.group(1))


@dataclass(slots=True)
class _Run:
    """An amount being read: adjacent parts of one dimension add up (``2 hours 30 minutes``)."""

    dimension: str
    base: float  # in base units
    said: str
    first: float  # the first number as written
    at: set[int]  # indexes of its numbers
    unit: Any  # its last part's unit
    end: int  # index of its last token


def _amount_runs(tokens: tuple[Token, ...]) -> list[_Run]:
    """Each amount: adjacent ones of one dimension, the larger unit first, summed (``2 hours 30 minutes``,
    ``5 ft 11 in``)."""
    units = _units()
    runs: list[_Run] = []
    for i, end, unit, said, value in _amounts(tokens):
        last = runs[-1] if runs else None
        follows = last is not None and all(_is_joiner(t) for t in tokens[last.end + 1 : i])
        if unit is None:  # "in" is an inch only in "5 ft 11 in"; elsewhere the word "in"
            if not (follows and last is not None and last.unit == units.foot):
                continue
            unit = units.inch
        base = _in_base(value, unit)
        if base is None:
            continue
        dimension, size = _dimension(unit)
        if (
            follows
            and last is not None
            and last.dimension == dimension
            # Temperatures never add up: "38 °C, 100 °F" are two readings, and an offset scale has no sum.
            and dimension != _TEMPERATURE
            and size < _dimension(last.unit)[1]
        ):
            last.base += base
            last.said = f"{last.said} {said}"
            last.at.add(i)
            last.unit, last.end = unit, end
        else:
            runs.append(_Run(dimension, base, said, value, {i}, unit, end))
    return runs


@lru_cache(maxsize=4096)
def text_facts(text: str) -> Facts:
    """Every fact ``text`` states (see the module docstring for how each kind is read).

    Args:
        text: Any text (a question, an answer, a reference).

    Returns:
        Its facts by kind; a text without facts gives empty sets.
    """
    tokens = analyze_text(text).tokens
    keys: dict[FactKind, set[Any]] = {k: set() for k in KINDS}
    words: dict[FactKind, list[str]] = {k: [] for k in KINDS}
    written: set[float] = set()

    def add(kind: FactKind, key: Any, said: str) -> None:
        keys[kind].add(key)
        words[kind].append(said)

    amounts = _amount_runs(tokens)
    in_amount: set[int] = set().union(*(run.at for run in amounts))
    for run in amounts:
        # Significant figures, not decimals: 6 decimals of kilograms made 5 µg equal to 50 µg.
        add("amount", (run.dimension, float(f"{run.base:.12g}")), run.said)
        written.add(run.first)
    for i, tok in enumerate(tokens):
        if tok.kind == "date" and tok.dates:
            year, month, day = tok.dates[0]
            add("date", (year, month, day), tok.raw)
            written.update(float(part) for part in (year, day) if part is not None)
        elif tok.kind == "time" and tok.value is not None:
            add("time", divmod(int(tok.value), 60), tok.raw)
        elif tok.kind != "num" or tok.value is None or i in in_amount or _too_long(tok.key):
            continue
        elif tok.parts is not None:
            a, b = tok.parts
            if b > 0 and a <= b:
                add("number", a / b, tok.raw)  # "9 out of 10" is 0.9, and states 9 and 10 too
                written.update(tok.parts)
            else:  # "24/7" is no share
                keys["number"].update(tok.parts)
                words["number"].append(tok.raw)
        elif unit_family(tok.unit) == "currency":
            add("amount", (str(tok.unit).upper(), tok.value), tok.raw)
            written.add(tok.value)
        elif tok.unit == "%":
            add("number", tok.value / 100, tok.raw)  # 75% is 0.75
        elif tok.unit is None or tok.unit == "deg":
            add("number", tok.value, tok.raw)
    frozen = {k: frozenset(v) for k, v in keys.items()}
    return Facts(frozen, {k: tuple(v) for k, v in words.items()}, frozenset(written))
