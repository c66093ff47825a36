"""Text folding before tokenisation: one spelling for accents, contractions and numbers, and stems.

The lexical judge compares *facts*, so surface variants of the same fact must become the same text
before the tokenizer (:mod:`agentic_core.judges.offline.findings.tokens`) cuts it up:

* unicode NFKC, accents folded (``Berlín`` == ``Berlin``), typographic quotes/dashes unified;
* contractions expanded (``doesn't`` -> ``does not``) so negation is always a separate word;
* thousands separators (``1,200``) and decimal commas (``3,14``) here; number words (``forty-two``), scale words
  (``2.3 billion``) and scale letters after a currency symbol (``$1.2M``) -> digits by the fact parser's reader
  (``text2num``, :func:`agentic_core.judges.offline.facts.spelled_numbers`), so both read numbers alike;
* title abbreviations lose their full stop (``Dr. Ortiz`` -> ``Dr Ortiz``) so it does not end a sentence;
* the prefix ``non-`` becomes the negation it is (``non-refundable`` -> ``not refundable``);
* stemming of words (``bookings`` -> ``book``, Snowball's English stemmer).

These are pure string-to-string rewrites that need no token; :func:`prepare_text` chains them in the
order the tokenizer expects.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

from agentic_core.judges.offline.facts import spelled_numbers

__all__ = [
    "fold",
    "normalize_numbers",
    "prepare_text",
    "stem",
]

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


_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DECIMAL_COMMA_RE = re.compile(r"(?<=\d),(?=\d{1,2}(?![\d,]))")


def normalize_numbers(text: str) -> str:
    """Rewrite number spellings into plain digits.

    Args:
        text: Folded text.

    Returns:
        The text with ``1,200`` -> ``1200`` and ``3,14`` -> ``3.14``, then number words, scale words and spelled
        fractions read by the fact parser's reader, :func:`agentic_core.judges.offline.facts.spelled_numbers`, so
        both read alike (``forty-two`` -> ``42``, ``2.3 billion`` -> ``2300000000``, ``$1.2M`` -> ``$1200000``,
        ``three quarters`` -> ``3/4``, ``two and a half hours`` -> ``2.5 hours``). Other text is unchanged.
    """
    if "," in text:
        text = _THOUSANDS_RE.sub("", text)
        # A thousands separator repeats ("1,200,000"): run again so every group goes.
        text = _THOUSANDS_RE.sub("", text)
        text = _DECIMAL_COMMA_RE.sub(".", text)
    return spelled_numbers(text)


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

_STEMMER = snowballstemmer.stemmer("english")
"""The Snowball (Porter2) English stemmer, from the ``snowballstemmer`` package: it replaced a hand-written suffix
stripper and its table of irregular forms, which measured no better (benchmarks/RESULTS.md, issue 38)."""
_STEMMER_LOCK = threading.Lock()
"""A Snowball stemmer keeps the word it works on in its own fields: one thread at a time."""


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-case word (``bookings`` -> ``book``, ``included`` -> ``includ``).

    Args:
        word: A lower-case word.

    Returns:
        The stem.
    """
    with _STEMMER_LOCK:
        return str(_STEMMER.stemWord(word))
