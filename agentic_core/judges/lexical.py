"""The ``lexical`` judge: normalised token overlap with fact gates. Offline, no model, pure Python.

How a score is made (the reasoning names every step, so a score can be reproduced by hand):

1. **Normalise** query, answer and ground truth into typed tokens (:mod:`agentic_core.judges.text_analysis`):
   numbers, dates, times, units, currencies, codes, stemmed words, negation, yes/no, refusals.
2. **Recall**: the share of the ground truth found in the answer. Its *facts* (numbers, dates, times,
   codes, named entities, a yes/no, a refusal) each count 1; when there are facts they carry
   ``FACT_SHARE`` (0.8) of the recall and the other words the rest, so "1989" fully answers "What year
   did the Wall fall?" although the reference says "The Berlin Wall fell in 1989.". Anything the
   query already states is not a fact and weighs ``QUERY_DISCOUNT`` (a quarter) as a word:
   restating the question is not answering it.
3. **Similarity** = ``recall x (0.85 + 0.15 x precision)``, where *precision* is the share of the
   answer's new tokens (not in the query) found in the ground truth. It can only take 15% off, so a
   verbose correct answer still passes.
4. **Gates** cap or cut the similarity when a fact disagrees, whatever the overlap. The fact gates
   (:mod:`agentic_core.judges.lexical_gates`):

   ================  ================================================================  ========
   gate              fires when                                                        effect
   ================  ================================================================  ========
   refusal           the answer refuses and the ground truth does not                   score 0
   not_refusal       the ground truth refuses and the answer does not                   cap 0.30
   polarity          yes/no disagree (explicit, or a "no" implied by negation)          cap 0.25
   negation          words shared by both are negated in one and affirmed in the other  cap 0.30
   missing_number    a ground-truth number (not stated in the query) is absent          cap 0.35
   missing_date      a ground-truth date is absent (an omitted year is tolerated)       cap 0.35
   missing_time      a ground-truth time is absent                                      cap 0.35
   unit_conflict     the number is there with another unit / currency of its kind       cap 0.40
   missing_key_term  a code, a named entity, or a word of a one- or two-word truth       cap 0.50
   extra_value       the answer adds values of exactly the ground truth's type          x 0.85
   ================  ================================================================  ========

   Then the gates for answers that hold the right words but do not stand by them (each module's
   docstring has the details):

   =================  ===============================================================  ========  ===========
   gate               fires when                                                       effect    module
   =================  ===============================================================  ========  ===========
   self_correction    after "wait, no" / "correction:" ... a truth value is replaced   cap 0.30  claim_gates
   retraction         after such a marker the claim is withdrawn or negated            cap 0.25  claim_gates
   hedge              the truth value is one of several candidates joined by "or"      cap 0.40  claim_gates
   buried_negation    (yes/no) the last clause about the question negates it           cap 0.30  claim_gates
   swapped_roles      two truth values of one kind trade their cue words               cap 0.30  role_gates
   conflicting_value  another value in the truth value's words, beside the truth's     cap 0.40  role_gates
   sibling_entity     part of a truth name kept, the distinguishing part replaced      cap 0.40  role_gates
   missing_list_item  the truth lists items and the answer gives some, not all          cap 0.45  list_gates
   =================  ===============================================================  ========  ===========

   When an answer corrects itself, its yes/no and its extra values are read from the final claim.
   Numbers in other forms agree (``75%`` / ``0.75`` / ``3/4`` / ``three quarters``, ``$1.2M`` /
   ``$1,200,000``, ``2 years`` / ``24 months``; :func:`agentic_core.judges.values.same_share`).

   The reasoning names each gate that fired in brackets (``[missing_number] ... : capped at 0.35``)
   and ends with notes on what an offline judge cannot be sure of (a hedge it does not cap, a
   correction it judged by the final claim); notes never change the score.

**Threshold.** ``recommended_threshold`` is *declared* as 0.7, the product default, and the constants
were tuned on the dev split of ``sample_data/judge_devset.jsonl`` so that 0.7 is a good cut; the test and
holdout splits measure it. Every cap sits below 0.7, so any fired gate makes an answer incorrect at the
default. ``benchmarks/judge_accuracy.py`` measures accuracy and ROC-AUC per split and category; the figures
are in benchmarks/RESULTS.md (docstrings keep none: they would drift as the rules change).

**Known weaknesses.** Rewordings that share no words ("Insufficient funds" / "not enough money",
"out of stock" / "in stock", "closed" / "not open") are invisible to it: that is what the hybrid
judge's embedding similarity is for. Translations are matched only through numbers, dates, names and
yes/no words. A yes/no ground truth that adds a descriptive word ("No, it is closed on Sundays") makes
that word key when the truth is short. The claim and role gates are lexical too: a swap told with a
converse verb ("Chelsea won against Arsenal" for "Arsenal beat Chelsea"), a sibling that only inserts
a word ("Oxford Brookes University" for "University of Oxford"), a hedge without "or" ("if that fails,
it may be ...") and a retraction without a marker or a negation ("it is still at the warehouse") pass
unseen.

For the hybrid judge, :func:`lexical_analysis` returns the gates separately, and
:meth:`LexicalAnalysis.apply_gates` applies them to another similarity (an embedding cosine, say).

This module holds the judge and the steps' assembly; recall and precision (steps 2 and 3) are in
:mod:`agentic_core.judges.lexical_overlap`, the gates (step 4) in :mod:`agentic_core.judges.lexical_gates`,
:mod:`agentic_core.judges.claim_gates`, :mod:`agentic_core.judges.role_gates` and
:mod:`agentic_core.judges.list_gates`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.claim_gates import (
    Claim,
    claim_gates,
    read_claim,
    restates_question,
    retraction_from_polarity,
)
from agentic_core.judges.lexical_gates import Gate, fire_gates, gated_score
from agentic_core.judges.lexical_overlap import AnalysedPair, key_runs, measure_precision, measure_recall
from agentic_core.judges.list_gates import list_gates
from agentic_core.judges.role_gates import role_gates
from agentic_core.judges.text_analysis import TextAnalysis, analyze_text

__all__ = [
    "RECOMMENDED_THRESHOLD",
    "RULES_VERSION",
    "LexicalAnalysis",
    "LexicalJudge",
    "is_yes_no_question",
    "lexical_analysis",
    "lexical_score",
]

RULES_VERSION = "lexical-v4"
"""Version of the rules; in the judge identity, so changed rules never reuse old verdicts."""

RECOMMENDED_THRESHOLD = 0.7
"""Declared best cut (see the module docstring)."""

# Any change below changes scores: bump RULES_VERSION.
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
    """The lexical judge's full working for one pair.

    Attributes:
        similarity: Token-overlap similarity before gates, in [0, 1].
        recall: Share of the ground truth found in the answer (facts and words, see the module).
        precision: Share of the answer's new tokens that the ground truth contains.
        gates: The gates that fired, in a fixed order.
        score: ``similarity`` with the gates applied.
        reasoning: Deterministic text naming the similarity, its parts, every gate and every note.
        notes: What the judge could not be sure of (a hedge it did not cap, a self-correction it
            judged on the final claim); they do not change the score.
    """

    similarity: float
    recall: float
    precision: float
    gates: tuple[Gate, ...]
    score: float
    reasoning: str
    notes: tuple[str, ...] = ()

    @property
    def cap(self) -> float | None:
        """The lowest cap among the fired gates (``None`` when no cap fired)."""
        caps = [g.cap for g in self.gates if g.cap is not None]
        return min(caps) if caps else None

    def apply_gates(self, similarity: float) -> float:
        """Apply these gates to another similarity (the hybrid judge's embedding cosine, say).

        Args:
            similarity: Any similarity; clipped to [0, 1] first.

        Returns:
            ``similarity`` times every factor, then limited by every cap, rounded to 4 places.
        """
        return gated_score(similarity, self.gates)


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
        The :class:`LexicalAnalysis`: similarity, recall, precision, gates, score and reasoning.
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
    # Rounded before the gates so the reasoning's numbers reproduce the score exactly.
    similarity = round(recall.value * (PRECISION_FLOOR + (1.0 - PRECISION_FLOOR) * precision), 4)
    gates = fire_gates(pair, (ans_pol, gt_pol), None if claim is None else claim.after)
    if pol_from_claim:
        gates = retraction_from_polarity(gates)
    more, notes = claim_gates(pair, claim, gt_pol[0], yes_no, gates)
    gates += more
    gates += role_gates(pair)
    gates += list_gates(ans, gt, qry)
    score = gated_score(similarity, gates)

    pieces = [
        f"similarity {similarity:.4f} = recall {recall.value:.4f} [{recall.describe()}] x "
        f"({PRECISION_FLOOR:.2f} + {1 - PRECISION_FLOOR:.2f} x precision {precision:.4f} "
        f"[{matched}/{new} new answer tokens in ground truth])"
    ]
    pieces.extend(g.describe() for g in gates)
    if not gates:
        pieces.append("no gate fired")
    pieces.extend(f"note: {n}" for n in notes)
    pieces.append(f"score {score:.4f}")
    return LexicalAnalysis(
        similarity=similarity,
        recall=round(recall.value, 4),
        precision=round(precision, 4),
        gates=tuple(gates),
        score=score,
        reasoning="; ".join(pieces),
        notes=tuple(notes),
    )


def lexical_score(answer: str, ground_truth: str, query: str = "") -> tuple[float, str]:
    """Score an answer against a ground truth.

    Args:
        answer: The agent's answer.
        ground_truth: The reference answer.
        query: The user's question (optional; it sharpens the score, see :func:`lexical_analysis`).

    Returns:
        ``(score, reasoning)``: the score in [0, 1] and the deterministic reasoning.
    """
    result = lexical_analysis(answer, ground_truth, query)
    return result.score, result.reasoning


class LexicalJudge:
    """Offline judge: normalised token overlap with number / date / key-term / negation / refusal gates.

    Deterministic, needs no key, model or network, and judges thousands of pairs per second, so its
    verdicts are not cached (``cacheable`` is false): recomputing is as fast as a cache lookup.
    """

    cacheable: bool = False

    def __init__(self) -> None:
        self.identity = JudgeIdentity(
            kind="lexical", model=None, prompt_version=None, params={"rules": RULES_VERSION}
        )
        self.recommended_threshold: float = RECOMMENDED_THRESHOLD

    def judge_one(self, item: JudgeItem) -> Verdict:
        """Judge one item synchronously; never raises (a failure becomes a ``failed`` verdict).

        Args:
            item: The item to judge.

        Returns:
            Its verdict.
        """
        start = time.perf_counter()
        try:
            score, reasoning = lexical_score(item.answer, item.ground_truth, item.query)
        except Exception as exc:  # a bug on one odd input must not sink a whole run
            return Verdict(
                score=None,
                status="failed",
                error=f"lexical judge failed: {type(exc).__name__}: {exc}",
                latency_s=time.perf_counter() - start,
            )
        return Verdict(score=score, reasoning=reasoning, status="ok", latency_s=time.perf_counter() - start)

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item, in order.

        Args:
            items: The items to judge.
            progress: Called as ``progress(done, total)`` about every 1% and at the end
                (once with ``(0, 0)`` for no items).

        Returns:
            One verdict per item, in the same order; status ``ok`` or ``failed``.
        """
        total = len(items)
        verdicts: list[Verdict] = []
        step = max(1, total // 100)
        for i, item in enumerate(items, start=1):
            verdicts.append(self.judge_one(item))
            if i % step == 0 or i == total:
                if progress is not None:
                    progress(i, total)
                # CPU-bound work: give the event loop a turn now and then so a UI stays responsive.
                await asyncio.sleep(0)
        if progress is not None and total == 0:
            progress(0, 0)
        return verdicts
