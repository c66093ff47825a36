"""Word tables for the lexical judge: words that mean "not X", and small groups of synonyms.

The scanner (:mod:`agentic_core.judges.offline.findings.tokens`) looks every word up here once, so rewordings meet
before any comparison:

* **Inverse words** state a negation without a negation word: "closed" is "not open", "unavailable"
  is "not available", "free" is "no fee / charge / cost", "failed" is "did not succeed / was not
  processed", "after" is "not before". Such a word is keyed as the word(s) it negates and marked
  *inverse*; :mod:`agentic_core.judges.offline.findings.text_analysis` then reads it as negated, or as affirmed when a
  negation cue governs it ("not closed" is "open"). A word may negate several words ("failed"), all of
  which it then states; the first is its key.
* **Synonyms** share one key ("fee" / "charge", "allow" / "permit", "rainy" / "rain").

Both tables are deliberately small and general (everyday support, travel and finance wording, the
common negative prefixes un- / in- / im- / dis- on words whose base is everyday), not a thesaurus:
every entry merges words an answer may use for the ground truth's, and a loose entry would let a wrong
answer through. Lookups are by the lower-case, accent-folded surface word (the inverse words) and by
stem (the synonyms).
"""

from __future__ import annotations

from functools import lru_cache

from agentic_core.judges.offline.findings.text_fold import stem

__all__ = ["INVERSE_WORDS", "SYNONYM_KEYS", "word_keys"]


def _synonym_groups(block: str) -> list[list[str]]:
    """Lines of space-separated words (``#`` starts a comment), one group per line."""
    lines = (line.split("#", 1)[0].split() for line in block.strip().splitlines())
    return [words for words in lines if words]


_SYNONYMS = _synonym_groups(
    """
    succeed succeeds succeeded   # the stemmer leaves these apart
    fee charge
    cost price
    buy purchase
    begin start commence
    finish end
    help assist
    fix repair
    allow permit
    need require mandatory
    book reserve reservation
    cancel cancelled canceled cancellation
    ship dispatch
    find locate
    phone telephone
    reply respond response
    show display
    quick fast
    big large
    arrive land
    depart leave
    enough sufficient
    correct accurate
    rain rainy        # weather adjectives and their nouns
    sun sunny
    cloud cloudy
    snow snowy
    wind windy
    storm stormy
    fog foggy
    """
)

SYNONYM_KEYS: dict[str, str] = {stem(w): stem(group[0]) for group in _SYNONYMS for w in group}
"""Stem -> the key its synonym group shares (the stem of the group's first word)."""


def _canonical_word(word: str) -> str:
    key = stem(word)
    return SYNONYM_KEYS.get(key, key)


_INVERSES = [
    line.split(":")
    for line in """
    closed shut: open
    unavailable: available
    inactive: active
    incomplete unfinished: complete finish
    invalid expired: valid
    incorrect inaccurate wrong: correct
    unsafe: safe
    insecure: secure
    unsuccessful failed fail fails failure: succeed success successful process complete pass work
    unpaid: pay
    unconfirmed: confirm
    unverified: verify
    unsupported: support
    unlimited: limit
    ineligible: eligible
    impossible: possible
    disabled: enable
    disallowed prohibited forbidden banned: allow
    denied rejected declined: approve accept
    absent: present
    free complimentary: fee cost pay
    after: before
    offline: online
    illegal: legal
    unnecessary unneeded optional: need necessary
    disconnected: connect
    unreachable: reach
    inaccessible: accessible
    unsubscribed: subscribe
    insufficient: enough
    """.strip().splitlines()
]

INVERSE_WORDS: dict[str, tuple[str, ...]] = {
    word: tuple(dict.fromkeys(_canonical_word(b) for b in bases.split()))
    for words, bases in _INVERSES
    for word in words.split()
}
"""Lower-case surface word -> the keys of the words it negates ("closed" -> ``("open",)``)."""


@lru_cache(maxsize=65536)
def word_keys(lower: str) -> tuple[str, tuple[str, ...], bool]:
    """The keys of one lower-case word: ``(key, other keys, inverse)``.

    Args:
        lower: A lower-case, accent-folded word.

    Returns:
        For an inverse word, the first key it negates, the others, and ``True``; otherwise its stem
        (or its synonym group's key), no other keys and ``False``.
    """
    bases = INVERSE_WORDS.get(lower)
    if bases is not None:
        return bases[0], bases[1:], True
    return _canonical_word(lower), (), False
