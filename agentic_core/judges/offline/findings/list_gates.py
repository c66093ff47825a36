"""The list gate: a ground truth that lists items, and an answer that drops some of them.

A detector of the lexical analysis (:mod:`agentic_core.judges.offline.findings.lexical` has the table). Recall alone
lets "red and blue" reach two thirds of "red, green and blue", and an embedding calls them near
identical; a list is only right when every item is there.

=================  ===============================================================
gate               fires when
=================  ===============================================================
missing_list_item  the ground truth lists items and the answer gives some, not all
=================  ===============================================================

**Finding the list.** Within a sentence of the ground truth, items are split at commas and at
"and" / "or" (and their Spanish, French, German forms). Three or more items form a list when the
middle ones are short (at most ``MAX_ITEM_WORDS`` content words): their length also trims the lead-in
off the first item ("The clinic is open Monday") and the tail off the last ("Alex are on call this
weekend"). Two items form a list only when they are one name, number, date, time or code each, of one
kind ("Mondays and Sundays"), so that "delivered and signed for" is not read as a list.

**Presence.** An item is given when the answer states any of its distinctive words (those no other
item has, and the query does not state): "proof of address" is given by "something that proves your
address". Order does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.judges.offline.findings.lexical_gates import Gate
from agentic_core.judges.offline.findings.lexical_overlap import is_fact, present_in, stated_in_query
from agentic_core.judges.offline.findings.text_analysis import SENTENCE_END, TextAnalysis
from agentic_core.judges.offline.findings.tokens import Token

__all__ = ["MAX_ITEM_WORDS", "list_gates", "list_items"]

# Any change below changes the features: bump RULES_VERSION (agentic_core.judges.offline.findings.lexical).
MAX_ITEM_WORDS = 3

_JOINERS = frozenset({"and", "or", "y", "o", "e", "et", "ou", "und", "oder", "&"})


def _segments(text: TextAnalysis) -> list[tuple[list[list[Token]], bool]]:
    """Per sentence: its comma / conjunction segments (content tokens each), and whether a
    conjunction joined any two of them."""
    out: list[tuple[list[list[Token]], bool]] = []
    segs: list[list[Token]] = [[]]
    joined = False
    for tok in text.tokens:
        if tok.kind == "sep" and tok.key in SENTENCE_END:
            out.append((segs, joined))
            segs, joined = [[]], False
        elif (tok.kind == "sep" and tok.key in {",", "-"}) or (tok.kind == "word" and tok.raw.lower() in _JOINERS):
            joined = joined or tok.kind == "word"
            if segs[-1]:
                segs.append([])
        elif tok.kind != "sep" and not tok.stop and not tok.neg_cue:
            segs[-1].append(tok)
    out.append((segs, joined))
    return out


def _participle(tok: Token) -> bool:
    lower = tok.raw.lower()
    return tok.kind == "word" and not tok.capitalised and len(lower) > 5 and lower.endswith("ing")


def _kind(tokens: Sequence[Token]) -> str | None:
    """``"name"`` when every token is a capitalised word, the fact kind when every token is one fact
    kind, else ``None``."""
    kinds = {t.kind if is_fact(t) else ("name" if t.kind == "word" and t.capitalised else None) for t in tokens}
    if len(kinds) != 1:
        return None
    return kinds.pop()


def list_items(text: TextAnalysis) -> list[list[Token]]:
    """The items of the first list in a text (see the module docstring), or ``[]``.

    Args:
        text: The analysed ground truth.

    Returns:
        The items, each a list of content tokens, in order.
    """
    for segs, joined in _segments(text):
        segs = [s for s in segs if s]
        if len(segs) >= 3:
            middle = segs[1:-1]
            if not all(len(s) <= MAX_ITEM_WORDS for s in middle) or len(segs[-1]) > MAX_ITEM_WORDS + 2:
                continue  # long pieces are clauses, not items
            if any(_participle(s[0]) for s in segs[1:]):
                continue  # ", producing glucose and oxygen": a participle clause, not an item
            width = max(len(s) for s in middle)
            return [segs[0][-width:], *middle, segs[-1][:width]]
        if len(segs) != 2 or not joined:
            continue
        first, second = segs
        # "Neil Armstrong and Buzz Aldrin": two short names (or values) and nothing else.
        if len(first) <= 2 and len(second) <= 2 and _kind(first) is not None and _kind(first) == _kind(second):
            return [first, second]
        # "closed on Mondays and Sundays": one name after a lead-in, one after the conjunction.
        if len(second) == 1 and _kind(second) is not None and _kind(first[-1:]) == _kind(second):
            return [first[-1:], second]
    return []


def list_gates(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis) -> list[Gate]:
    """The list gate for one pair.

    Args:
        ans: The analysed answer.
        gt: The analysed ground truth.
        qry: The analysed query (items it states are not required).

    Returns:
        ``[missing_list_item]`` when it fires, else ``[]``.
    """
    if "," not in gt.text and _JOINERS.isdisjoint(gt.all_word_keys):
        return []  # no comma, no conjunction: no list (checked cheaply)
    items = list_items(gt)
    if len(items) < 2:
        return []
    given: list[list[Token]] = []
    missing: list[list[Token]] = []
    for idx, item in enumerate(items):
        others = {t.key for j, it in enumerate(items) if j != idx for t in it}
        own = [t for t in item if t.key not in others and not stated_in_query(t, qry)]
        if not own:
            continue  # an item the query names, or one indistinguishable from another
        (given if any(present_in(t, ans) for t in own) else missing).append(item)
    if not missing or not given:
        # Nothing given: the answer is about something else, and recall already says so.
        return []
    shown = ", ".join(" ".join(t.raw for t in item) for item in missing)
    noun = "item" if len(missing) == 1 else "items"
    detail = (
        f"ground-truth list {noun} {shown} missing from answer "
        f"({len(given)} of {len(given) + len(missing)} items given)"
    )
    return [Gate("missing_list_item", detail)]
