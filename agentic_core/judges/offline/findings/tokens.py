"""Typed tokens and the scanner that cuts prepared text into them.

The scanner turns text already folded by :func:`agentic_core.judges.offline.findings.text_fold.prepare_text` into
:class:`Token` objects, each with a canonical key:

* dates in ISO, numeric (``14/03/2025``) and month-name forms (English, French, Spanish, German, Portuguese, with
  abbreviations and ordinals) -> ``(year, month, day)`` with missing parts as ``None``;
* times (``3pm``, ``3 p.m.``, ``11:45 pm``, ``15:00``, ``9h00``, ``noon``, ``6 in the evening``, ``quarter to 9``)
  -> 24h;
* numbers, with ``42.0`` -> ``42`` and percent (``57 %``, ``57 percent``, ``57 por ciento``);
* fractions and ratios (``3/4``, ``3 out of 4``, ``1 in 4``) -> their value, keeping both parts;
* units and currencies attached to their number and canonicalised (``metres`` -> ``m``, ``$`` -> ``usd``),
  with their families and exact base-unit conversions;
* codes (``AB123``) and stemmed words; a synonym shares its group's key, and a word that means "not
  X" ("closed", "unavailable", "free") is keyed as X and marked inverse
  (:mod:`agentic_core.judges.offline.findings.lexicon`).

The month and unit vocabularies live here because only the scanner's pattern reads them. Sentence
context (stop words, negation, polarity) is filled in afterwards by
:mod:`agentic_core.judges.offline.findings.text_analysis`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from agentic_core.common.text_normal import squeeze
from agentic_core.judges.offline.findings.lexicon import word_keys
from agentic_core.judges.offline.findings.values import DateValue, format_date, format_number

__all__ = [
    "Token",
    "TokenKind",
    "in_base_unit",
    "scan",
    "unit_family",
]

TokenKind = Literal["word", "num", "date", "time", "code", "sep"]

# --------------------------------------------------------------------------------------------------
# Vocabularies
# --------------------------------------------------------------------------------------------------

_MONTHS: dict[str, int] = {}
for _num, _names in enumerate(
    [
        "january jan janvier enero januar janner janeiro",
        "february feb fevrier febrero februar fevereiro",
        "march mar mars marzo marz maerz marco",
        "april apr avril abril",
        "may mai mayo maio",
        "june jun juin junio juni junho",
        "july jul juillet julio juli julho",
        "august aug aout agosto",
        "september sept sep septembre septiembre setiembre setembro",
        "october oct octobre octubre oktober outubro",
        "november nov novembre noviembre novembro",
        "december dec decembre diciembre dezember dezembro",
    ],
    start=1,
):
    for _name in _names.split():
        _MONTHS[_name] = _num
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))

# Unit surface forms -> (canonical unit, family). A family lets "12 km" conflict with "12 miles" while
# "18 degres" (no scale given) conflicts with nothing.
_UNIT_FORMS: list[tuple[str, str, str]] = [
    (r"degrees?\s+celsius|degres?\s+celsius|grad\s+celsius|°\s*c|celsius", "°c", "temperature"),
    (r"degrees?\s+fahrenheit|°\s*f|fahrenheit", "°f", "temperature"),
    (r"degrees?|degres?|grados?|grad", "deg", "temperature"),
    (r"km/h|kmh|kph|kilometers?\s+per\s+hour|kilometres?\s+per\s+hour", "km/h", "speed"),
    (r"mph|miles?\s+per\s+hour", "mph", "speed"),
    (r"m/s|meters?\s+per\s+second|metres?\s+per\s+second", "m/s", "speed"),
    (r"kilometers?|kilometres?|kilometros?|km", "km", "length"),
    (r"centimeters?|centimetres?|cm", "cm", "length"),
    (r"millimeters?|millimetres?|mm", "mm", "length"),
    (r"meters?|metres?|metros?|m", "m", "length"),
    (r"miles?|mi", "mi", "length"),
    (r"feet|foot|ft", "ft", "length"),
    (r"inches|inch", "in", "length"),
    (r"kilograms?|kilogrammes?|kilos?|kg", "kg", "mass"),
    (r"grams?|grammes?|g", "g", "mass"),
    (r"lbs?|pounds?(?!\s+sterling)", "lb", "mass"),
    (r"ounces?|oz", "oz", "mass"),
    (r"milliliters?|millilitres?|ml", "ml", "volume"),
    (r"liters?|litres?|litros?|l", "l", "volume"),
    (r"terabytes?|tb", "tb", "data"),
    (r"gigabytes?|gb", "gb", "data"),
    (r"megabytes?|mb", "mb", "data"),
    (r"hours?|hrs?|horas?|heures?|stunden?|h", "h", "duration"),
    (r"minutes?|mins?|minutos?|minuten?", "min", "duration"),
    (r"seconds?|secs?|segundos?|secondes?|sekunden?|s", "s", "duration"),
    (r"days?|dias?|jours?|tage?n?", "day", "duration"),
    (r"weeks?|semanas?|semaines?|wochen?", "week", "duration"),
    # Calendar spans: a month has no fixed length in seconds, so they get a family of their own in
    # which "2 years" == "24 months" exactly.
    (r"months?|meses|mois|monate?n?", "month", "calendar"),
    (r"years?|yrs?|anos?|ans|jahre?n?", "year", "calendar"),
    (r"us\s+dollars?|dollars?|dolares?|usd", "usd", "currency"),
    (r"euros?|eur", "eur", "currency"),
    (r"pounds?\s+sterling|gbp", "gbp", "currency"),
    (r"yen|jpy", "jpy", "currency"),
    (r"swiss\s+francs?|chf", "chf", "currency"),
    (r"rupees?|inr", "inr", "currency"),
    (r"cad", "cad", "currency"),
    (r"aud", "aud", "currency"),
]
_UNIT_LOOKUP: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(rf"(?:{form})\Z", re.IGNORECASE), canon, fam) for form, canon, fam in _UNIT_FORMS
]
_UNIT_FAMILY: dict[str, str] = {canon: fam for _, canon, fam in _UNIT_FORMS}
_UNIT_RE = "|".join(form for form, _, _ in _UNIT_FORMS)
_CURRENCY_SYMBOLS: dict[str, str] = {
    "us$": "usd", "$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr",
    "usd": "usd", "eur": "eur", "gbp": "gbp", "jpy": "jpy", "chf": "chf",
}


# --------------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True, unsafe_hash=True)
class Token:
    """One typed token: read-only once :func:`~agentic_core.judges.offline.findings.text_analysis.analyze_text` has
    returned it (its analyses are memoised and shared), hashed by value.

    Not a frozen dataclass: a frozen one's ``__init__`` sets each field through ``object.__setattr__``, much
    slower than plain assignments, and the scanner builds tokens by the thousand (benchmarks/RESULTS.md, issue
    38). The scanner builds them and the context marking fills in their context fields, nothing else.

    Attributes:
        kind: ``word``, ``num``, ``date``, ``time``, ``code`` or ``sep`` (clause boundary).
        key: Canonical form used for matching (stem, ``"3.14"``, ``"2025-03-14"``, ``"15:00"``).
        raw: The surface text it came from.
        value: The number (``num``), or minutes after midnight (``time``).
        dates: Candidate readings of a date (an ambiguous ``05/04/2025`` has two).
        unit: Canonical unit or currency attached to a number (``"km"``, ``"usd"``, ``"%"``).
        parts: Numerator and denominator of a fraction (``3/4``, ``3 out of 4``), else ``None``.
        capitalised: Written with a capital first letter in the original text.
        sentence_start: First word of a sentence.
        clause: Index of the clause (negation does not cross clause boundaries).
        negated: Inside the scope of a negation cue.
        stop: A function word (no fact).
        neg_cue: A negation word.
        inverse: A word that means "not <key>" ("closed" is keyed ``open``); :attr:`negated` then says
            whether it is read as negated (it is, unless a negation cue governs it: "not closed").
        alt_keys: Further words an inverse word negates ("failed": ``process``, ``complet``, ...).
    """

    kind: TokenKind
    key: str
    raw: str
    value: float | None = None
    dates: tuple[DateValue, ...] = ()
    unit: str | None = None
    parts: tuple[float, float] | None = None
    capitalised: bool = False
    sentence_start: bool = False
    clause: int = 0
    negated: bool = False
    stop: bool = False
    neg_cue: bool = False
    inverse: bool = False
    alt_keys: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        """Its key and any further keys (an inverse word may negate several words)."""
        return (self.key, *self.alt_keys) if self.alt_keys else (self.key,)


# --------------------------------------------------------------------------------------------------
# Scanner
# --------------------------------------------------------------------------------------------------

_NUM = r"\d+(?:\.\d+)?"
# One scanner, alternatives in priority order (dates before times before numbers before words). Each
# alternative is wrapped in an outer named group so ``match.lastgroup`` names it at once. Speed: the
# first two branches take whitespace and plain words (no digit follows, not a time word) cheaply, so the
# date / time / unit branches with their long word lists only run where a digit is near.
_SCANNER = re.compile(
    rf"""
      (?P<ws>\s+(?!-\s))
    | (?P<word>(?!noon|midday|midi\b|midnight|minuit|(?:quarter|half)\s+(?:past|to)\s+\d)
        [^\W\d](?:\w|'(?=\w))*(?<=[^\W\d_])
        (?![\w$])(?!\.?,?\s+(?:de\s+)?\d))
    | (?=[-\d])(?:
        (?P<D>(?P<iso>(?<!\d)\d{{4}})-(?P<iso_m>\d{{1,2}})-(?P<iso_d>\d{{1,2}})(?!\d))
      | (?P<D2>(?P<ymd_y>(?<!\d)\d{{4}})/(?P<ymd_m>\d{{1,2}})/(?P<ymd_d>\d{{1,2}})(?!\d))
      | (?P<D3>(?P<s1>(?<![\d.])\d{{1,2}})[/.](?P<s2>\d{{1,2}})[/.](?P<s3>\d{{4}}|\d{{2}})(?![\d.]))
      | (?P<D4>(?P<dmy_d>(?<!\d)\d{{1,2}})(?:st|nd|rd|th|er|e|\.)?\s+
          (?:of\s+|de\s+)?(?P<dmy_m>{_MONTH_RE})\b\.?(?:,?\s+(?:de\s+)?(?P<dmy_y>\d{{4}})(?!\d))?)
      | (?P<T>(?P<tc_h>(?<![\d.])(?:1[0-2]|0?[1-9]))(?:[:.](?P<tc_m>[0-5]\d))?\s*(?:o'?clock\s+)?
          (?P<tc_p>in\s+the\s+morning|in\s+the\s+afternoon|in\s+the\s+evening|at\s+night|tonight)\b)
      | (?P<T2>(?P<ta_h>(?<![\d.])(?:1[0-2]|0?\d))(?:[:.](?P<ta_m>[0-5]\d))?\s*(?P<ta_p>am|pm)\b)
      | (?P<T5>(?P<t_h>(?<![\d.])(?:[01]?\d|2[0-3]))(?::|h(?=\d\d))(?P<t_m>[0-5]\d)(?::[0-5]\d)?(?![\d]))
      | (?P<F>(?P<f_a>(?<![\w./])\d{{1,4}})(?:/|\s+out\s+of\s+|\s+in\s+(?=\d{{1,3}}(?!\d)))(?P<f_b>\d{{1,4}})
          (?![\w/]|\.\d|\s*(?:{_UNIT_RE}|%)(?![^\W\d_])))
      | (?P<P>(?P<pct>(?<![\w.])-?{_NUM})\s*
          (?:%|percent\b|per\s+cent\b|pct\b|por\s+ciento\b|pour\s+cent\b|prozent\b))
      | (?P<N>(?P<num>(?<![\w.])-?{_NUM})(?:st|nd|rd|th)?
          (?:\s*(?P<unit>{_UNIT_RE})(?![^\W\d_]))?(?![^\W_]))
      )
    | (?=[^\W\d_])(?:
        (?P<D5>(?P<mdy_m>\b(?:{_MONTH_RE}))\.?\s+(?:the\s+)?(?P<mdy_d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:])
          (?:,?\s+(?P<mdy_y>\d{{4}})(?!\d))?)
      | (?P<D6>(?P<my_m>\b(?:{_MONTH_RE}))\.?,?\s+(?:de\s+)?(?P<my_y>\d{{4}})(?!\d))
      | (?P<T3>(?P<noon>\bnoon|\bmidday|\bmidi)\b)
      | (?P<T6>\b(?P<q>quarter|half)\s+(?P<dir>past|to)\s+(?P<qh>1[0-2]|0?[1-9])(?![\d:]))
      | (?P<T4>(?P<midnight>\bmidnight|\bminuit)\b)
      )
    | (?P<C>(?P<cur_sym>us\$|\$|€|£|¥|₹|\b(?:usd|eur|gbp|jpy|chf|inr|cad|aud)\b)\s*(?P<cur_num>-?{_NUM})(?![\d]))
    | (?P<code>\b(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]+\b)
    | (?P<word2>[^\W\d](?:\w|'(?=\w))*)
    | (?P<sep>[.;:!?]|,|\s-\s|\bbut\b|\bhowever\b|\bpero\b|\bmais\b|\baber\b|\bsondern\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_DATE_GROUPS = frozenset({"D", "D2", "D3", "D4", "D5", "D6"})
_TIME_GROUPS = frozenset({"T", "T2", "T3", "T4", "T5", "T6"})


def _canon_unit(raw: str | None) -> str | None:
    if not raw:
        return None
    raw = squeeze(raw)
    for pattern, canon, _fam in _UNIT_LOOKUP:
        if pattern.match(raw):
            return canon
    return None


def unit_family(unit: str | None) -> str | None:
    """The dimension of a canonical unit (``"km"`` -> ``"length"``, ``"%"`` -> ``"percent"``)."""
    if unit is None:
        return None
    if unit == "%":
        return "percent"
    return _UNIT_FAMILY.get(unit)


def _valid_date(y: int | None, m: int | None, d: int | None) -> bool:
    return (m is None or 1 <= m <= 12) and (d is None or 1 <= d <= 31) and (y is None or 1000 <= y <= 2999)


def _date_token(match: re.Match[str]) -> Token | None:
    g = match.group
    cands: list[DateValue] = []
    y: int | None
    if g("iso"):
        cands.append((int(g("iso")), int(g("iso_m")), int(g("iso_d"))))
    elif g("ymd_y"):
        cands.append((int(g("ymd_y")), int(g("ymd_m")), int(g("ymd_d"))))
    elif g("s1"):
        a, b, y = int(g("s1")), int(g("s2")), int(g("s3"))
        if y < 100:
            y += 2000
        # Day-first when the first part cannot be a month, month-first when the second cannot;
        # otherwise both readings stay candidates (05/04 is April 5th or May 4th).
        if a > 12:
            cands.append((y, b, a))
        elif b > 12:
            cands.append((y, a, b))
        else:
            cands.extend([(y, b, a), (y, a, b)])
    elif g("dmy_m"):
        y = int(g("dmy_y")) if g("dmy_y") else None
        cands.append((y, _MONTHS[g("dmy_m").lower()], int(g("dmy_d"))))
    elif g("mdy_m"):
        y = int(g("mdy_y")) if g("mdy_y") else None
        cands.append((y, _MONTHS[g("mdy_m").lower()], int(g("mdy_d"))))
    elif g("my_m"):
        cands.append((int(g("my_y")), _MONTHS[g("my_m").lower()], None))
    else:
        return None
    valid = tuple(dict.fromkeys(c for c in cands if _valid_date(*c)))
    if not valid:
        return None
    return Token("date", format_date(valid[0]), match.group(0), dates=valid)


def _time_token(match: re.Match[str]) -> Token | None:
    g = match.group
    if g("tc_h"):
        h, m = int(g("tc_h")), int(g("tc_m") or 0)
        period = g("tc_p").lower()
        if "morning" not in period and h != 12:
            h += 12
        if "morning" in period and h == 12:
            h = 0
    elif g("ta_h"):
        h, m = int(g("ta_h")), int(g("ta_m") or 0)
        if h > 12:
            return None
        if g("ta_p").lower() == "pm" and h != 12:
            h += 12
        elif g("ta_p").lower() == "am" and h == 12:
            h = 0
    elif g("noon"):
        h, m = 12, 0
    elif g("midnight"):
        h, m = 0, 0
    elif g("t_h"):
        h, m = int(g("t_h")), int(g("t_m"))
    elif g("qh"):  # "quarter to 9" is 8:45, "half past 9" 9:30
        offset = 15 if g("q").lower() == "quarter" else 30
        minutes = int(g("qh")) * 60 + (-offset if g("dir").lower() == "to" else offset)
        h, m = divmod(minutes % 1440, 60)
    else:
        return None
    return Token("time", f"{h:02d}:{m:02d}", match.group(0), value=float(h * 60 + m))


def _fraction_token(match: re.Match[str]) -> Token | None:
    numerator, denominator = int(match.group("f_a")), int(match.group("f_b"))
    if denominator == 0:
        return None
    value = numerator / denominator
    key = f"{numerator}/{denominator}"
    return Token("num", key, match.group(0), value=value, parts=(float(numerator), float(denominator)))


def scan(text: str) -> list[Token]:
    """Cut prepared text into typed tokens, in order (context fields are left at their defaults).

    Args:
        text: Text from :func:`agentic_core.judges.offline.findings.text_fold.prepare_text`.

    Returns:
        The tokens, separators included.
    """
    tokens: list[Token] = []
    for match in _SCANNER.finditer(text):
        kind = match.lastgroup
        raw = match.group(0)
        tok: Token | None
        # Most tokens are words: test that first.
        if kind == "ws":
            continue
        if kind == "word" or kind == "word2":
            key, alt_keys, inverse = word_keys(raw.lower())
            tok = Token(
                "word", key, raw, capitalised=raw[:1].isupper(), inverse=inverse, alt_keys=alt_keys
            )
        elif kind == "sep":
            tok = Token("sep", raw.strip().lower(), raw)
        elif kind == "N":
            value = match.group("num")
            unit = _canon_unit(match.group("unit"))
            tok = Token("num", format_number(value), raw, value=float(value), unit=unit)
        elif kind == "code":
            tok = Token("code", raw.lower(), raw)
        elif kind in _DATE_GROUPS:
            tok = _date_token(match)
        elif kind in _TIME_GROUPS:
            tok = _time_token(match)
        elif kind == "F":
            tok = _fraction_token(match)
        elif kind == "P":
            value = match.group("pct")
            tok = Token("num", format_number(value), raw, value=float(value), unit="%")
        elif kind == "C":
            value = match.group("cur_num")
            unit = _CURRENCY_SYMBOLS.get(match.group("cur_sym").lower())
            tok = Token("num", format_number(value), raw, value=float(value), unit=unit)
        else:  # pragma: no cover - every alternative is named
            tok = None
        if tok is None:
            # A pattern matched but its values were impossible (a 13th month): keep the digits as
            # plain numbers rather than losing them.
            for n in re.findall(_NUM, raw):
                tokens.append(Token("num", format_number(n), n, value=float(n)))
            continue
        tokens.append(tok)
    return tokens


_BASE_UNITS: dict[str, float] = {
    "s": 1, "min": 60, "h": 3600, "day": 86400, "week": 604800,
    "mm": 0.001, "cm": 0.01, "m": 1, "km": 1000, "g": 1, "kg": 1000, "ml": 1, "l": 1000,
    "month": 1, "year": 12,
}
"""Exact conversions within one measurement system. Cross-system ones (km <-> miles) are left out:
they are rounded in practice, and "convert 5 km to miles" must not be answered by "5 km"."""


def in_base_unit(tok: Token) -> float | None:
    """The token's value in its family's base unit (seconds, metres, grams, millilitres), if exact."""
    if tok.value is None or tok.unit not in _BASE_UNITS:
        return None
    return tok.value * _BASE_UNITS[tok.unit]
