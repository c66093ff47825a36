"""Text normalisation shared by the layers: squeezing whitespace, folding case, and the ``text`` rule's form.

Each function here was written out in more than one module (tool scoring, the agentic metrics'
evidence check, the judges' error messages and unit names); they are the same operations, so they
live once, in a leaf every layer may import (the standard library only).

Normalisers that look similar but must stay apart (so a judge never changes its verdicts):

* :func:`agentic_core.judges.offline.findings.text_fold.fold` keeps case (a capital marks a named entity for the
  lexical judge) and folds accents and typographic marks for its tokenizer.
* The learned judge's fuzzy-match feature lower-cases (``str.lower``) exactly as when its weights
  were fitted (:mod:`agentic_core.judges.offline.features`).
* Tool evidence (:mod:`agentic_core.tools.evidence`) case-folds the answer without squeezing its
  spaces: the positions it finds are word edges in that same string.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["fold_case", "normalise_text", "squeeze"]

_PUNCT_CATEGORIES = frozenset({"Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"})
_WHITESPACE = re.compile(r"\s+")
# Full stop, apostrophes and hyphens (not dashes) join the letters around them.
_WORD_JOINERS = frozenset(".'\u2019-\u2010\u2011")


def squeeze(text: str) -> str:
    """``text`` on one line: every run of whitespace (newlines too) one space, none at either end.

    Args:
        text: Any string.

    Returns:
        The squeezed string (``"  a \\n\\t b "`` -> ``"a b"``).
    """
    return " ".join(text.split())


def fold_case(text: str) -> str:
    """``text`` squeezed (:func:`squeeze`) and case-folded: the form in which a quote is looked for in a text.

    Args:
        text: Any string.

    Returns:
        The folded string (``"The  Order\\nShipped"`` -> ``"the order shipped"``; ``"Straße"`` -> ``"strasse"``).
    """
    return squeeze(text).casefold()


@lru_cache(maxsize=65536)
def normalise_text(text: str) -> str:
    """Normalise text for the ``text`` rule: NFKC, case-fold, punctuation to spaces, squeeze spaces.

    Punctuation and runs of whitespace become one space (docs/statistics.md), so ``"New York, NY"``
    equals ``"new york,ny"``. A hyphen, apostrophe or full stop *inside* a word, between two letters
    (``e-mail``, ``U.S.A``, ``don't``), joins rather than separates: it is dropped, so ``"e-mail"``
    equals ``"email"`` and ``"U.S.A."`` equals ``"usa"``. Between digits it separates, so ``"3.14"``
    never equals ``"314"``.

    Args:
        text: Any string.

    Returns:
        The normalised string.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    out = []
    last = len(folded) - 1
    for i, ch in enumerate(folded):
        category = unicodedata.category(ch)
        if category in _PUNCT_CATEGORIES:
            joins = ch in _WORD_JOINERS and 0 < i < last and folded[i - 1].isalpha() and folded[i + 1].isalpha()
            out.append("" if joins else " ")
        else:
            out.append(ch)
    return _WHITESPACE.sub(" ", "".join(out)).strip()
