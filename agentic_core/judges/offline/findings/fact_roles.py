"""Facts in their roles: which value a text attaches to which word, for the role gates.

Overlap sees that "Alice paid Bob $20" and "Bob paid Alice $20" hold the same tokens; it cannot see
that the two names swapped places. This module finds a text's *items* (numbers, dates, times, codes
and named entities) and the words around each, so the gates in :mod:`agentic_core.judges.offline.findings.role_gates`
can compare roles:

* the **cue** of an item is read backwards from it, within its sentence, up to the previous item
  (``from Paris`` -> ``from``; ``Alice paid Bob`` -> Alice: sentence start, Bob: ``paid``);
* its **window** is the few words on either side (``the monthly fee for the premium plan is $20``).

Named entities are runs of capitalised words of which at least one is capitalised mid-sentence in
either text (a capital that only opens a sentence says nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from agentic_core.judges.offline.findings.text_analysis import NAME_PARTICLES, SENTENCE_END, TextAnalysis
from agentic_core.judges.offline.findings.tokens import Token, in_base_unit, unit_family
from agentic_core.judges.offline.findings.values import date_satisfies, format_date, numbers_equal

__all__ = [
    "END",
    "OTHER_ITEM",
    "Item",
    "cue_sequence",
    "entity_keys",
    "find_items",
    "same_item",
    "window_words",
]

END = "<start of sentence>"
"""Cue of an item with nothing before it in its sentence (the subject, usually)."""
OTHER_ITEM = "<item>"
"""Where a cue sequence meets another item; never a cue itself (it says where, not what role)."""

_ARTICLES = frozenset({"the", "a", "an", "el", "la", "los", "las", "le", "les", "der", "die", "das"})
_FACT_KINDS = ("num", "date", "time", "code")


class Item(NamedTuple):
    """A fact or a named entity, with where it sits (a named tuple: texts hold many, built often).

    Attributes:
        kind: ``"num:<unit family>"``, ``"date"``, ``"time"``, ``"code"`` or ``"entity"``.
        tokens: Its tokens (one for a fact, the run for an entity).
        start: Index of its first token in the text's tokens.
        end: Index after its last token.
        sentence: Index of its sentence.
    """

    kind: str
    tokens: tuple[Token, ...]
    start: int
    end: int
    sentence: int

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of its tokens."""
        return tuple(t.key for t in self.tokens)

    def show(self) -> str:
        """The item as written, for the reasoning."""
        tok = self.tokens[0]
        if tok.kind == "date":
            return format_date(tok.dates[0])
        return " ".join(t.raw for t in self.tokens)


def entity_keys(*texts: TextAnalysis) -> frozenset[str]:
    """Keys of words capitalised somewhere other than at a sentence start, in any of ``texts``.

    A capital right after a colon counts too: "Seller: Initech" labels a name, it opens no sentence.
    """
    keys: set[str] = set()
    for text in texts:
        tokens = text.tokens
        for i, t in enumerate(tokens):
            if t.kind != "word" or not t.capitalised or t.stop or t.neg_cue:
                continue
            if not t.sentence_start or (i > 0 and tokens[i - 1].kind == "sep" and tokens[i - 1].key == ":"):
                keys.add(t.key)
    return frozenset(keys)


def _capital_word(tok: Token) -> bool:
    return tok.kind == "word" and tok.capitalised and not tok.stop and not tok.neg_cue


def find_items(text: TextAnalysis, entities: frozenset[str]) -> list[Item]:
    """The facts and named entities of a text, in order.

    Args:
        text: The analysed text.
        entities: Word keys that make a capitalised run an entity (:func:`entity_keys`).

    Returns:
        The items.
    """
    items: list[Item] = []
    sentence = 0
    run: list[Token] = []
    run_start = 0
    tokens = text.tokens

    def close() -> None:
        nonlocal run
        while run and run[-1].kind == "word" and not run[-1].capitalised:
            run.pop()  # a trailing particle ("de") is not part of the name
        if run and any(t.key in entities for t in run):
            items.append(Item("entity", tuple(run), run_start, run_start + len(run), sentence))
        run = []

    for i, tok in enumerate(tokens):
        if _capital_word(tok):
            if not run:
                run_start = i
            run.append(tok)
            continue
        if run and tok.kind == "word" and not tok.capitalised and tok.raw.lower() in NAME_PARTICLES:
            run.append(tok)
            continue
        if run:
            close()
        if tok.kind in _FACT_KINDS:
            family = unit_family(tok.unit) if tok.kind == "num" else None
            kind = f"num:{family or ''}" if tok.kind == "num" else tok.kind
            items.append(Item(kind, (tok,), i, i + 1, sentence))
        elif tok.kind == "sep" and tok.key in SENTENCE_END:
            sentence += 1
    if run:
        close()
    return items


def same_item(a: Item, b: Item) -> bool:
    """Whether two items state the same fact or name the same entity.

    Numbers compare by value (also across units of one system), dates by :func:`date_satisfies` either
    way (one may omit its year), entities by one's words containing the other's (``Acme`` / ``Acme Corp``).
    """
    # Kinds must agree, except that a bare number and the same number with a unit ("20" / "$20") are
    # one value.
    bare_number = a.kind.startswith("num:") and b.kind.startswith("num:") and "num:" in (a.kind, b.kind)
    if a.kind != b.kind and not bare_number:
        return False
    ta, tb = a.tokens[0], b.tokens[0]
    if ta.kind == "num":
        assert ta.value is not None and tb.value is not None
        if numbers_equal(ta.value, tb.value):
            return True
        base_a, base_b = in_base_unit(ta), in_base_unit(tb)
        return base_a is not None and base_b is not None and numbers_equal(base_a, base_b)
    if ta.kind == "date":
        return any(date_satisfies(x, y) or date_satisfies(y, x) for x in ta.dates for y in tb.dates)
    if ta.kind in ("time", "code"):
        return ta.key == tb.key
    ka = {t.key for t in a.tokens if t.capitalised}
    kb = {t.key for t in b.tokens if t.capitalised}
    return bool(ka) and bool(kb) and (ka <= kb or kb <= ka)


def _item_at(items: Sequence[Item]) -> dict[int, Item]:
    return {i: item for item in items for i in range(item.start, item.end)}


def cue_sequence(text: TextAnalysis, item: Item, items: Sequence[Item]) -> list[str]:
    """Word keys read backwards from ``item`` to the previous item or the sentence start.

    Commas, colons and "but" are crossed (``Sender: Acme`` keeps ``sender``), articles skipped.

    Returns:
        The keys, nearest first, ending with :data:`END` or :data:`OTHER_ITEM`.
    """
    at = _item_at(items)
    out: list[str] = []
    for j in range(item.start - 1, -1, -1):
        tok = text.tokens[j]
        if j in at:
            out.append(OTHER_ITEM)
            return out
        if tok.kind == "sep":
            if tok.key in SENTENCE_END:
                break
            continue
        if tok.raw.lower() in _ARTICLES:
            continue
        out.append(tok.key)
    out.append(END)
    return out


def window_words(text: TextAnalysis, item: Item, items: Iterable[Item], back: int, ahead: int) -> list[Token]:
    """Up to ``back`` words before and ``ahead`` words after an item, within its sentence and not
    past another item (articles skipped)."""
    at = _item_at(list(items))
    out: list[Token] = []
    for limit, rng in ((back, range(item.start - 1, -1, -1)), (ahead, range(item.end, len(text.tokens)))):
        taken = 0
        for j in rng:
            tok = text.tokens[j]
            if taken >= limit or j in at or (tok.kind == "sep" and tok.key in SENTENCE_END):
                break
            if tok.kind != "word" or tok.raw.lower() in _ARTICLES:
                continue
            out.append(tok)
            taken += 1
    return out
