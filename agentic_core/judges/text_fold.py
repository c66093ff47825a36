"""Text folding before tokenisation: one spelling for accents, contractions and numbers, and stems.

The lexical judge compares *facts*, so surface variants of the same fact must become the same text
before the tokenizer (:mod:`agentic_core.judges.tokens`) cuts it up:

* unicode NFKC, accents folded (``Berlín`` == ``Berlin``), typographic quotes/dashes unified;
* contractions expanded (``doesn't`` -> ``does not``) so negation is always a separate word;
* number words (``forty-two``, ``twenty five``, ``three hundred sixty-six``, a few Spanish / French /
  German ones) -> digits; thousands separators (``1,200``), decimal commas (``3,14``); scale words
  (``2.3 billion``) and scale letters after a currency symbol (``$1.2M``, ``$85k``);
* spelled fractions (``three quarters`` -> ``3/4``, ``two and a half`` -> ``2.5``), which the tokenizer
  reads as numbers;
* title abbreviations lose their full stop (``Dr. Ortiz`` -> ``Dr Ortiz``) so it does not end a sentence;
* the prefix ``non-`` becomes the negation it is (``non-refundable`` -> ``not refundable``);
* light stemming of words (``bookings`` -> ``book``).

These are pure string-to-string rewrites that need no token; :func:`prepare_text` chains them in the
order the tokenizer expects.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from functools import lru_cache

from agentic_core.judges.values import format_number

__all__ = [
    "fold",
    "normalize_numbers",
    "prepare_text",
    "stem",
]

# --------------------------------------------------------------------------------------------------
# Character-level folding and number rewriting
# --------------------------------------------------------------------------------------------------

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


# "$1.2M", "€85k", "$3bn": a scale letter is only read after a currency symbol ("5k" alone may be a
# race, "12m" metres).
_CURRENCY_SCALE_RE = re.compile(r"([$€£¥])\s?(\d+(?:\.\d+)?)\s?(k|m|mm|mn|bn|b)\b", re.IGNORECASE)
_LETTER_SCALE = {"k": 1000, "m": 10**6, "mm": 10**6, "mn": 10**6, "b": 10**9, "bn": 10**9}

# Spelled fractions. Clock phrases ("a quarter past 3", "half an hour") are left alone: they are times
# and durations, not shares.
_FRACTION_WORDS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
                   "fifth": 5, "fifths": 5, "tenth": 10, "tenths": 10}
_HAS_FRACTION_WORD = re.compile(r"half|halves|third|quarter|fifth|tenth", re.IGNORECASE)
_AND_A_HALF_RE = re.compile(r"(?<![\d.])(\d+) and a half\b", re.IGNORECASE)
_HOUR_AND_A_HALF_RE = re.compile(r"\ban hour and a half\b", re.IGNORECASE)
_FRACTION_RE = re.compile(
    r"(?<![\w.])(?:(a|1)\s+(half|third|quarter|fifth|tenth)|(\d+)\s+(halves|thirds|quarters|fifths|tenths))\b"
    r"(?!\s+(?:past|to|after|before|hour|an?\s+hour|of\s+an\s+hour))",
    re.IGNORECASE,
)


def _fraction(match: re.Match[str]) -> str:
    numerator = "1" if match.group(1) else match.group(3)
    word = (match.group(2) or match.group(4)).lower()
    return f"{numerator}/{_FRACTION_WORDS[word]}"


def _rewrite_fractions(text: str) -> str:
    text = _HOUR_AND_A_HALF_RE.sub("1.5 hours", text)
    text = _AND_A_HALF_RE.sub(lambda m: format_number(Decimal(m.group(1)) + Decimal("0.5")), text)
    return _FRACTION_RE.sub(_fraction, text)


def normalize_numbers(text: str) -> str:
    """Rewrite number spellings into plain digits.

    Args:
        text: Folded text.

    Returns:
        The text with ``1,200`` -> ``1200``, ``3,14`` -> ``3.14``, ``forty-two`` -> ``42``,
        ``2.3 billion`` -> ``2300000000``, ``$1.2M`` -> ``$1200000``, ``three quarters`` -> ``3/4``,
        ``two and a half`` -> ``2.5``. Other text is unchanged.
    """
    if "," in text:
        text = _THOUSANDS_RE.sub("", text)
        # A thousands separator repeats ("1,200,000"): run again so every group goes.
        text = _THOUSANDS_RE.sub("", text)
        text = _DECIMAL_COMMA_RE.sub(".", text)
    text = _replace_number_words(text)
    if _HAS_FRACTION_WORD.search(text):
        text = _rewrite_fractions(text)
    if not _HAS_DIGIT.search(text):
        return text

    def scale(match: re.Match[str]) -> str:
        value = Decimal(match.group(1)) * _SCALE_SUFFIX[match.group(2).lower()]
        return format_number(value)

    def letter_scale(match: re.Match[str]) -> str:
        value = Decimal(match.group(2)) * _LETTER_SCALE[match.group(3).lower()]
        return match.group(1) + format_number(value)

    if any(sym in text for sym in "$€£¥"):
        text = _CURRENCY_SCALE_RE.sub(letter_scale, text)
    return _SCALE_AFTER_DIGITS_RE.sub(scale, text)


_NEEDS_CONTRACTIONS = re.compile(r"'|cannot|dont|\b[apu]\.[ms]\b", re.IGNORECASE)


_TITLE_DOT = re.compile(r"\b(Dr|Mr|Mrs|Ms|Prof|Mt|Jr|Sr|St)\.(?=\s+[A-Z])")

_TWELVE_NOON = re.compile(r"\b12\s*(?=noon|midday|midnight|midi|minuit)", re.IGNORECASE)

_NON_PREFIX = re.compile(r"\bnon-(?=[^\W\d_])", re.IGNORECASE)


def prepare_text(text: str) -> str:
    """Fold a text and rewrite its contractions and numbers, ready for the tokenizer.

    Args:
        text: Any text.

    Returns:
        The folded text with ``12 noon`` -> ``noon``, ``non-`` -> ``not``, contractions expanded and
        numbers in digits.
    """
    out = fold(text)
    if "r." in out or "s." in out or "t." in out or "f." in out:  # cheap guard for the titles below
        out = _TITLE_DOT.sub(r"\1", out)  # "Dr. Lena Ortiz": the name must not start a new sentence
    if "12" in out:
        out = _TWELVE_NOON.sub("", out)  # "12 noon" is just "noon"
    if "on-" in out:
        out = _NON_PREFIX.sub("not ", out)  # "non-refundable" states a negation: "not refundable"
    # The contraction rules all need an apostrophe or "a.m." / "p.m." / "u.s.", except two spellings.
    if _NEEDS_CONTRACTIONS.search(out):
        for pattern, repl in _CONTRACTIONS:
            out = pattern.sub(repl, out)
    return normalize_numbers(out)


# --------------------------------------------------------------------------------------------------
# Stemming
# --------------------------------------------------------------------------------------------------

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
