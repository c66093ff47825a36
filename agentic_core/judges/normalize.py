"""Text normalisation for the lexical judge: canonical, typed tokens from free text.

The lexical judge compares *facts*, so surface variants of the same fact must become the same token:

* unicode NFKC, accents folded (``Berlín`` == ``Berlin``), case folded, typographic quotes/dashes unified;
* contractions expanded (``doesn't`` -> ``does not``) so negation is always a separate word;
* number words (``forty-two``, ``twenty five``, ``three hundred sixty-six``, a few Spanish / French /
  German ones) -> digits; thousands separators (``1,200``), decimal commas (``3,14``), ``42.0`` -> ``42``;
  scale words (``2.3 billion``); percent (``57 %``, ``57 percent``, ``57 por ciento``);
* dates in ISO, numeric (``14/03/2025``) and month-name forms (English, French, Spanish, German, with
  abbreviations and ordinals) -> ``(year, month, day)`` with missing parts as ``None``;
* times (``3pm``, ``3 p.m.``, ``11:45 pm``, ``15:00``, ``9h00``, ``noon``, ``6 in the evening``) -> 24h;
* units and currencies attached to their number and canonicalised (``metres`` -> ``m``, ``$`` -> ``usd``);
* light stemming of words (``bookings`` -> ``book``), stop words marked, negation scopes marked;
* a leading yes/no word (``Yes``, ``Nope``, ``Sí``, ``Nein``) becomes an explicit polarity.

Everything here is pure and deterministic; :func:`analyze_text` is memoised because ground truths and
queries repeat across attempts.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

__all__ = [
    "DateValue",
    "NumberValue",
    "TextAnalysis",
    "Token",
    "analyze_text",
    "date_satisfies",
    "fold",
    "format_date",
    "format_number",
    "in_base_unit",
    "normalize_numbers",
    "numbers_equal",
    "stem",
    "unit_family",
]

TokenKind = Literal["word", "num", "date", "time", "code", "sep"]
DateValue = tuple[int | None, int | None, int | None]
"""(year, month, day); a part the text does not give is ``None``."""

# --------------------------------------------------------------------------------------------------
# Vocabularies
# --------------------------------------------------------------------------------------------------


def _wordset(text: str) -> frozenset[str]:
    """A set of words written as one space-separated block (readable for long vocabularies)."""
    return frozenset(text.split())


STOPWORDS: frozenset[str] = _wordset(
    """
    a an the and or nor but if then so than of to in on at by for with from into onto over under about as
    up down out off via per is are was were be been being am do does did doing done have has had having
    will would shall should can could may might must it its this that these those there here where when
    what which who whom whose why how i me my mine we us our ours you your yours he him his she her hers
    they them their theirs also just very really quite please thank thanks okay ok well oh let lets
    actually approximately around roughly about basically currently simply only still yet already now
    some any each every all both either other such same own too more most much many few
    answer result value total sure great question
    el la los las lo un una unos unas de del al y o u en es son que se su sus por para con como
    le les du des et ou est sont ce cette ces il elle ils elles nous vous je au aux par pour sur avec dans
    der die das den dem des ein eine einen einem einer und oder ist sind im am vom von mit zu zum zur
    auf fur bei es sie er wir ihr
    """
)
"""Function words (English, Spanish, French, German) that carry no fact. Negation and yes/no words
are deliberately absent: they are handled as polarity, never ignored."""

NEGATION_WORDS: frozenset[str] = _wordset(
    """
    not no never none nobody nothing neither nor without cannot unable
    nunca ningun ninguna ninguno sin tampoco jamas
    ne pas aucun aucune sans
    nicht kein keine keinen keiner keinem nie niemals ohne
    """
)
"""Negation cues. ``no`` in leading position followed by a pause is a yes/no answer instead."""

VERBAL_NEGATION: frozenset[str] = _wordset("not never cannot unable pas nicht nunca jamas nie niemals")
"""Cues that negate the verb (``is not``), as opposed to determiners (``no errors``). Only these make
a statement an implied "no" to a yes/no question; ``No errors were reported`` is not a "no"."""

YES_WORDS: frozenset[str] = _wordset(
    "yes yeah yep yup yea correct indeed absolutely affirmative certainly si oui ja jawohl claro"
)
NO_WORDS: frozenset[str] = _wordset("no nope nah non nein negative")
# These words are only a yes/no answer when followed by a pause ("No, ..." but not "No visa ...";
# "Si, ..." but not the Spanish/French "si" = "if").
_PAUSE_REQUIRED: frozenset[str] = frozenset({"no", "si", "non", "correct", "certainly", "claro"})

_MONTHS: dict[str, int] = {}
for _num, _names in enumerate(
    [
        "january jan janvier enero januar janner",
        "february feb fevrier febrero februar",
        "march mar mars marzo marz maerz",
        "april apr avril abril",
        "may mai mayo",
        "june jun juin junio juni",
        "july jul juillet julio juli",
        "august aug aout agosto",
        "september sept sep septembre septiembre setiembre",
        "october oct octobre octubre oktober",
        "november nov novembre noviembre",
        "december dec decembre diciembre dezember",
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
    (r"us\s+dollars?|dollars?|dolares?|usd", "usd", "currency"),
    (r"euros?|eur", "eur", "currency"),
    (r"pounds?\s+sterling|gbp", "gbp", "currency"),
    (r"yen|jpy", "jpy", "currency"),
    (r"swiss\s+francs?|chf", "chf", "currency"),
]
_UNIT_LOOKUP: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(rf"(?:{form})\Z", re.IGNORECASE), canon, fam) for form, canon, fam in _UNIT_FORMS
]
_UNIT_FAMILY: dict[str, str] = {canon: fam for _, canon, fam in _UNIT_FORMS}
_UNIT_RE = "|".join(form for form, _, _ in _UNIT_FORMS)
_CURRENCY_SYMBOLS: dict[str, str] = {
    "us$": "usd", "$": "usd", "€": "eur", "£": "gbp", "¥": "jpy",
    "usd": "usd", "eur": "eur", "gbp": "gbp", "jpy": "jpy", "chf": "chf",
}

# Number words. Ambiguous words are left out on purpose: "un/une/ein/uno" are articles, "once" (es 11)
# and "elf" (de 11) are English words, "sept" is an abbreviation of September, "neuf" means "new",
# "tres" (es 3) is the folded French "très" (very).
_SMALL_NUMBERS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "dos": 2, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10,
    "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "huit": 8, "dix": 10,
    "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8, "zehn": 10,
}
_SCALES: dict[str, int] = {
    "hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12,
}
_NUMWORD_ALT = "|".join(sorted([*_SMALL_NUMBERS, *_SCALES], key=len, reverse=True))
_NUMWORD_SEQ = re.compile(
    rf"\b(?:{_NUMWORD_ALT})(?:(?:\s+|-|\s+and\s+)(?:{_NUMWORD_ALT}))*\b", re.IGNORECASE
)
# "one" is often a pronoun ("the one that", "one of them", "no one"): only convert it elsewhere.
_ONE_PRONOUN_BEFORE = re.compile(r"\b(?:the|no|any|every|each|this|that|which|some|a)\s+\Z", re.IGNORECASE)
_ONE_PRONOUN_AFTER = re.compile(r"\A\s+(?:of|another|that|which|who|else)\b", re.IGNORECASE)

_REFUSAL_RE = re.compile(
    r"""
    \bas\s+an\s+ai\b
    | \bi\s+am\s+(?:sorry|afraid)\b[^.!?]*\b(?:can\s+not|could\s+not|unable|not\s+able|will\s+not|do\s+not)\b
    | \bsorry\b[^.!?]*\bi\s+(?:can\s+not|could\s+not|am\s+unable|am\s+not\s+able|can\s+only|do\s+not)\b
    | \bi\s+(?:can\s+not|could\s+not|will\s+not\s+be\s+able\s+to|am\s+unable\s+to|am\s+not\s+able\s+to)
      \s+(?:help|assist|do|provide|share|perform|make|access|answer|complete|process|retrieve|delete|
         book|give|disclose|reveal|fulfil|fulfill|comply|support|look|check|see|find)\b
    | \bi\s+(?:do\s+not|dont)\s+(?:have\s+(?:access|that\s+information|information|the\s+ability|
         any\s+information)|know)\b
    | \bi\s+have\s+no\s+(?:access|information|way)\b
    | \bi\s+am\s+not\s+(?:sure|certain|able)\b
    | \bi\s+can\s+only\s+(?:respond|answer|help|speak|assist)\b
    | \bunfortunately,?\s+i\s+(?:am\s+unable|can\s+not|could\s+not|am\s+not\s+able)\b
    """,
    re.IGNORECASE | re.VERBOSE,
)

# --------------------------------------------------------------------------------------------------
# Character-level folding and number rewriting
# --------------------------------------------------------------------------------------------------

_CHAR_MAP = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u02bc": "'", "`": "'", "\u00b4": "'",
        "\u201c": '"', "\u201d": '"', "\u00ab": '"', "\u00bb": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": " - ", "\u2212": "-",
        "\u00a0": " ", "\u202f": " ", "\u00ba": "°", "\u00d7": " ", "\u00bf": " ", "\u00a1": " ",
    }
)


def fold(text: str) -> str:
    """Unicode-normalise and fold accents, keeping case (case marks entities).

    Args:
        text: Any text.

    Returns:
        NFKC text with typographic quotes/dashes unified and combining accents removed
        (``"Berlín – 3,14 ℃"`` -> ``"Berlin - 3,14 °C"``).
    """
    if text.isascii():
        # ASCII is already NFKC and has no accents: only the backtick needs mapping (fast path).
        return text.translate(_CHAR_MAP)
    text = unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)
    decomposed = unicodedata.normalize("NFD", text)
    # "ß" has no decomposition; spell it out so "Strasse" and "Straße" meet.
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("ß", "ss")
    return unicodedata.normalize("NFC", stripped)


_CONTRACTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.IGNORECASE), r)
    for p, r in [
        (r"\bcan't\b|\bcannot\b", "can not"),
        (r"\bwon't\b", "will not"),
        (r"\bshan't\b", "shall not"),
        (r"\bain't\b", "is not"),
        (r"n't\b", " not"),
        (r"\b(it|that|there|what|here|he|she|who|where|how)'s\b", r"\1 is"),
        (r"'s\b", ""),
        (r"'m\b", " am"),
        (r"'re\b", " are"),
        (r"'ll\b", " will"),
        (r"'ve\b", " have"),
        (r"'d\b", " would"),
        (r"\b([nldcjmst]|qu)'(?=\w)", r"\1e "),
        (r"\ba\.m\.?(?!\w)", "am"),
        (r"\bp\.m\.?(?!\w)", "pm"),
        (r"\bu\.s\.(?!\w)", "us"),
        (r"\bdont\b", "do not"),
    ]
]


def _numword_values(words: list[str]) -> list[int]:
    """Values of a number-word sequence, split where one number ends and the next begins.

    ``["three", "hundred", "sixty", "six"]`` -> ``[366]``; ``["two", "and", "three"]`` -> ``[2, 3]``
    ("and" only joins after a scale word, as in "one hundred and five").
    """
    values: list[int] = []
    total = 0
    current = 0
    last: str | None = None  # kind of the previous word: unit, tens, hundred, scale, and

    def flush() -> None:
        nonlocal total, current, last
        if last is not None:
            values.append(total + current)
        total, current, last = 0, 0, None

    for w in words:
        if w == "and":
            if last in ("hundred", "scale"):
                last = "and"
            else:
                flush()
            continue
        if w in _SMALL_NUMBERS:
            v = _SMALL_NUMBERS[w]
            joins = last in (None, "hundred", "scale", "and") or (last == "tens" and v < 10)
            if not joins:
                flush()
            current += v
            last = "tens" if v >= 20 and v % 10 == 0 else "unit"
        elif w == "hundred":
            if last not in ("unit", "tens"):
                flush()
                current = 1
            current *= 100
            last = "hundred"
        else:
            total += max(current, 1) * _SCALES[w]
            current = 0
            last = "scale"
    flush()
    return values


_LETTERS = re.compile(r"[^\W\d_]+")
_NUMBER_WORDS = frozenset(_SMALL_NUMBERS) | frozenset(_SCALES)


def _replace_number_words(text: str) -> str:
    # The sequence regex is a long alternation (slow); most texts hold no number word at all.
    if _NUMBER_WORDS.isdisjoint(w.lower() for w in _LETTERS.findall(text)):
        return text

    def repl(match: re.Match[str]) -> str:
        raw = match.group(0)
        words = [w for w in re.split(r"[\s-]+", raw.lower()) if w and w != "and"]
        # A lone scale word ("a thousand reasons", "hundreds") stays a word: it is not a stated number.
        if all(w in _SCALES for w in words):
            return raw
        if words == ["one"]:
            before = text[: match.start()]
            after = text[match.end() :]
            if _ONE_PRONOUN_BEFORE.search(before) or _ONE_PRONOUN_AFTER.match(after):
                return raw
        return " ".join(str(v) for v in _numword_values(words))

    return _NUMWORD_SEQ.sub(repl, text)


_HAS_DIGIT = re.compile(r"\d")
_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DECIMAL_COMMA_RE = re.compile(r"(?<=\d),(?=\d{1,2}(?![\d,]))")
_SCALE_AFTER_DIGITS_RE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(thousand|million|billion|trillion|bn|mn)\b", re.IGNORECASE
)
_SCALE_SUFFIX = {
    "thousand": 1000, "million": 10**6, "mn": 10**6, "billion": 10**9, "bn": 10**9, "trillion": 10**12,
}


def normalize_numbers(text: str) -> str:
    """Rewrite number spellings into plain digits.

    Args:
        text: Folded text.

    Returns:
        The text with ``1,200`` -> ``1200``, ``3,14`` -> ``3.14``, ``forty-two`` -> ``42``,
        ``2.3 billion`` -> ``2300000000``. Other text is unchanged.
    """
    if "," in text:
        text = _THOUSANDS_RE.sub("", text)
        # A thousands separator repeats ("1,200,000"): run again so every group goes.
        text = _THOUSANDS_RE.sub("", text)
        text = _DECIMAL_COMMA_RE.sub(".", text)
    text = _replace_number_words(text)
    if not _HAS_DIGIT.search(text):
        return text

    def scale(match: re.Match[str]) -> str:
        value = Decimal(match.group(1)) * _SCALE_SUFFIX[match.group(2).lower()]
        return format_number(value)

    return _SCALE_AFTER_DIGITS_RE.sub(scale, text)


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


_IRREGULAR: dict[str, str] = {
    f: base
    for base, forms in {
        "be": "was were been", "begin": "began begun", "become": "became", "break": "broke broken",
        "bring": "brought", "build": "built", "buy": "bought", "catch": "caught", "choose": "chose chosen",
        "come": "came", "cost": "cost", "do": "did done", "draw": "drew drawn", "drive": "drove driven",
        "eat": "ate eaten", "fall": "fell fallen", "feel": "felt", "find": "found", "fly": "flew flown",
        "forget": "forgot forgotten", "freeze": "froze frozen", "get": "got gotten", "give": "gave given",
        "go": "went gone", "grow": "grew grown", "have": "had", "hold": "held", "keep": "kept",
        "know": "knew known", "lead": "led", "leave": "left", "lend": "lent", "lose": "lost",
        "make": "made", "mean": "meant", "meet": "met", "pay": "paid", "ride": "rode ridden",
        "rise": "rose risen", "run": "ran", "say": "said", "see": "saw seen", "sell": "sold",
        "send": "sent", "shine": "shone", "show": "shown", "sing": "sang sung", "sink": "sank sunk",
        "sit": "sat", "sleep": "slept", "speak": "spoke spoken", "spend": "spent", "stand": "stood",
        "steal": "stole stolen", "swim": "swam swum", "take": "took taken", "teach": "taught",
        "tell": "told", "think": "thought", "throw": "threw thrown", "understand": "understood",
        "wake": "woke woken", "wear": "wore worn", "win": "won", "write": "wrote written",
        "child": "children", "person": "people", "man": "men", "woman": "women", "mouse": "mice",
    }.items()
    for f in forms.split()
}
"""Irregular forms -> base form, so "fell" meets the query's "fall" (a stemmer cannot see that)."""


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light, deterministic suffix stripper (``bookings`` -> ``book``, ``included`` -> ``includ``).

    Light on purpose: it only has to make inflections of the same word meet, and an aggressive
    stemmer merges unrelated words, which would hide a wrong answer.

    Args:
        word: A lower-case word.

    Returns:
        The stem.
    """
    w = _IRREGULAR.get(word, word)
    if len(w) <= 3:
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif (w.endswith("ed") and len(w) > 4) or (w.endswith("ly") and len(w) > 5):
        w = w[:-2]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz" and w[-1].isalpha():
        w = w[:-1]
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


# --------------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """One typed token.

    Attributes:
        kind: ``word``, ``num``, ``date``, ``time``, ``code`` or ``sep`` (clause boundary).
        key: Canonical form used for matching (stem, ``"3.14"``, ``"2025-03-14"``, ``"15:00"``).
        raw: The surface text it came from.
        value: The number (``num``), or minutes after midnight (``time``).
        dates: Candidate readings of a date (an ambiguous ``05/04/2025`` has two).
        unit: Canonical unit or currency attached to a number (``"km"``, ``"usd"``, ``"%"``).
        capitalised: Written with a capital first letter in the original text.
        sentence_start: First word of a sentence.
        clause: Index of the clause (negation does not cross clause boundaries).
        negated: Inside the scope of a negation cue.
        stop: A function word (no fact).
        neg_cue: A negation word.
    """

    kind: TokenKind
    key: str
    raw: str
    value: float | None = None
    dates: tuple[DateValue, ...] = ()
    unit: str | None = None
    capitalised: bool = False
    sentence_start: bool = False
    clause: int = 0
    negated: bool = False
    stop: bool = False
    neg_cue: bool = False


NumberValue = tuple[float, float | None, str | None]
"""(value, value in the base unit or ``None``, unit family or ``None``)."""


@dataclass(frozen=True)
class TextAnalysis:
    """Everything the judge needs to know about one text.

    Attributes:
        text: The original text.
        tokens: All tokens, separators included.
        content: Fact-bearing tokens (no separators, stop words or negation cues).
        polarity: ``"yes"`` / ``"no"`` when the text opens with a yes/no word, else ``None``.
        refusal: The refusal phrase found, or ``None``.
        stems: Keys of the content tokens.
        all_word_keys: Keys of every word, stop words included (the fallback for a ground truth made
            only of function words, such as the chemical symbol "Au", which is also French "au").
    """

    text: str
    tokens: tuple[Token, ...]
    content: tuple[Token, ...]
    polarity: Literal["yes", "no"] | None
    refusal: str | None
    stems: frozenset[str] = field(default_factory=frozenset)
    all_word_keys: frozenset[str] = field(default_factory=frozenset)
    number_values: tuple[NumberValue, ...] = ()
    """(value, value in base unit or None, unit family) of every number, plus the year of every date."""
    date_values: tuple[DateValue, ...] = ()
    time_keys: frozenset[str] = field(default_factory=frozenset)

    def first_sentence_negation(self) -> tuple[bool, frozenset[str]]:
        """Negation in the first sentence: whether a verbal cue (``not``, ``never``) is there, and the
        keys of the words in the scope of any cue (``No visa is required`` -> ``{"visa", ...}``).

        The sentence, not the clause: in "I'm sorry, but I can't share passwords" the claim is in the
        second clause."""
        first = []
        for tok in self.tokens:
            if tok.kind == "sep" and tok.key in _SENTENCE_END:
                break
            first.append(tok)
        verbal = any(t.neg_cue and t.raw.lower() in VERBAL_NEGATION for t in first)
        scoped = frozenset(t.key for t in first if t.negated)
        return verbal, scoped

    @property
    def numbers(self) -> tuple[Token, ...]:
        """Number tokens, in order."""
        return tuple(t for t in self.content if t.kind == "num")

    @property
    def dates(self) -> tuple[Token, ...]:
        """Date tokens, in order."""
        return tuple(t for t in self.content if t.kind == "date")

    @property
    def times(self) -> tuple[Token, ...]:
        """Time tokens, in order."""
        return tuple(t for t in self.content if t.kind == "time")


_NUM = r"\d+(?:\.\d+)?"
# One scanner, alternatives in priority order (dates before times before numbers before words). Each
# alternative is wrapped in an outer named group so ``match.lastgroup`` names it at once. Speed: the
# first two branches take whitespace and plain words (no digit follows, not a time word) cheaply, so the
# date / time / unit branches with their long word lists only run where a digit is near.
_SCANNER = re.compile(
    rf"""
      (?P<ws>\s+(?!-\s))
    | (?P<word>(?!noon|midday|midi\b|midnight|minuit)[^\W\d](?:\w|'(?=\w))*(?<=[^\W\d_])
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
      | (?P<T4>(?P<midnight>\bmidnight|\bminuit)\b)
      )
    | (?P<C>(?P<cur_sym>us\$|\$|€|£|¥|\b(?:usd|eur|gbp|jpy|chf)\b)\s*(?P<cur_num>-?{_NUM})(?![\d]))
    | (?P<code>\b(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]+\b)
    | (?P<word2>[^\W\d](?:\w|'(?=\w))*)
    | (?P<sep>[.;:!?]|,|\s-\s|\bbut\b|\bhowever\b|\bpero\b|\bmais\b|\baber\b|\bsondern\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_DATE_GROUPS = frozenset({"D", "D2", "D3", "D4", "D5", "D6"})
_TIME_GROUPS = frozenset({"T", "T2", "T3", "T4", "T5"})


def _canon_unit(raw: str | None) -> str | None:
    if not raw:
        return None
    raw = re.sub(r"\s+", " ", raw.strip())
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
    else:
        return None
    return Token("time", f"{h:02d}:{m:02d}", match.group(0), value=float(h * 60 + m))


def _scan(text: str) -> list[Token]:
    tokens: list[Token] = []
    for match in _SCANNER.finditer(text):
        kind = match.lastgroup
        raw = match.group(0)
        tok: Token | None
        # Most tokens are words: test that first.
        if kind == "ws":
            continue
        if kind == "word" or kind == "word2":
            tok = Token("word", stem(raw.lower()), raw, capitalised=raw[:1].isupper())
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
}
"""Exact conversions within one measurement system. Cross-system ones (km <-> miles) are left out:
they are rounded in practice, and "convert 5 km to miles" must not be answered by "5 km"."""


def in_base_unit(tok: Token) -> float | None:
    """The token's value in its family's base unit (seconds, metres, grams, millilitres), if exact."""
    if tok.value is None or tok.unit not in _BASE_UNITS:
        return None
    return tok.value * _BASE_UNITS[tok.unit]


_AND_WORDS = frozenset({"and", "y", "et", "und"})


def _merge_durations(tokens: list[Token]) -> list[Token]:
    """``2 hours 30 minutes`` / ``2 hours and 30 minutes`` -> one duration of 150 minutes."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        j = i + 1
        if j < len(tokens) and tokens[j].kind == "word" and tokens[j].raw.lower() in _AND_WORDS:
            j += 1
        nxt = tokens[j] if j < len(tokens) else None
        if (
            tok.kind == "num" and tok.unit == "h" and tok.value is not None
            and nxt is not None and nxt.kind == "num" and nxt.unit == "min" and nxt.value is not None
        ):
            minutes = tok.value * 60 + nxt.value
            raw = f"{tok.raw} {nxt.raw}"
            out.append(Token("num", format_number(minutes), raw, value=minutes, unit="min"))
            i = j + 1
            continue
        out.append(tok)
        i += 1
    return out


def _explicit_polarity(tokens: list[Token]) -> Literal["yes", "no"] | None:
    if not tokens or tokens[0].kind != "word":
        return None
    first = tokens[0].raw.lower()
    nxt = tokens[1] if len(tokens) > 1 else None
    paused = nxt is None or nxt.kind == "sep"
    if first in _PAUSE_REQUIRED and not paused:
        return None
    if first in YES_WORDS:
        return "yes"
    if first in NO_WORDS:
        return "no"
    # "Of course", "Not at all": two-word answers.
    if first == "of" and nxt is not None and nxt.raw.lower() == "course":
        return "yes"
    return None


_SENTENCE_END = frozenset({".", "!", "?", ";"})

_NEG_SCOPE = 3
"""How many content tokens after a negation cue it negates (``not permitted in hand luggage``)."""


def _mark(tokens: list[Token], polarity_word: bool) -> list[Token]:
    """Fill in sentence starts, clauses, stop words, negation cues and negation scopes."""
    out: list[Token] = []
    clause = 0
    sentence_start = True
    scope_left = 0
    for i, tok in enumerate(tokens):
        if tok.kind == "sep":
            clause += 1
            scope_left = 0
            if tok.key in _SENTENCE_END or tok.key == ":":
                sentence_start = True
            object.__setattr__(tok, "clause", clause)
            out.append(tok)
            continue
        lower = tok.raw.lower()
        is_pol = polarity_word and i == 0
        neg_cue = tok.kind == "word" and lower in NEGATION_WORDS and not is_pol
        # Single letters ("x" in "3 x 7", "s" left by a stray apostrophe) carry no fact.
        stop = tok.kind == "word" and (lower in STOPWORDS or is_pol or len(lower) == 1)
        negated = scope_left > 0 and not neg_cue and not stop
        # The token was built by _scan moments ago and is not shared yet: fill in the context fields
        # in place rather than building every token twice (this is the judge's hot loop).
        setattr_ = object.__setattr__
        setattr_(tok, "sentence_start", sentence_start)
        setattr_(tok, "clause", clause)
        setattr_(tok, "negated", negated)
        setattr_(tok, "stop", stop)
        setattr_(tok, "neg_cue", neg_cue)
        out.append(tok)
        if neg_cue:
            scope_left = _NEG_SCOPE
        elif negated:
            scope_left -= 1
        sentence_start = False
    return out


_NEEDS_CONTRACTIONS = re.compile(r"'|cannot|dont|\b[apu]\.[ms]\b", re.IGNORECASE)


_TWELVE_NOON = re.compile(r"\b12\s*(?=noon|midday|midnight|midi|minuit)", re.IGNORECASE)


def _prepare(text: str) -> str:
    out = fold(text)
    if "12" in out:
        out = _TWELVE_NOON.sub("", out)  # "12 noon" is just "noon"
    # The contraction rules all need an apostrophe or "a.m." / "p.m." / "u.s.", except two spellings.
    if _NEEDS_CONTRACTIONS.search(out):
        for pattern, repl in _CONTRACTIONS:
            out = pattern.sub(repl, out)
    return normalize_numbers(out)


def _number_values(content: tuple[Token, ...]) -> tuple[NumberValue, ...]:
    values: list[NumberValue] = [
        (t.value, in_base_unit(t), unit_family(t.unit))
        for t in content
        if t.kind == "num" and t.value is not None
    ]
    # A year stated inside a date ("November 9, 1989") states the number 1989.
    for tok in content:
        if tok.kind == "date" and tok.dates and tok.dates[0][0] is not None:
            values.append((float(tok.dates[0][0]), None, None))
    return tuple(values)


@lru_cache(maxsize=65536)
def analyze_text(text: str) -> TextAnalysis:
    """Tokenise and annotate one text (memoised: ground truths and queries repeat).

    Args:
        text: Any text (answer, ground truth or query).

    Returns:
        The :class:`TextAnalysis`.
    """
    prepared = _prepare(text)
    raw_tokens = _merge_durations(_scan(prepared))
    explicit = _explicit_polarity(raw_tokens)
    tokens = _mark(raw_tokens, explicit is not None)
    content = tuple(t for t in tokens if t.kind != "sep" and not t.stop and not t.neg_cue)
    refusal_match = _REFUSAL_RE.search(prepared)
    refusal = refusal_match.group(0).strip() if refusal_match else None
    return TextAnalysis(
        text=text,
        tokens=tuple(tokens),
        content=content,
        polarity=explicit,
        refusal=refusal,
        stems=frozenset(t.key for t in content),
        all_word_keys=frozenset(t.key for t in tokens if t.kind in ("word", "code")),
        number_values=_number_values(content),
        date_values=tuple(d for t in content if t.kind == "date" for d in t.dates),
        time_keys=frozenset(t.key for t in content if t.kind == "time"),
    )

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
