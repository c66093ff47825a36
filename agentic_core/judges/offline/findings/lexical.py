"""The lexical analysis: word overlap and detectors, the learned judge's text features. No verdicts here.

What it measures for a (query, answer, reference) triple:

1. **Normalise** query, answer and reference into typed tokens
(:mod:`agentic_core.judges.offline.findings.text_analysis`):
   numbers, dates, times, units, currencies, codes, stemmed words, negation, yes/no, refusals.
2. **Recall**: the share of the reference found in the answer. Its *facts* (numbers, dates, times, codes, named
   entities, a yes/no, a refusal) each count 1; when there are facts they carry ``FACT_SHARE`` (0.8) of the
   recall and the other words the rest. Anything the query already states is not a fact and weighs
   ``QUERY_DISCOUNT`` (a quarter) as a word: restating the question is not answering it.
3. **Similarity** = ``recall x (0.85 + 0.15 x precision)``, where *precision* is the share of the answer's new
   tokens (not in the query) found in the reference.
4. **Detectors** ("gates", :mod:`agentic_core.judges.offline.findings.lexical_gates`, ``claim_gates``, ``role_gates``,
   ``list_gates``): findings such as a flipped negation or swapped roles, each with the words that say what it
   found. None caps or decides: the learned judge (:mod:`agentic_core.judges.offline.learned`) weighs each finding
   with a
   coefficient fitted on labelled pairs, and a detector stays only while it earns its place (docs/judges.md,
   "What each finding earns").

Recall and precision (steps 2 and 3) are in :mod:`agentic_core.judges.offline.findings.lexical_overlap`.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentic_core.judges.offline.findings.claim_gates import (
    Claim,
    claim_gates,
    read_claim,
    restates_question,
    retraction_from_polarity,
)
from agentic_core.judges.offline.findings.lexical_gates import Gate, fire_gates
from agentic_core.judges.offline.findings.lexical_overlap import (
    AnalysedPair,
    key_runs,
    measure_precision,
    measure_recall,
)
from agentic_core.judges.offline.findings.list_gates import list_gates
from agentic_core.judges.offline.findings.role_gates import role_gates
from agentic_core.judges.offline.findings.text_analysis import TextAnalysis, analyze_text

__all__ = [
    "RULES_VERSION",
    "LexicalAnalysis",
    "is_yes_no_question",
    "lexical_analysis",
]

RULES_VERSION = "lexical-v8"
"""Version of the analysis; in the offline judges' identity, so a changed analysis never reuses old verdicts
(v5: detectors only, no caps; v6: Snowball stems, no missing_date, missing_key_term or not_refusal; v7: no
refusal or missing_time detector, benchmarks/bench_findings_ablation.py, and scale words read by the fact parser's
reader alone: ``5 mn`` and ``$ 1.2 M`` are no longer millions; v8: one reader of numbers, dates and times for the
detectors and the facts, with Portuguese months, ``quarter to 9``, ``m/s``, ``₹``, ISO timestamps, and ``5 in 2010``
no longer a ratio)."""

# Any change below changes the features: bump RULES_VERSION.
PRECISION_FLOOR = 0.85

_YES_NO_STARTERS = frozenset(
    """
    is are was were am do does did can could will would shall should has have had may might must
    es esta estan son hay puedo puede puedes tiene tengo fue
    est sont peux peut puis ai as avez ont etait
    ist sind war kann kannst konnen hat habe haben gibt wird
    """.split()  # noqa: SIM905 - a word block reads better than a 50-item list literal
)
"""First words of yes/no questions (English, Spanish, French, German; accents folded)."""


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LexicalAnalysis:
    """The lexical analysis of one pair.

    Attributes:
        similarity: Token-overlap similarity, in [0, 1].
        recall: Share of the reference found in the answer (facts and words, see the module).
        precision: Share of the answer's new tokens that the reference contains.
        gates: The detectors that fired, in a fixed order.
    """

    similarity: float
    recall: float
    precision: float
    gates: tuple[Gate, ...]


# --------------------------------------------------------------------------------------------------
# Polarity
# --------------------------------------------------------------------------------------------------


def is_yes_no_question(query: str) -> bool:
    """Whether the query asks a yes/no question (``Is the flight on time?``, ``¿Hay parking?``).

    Args:
        query: The user's question.

    Returns:
        True when a sentence of the query starts with an auxiliary verb.
    """
    analysis = analyze_text(query)
    return any(
        t.kind == "word" and t.sentence_start and t.raw.lower() in _YES_NO_STARTERS for t in analysis.tokens
    )


def _polarity(text: TextAnalysis, query: TextAnalysis, yes_no: bool) -> tuple[str | None, str]:
    """The yes/no a text gives, and how it gives it.

    An opening yes/no word always counts. For a yes/no question, a negated first sentence is an implied
    "no" when the negation is verbal (``is not``, ``never``) or negates something the question asks
    about (``No visa is required``, ``The road is closed`` to "Is the road open?"), but not when it
    negates something else (``No errors were reported; the deployment succeeded`` answers "yes").

    A question asked with an inverse word ("Is the road closed?") turns this round: negating what it
    negates agrees with it ("The road isn't open" is no "no"), and affirming that is a "no" ("The road
    is open").
    """
    if text.polarity is not None:
        return text.polarity, "explicit"
    if not yes_no:
        return None, ""
    verbal, scoped = text.first_sentence_negation()
    asked = scoped & query.stems
    if asked and asked <= query.inverse_keys:
        return None, ""
    if verbal or asked:
        return "no", "implied by negation"
    if query.inverse_keys and not query.inverse_keys.isdisjoint(text.first_sentence_affirmed()):
        return "no", "implied by affirming what the question negates"
    return None, ""


def _answer_polarity(
    ans: TextAnalysis, claim: Claim | None, query: TextAnalysis, yes_no: bool
) -> tuple[tuple[str | None, str], bool]:
    """The answer's yes/no, taken from its final claim when it corrects itself, and whether the
    correction is what set it (then a disagreement is a retraction, not a plain polarity clash).

    The final claim's own yes/no counts first, then (for a yes/no question) a final claim that
    restates the question unnegated, which is a "yes". A yes/no before the marker stands only when the
    marker may merely add ("Yes. Update: ...") or is itself a "no" that takes back a "yes" ("Yes, it
    is. Wait, no, ..."); otherwise it was corrected.
    """
    if claim is None:
        return _polarity(ans, query, yes_no), False
    after = _polarity(claim.after, query, yes_no)
    if after[0] is not None:
        return (after[0], f"{after[1]}, after {claim.marker!r}"), True
    if yes_no and restates_question(claim.after, query):
        # "No refund was issued. Correction: the refund was issued." - a correction that restates
        # the question without negation answers it "yes".
        return ("yes", f"implied by restating the question after {claim.marker!r}"), True
    before = _polarity(claim.before, query, yes_no)
    if before[0] is None or claim.additive:
        return before, False
    if before[0] == "yes" and claim.marker.lower().endswith("no"):
        return ("no", f"{claim.marker!r} takes back the 'yes'"), True
    return (None, ""), False


# --------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------


def lexical_analysis(answer: str, ground_truth: str, query: str = "") -> LexicalAnalysis:
    """Score an answer against a ground truth and return the full working.

    Args:
        answer: The agent's answer.
        ground_truth: The reference answer.
        query: The user's question. Tokens it already contains count less, facts it states
            (``What is 15% of 80?``) are not required in the answer, and a yes/no question turns on
            the yes/no comparison.

    Returns:
        The :class:`LexicalAnalysis`: similarity, recall, precision and the detectors that fired.
    """
    ans = analyze_text(answer)
    gt = analyze_text(ground_truth)
    qry = analyze_text(query)
    yes_no = is_yes_no_question(query)
    claim = read_claim(answer)
    ans_pol, pol_from_claim = _answer_polarity(ans, claim, qry, yes_no)
    gt_pol = _polarity(gt, qry, yes_no)
    runs = key_runs(gt, qry)

    pair = AnalysedPair(ans, gt, qry, runs)
    recall = measure_recall(pair, (ans_pol[0], gt_pol[0]))
    matched, new = measure_precision(ans, gt, qry, (ans_pol[0], gt_pol[0]))
    precision = matched / new if new else 1.0
    similarity = round(recall.value * (PRECISION_FLOOR + (1.0 - PRECISION_FLOOR) * precision), 4)
    gates = fire_gates(pair, (ans_pol, gt_pol), None if claim is None else claim.after)
    if pol_from_claim:
        gates = retraction_from_polarity(gates)
    gates += claim_gates(pair, claim, gt_pol[0], yes_no, gates)
    gates += role_gates(pair)
    gates += list_gates(ans, gt, qry)
    return LexicalAnalysis(
        similarity=similarity,
        recall=round(recall.value, 4),
        precision=round(precision, 4),
        gates=tuple(gates),
    )
