"""Answer shape: how an answer commits to its claim, read from its wording alone.

Token overlap asks *whether* the ground truth's facts are in the answer; this module asks whether the
answer *stands by* them. Three shapes defeat overlap (a wrong answer that contains every right word):

* **self-correction**: ``It's 12. Wait, no, 15.`` - the right value is there, then replaced;
* **retraction**: ``Refund issued. Correction: no refund was issued.`` - the claim is withdrawn;
* **hedge**: ``Maybe 3, 4 or 5.`` - the right value is one of several candidates.

:func:`find_correction` splits an answer at its last correction marker (``wait, no``, ``correction:``,
``scratch that``, ``I mean`` ...): what follows is the answer's final claim, and the gates in
:mod:`agentic_core.judges.offline.findings.claim_gates` judge it against the ground truth. :func:`alternative_groups`
finds candidate values joined by "or" and :func:`hedge_cue` the words that mark a guess.

Pure functions of the text; the marker list is English (the devset's corrections are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agentic_core.judges.offline.findings.text_analysis import NAME_PARTICLES, SENTENCE_END, TextAnalysis
from agentic_core.judges.offline.findings.text_fold import fold
from agentic_core.judges.offline.findings.tokens import Token

__all__ = [
    "HEDGE_WORDS",
    "Correction",
    "alternative_groups",
    "find_correction",
    "hedge_cue",
]

# --------------------------------------------------------------------------------------------------
# Corrections and retractions
# --------------------------------------------------------------------------------------------------

_WITHDRAW = (
    r"scratch\s+that|strike\s+that|i\s+take\s+(?:that|it)\s+back"
    r"|(?:i\s+(?:need|have|want)\s+to\s+|let\s+me\s+)?retract\s+(?:that|this|my\s+\w+)"
    r"|(?:please\s+)?(?:disregard|ignore)\s+(?:that|this|the\s+above|what\s+i\s+said"
    r"|my\s+(?:previous|last|earlier)\s+(?:answer|message|reply|statement))"
    r"|that(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+right|a\s+mistake)|i\s+was\s+wrong"
)
"""Markers that withdraw the earlier claim outright, whatever follows."""

_NO = r"no\b(?=\s*[,.!-]|$)"
"""A "no" between pauses: in "Actually, no refund was issued" the "no" belongs to the claim."""

_REPLACE = (
    rf"(?:(?:actually|sorry|oops)[,.!]?\s+)?(?:wait|hold\s+on|hang\s+on)(?:[,.!]?\s*{_NO}|(?=\s*[,.!-]))"
    rf"|(?:actually|sorry|oops)[,.!]?\s*{_NO}|no,?\s+wait\b|actually(?=\s*,)"
    r"|correction\b|to\s+correct\s+myself|(?:let\s+me|i\s+(?:need|have|want)\s+to)\s+correct\s+(?:that|this|myself)"
    r"|make\s+that|i\s+mean(?:t)?\b|or\s+rather|on\s+second\s+thought"
    r"|(?:sorry,?\s+)?(?:i\s+(?:misread|misspoke|misremembered|stand\s+corrected)|my\s+(?:mistake|bad|error))"
    r"|(?:update|edit)\s*:"
)
"""Markers that put a new claim in place of the earlier one."""

# A marker counts only where a clause starts (after . ! ? ; , : a dash or a bracket; the text is folded,
# so long dashes are " - "), possibly after an interjection: "a 10-minute wait" and "what I mean is"
# are not corrections.
_MARKER_RE = re.compile(
    rf"(?<=[.!?;,:(-])\s*"
    rf"(?:(?:oh|ah|hmm+|um+|uh+|er+|well)[,.!]?\s+)?"
    rf"(?P<marker>(?P<withdraw>{_WITHDRAW})|(?P<replace>{_REPLACE}))"
    rf"(?=[\s,.!:;-]|$)",
    re.IGNORECASE,
)
_CHEAP_TRIGGER = re.compile(
    r"wait|hold on|hang on|correct|scratch|strike|take (?:that|it) back|retract|disregard|ignore"
    r"|make that|mean|rather|second thought|mis(?:read|spoke|remembered)|mistake|my bad|my error"
    r"|wrong|stand corrected|update|edit|actually|sorry|oops",
    re.IGNORECASE,
)
"""Words without which no marker can match: a quick test that spares most answers the full pattern."""


@dataclass(frozen=True)
class Correction:
    """An answer split at its last correction marker.

    Attributes:
        marker: The marker as written (``"Wait, no"``, ``"Correction"``).
        before: The text before the marker (the claim being corrected).
        after: The text after it (the answer's final claim); may be empty.
        withdraws: The marker withdraws the earlier claim outright (``scratch that``).
    """

    marker: str
    before: str
    after: str
    withdraws: bool


@lru_cache(maxsize=16384)
def find_correction(text: str) -> Correction | None:
    """Split an answer at its last correction marker (memoised: reruns judge the same answers again).

    Args:
        text: The answer.

    Returns:
        The :class:`Correction`, or ``None`` when the answer has no marker after some content (an
        answer that opens with "Actually, ..." corrects nothing).
    """
    folded = fold(text)
    if not _CHEAP_TRIGGER.search(folded):
        return None
    last: re.Match[str] | None = None
    for match in _MARKER_RE.finditer(folded):
        if any(ch.isalnum() for ch in folded[: match.start()]):
            last = match
    if last is None:
        return None
    return Correction(
        marker=last.group("marker").strip(" ,.!:;-"),
        before=folded[: last.start()].strip(),
        after=folded[last.end() :].lstrip(" ,.!:;-").strip(),
        withdraws=last.group("withdraw") is not None,
    )


# --------------------------------------------------------------------------------------------------
# Hedges
# --------------------------------------------------------------------------------------------------

HEDGE_WORDS: frozenset[str] = frozenset(
    """
    maybe perhaps possibly probably likely either could might may guess think believe unsure
    suppose presumably quiza peut-etre vielleicht
    """.split()  # noqa: SIM905 - a word block reads better than a long list literal
)
"""Words that may mark a guess (raw lower-case forms); :func:`hedge_cue` says when they do."""

_FIRST_PERSON = frozenset({"think", "believe", "guess", "suppose"})
"""Hedges only after "I" ("I think it's 4"; "many people think" reports others)."""
_MODAL = frozenset({"could", "might", "may"})
"""Hedges only before "be" ("it could be 4"; "the server could not locate" is no guess)."""
_OR_WORDS = frozenset({"or", "o", "ou", "oder"})
_LINK_WORDS = _OR_WORDS | {"either", "maybe", "perhaps", "possibly", "probably"}


def hedge_cue(text: TextAnalysis) -> str | None:
    """The first word of ``text`` that marks a guess (``maybe``, ``I think``, ``could be``), or ``None``.

    "I think" and "I believe" hedge, "many people think" does not; "could be" and "might be" hedge,
    "could not locate" does not. "Either" counts (it offers alternatives). Approximations ("about
    100 °C") round rather than guess, and are not cues.
    """
    tokens = text.tokens
    for i, tok in enumerate(tokens):
        lower = tok.raw.lower()
        if tok.kind != "word" or lower not in HEDGE_WORDS:
            continue
        before = tokens[i - 1].raw.lower() if i > 0 else ""
        after = tokens[i + 1].raw.lower() if i + 1 < len(tokens) else ""
        if lower in _FIRST_PERSON and before != "i":
            continue
        if lower in _MODAL and after != "be":
            continue  # also keeps out the month "May"
        return lower
    return None


def _is_item_token(tok: Token) -> bool:
    if tok.kind in ("num", "date", "time", "code"):
        return True
    # A capitalised hedge word opens a sentence ("Maybe 3, 4 or 5"); it is not a candidate.
    lower = tok.raw.lower()
    return (
        tok.kind == "word"
        and tok.capitalised
        and not tok.stop
        and not tok.neg_cue
        and lower not in HEDGE_WORDS
        and lower not in _LINK_WORDS
    )


def alternative_groups(text: TextAnalysis) -> list[list[list[Token]]]:
    """Candidate values joined by "or": ``Maybe 3, 4 or 5`` -> ``[[[3], [4], [5]]]``.

    An item is a run of facts (numbers, dates, times, codes) and capitalised words (``Terminal 2``,
    ``Priya Shah``). Items form a group when only commas and "or" / "either" / "maybe" sit between them,
    with at least one "or" (``3, 4 and 5`` is a list, not a guess). Items in a negation's scope are
    rejected candidates (``not 3 or 5``) and left out.

    Args:
        text: The analysed answer.

    Returns:
        Every group of at least two items, each item a list of tokens, in order.
    """
    if _OR_WORDS.isdisjoint(text.all_word_keys):
        return []  # no "or", no group (the common case, checked cheaply)
    groups: list[list[list[Token]]] = []
    items: list[list[Token]] = []
    current: list[Token] = []
    saw_or = False
    pending_link = True  # whether only linking tokens sit between the last item and here

    def close_group() -> None:
        nonlocal items, saw_or
        kept = [it for it in items if not any(t.negated for t in it)]
        if saw_or and len(kept) >= 2:
            groups.append(kept)
        items, saw_or = [], False

    for tok in text.tokens:
        if _is_item_token(tok) or (
            current and tok.kind == "word" and not tok.capitalised and tok.raw.lower() in NAME_PARTICLES
        ):
            if not current and not pending_link:
                close_group()
            current.append(tok)
            continue
        if current:
            items.append(current)
            current = []
            pending_link = True
        lower = tok.raw.lower()
        if tok.kind == "sep" and tok.key == ",":
            continue
        if tok.kind == "word" and lower in _LINK_WORDS:
            saw_or = saw_or or (lower in _OR_WORDS and bool(items))
            continue
        if tok.kind == "word" and tok.stop and lower in {"the", "a", "an", "at", "on", "in", "by"}:
            continue  # "either at 3 or at 4", "on Tuesday or on Wednesday"
        pending_link = False
        if tok.kind == "sep" and tok.key in SENTENCE_END:
            close_group()
    if current:
        items.append(current)
    close_group()
    return groups
