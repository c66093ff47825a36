"""Claim gates: does the answer stand by the facts it shares with the ground truth?

Detectors of the lexical analysis (:mod:`agentic_core.judges.offline.findings.lexical` has the table). Each reads the
answer's
shape (:mod:`agentic_core.judges.offline.findings.answer_shape`) and fires when the answer's *final* claim disagrees
with the
ground truth although its words overlap:

================  ==================================================================
gate              fires when
================  ==================================================================
self_correction   after a correction marker the answer replaces a ground-truth value
retraction        after a marker it withdraws or negates the claim it first made
hedge             the ground-truth value is one of several candidates joined by "or"
buried_negation   (yes/no question) the answer's last clause on the question negates
================  ==================================================================

A hedge word beside a single candidate ("It opens at 9 am, I believe") fires nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_core.judges.offline.findings.answer_shape import (
    HEDGE_WORDS,
    Correction,
    alternative_groups,
    find_correction,
    hedge_cue,
)
from agentic_core.judges.offline.findings.lexical_gates import Gate, fmt_tokens, negation_conflict, show_token
from agentic_core.judges.offline.findings.lexical_overlap import (
    AnalysedPair,
    dedupe,
    is_fact,
    present_in,
    run_present,
    stated_in_query,
)
from agentic_core.judges.offline.findings.text_analysis import TextAnalysis, analyze_text
from agentic_core.judges.offline.findings.tokens import Token, unit_family

__all__ = [
    "Claim",
    "claim_gates",
    "read_claim",
    "restates_question",
    "retraction_from_polarity",
]

# Any change below changes the features: bump RULES_VERSION (agentic_core.judges.offline.findings.lexical).

_ADDITIVE_MARKERS = frozenset({"wait", "hold on", "hang on", "update", "edit", "actually"})
"""Markers that may add to a claim rather than replace it ("Update: boarding is at 8:30", "Ottawa.
Actually, it has been the capital since 1857")."""


@dataclass(frozen=True)
class Claim:
    """An answer that corrects itself, split at its last correction marker.

    Attributes:
        correction: The marker and the two texts.
        before: The analysed text before the marker.
        after: The analysed final claim.
    """

    correction: Correction
    before: TextAnalysis
    after: TextAnalysis

    @property
    def marker(self) -> str:
        """The marker as written."""
        return self.correction.marker

    @property
    def additive(self) -> bool:
        """Whether the marker may only add to the claim (a bare "wait", "update:")."""
        return self.correction.marker.lower().strip(" ,.!") in _ADDITIVE_MARKERS


def read_claim(answer: str) -> Claim | None:
    """The answer's final claim when it corrects itself, else ``None``."""
    correction = find_correction(answer)
    if correction is None:
        return None
    return Claim(correction, analyze_text(correction.before), analyze_text(correction.after))


def restates_question(text: TextAnalysis, query: TextAnalysis) -> bool:
    """Whether the first sentence of ``text`` holds half of the query's content words and no negation
    (a final claim that restates a yes/no question without negation answers it "yes"); an inverse
    word is a negation unless the query uses it too ("closed" restates "Is the road closed?")."""
    asked = {t.key for t in query.content if t.kind == "word"}
    first = text.first_sentence()
    mentioned = {t.key for t in first if t.key in asked}
    negates = any(t.neg_cue or (t.inverse and t.negated and t.key not in query.inverse_keys) for t in first)
    return bool(mentioned) and len(mentioned) * 2 >= len(asked) and not negates


def retraction_from_polarity(gates: Sequence[Gate]) -> list[Gate]:
    """A yes/no clash set by a correction (the final claim's yes/no against the truth's) is named as
    the retraction it is."""
    return [
        Gate("retraction", f"the answer takes its yes/no back: {g.detail}")
        if g.name == "polarity"
        else g
        for g in gates
    ]


# --------------------------------------------------------------------------------------------------
# Self-correction and retraction
# --------------------------------------------------------------------------------------------------


def _same_kind(truth: Token, given: Token) -> bool:
    if truth.kind != given.kind:
        return False
    if truth.kind != "num" or truth.unit is None or given.unit is None:
        return True
    return unit_family(truth.unit) == unit_family(given.unit)


def _new_words(claim: Claim, gt: TextAnalysis, qry: TextAnalysis) -> list[Token]:
    """Content words of the final claim that neither the earlier text, the truth nor the query has."""
    return [
        t
        for t in claim.after.content
        if t.kind == "word"
        and t.key not in claim.before.stems
        and t.key not in gt.stems
        and t.key not in qry.stems
        and t.raw.lower() not in HEDGE_WORDS
    ]


def _replaced(claim: Claim, gt: TextAnalysis, qry: TextAnalysis, runs: Sequence[Sequence[Token]]) -> str | None:
    """A ground-truth fact or key term stated before the marker and replaced after it."""
    new_words = _new_words(claim, gt, qry)
    # After a marker that may only add ("Update: boarding is at 8:30"), a new value replaces the old
    # one only when nothing else new is said.
    for truth in dedupe(gt.content):
        if not is_fact(truth) or stated_in_query(truth, qry):
            continue
        if not present_in(truth, claim.before) or present_in(truth, claim.after):
            continue
        new = [
            v
            for v in dedupe(claim.after.content)
            if _same_kind(truth, v) and not present_in(v, gt) and not stated_in_query(v, qry)
        ]
        if new and not (claim.additive and new_words):
            return (
                f"answer corrects itself ({claim.marker!r}): ground-truth {show_token(truth)} comes before "
                f"the correction, the final claim says {fmt_tokens(new)}"
            )
    for run in runs:
        if not run_present(run, claim.before, qry) or run_present(run, claim.after, qry):
            continue
        names = [t for t in new_words if t.capitalised]
        if claim.additive and len(names) < len(new_words):
            continue  # "Actually, it became the capital under Queen Victoria" adds, it does not replace
        if names or (new_words and not claim.additive and not any(t.capitalised for t in run)):
            term = " ".join(t.raw for t in run)
            said = " ".join(t.raw for t in (names or new_words)[:3])
            return (
                f"answer corrects itself ({claim.marker!r}): ground-truth {term} comes before the "
                f"correction, the final claim says {said}"
            )
    return None


def _retracted(claim: Claim, gt: TextAnalysis) -> str | None:
    """The claim made before the marker withdrawn, or reversed by negation, after it."""
    if claim.correction.withdraws:
        lost = [t for t in dedupe(gt.content) if present_in(t, claim.before) and not present_in(t, claim.after)]
        if lost:
            return f"answer withdraws its claim ({claim.marker!r}): {fmt_tokens(lost)} not restated after it"
    found = negation_conflict(claim.after, gt)
    if found is not None:
        flipped = [t for t in dedupe(gt.content) if t.key in found[0] and t.key in claim.before.stems]
        if flipped:
            return (
                f"answer retracts its claim ({claim.marker!r}): after it, {fmt_tokens(flipped, 4)} "
                f"take the opposite negation to the ground truth"
            )
    return None


# --------------------------------------------------------------------------------------------------
# Hedges and buried negations
# --------------------------------------------------------------------------------------------------


def _item_keys(item: Sequence[Token]) -> list[Token]:
    facts = [t for t in item if is_fact(t)]
    return facts or [t for t in item if t.kind == "word" and t.capitalised]


def _hedged(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis, cue: str | None) -> str | None:
    """The ground-truth value offered as one of several candidates ("maybe 3, 4 or 5"); ``cue`` is
    the answer's guess word, if any (:func:`agentic_core.judges.offline.findings.answer_shape.hedge_cue`)."""
    for group in alternative_groups(ans):
        matched, others = [], []
        for item in group:
            keys = _item_keys(item)
            if keys and all(present_in(t, gt) for t in keys):
                matched.append(item)
            elif keys and not any(present_in(t, gt) for t in keys) and not all(stated_in_query(t, qry) for t in keys):
                others.append(item)
        # Names joined by "or" may be one name twice ("San Francisco or SF"): only a guess word
        # makes them candidates. Numbers, dates and times joined by "or" are candidates anyway.
        facts = any(is_fact(t) for item in group for t in item)
        if matched and others and (facts or cue is not None):
            shown = " / ".join(" ".join(t.raw for t in item) for item in group)
            how = f" ({cue!r})" if cue else ""
            return f"answer hedges{how} between {shown}: the ground truth is one candidate of {len(group)}"
    return None


_EXCEPTION_WORDS = frozenset({"though", "although", "except", "unless", "until", "during", "if", "when", "whenever"})
"""A negated clause with one of these states an exception ("not open on holidays, though"), not a "no"."""


def _buried_negation(ans: TextAnalysis, qry: TextAnalysis) -> str | None:
    """The answer's last clause about the question negates it (a "no" after padding that repeats
    the question's words). A clause is about the question when it holds half of its content words,
    and at least two when the question has two ("the sauna is not open" is not about the pool)."""
    asked = {t.key for t in qry.content if t.kind == "word"}
    if not asked:
        return None
    clauses: dict[int, list[Token]] = {}
    for tok in ans.tokens:
        if tok.kind != "sep":
            clauses.setdefault(tok.clause, []).append(tok)
    last: list[Token] | None = None
    for toks in clauses.values():
        mentioned = {t.key for t in toks if t.key in asked and not t.stop}
        if len(mentioned) >= min(2, len(asked)) and len(mentioned) * 2 >= len(asked):
            last = toks
    if last is None or any(t.raw.lower() in _EXCEPTION_WORDS for t in last):
        return None
    # The subject before the negation must be the question's (or a pronoun): "the cafe is not open"
    # says nothing about the museum. An inverse word the question also uses ("closed" to "Is the road
    # closed?") agrees with it rather than negating it.
    def negates(t: Token) -> bool:
        return t.negated and not (t.inverse and t.key in qry.inverse_keys)

    cue_at = next((i for i, t in enumerate(last) if t.neg_cue or (t.inverse and negates(t))), len(last))
    if any(not t.stop and t.kind == "word" and t.key not in asked for t in last[:cue_at]):
        return None
    negated = dedupe([t for t in last if negates(t) and t.key in asked])
    if not negated:
        return None
    clause = " ".join(t.raw for t in last)
    return f"the answer's last clause about the question ({clause!r}) negates {fmt_tokens(negated)}"


# --------------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------------


def claim_gates(
    pair: AnalysedPair,
    claim: Claim | None,
    truth_polarity: str | None,
    yes_no: bool,
    fired: Sequence[Gate],
) -> list[Gate]:
    """The claim gates that fire for one pair.

    Args:
        pair: The analysed answer, ground truth and query, and the ground truth's key runs.
        claim: The answer's final claim when it corrects itself (:func:`read_claim`).
        truth_polarity: The ground truth's yes/no, if any.
        yes_no: Whether the query is a yes/no question.
        fired: The fact gates that already fired (a buried negation is not counted twice).

    Returns:
        The gates that fired.
    """
    ans, gt, qry, runs = pair
    gates: list[Gate] = []
    names = {g.name for g in fired}
    if claim is not None:
        replaced = _replaced(claim, gt, qry, runs)
        if replaced:
            gates.append(Gate("self_correction", replaced))
        # A yes/no flipped by the correction is already named a retraction (lexical._answer_polarity).
        retracted = None if "retraction" in names else _retracted(claim, gt)
        if retracted:
            gates.append(Gate("retraction", retracted))
    hedged = _hedged(ans, gt, qry, hedge_cue(ans))
    if hedged:
        gates.append(Gate("hedge", hedged))
    if yes_no and truth_polarity == "yes" and not names & {"polarity", "negation", "retraction"}:
        buried = _buried_negation(ans, qry)
        if buried:
            gates.append(Gate("buried_negation", buried))
    return gates
