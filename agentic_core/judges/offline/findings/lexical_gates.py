"""The lexical analysis' detectors ("gates"): findings about a pair, whatever the overlap. Detectors only.

Each detector is found on its own, from the three analysed texts, and :func:`fire_gates` returns those that
fired in a fixed order (the table is in :mod:`agentic_core.judges.offline.findings.lexical`). None caps or decides
anything: the
learned model (:mod:`agentic_core.judges.offline.learned`) weighs each finding with a coefficient fitted on labelled
pairs,
and each detector kept earns its place by a measured gain (docs/judges.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agentic_core.judges.offline.findings.lexical_overlap import (
    AnalysedPair,
    dedupe,
    is_fact,
    present_in,
    stated_in_query,
)
from agentic_core.judges.offline.findings.text_analysis import TextAnalysis
from agentic_core.judges.offline.findings.tokens import Token, unit_family
from agentic_core.judges.offline.findings.values import format_date, numbers_equal

__all__ = [
    "Gate",
    "GateName",
    "fire_gates",
    "fmt_tokens",
    "negated_keys",
    "negation_conflict",
    "show_token",
]

# Any change below changes the features: bump RULES_VERSION (agentic_core.judges.offline.findings.lexical).

GateName = Literal[
    "polarity",
    "negation",
    "missing_number",
    "unit_conflict",
    "extra_value",
    # The claim and role gates (agentic_core.judges.offline.findings.claim_gates, role_gates, list_gates).
    "self_correction",
    "retraction",
    "hedge",
    "buried_negation",
    "conflicting_value",
    "swapped_roles",
    "sibling_entity",
    "missing_list_item",
]


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gate:
    """A detector that fired: a finding, never a verdict (how much it weighs is a fitted coefficient).

    Attributes:
        name: Which detector.
        detail: What it found (``"opposite negation: refund negated in the answer only (1/3 shared words)"``).
    """

    name: GateName
    detail: str

    def describe(self) -> str:
        """The finding as one reasoning clause: ``[negation] opposite negation: ...``."""
        return f"[{self.name}] {self.detail}"


# --------------------------------------------------------------------------------------------------
# Reasoning text
# --------------------------------------------------------------------------------------------------


def show_token(tok: Token) -> str:
    """A token as the reasoning writes it (``57%``, ``12 km``, ``2025-03-14``, ``paris``)."""
    if tok.kind == "num":
        if tok.unit is None:
            return tok.key
        return f"{tok.key}%" if tok.unit == "%" else f"{tok.key} {tok.unit}"
    if tok.kind == "date":
        return format_date(tok.dates[0])
    if tok.kind == "word":
        return tok.raw.lower()
    return tok.key


def fmt_tokens(tokens: Sequence[Token], limit: int = 3) -> str:
    """Up to ``limit`` tokens as the reasoning writes them, with a count of the rest."""
    shown = ", ".join(show_token(t) for t in tokens[:limit])
    more = len(tokens) - limit
    return shown + (f" (+{more} more)" if more > 0 else "")


# --------------------------------------------------------------------------------------------------
# Gates
# --------------------------------------------------------------------------------------------------


def _clause_negation(text: TextAnalysis) -> dict[int, bool]:
    neg: dict[int, bool] = {}
    for tok in text.tokens:
        neg[tok.clause] = neg.get(tok.clause, False) or tok.neg_cue
    return neg


def _negation_states(text: TextAnalysis, framed: frozenset[str] = frozenset()) -> dict[str, tuple[bool, bool]]:
    """Per word key: (every occurrence is negated, every occurrence is affirmed).

    Negated: in a negation's scope, or an inverse word outside one ("closed" negates "open").
    Affirmed: not negated, and in a clause with no negation cue at all, or an inverse word that a cue
    turns back ("not closed" affirms "open"). Words after a negation of a ``framed`` key in their clause
    are neither: the question states that negation ("Which days is the gym closed?"), and "closed on
    Mondays" does not deny Mondays."""
    clause_neg = _clause_negation(text)
    out: dict[str, tuple[bool, bool]] = {}
    frame_clause = -1
    for tok in text.content:
        if tok.kind not in ("word", "code", "num"):
            continue
        if tok.clause == frame_clause and tok.negated:
            continue
        if framed and tok.negated and not framed.isdisjoint(tok.keys):
            frame_clause = tok.clause
        affirmed = not tok.negated and (tok.inverse or not clause_neg[tok.clause])
        for key in tok.keys:
            negated, clean = out.get(key, (True, True))
            out[key] = (negated and tok.negated, clean and affirmed)
    return out


def negated_keys(text: TextAnalysis) -> frozenset[str]:
    """Keys of the words a text negates (by a cue's scope or an inverse word)."""
    return frozenset(k for t in text.content if t.negated for k in t.keys)


def negation_conflict(
    ans: TextAnalysis, gt: TextAnalysis, framed: frozenset[str] = frozenset()
) -> tuple[list[str], bool, int] | None:
    """Words shared by answer and truth, negated in one and affirmed in the other.

    A word is *negated* when it sits in a negation cue's scope (the few words after ``not`` / ``no``,
    see :mod:`agentic_core.judges.offline.findings.text_analysis`) or is stated by an inverse word ("closed" negates
    "open"), and *affirmed* when its clause holds no negation cue at all (or a cue turns an inverse word
    back: "not closed"); a shared word conflicts when every occurrence is negated in one text and
    affirmed in the other. Scope, not the whole clause: "roaming at no extra charge" does not negate "roaming", and
    "your payment was not processed" does not negate "payment". The rule fires when at least a third
    of the shared words conflict (a stray "no" elsewhere in a long answer does not).

    Args:
        ans: The analysed answer (or a part of it).
        gt: The analysed ground truth.
        framed: Keys the query negates (:func:`negated_keys`): words a negation of one of them governs
            are the question's frame, not a claim the answer must repeat.

    Returns:
        ``(conflicting word keys, whether they are negated in the answer, number of shared words)``, or
        ``None`` when the rule does not fire.
    """
    truth = _negation_states(gt, framed)
    answer = _negation_states(ans, framed)
    shared = sorted(set(truth) & set(answer))
    in_answer = [k for k in shared if answer[k][0] and truth[k][1]]
    in_truth = [k for k in shared if truth[k][0] and answer[k][1]]
    conflicting = in_answer + [k for k in in_truth if k not in in_answer]
    if not conflicting or len(conflicting) * 3 < len(shared):
        return None
    return conflicting, len(in_answer) >= len(in_truth), len(shared)


def _negation_detail(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis) -> str | None:
    found = negation_conflict(ans, gt, negated_keys(qry))
    if found is None:
        return None
    conflicting, negated_in_answer, shared = found
    negated_in = "answer" if negated_in_answer else "ground truth"
    return (
        f"opposite negation: {', '.join(conflicting[:4])} negated in the {negated_in} only "
        f"({len(conflicting)}/{shared} shared words)"
    )


def _missing_numbers(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis) -> list[Gate]:
    """Numbers of the ground truth (not stated by the query) absent from the answer.

    Dates and times are left to the fact agreement (``date_missing``, ``time_missing``): a ``missing_date`` and a
    ``missing_time`` detector beside it earned nothing on the fresh holdout (benchmarks/RESULTS.md, issue 38), and
    neither did ``missing_key_term``, ``not_refusal`` nor ``refusal``."""
    truth = dedupe([t for t in gt.content if t.kind == "num"])
    # What the answer gives instead: numbers that neither the truth nor the query has.
    others = dedupe([t for t in ans.content if t.kind == "num" and not present_in(t, gt)])
    others = [t for t in others if not present_in(t, qry)]
    # A truth value the query states need not be repeated ("Is flight 450 on time?" / "Yes, on time"),
    # but the query is no evidence that the answer states it: once the answer gives another number
    # ("What is 102?" / "The answer is 902."), the truth's own value must be there too.
    missing = [t for t in truth if not present_in(t, ans) and (others or not present_in(t, qry))]
    if not missing:
        return []
    if others:
        found = f" (found {fmt_tokens(others)})"
    elif not any(t.kind == "num" for t in ans.content):
        found = " (answer states no number)"
    else:
        found = ""
    noun = "number" if len(missing) == 1 else "numbers"
    return [Gate("missing_number", f"ground-truth {noun} {fmt_tokens(missing)} missing from answer{found}")]


def _unit_conflict(ans: TextAnalysis, gt: TextAnalysis) -> str | None:
    """A ground-truth number given in the answer only with another unit of its kind (12 km / 12 mi)."""
    for tok in gt.content:
        if tok.kind != "num" or tok.unit is None or tok.value is None or tok.unit == "deg":
            continue
        value = tok.value
        same_value = [
            c
            for c in ans.content
            if c.kind == "num" and c.value is not None and numbers_equal(c.value, value)
        ]
        # The number with the right unit, or with none, anywhere in the answer settles it.
        if not same_value or any(c.unit == tok.unit or c.unit is None for c in same_value):
            continue
        family = unit_family(tok.unit)
        clash = [c for c in same_value if unit_family(c.unit) == family and c.unit != "deg"]
        if clash:
            return f"unit conflict: ground truth {show_token(tok)}, answer {show_token(clash[0])}"
    return None


def _value_type(tok: Token) -> str | None:
    if tok.kind == "num":
        return f"num:{tok.unit}" if tok.unit and tok.unit != "deg" else None
    if tok.kind in ("date", "time", "code"):
        return tok.kind
    return None


def _extra_values(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis) -> str | None:
    """New values in the answer of exactly the type the truth states: a second price in the same
    currency, a third seat code, another date or time. Plain unitless numbers are left alone (a worked
    calculation lists many), and so are conversions ("100 °C, which is 212 °F")."""
    types = {_value_type(t) for t in gt.content if is_fact(t)} - {None}
    # Only beside values the answer does state: when one is missing, the missing-fact gate says so.
    types = {vt for vt in types if all(present_in(t, ans) for t in gt.content if _value_type(t) == vt)}
    if not types:
        return None
    extra = [
        t
        for t in dedupe(ans.content)
        if _value_type(t) in types and not present_in(t, gt) and not stated_in_query(t, qry)
    ]
    if not extra:
        return None
    return f"answer adds {fmt_tokens(extra)} beside the ground-truth values"


def fire_gates(
    pair: AnalysedPair,
    polarity: tuple[tuple[str | None, str], tuple[str | None, str]],
    final: TextAnalysis | None = None,
) -> list[Gate]:
    """Every gate that fires for one pair, in the fixed order of the table in
    :mod:`agentic_core.judges.offline.findings.lexical`.

    Args:
        pair: The analysed answer, ground truth and query, and the ground truth's key runs.
        polarity: ``(yes/no, how it is given)`` of the answer and of the ground truth.
        final: The answer's final claim when it corrects itself: values it dropped before the
            correction are not extra values.

    Returns:
        The gates that fired.
    """
    ans, gt, qry, _ = pair
    (ans_pol, ans_how), (gt_pol, gt_how) = polarity
    gates: list[Gate] = []
    if ans_pol is not None and gt_pol is not None:
        # Both give a yes/no: that compares the main claims; per-word negation would only add noise
        # ("No visa is required" vs "No, ... visa-free").
        if ans_pol != gt_pol:
            detail = f"answer says {ans_pol!r} ({ans_how}), ground truth says {gt_pol!r} ({gt_how})"
            gates.append(Gate("polarity", detail))
    elif not (ans.refusal and gt.refusal):
        conflict = _negation_detail(ans, gt, qry)
        if conflict:
            gates.append(Gate("negation", conflict))
    gates.extend(_missing_numbers(ans, gt, qry))
    unit = _unit_conflict(ans, gt)
    if unit:
        gates.append(Gate("unit_conflict", unit))
    extra = _extra_values(final if final is not None else ans, gt, qry)
    if extra:
        gates.append(Gate("extra_value", extra))
    return gates
