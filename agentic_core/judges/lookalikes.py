"""Finding look-alikes of a token (the judge's data tag) in untrusted text, span by span.

A model reads ``</јudge_dаta_answer>`` (Cyrillic ``ј`` and ``а``), ``</ｊｕｄｇｅ_data>``,
``</j\u0301udge_data>`` or ``</jud<newline>ge_data>`` as the closing tag it resembles, so the
prompt's neutraliser must treat them like the exact tag. Matching therefore runs on a *folded*
view of the text, in which:

* each character is NFKC-normalised (full-width and mathematical letters become ASCII), lowered
  and stripped of accents;
* the common Cyrillic, Greek, Armenian, Lisu, Cherokee and small-capital look-alikes of Latin
  letters are mapped to the letter they imitate;
* combining marks, zero-width and other invisible characters are dropped;
* a space stays a space and every other whitespace character (line breaks, tabs, exotic spaces)
  becomes a line break.

Every folded character remembers the original character it came from, so a match is reported
as a span of the *original* text and only that span is ever replaced: the rest of the text
(genuine Cyrillic words included) is left exactly as it was.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

# Look-alikes of Latin letters (and of the tag punctuation "<" and "/") that NFKC keeps as they
# are. Keys in both cases where the capital imitates a Latin capital (Greek "Η" looks like "H",
# while its lower case "η" does not look like "h").
_CONFUSABLES: dict[str, str] = {
    # Cyrillic, with the Greek and Armenian letters of the same shapes
    **dict.fromkeys("аАɑ", "a"),
    **dict.fromkeys("ВвЬ", "b"),
    **dict.fromkeys("сСϲϹ", "c"),
    **dict.fromkeys("ԁԀ", "d"),
    **dict.fromkeys("еЕҽ℮", "e"),
    **dict.fromkeys("һҺНн", "h"),
    **dict.fromkeys("іІӏӀ", "i"),
    **dict.fromkeys("јЈ", "j"),
    **dict.fromkeys("кКĸ", "k"),
    **dict.fromkeys("мМ", "m"),
    **dict.fromkeys("оОօՕ", "o"),
    **dict.fromkeys("рРք", "p"),
    **dict.fromkeys("ԛԚզ", "q"),
    **dict.fromkeys("ѕЅՏ", "s"),
    **dict.fromkeys("тТ", "t"),
    **dict.fromkeys("уУүҮ", "y"),
    **dict.fromkeys("ѵѴ", "v"),
    **dict.fromkeys("ԝԜ", "w"),
    **dict.fromkeys("хХ", "x"),
    # Greek
    **dict.fromkeys("αΑ", "a"),
    "Β": "b",
    **dict.fromkeys("εΕϵ", "e"),
    "Η": "h",
    **dict.fromkeys("ιΙ", "i"),
    **dict.fromkeys("ϳͿ", "j"),
    **dict.fromkeys("κΚ", "k"),
    "Μ": "m",
    "Ν": "n",
    **dict.fromkeys("οΟ", "o"),
    **dict.fromkeys("ρΡ", "p"),
    **dict.fromkeys("τΤ", "t"),
    "υ": "u",
    "ν": "v",
    **dict.fromkeys("Υγ", "y"),
    "ω": "w",
    **dict.fromkeys("χΧ", "x"),
    "Ζ": "z",
    # Armenian
    **dict.fromkeys("սՍ", "u"),
    **dict.fromkeys("ցɡɢ", "g"),
    "ո": "n",
    "հ": "h",
    # Latin letters of other alphabets (IPA, small capitals)
    **dict.fromkeys("ıɩɪ", "i"),
    **dict.fromkeys("ȷᴊ", "j"),
    **dict.fromkeys("ʋᴜ", "u"),
    **dict.fromkeys("ɛᴇ", "e"),
    "ᴀ": "a",
    "ʙ": "b",
    "ᴄ": "c",
    "ᴅ": "d",
    "ʜ": "h",
    "ᴋ": "k",
    "ʟ": "l",
    "ᴍ": "m",
    "ɴ": "n",
    "ᴏ": "o",
    "ᴘ": "p",
    "ʀ": "r",
    "ꜱ": "s",
    "ᴛ": "t",
    "ᴠ": "v",
    "ᴡ": "w",
    "ʏ": "y",
    "ᴢ": "z",
    # Lisu capitals, drawn exactly like Latin capitals
    **dict(zip("ꓮꓐꓚꓓꓰꓝꓖꓧꓲꓙꓗꓡꓟꓠꓳꓑꓣꓢꓔꓴꓦꓪꓫꓬꓜ", "abcdefghijklmnoprstuvwxyz", strict=True)),
    # Cherokee capitals that copy Latin ones
    **dict(zip("ᎪᏴᏟᎠᎬᏀᎻᎫᏦᏞᎷᏢᏒᏚᎢᏙᏔᎽᏃ", "abcdeghjklmprstvwyz", strict=True)),
    # Tag punctuation
    **dict.fromkeys("‹〈〈ᐸ˂", "<"),
    **dict.fromkeys("∕⁄⧸", "/"),
}

# Rendered as nothing although Unicode files them as letters (Hangul fillers).
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Combining marks, format characters (zero-width space and joiners, soft hyphen, bidi controls,
# tag characters) and the non-whitespace control characters: none of them shows on screen.
_DROPPED_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc"})

# ASCII text (the usual case) folds without a per-character loop: lower case, and every
# whitespace character but the space becomes a line break. Non-whitespace control characters
# are the only ASCII characters that would be dropped, and they send the text down the slow path.
_ASCII_WHITESPACE = str.maketrans(dict.fromkeys("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f", "\n"))
_ASCII_DROPPED = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")


def _dropped(ch: str) -> bool:
    return ch in _INVISIBLE_LETTERS or unicodedata.category(ch) in _DROPPED_CATEGORIES


@lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """The folded form of one character: usually one ASCII-ish character, maybe none or several.

    Args:
        ch: One character of the original text.

    Returns:
        ``""`` for invisible characters and combining marks, ``" "`` for a space, ``"\\n"`` for
        any other whitespace, else the NFKC form, lowered, without accents, with look-alikes of
        Latin letters mapped to the letter.
    """
    if ch == " ":
        return " "
    if ch.isspace():
        return "\n"
    if _dropped(ch):
        return ""
    # The map first, on the original case (see _CONFUSABLES); then again after NFKC, lowering
    # and decomposition, which can reveal a look-alike ("Ӓ" -> "ӓ" -> "а" + diaeresis).
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", _CONFUSABLES.get(ch, ch)).lower())
    return "".join(_CONFUSABLES.get(part, part) for part in text if not _dropped(part))


def fold_with_positions(text: str) -> tuple[str, list[int] | None]:
    """The folded view of ``text`` and, for each folded character, its index in ``text``.

    Returns:
        ``(folded, positions)``; ``positions`` is ``None`` when folding kept every index (plain
        ASCII text), which spares a list as long as the text.
    """
    if text.isascii() and not _ASCII_DROPPED.search(text):
        return text.lower().translate(_ASCII_WHITESPACE), None
    parts: list[str] = []
    positions: list[int] = []
    for index, ch in enumerate(text):
        folded = ch.lower() if ch.isascii() and not ch.isspace() and ch.isprintable() else fold_char(ch)
        parts.append(folded)
        positions.extend([index] * len(folded))
    return "".join(parts), positions


def _token_pattern(token: str) -> re.Pattern[str]:
    """The pattern of ``token`` in the folded view, with an optional tag opening before it.

    Between the token's words (at each ``_``), any run of spaces, line breaks, underscores and
    dashes is accepted, as a model reads "judge data" and "judge-data" as "judge_data". Inside a
    word, line breaks (and exotic whitespace) are accepted everywhere, but spaces only right after
    a ``<`` or ``</``: there "< j u d g e" is a tag, elsewhere "judged at a" is plain English.
    """
    inside_word = r"(?(tag)\s*|\n*)"
    words = [inside_word.join(re.escape(ch) for ch in word.lower()) for word in token.split("_")]
    separator = r"[\s_\-\u2010-\u2015\u2212]*"
    return re.compile(r"(?P<tag><[\s/\\]*)?(?P<token>" + separator.join(words) + ")")


class LookAlikeMatcher:
    """Finds a token and its look-alikes in text; answers in spans of the original text.

    The method names mirror :class:`re.Pattern` so the matcher can stand in for one.

    Args:
        token: The token to find (ASCII letters and ``_``), such as ``"judge_data"``.
    """

    def __init__(self, token: str) -> None:
        self.token = token
        self.pattern = _token_pattern(token)

    def __repr__(self) -> str:
        return f"LookAlikeMatcher({self.token!r})"

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """``(start, end)`` in ``text`` of every look-alike of the token, left to right."""
        folded, positions = fold_with_positions(text)
        for match in self.pattern.finditer(folded):
            start, end = match.span("token")
            if positions is None:
                yield start, end
            else:
                # From the first folded character's source to just past the last one's, so the
                # invisible characters and marks slipped in between are covered too.
                yield positions[start], positions[end - 1] + 1

    def search(self, text: str) -> tuple[int, int] | None:
        """The span of the first look-alike in ``text``, or ``None``."""
        return next(self.spans(text), None)

    def findall(self, text: str) -> list[str]:
        """The original text of every look-alike in ``text``."""
        return [text[start:end] for start, end in self.spans(text)]

    def sub(self, replacement: str, text: str) -> str:
        """``text`` with each look-alike replaced by ``replacement``; nothing else changes."""
        pieces: list[str] = []
        last = 0
        for start, end in self.spans(text):
            pieces += [text[last:start], replacement]
            last = end
        if not pieces:
            return text
        pieces.append(text[last:])
        return "".join(pieces)
