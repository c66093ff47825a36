"""Text analysis for the lexical judge: canonical, typed tokens from free text, with their context.

:func:`analyze_text` is the entry point. It folds the text (:mod:`agentic_core.judges.offline.findings.text_fold`),
scans it into typed tokens (:mod:`agentic_core.judges.offline.findings.tokens`), merges ``2 hours 30 minutes`` into
one duration, then marks what the judge needs to read a sentence:

* stop words (English, Spanish, French, German) marked, negation cues and their scopes marked; a
  word that means "not X" (:mod:`agentic_core.judges.offline.findings.lexicon`) is read as negated unless a cue governs
  it ("not closed" is "open"), and "out of" / "failed to" are cues;
* a leading yes/no word (``Yes``, ``Nope``, ``Sí``, ``Nein``) becomes an explicit polarity, and so
  does one between pauses opening a later clause of the first sentence (``I checked, and yes, ...``);
* a refusal (``I'm sorry, I can't help with that``) is found.

Everything here is pure and deterministic; :func:`analyze_text` is memoised because ground truths and
queries repeat across attempts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import takewhile
from typing import Literal

from agentic_core.judges.offline.findings.text_fold import prepare_text
from agentic_core.judges.offline.findings.tokens import Token, in_base_unit, scan, unit_family
from agentic_core.judges.offline.findings.values import FRACTION_FAMILY, DateValue, NumberValue, format_number

__all__ = [
    "NAME_PARTICLES",
    "SENTENCE_END",
    "TextAnalysis",
    "analyze_text",
    "find_refusal",
]

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
DETERMINER_NEGATION: frozenset[str] = _wordset(
    "no kein keine keinen keiner keinem ningun ninguna ninguno aucun aucune"
)
"""Cues that negate a noun phrase. Before a compound they negate its head, the last word, not its
modifiers: "no cancellation fee" says there is no fee, not that there is no cancellation."""
_PHRASE_CUES: dict[str, frozenset[str]] = {
    "out": frozenset({"of"}),  # "out of stock", "out of service"
    "failed": frozenset({"to"}),  # "failed to process": the verb after it did not happen
    "fail": frozenset({"to"}),
    "fails": frozenset({"to"}),
}
"""Words that are negation cues when the given word follows them."""
_CUE_TAILS: dict[str, frozenset[str]] = {"no": frozenset({"longer"})}
"""Words that are part of the cue before them ("no longer valid"), so carry no fact."""
_COPULAS: frozenset[str] = _wordset(
    "is are was were be been being am remain remains remained stay stays stayed seem seems look looks "
    "become becomes became get gets got es esta estan son est sont ist sind war"
)
"""Verbs after which an inverse word is the predicate ("is closed on Sundays")."""

SENTENCE_END: frozenset[str] = frozenset({".", "!", "?", ";"})
"""Separators that end a sentence."""
NAME_PARTICLES: frozenset[str] = _wordset("da de van von di del la le du der bin al")
"""Lower-case words that may sit inside a name ("Leonardo da Vinci")."""

YES_WORDS: frozenset[str] = _wordset(
    "yes yeah yep yup yea correct indeed absolutely affirmative certainly si oui ja jawohl claro"
)
NO_WORDS: frozenset[str] = _wordset("no nope nah non nein negative")
# These words are only a yes/no answer when followed by a pause ("No, ..." but not "No visa ...";
# "Si, ..." but not the Spanish/French "si" = "if").
_PAUSE_REQUIRED: frozenset[str] = frozenset({"no", "si", "non", "correct", "certainly", "claro"})

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


@dataclass(frozen=True)
class TextAnalysis:
    """Everything the judge needs to know about one text.

    Attributes:
        text: The original text.
        tokens: All tokens, separators included.
        content: Fact-bearing tokens (no separators, stop words or negation cues).
        polarity: ``"yes"`` / ``"no"`` when the text opens with a yes/no word, else ``None``.
        refusal: The refusal phrase found, or ``None``.
        stems: Keys of the content tokens (every key of an inverse word).
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
    inverse_keys: frozenset[str] = field(default_factory=frozenset)
    """Keys negated by an inverse word ("Is the road closed?" -> ``{"open"}``)."""
    number_values: tuple[NumberValue, ...] = ()
    """(value, value in base unit or None, unit family) of every number, plus the year of every date."""
    date_values: tuple[DateValue, ...] = ()
    time_keys: frozenset[str] = field(default_factory=frozenset)

    def first_sentence(self) -> list[Token]:
        """The tokens before the first sentence end."""
        return list(takewhile(lambda t: not (t.kind == "sep" and t.key in SENTENCE_END), self.tokens))

    def first_sentence_negation(self) -> tuple[bool, frozenset[str]]:
        """Negation in the first sentence: whether a verbal cue (``not``, ``never``) is there, and the
        keys of the words in the scope of any cue (``No visa is required`` -> ``{"visa", ...}``).

        The sentence, not the clause: in "I'm sorry, but I can't share passwords" the claim is in the
        second clause."""
        first = self.first_sentence()
        verbal = any(t.neg_cue and t.raw.lower() in VERBAL_NEGATION for t in first)
        scoped = frozenset(k for t in first if t.negated for k in t.keys)
        return verbal, scoped

    def first_sentence_affirmed(self) -> frozenset[str]:
        """Keys of the words the first sentence affirms: not negated, with no negation cue before
        them in the sentence ("The road is open" -> ``{"road", "open"}``)."""
        keys: set[str] = set()
        for tok in self.first_sentence():
            if tok.neg_cue:
                break
            if tok.kind == "word" and not tok.stop and not tok.negated:
                keys.update(tok.keys)
        return frozenset(keys)


# --------------------------------------------------------------------------------------------------
# Context marking
# --------------------------------------------------------------------------------------------------


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


_CLAUSE_YES_NO: frozenset[str] = _wordset("yes yeah yep no nope si oui non ja nein")
"""Yes/no words that also answer when they open a later clause of the first sentence ("I checked,
and yes, it includes roaming"); the looser ones ("correct", "indeed") only count first."""
_CLAUSE_OPENERS = frozenset({"and", "so", "y", "et", "und"})


def _explicit_polarity(tokens: list[Token]) -> tuple[Literal["yes", "no"] | None, int]:
    """The yes/no a text opens with, and the index of the word that gives it (-1: none)."""
    if not tokens or tokens[0].kind != "word":
        return _clause_polarity(tokens)
    first = tokens[0].raw.lower()
    nxt = tokens[1] if len(tokens) > 1 else None
    paused = nxt is None or nxt.kind == "sep"
    if first in _PAUSE_REQUIRED and not paused:
        return _clause_polarity(tokens)
    if first in YES_WORDS:
        return "yes", 0
    if first in NO_WORDS:
        return "no", 0
    # "Of course", "Not at all": two-word answers.
    if first == "of" and nxt is not None and nxt.raw.lower() == "course":
        return "yes", 0
    return _clause_polarity(tokens)


def _clause_polarity(tokens: list[Token]) -> tuple[Literal["yes", "no"] | None, int]:
    """A yes/no word between pauses that opens a clause of the first sentence (", and yes, ...")."""
    for i in range(1, len(tokens) - 1):
        tok = tokens[i]
        if tok.kind == "sep" and tok.key in SENTENCE_END:
            break
        if tok.kind != "word" or tok.raw.lower() not in _CLAUSE_YES_NO or tokens[i + 1].kind != "sep":
            continue
        before = tokens[i - 1]
        opener = before.kind == "word" and before.raw.lower() in _CLAUSE_OPENERS and i >= 2
        if (before.kind == "sep" and before.key == ",") or (opener and tokens[i - 2].kind == "sep"):
            return ("yes" if tok.raw.lower() in YES_WORDS else "no"), i
    return None, -1


_NEG_SCOPE = 3
"""How many content tokens after a negation cue it negates (``not permitted in hand luggage``)."""


def _plain_word(tok: Token) -> bool:
    """A content word that is neither a stop word nor a negation cue (looking ahead of the marking)."""
    lower = tok.raw.lower()
    return tok.kind == "word" and len(lower) > 1 and lower not in STOPWORDS and lower not in NEGATION_WORDS


def _is_cue(tokens: list[Token], i: int, lower: str) -> bool:
    if lower in NEGATION_WORDS:
        return True
    follow = _PHRASE_CUES.get(lower)
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    return follow is not None and nxt is not None and nxt.kind == "word" and nxt.raw.lower() in follow


def _predicative(tokens: list[Token], i: int) -> bool:
    """Whether the inverse word at ``i`` is a predicate, whose negation reaches the words after it as
    a cue's does ("is closed on Sundays" = "is not open on Sundays"), rather than an attribute of the
    next word ("free parking" is parking)."""
    prev = tokens[i - 1] if i > 0 else None
    if prev is None or prev.kind == "sep":
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        return nxt is None or not _plain_word(nxt)  # "Closed on Sundays." but not "Free parking."
    if prev.kind != "word":
        return False  # "3 failed attempts"
    lower = prev.raw.lower()
    return lower in _COPULAS or (lower not in STOPWORDS and lower not in NEGATION_WORDS)


def _compound_modifiers(tokens: list[Token], i: int) -> range:
    """Indices of the modifiers of the compound after a determiner cue at ``i`` (all its words but the
    last, the head): ``no cancellation fee`` -> the index of ``cancellation``."""
    j = i + 1
    while j < len(tokens) and _plain_word(tokens[j]):
        j += 1
    return range(i + 1, j - 1) if j - i > 2 else range(0)


def _mark(tokens: list[Token], polarity_at: int) -> list[Token]:
    """Fill in sentence starts, clauses, stop words, negation cues and negation scopes.

    A token is negated when it sits in a cue's scope, or is an inverse word ("closed") outside one. An
    inverse word in a scope is affirmed and turns the rest of the scope back ("not closed on Sundays"
    is "open on Sundays"); a predicative one opens a scope of its own ("closed on Sundays").
    """
    out: list[Token] = []
    clause = 0
    sentence_start = True
    scope_left = 0
    scope_negates = True
    modifiers = range(0)
    prev_lower = ""
    for i, tok in enumerate(tokens):
        if tok.kind == "sep":
            clause += 1
            scope_left = 0
            prev_lower = ""
            if tok.key in SENTENCE_END or tok.key == ":":
                sentence_start = True
            tok.clause = clause
            out.append(tok)
            continue
        lower = tok.raw.lower()
        is_pol = i == polarity_at
        neg_cue = tok.kind == "word" and not is_pol and _is_cue(tokens, i, lower)
        # Single letters ("x" in "3 x 7", "s" left by a stray apostrophe) carry no fact.
        stop = tok.kind == "word" and (
            lower in STOPWORDS or is_pol or len(lower) == 1 or lower in _CUE_TAILS.get(prev_lower, ())
        )
        in_scope = scope_left > 0 and not neg_cue and not stop
        inverse = tok.inverse and not neg_cue and not stop
        negated = (in_scope and scope_negates and i not in modifiers) != inverse
        # The token was built by scan moments ago and is not shared yet: fill in the context fields
        # in place rather than building every token twice (this is the judge's hot loop).
        tok.sentence_start = sentence_start
        tok.clause = clause
        tok.negated = negated
        tok.stop = stop
        tok.neg_cue = neg_cue
        if tok.inverse and not inverse:
            tok.inverse = False  # "failed to": a cue here, not an inverse word
        out.append(tok)
        if neg_cue:
            scope_left, scope_negates = _NEG_SCOPE, True
            modifiers = _compound_modifiers(tokens, i) if lower in DETERMINER_NEGATION else range(0)
        elif in_scope:
            scope_left -= 1
            scope_negates = scope_negates != inverse
        elif inverse and _predicative(tokens, i):
            scope_left, scope_negates, modifiers = _NEG_SCOPE, True, range(0)
        prev_lower = lower
        sentence_start = False
    return out


def _number_values(content: tuple[Token, ...]) -> tuple[NumberValue, ...]:
    values: list[NumberValue] = []
    for t in content:
        if t.kind != "num" or t.value is None:
            continue
        if t.parts is None:
            values.append((t.value, in_base_unit(t), unit_family(t.unit)))
            continue
        # A fraction states its value (compared with rounding, see values.same_share) and, as plain
        # numbers, both its parts: "3 out of 4" does say 3 and 4.
        values.append((t.value, None, FRACTION_FAMILY))
        values.extend((part, None, None) for part in t.parts)
    # A year stated inside a date ("November 9, 1989") states the number 1989.
    for tok in content:
        if tok.kind == "date" and tok.dates and tok.dates[0][0] is not None:
            values.append((float(tok.dates[0][0]), None, None))
    return tuple(values)


def find_refusal(text: str) -> str | None:
    """The refusal phrase in ``text``, exactly as :func:`analyze_text` reports it, without the full analysis.

    About six times faster than ``analyze_text(text).refusal`` (no tokens): for callers that only ask
    whether a reply refuses (topic adherence's offline classification).
    """
    match = _REFUSAL_RE.search(prepare_text(text))
    return match.group(0).strip() if match else None


@lru_cache(maxsize=65536)
def analyze_text(text: str) -> TextAnalysis:
    """Tokenise and annotate one text (memoised: ground truths and queries repeat).

    Args:
        text: Any text (answer, ground truth or query).

    Returns:
        The :class:`TextAnalysis`.
    """
    prepared = prepare_text(text)
    raw_tokens = _merge_durations(scan(prepared))
    explicit, polarity_at = _explicit_polarity(raw_tokens)
    tokens = _mark(raw_tokens, polarity_at)
    content = tuple(t for t in tokens if t.kind != "sep" and not t.stop and not t.neg_cue)
    refusal_match = _REFUSAL_RE.search(prepared)
    refusal = refusal_match.group(0).strip() if refusal_match else None
    return TextAnalysis(
        text=text,
        tokens=tuple(tokens),
        content=content,
        polarity=explicit,
        refusal=refusal,
        stems=frozenset(k for t in content for k in t.keys),
        all_word_keys=frozenset(k for t in tokens if t.kind in ("word", "code") for k in t.keys),
        inverse_keys=frozenset(k for t in content if t.inverse and t.negated for k in t.keys),
        number_values=_number_values(content),
        date_values=tuple(d for t in content if t.kind == "date" for d in t.dates),
        time_keys=frozenset(t.key for t in content if t.kind == "time"),
    )
