"""Role gates: the right values in the wrong places, or a near-miss name.

Detectors of the lexical analysis (:mod:`agentic_core.judges.offline.findings.lexical` has the table). These
read the items of both texts and the words around them (:mod:`agentic_core.judges.offline.findings.fact_roles`):

=================  ===============================================================
gate               fires when
=================  ===============================================================
swapped_roles      two ground-truth values of one kind trade their cue words
                   ("Alice paid Bob" / "Bob paid Alice", "from Paris to Rome")
conflicting_value  beside the ground-truth value, the answer gives another value
                   of its kind in the same words ("... the current fee is $35")
sibling_entity     the answer names a sibling of a ground-truth name: part shared,
                   the distinguishing part replaced ("San Diego" / "San Francisco")
=================  ===============================================================

Each is a lexical heuristic and says what it compared; a swap told with other verbs ("Chelsea won
against Arsenal" for "Arsenal beat Chelsea") is beyond it.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_core.judges.offline.findings.fact_roles import (
    END,
    OTHER_ITEM,
    Item,
    cue_sequence,
    entity_keys,
    find_items,
    same_item,
    window_words,
)
from agentic_core.judges.offline.findings.lexical_gates import Gate, fmt_tokens
from agentic_core.judges.offline.findings.lexical_overlap import AnalysedPair, dedupe, name_present
from agentic_core.judges.offline.findings.text_analysis import TextAnalysis
from agentic_core.judges.offline.findings.tokens import Token

__all__ = [
    "role_gates",
]

# Any change below changes the features: bump RULES_VERSION (agentic_core.judges.offline.findings.lexical).
CUE_BACK = 6
CUE_AHEAD = 3
"""Window (in words) whose content words tie a value to its role ("monthly fee ... is $20")."""

_SUPERSEDED = frozenset(
    """
    last previous previously former formerly old earlier originally used prior past was were before
    until other another next return
    """.split()  # noqa: SIM905 - a word block reads better than a long list literal
)
"""Words that mark a value as another time's or another thing's ("last year's speaker was ..."):
such a value sits beside the truth's without contradicting it."""

_TITLES = frozenset(
    """
    president dr mr mrs ms miss prof professor sir dame lord lady senator governor mayor general
    captain saint st doctor king queen prince princess pope chancellor minister judge rev jr sr
    mount mt lake river city airport university
    """.split()  # noqa: SIM905 - a word block reads better than a long list literal
)
"""Words that may be added to a name without changing whom or what it names ("President Obama")."""


def _comparable(a: Item, b: Item) -> bool:
    return a.kind == b.kind


def _raw(key: str, text: TextAnalysis) -> str:
    """The first surface form of a key, for the reasoning."""
    if key == END:
        return "the start of its sentence"
    for tok in text.tokens:
        if tok.key == key:
            return repr(tok.raw.lower())
    return repr(key)


def _first_distinct(seq: Sequence[str], other: Sequence[str]) -> str | None:
    others = set(other)
    return next((k for k in seq if k not in others and k != OTHER_ITEM), None)


Matches = dict[int, list[int]]
"""For each answer item (by index), the indices of the truth items it states."""


def _matches(t_items: Sequence[Item], a_items: Sequence[Item]) -> Matches:
    return {j: [i for i, t in enumerate(t_items) if same_item(t, w)] for j, w in enumerate(a_items)}


def _unique_match(index: int, matches: Matches) -> int | None:
    """The one answer item stating truth item ``index``, when exactly one does and it states no other."""
    found = [j for j, truth in matches.items() if index in truth]
    if len(found) != 1 or len(matches[found[0]]) != 1:
        return None
    return found[0]


def _swapped(
    ans: TextAnalysis, gt: TextAnalysis, t_items: list[Item], a_items: list[Item], matches: Matches
) -> str | None:
    """Two truth items of one kind whose distinguishing cue words the answer swaps.

    The truth's cue of A is the first word read backwards from A that B's sequence lacks; the answer
    swaps them when, reading backwards from each, the first of the two cues met is the other's.
    Converse wording ("Bob received $20 from Alice") meets neither cue and is left alone.
    """
    kinds = [item.kind for item in t_items]
    for i, a in enumerate(t_items):
        if kinds.count(a.kind) < 2:
            continue
        for k in range(i + 1, len(t_items)):
            b = t_items[k]
            if not _comparable(a, b) or same_item(a, b):
                continue
            ia, ib = _unique_match(i, matches), _unique_match(k, matches)
            if ia is None or ib is None or ia == ib:
                continue
            ma, mb = a_items[ia], a_items[ib]
            seq_a, seq_b = cue_sequence(gt, a, t_items), cue_sequence(gt, b, t_items)
            cue_a, cue_b = _first_distinct(seq_a, seq_b), _first_distinct(seq_b, seq_a)
            if cue_a is None or cue_b is None:
                continue
            wanted = (cue_a, cue_b)
            got_a = next((k for k in cue_sequence(ans, ma, a_items) if k in wanted), None)
            got_b = next((k for k in cue_sequence(ans, mb, a_items) if k in wanted), None)
            if got_a == cue_b and got_b == cue_a:
                return (
                    f"the ground truth has {a.show()} after {_raw(cue_a, gt)} and "
                    f"{b.show()} after {_raw(cue_b, gt)}; the answer has them the other way round"
                )
    return None


def _content_keys(tokens: Sequence[Token]) -> set[str]:
    return {t.key for t in tokens if not t.stop and not t.neg_cue}


def _conflicting(
    ans: TextAnalysis,
    gt: TextAnalysis,
    qry: TextAnalysis,
    t_items: list[Item],
    a_items: list[Item],
    matches: Matches,
) -> str | None:
    """Another value of the truth value's kind, tied to the same words, in an answer that also
    repeats the truth value: the padded contradiction ("the fee was $20 ... the current fee is $35").

    The truth value's role is the content words within ``CUE_BACK`` / ``CUE_AHEAD`` words of it (at
    least two); the other value conflicts when its own window holds at least two of them and more than
    half ("a second gold card for $25" shares "gold card" but not "annual fee"),
    and no word marks it as another time's or thing's (``last year``, ``previous``, ``was``).
    """
    # Answer values the truth does not state, and that the query does not name: the candidates.
    extras = [w for j, w in enumerate(a_items) if not matches[j] and not all(t.key in qry.stems for t in w.tokens)]
    kinds = {w.kind for w in extras}
    stated = {i for truth in matches.values() for i in truth}
    for i, v in enumerate(t_items):
        if v.kind not in kinds or i not in stated:
            continue
        role = _content_keys(window_words(gt, v, t_items, CUE_BACK, CUE_AHEAD))
        if len(role) < 2:
            continue
        for w in extras:
            if not _comparable(v, w):
                continue
            near = window_words(ans, w, a_items, CUE_BACK, CUE_AHEAD)
            shared = role & _content_keys(near)
            if len(shared) < 2 or len(shared) * 2 <= len(role):
                continue
            context = window_words(ans, w, a_items, 6, CUE_AHEAD)
            if any(t.raw.lower() in _SUPERSEDED for t in context):
                continue
            words = dedupe([t for t in window_words(gt, v, t_items, CUE_BACK, CUE_AHEAD) if t.key in shared])
            return (
                f"the answer gives {w.show()} where the ground truth gives {v.show()} "
                f"(both beside {fmt_tokens(words, 4)})"
            )
    return None


def _sibling(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis, runs: Sequence[Sequence[Token]]) -> str | None:
    """A ground-truth name of two or more words, of which the answer keeps part and replaces part
    ("San Diego" for "San Francisco", "Michelle Obama" for "Barack Obama").

    Titles and generic heads ("President", "Lake", "Airport") may be added without firing, and the
    replacement may not be much longer than what it replaces ("John F Kennedy International Airport"
    for "JFK Airport" is a spelling-out, not a sibling).
    """
    answer_names: list[Item] | None = None
    for run in runs:
        words = [t for t in run if t.capitalised]
        if len(words) < 2:
            continue
        keys = {t.key for t in words}
        missing = [t for t in words if not name_present(t, ans)]  # a misspelt part is no sibling
        if not missing or keys.isdisjoint(ans.stems):
            continue  # all there, or none: the missing-key-term gate speaks
        if answer_names is None:
            capitals = frozenset(t.key for t in ans.tokens if t.kind == "word" and t.capitalised)
            answer_names = find_items(ans, capitals)
        for name in answer_names:
            if name.kind != "entity":
                continue
            shared = keys & set(name.keys)
            extra = [
                t
                for t in name.tokens
                if t.capitalised
                and t.key not in keys
                and t.key not in gt.stems
                and t.key not in qry.stems
                and t.raw.lower() not in _TITLES
            ]
            if shared and extra and len(extra) <= len(missing) + 1:
                truth_name = " ".join(t.raw for t in run)
                return (
                    f"the answer names {name.show()} where the ground truth names "
                    f"{truth_name} (shares {', '.join(t.raw for t in words if t.key in shared)}, "
                    f"not {', '.join(t.raw for t in missing)})"
                )
    return None


def role_gates(pair: AnalysedPair) -> list[Gate]:
    """The role gates that fire for one pair, in the order of the table above.

    Args:
        pair: The analysed answer, ground truth and query, and the ground truth's key runs.

    Returns:
        The gates that fired.
    """
    ans, gt, qry, runs = pair
    gates: list[Gate] = []
    entities = entity_keys(ans, gt)
    t_items = find_items(gt, entities)
    a_items = find_items(ans, entities)
    matches = _matches(t_items, a_items) if t_items and a_items else {}
    if len(t_items) >= 2:
        swapped = _swapped(ans, gt, t_items, a_items, matches)
        if swapped:
            gates.append(Gate("swapped_roles", swapped))
    if t_items and len(a_items) >= 2:
        conflict = _conflicting(ans, gt, qry, t_items, a_items, matches)
        if conflict:
            gates.append(Gate("conflicting_value", conflict))
    sibling = _sibling(ans, gt, qry, runs)
    if sibling:
        gates.append(Gate("sibling_entity", sibling))
    return gates
