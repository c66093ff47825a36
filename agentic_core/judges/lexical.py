"""The ``lexical`` judge: normalised token overlap with fact gates. Offline, no model, pure Python.

How a score is made (the reasoning names every step, so a score can be reproduced by hand):

1. **Normalise** query, answer and ground truth into typed tokens (:mod:`agentic_core.judges.normalize`):
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
4. **Gates** cap or cut the similarity when a fact disagrees, whatever the overlap:

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

**Threshold.** ``recommended_threshold`` is *declared* as 0.7, the product default, and the constants
were tuned on the dev half of ``sample_data/judge_devset.jsonl`` so that 0.7 is a good cut: dev
ROC-AUC 0.944, accuracy 0.913 at 0.7 (the best dev cut, about 0.55, gains one pair: a paraphrase).
On the held-out test half, evaluated once after the rules were frozen: ROC-AUC 0.946, accuracy 0.906
at 0.7, which is also its best cut there. Every cap sits below 0.7, so any fired gate makes an answer
incorrect at the default. ``benchmarks/judge_accuracy.py`` reports all of this.

**Known weaknesses.** Rewordings that share no words ("Insufficient funds" / "not enough money",
"out of stock" / "in stock", "closed" / "not open") are invisible to it: that is what the hybrid
judge's embedding similarity is for. Translations are matched only through numbers, dates, names and
yes/no words. A yes/no ground truth that adds a descriptive word ("No, it is closed on Sundays") makes
that word key when the truth is short.

For the hybrid judge, :func:`lexical_analysis` returns the gates separately, and
:meth:`LexicalAnalysis.apply_gates` applies them to another similarity (an embedding cosine, say).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.normalize import (
    TextAnalysis,
    Token,
    analyze_text,
    date_satisfies,
    format_date,
    in_base_unit,
    numbers_equal,
    unit_family,
)

__all__ = [
    "RECOMMENDED_THRESHOLD",
    "RULES_VERSION",
    "Gate",
    "GateName",
    "LexicalAnalysis",
    "LexicalJudge",
    "is_yes_no_question",
    "lexical_analysis",
    "lexical_score",
]

RULES_VERSION = "lexical-v1"
"""Version of the rules; in the judge identity, so changed rules never reuse old verdicts."""

RECOMMENDED_THRESHOLD = 0.7
"""Declared best cut (see the module docstring)."""

# Any change below changes scores: bump RULES_VERSION.
FACT_SHARE = 0.8
QUERY_DISCOUNT = 0.25
PRECISION_FLOOR = 0.85
CAP_NOT_REFUSAL = 0.30
CAP_POLARITY = 0.25
CAP_NEGATION = 0.30
CAP_MISSING_FACT = 0.35
CAP_UNIT = 0.40
CAP_KEY_TERM = 0.50
EXTRA_VALUE_FACTOR = 0.85
SHORT_TRUTH_WORDS = 2
"""A ground truth of at most this many content words and no number / date / time / code *is* its
fact ("Paris", "Tokyo; the yen"): every word of it is key."""

GateName = Literal[
    "refusal",
    "not_refusal",
    "polarity",
    "negation",
    "missing_number",
    "missing_date",
    "missing_time",
    "unit_conflict",
    "missing_key_term",
    "extra_value",
]

_NAME_PARTICLES = frozenset({"da", "de", "van", "von", "di", "del", "la", "le", "du", "der", "bin", "al"})
"""Lower-case words that may sit inside a name ("Leonardo da Vinci")."""

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
class Gate:
    """A rule that fired.

    Attributes:
        name: Which rule.
        detail: What it found (``"ground-truth number 3.14 missing from answer (found 3.15)"``).
        cap: The score is at most this, when set.
        factor: The score is multiplied by this, when set.
    """

    name: GateName
    detail: str
    cap: float | None = None
    factor: float | None = None

    def describe(self) -> str:
        """The gate as one reasoning clause, its effect included."""
        if self.cap is not None:
            effect = "score 0" if self.cap == 0 else f"capped at {self.cap:.2f}"
        else:
            effect = f"x {self.factor:.2f}"
        return f"{self.detail}: {effect}"


@dataclass(frozen=True)
class LexicalAnalysis:
    """The lexical judge's full working for one pair.

    Attributes:
        similarity: Token-overlap similarity before gates, in [0, 1].
        recall: Share of the ground truth found in the answer (facts and words, see the module).
        precision: Share of the answer's new tokens that the ground truth contains.
        gates: The gates that fired, in a fixed order.
        score: ``similarity`` with the gates applied.
        reasoning: Deterministic text naming the similarity, its parts and every gate.
    """

    similarity: float
    recall: float
    precision: float
    gates: tuple[Gate, ...]
    score: float
    reasoning: str

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
        return _apply(similarity, self.gates)


def _apply(similarity: float, gates: Sequence[Gate]) -> float:
    score = min(max(similarity, 0.0), 1.0)
    for gate in gates:
        if gate.factor is not None:
            score *= gate.factor
    for gate in gates:
        if gate.cap is not None:
            score = min(score, gate.cap)
    return round(score, 4)


# --------------------------------------------------------------------------------------------------
# Matching
# --------------------------------------------------------------------------------------------------


def _is_fact(tok: Token) -> bool:
    return tok.kind in ("num", "date", "time", "code")


def _number_present(tok: Token, other: TextAnalysis) -> bool:
    assert tok.value is not None
    base = in_base_unit(tok)
    family = unit_family(tok.unit)
    for value, cand_base, cand_family in other.number_values:
        if numbers_equal(value, tok.value):
            return True
        # The same quantity in another unit of the same system: "2.5 hours" == "150 minutes".
        if (
            base is not None
            and cand_base is not None
            and cand_family == family
            and numbers_equal(base, cand_base)
        ):
            return True
    return False


def _present(tok: Token, other: TextAnalysis) -> bool:
    """Whether ``other`` states the fact or word ``tok``."""
    if tok.kind == "num":
        return _number_present(tok, other)
    if tok.kind == "date":
        return any(date_satisfies(truth, given) for given in other.date_values for truth in tok.dates)
    if tok.kind == "time":
        return tok.key in other.time_keys
    return tok.key in other.stems


def _in_query(tok: Token, query: TextAnalysis) -> bool:
    """Whether the query already states ``tok``; a word also when it abbreviates a query word
    ("min" for "minimum"). Restating the question is not answering it."""
    if _present(tok, query):
        return True
    return tok.kind == "word" and len(tok.key) >= 3 and any(q.startswith(tok.key) for q in query.stems)


def _dedupe(tokens: Sequence[Token]) -> list[Token]:
    seen: set[tuple[str, str]] = set()
    out = []
    for tok in tokens:
        ident = (tok.kind, tok.key)
        if ident not in seen:
            seen.add(ident)
            out.append(tok)
    return out


def _key_runs(truth: TextAnalysis, query: TextAnalysis) -> list[list[Token]]:
    """Runs of words that must appear in the answer: named entities, or every word of a short truth.

    An entity is a run of capitalised content words (``Neil Armstrong``, ``Hilton Garden Inn``) with a
    word capitalised mid-sentence (a sentence-initial capital alone says nothing). In a short truth
    (see ``SHORT_TRUTH_WORDS``) every capitalised run and every other word is key. Runs wholly
    restated from the query are never key.
    """
    words = [t for t in truth.content if t.kind == "word"]
    short = len(words) <= SHORT_TRUTH_WORDS and not any(_is_fact(t) for t in truth.content)
    runs: list[list[Token]] = []
    current: list[Token] = []
    for tok in truth.tokens:
        if tok.kind == "word" and tok.capitalised and not tok.stop and not tok.neg_cue:
            current.append(tok)
            continue
        if current and tok.kind == "word" and not tok.capitalised and tok.raw.lower() in _NAME_PARTICLES:
            continue
        if current:
            runs.append(current)
        current = []
        if short and tok.kind == "word" and not tok.stop and not tok.neg_cue:
            runs.append([tok])
    if current:
        runs.append(current)
    if not short:
        runs = [run for run in runs if any(not t.sentence_start for t in run)]
    out: list[list[Token]] = []
    seen: set[tuple[str, ...]] = set()
    for run in runs:
        ident = tuple(t.key for t in run)
        if ident not in seen and not all(_in_query(t, query) for t in run):
            seen.add(ident)
            out.append(run)
    return out


def _run_present(run: Sequence[Token], ans: TextAnalysis, qry: TextAnalysis) -> bool:
    keys = [t.key for t in run if t.key not in qry.stems] or [t.key for t in run]
    hits = sum(1 for k in keys if k in ans.stems)
    # The last word names the thing ("Shakespeare", "Aldrin"); otherwise half the words must be there.
    return run[-1].key in ans.stems or (hits > 0 and hits * 2 >= len(keys))


def _show(tok: Token) -> str:
    if tok.kind == "num":
        if tok.unit is None:
            return tok.key
        return f"{tok.key}%" if tok.unit == "%" else f"{tok.key} {tok.unit}"
    if tok.kind == "date":
        return format_date(tok.dates[0])
    if tok.kind == "word":
        return tok.raw.lower()
    return tok.key


def _fmt_tokens(tokens: Sequence[Token], limit: int = 3) -> str:
    shown = ", ".join(_show(t) for t in tokens[:limit])
    more = len(tokens) - limit
    return shown + (f" (+{more} more)" if more > 0 else "")


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
    about (``No visa is required``), but not when it negates something else (``No errors were
    reported; the deployment succeeded`` answers "yes").
    """
    if text.polarity is not None:
        return text.polarity, "explicit"
    if not yes_no:
        return None, ""
    verbal, scoped = text.first_sentence_negation()
    if verbal or scoped & query.stems:
        return "no", "implied by negation"
    return None, ""


# --------------------------------------------------------------------------------------------------
# Similarity
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Recall:
    """Recall split into facts and other words (kept for the reasoning)."""

    fact_found: float
    fact_total: float
    word_found: float
    word_total: float

    @property
    def value(self) -> float:
        if self.fact_total and self.word_total:
            return FACT_SHARE * self.fact_found / self.fact_total + (1.0 - FACT_SHARE) * (
                self.word_found / self.word_total
            )
        if self.fact_total:
            return self.fact_found / self.fact_total
        if self.word_total:
            return self.word_found / self.word_total
        return 0.0

    def describe(self) -> str:
        fact = f"facts {self.fact_found:g}/{self.fact_total:g}"
        word = f"words {self.word_found:.2f}/{self.word_total:.2f}"
        if self.fact_total and self.word_total:
            return f"{FACT_SHARE:.2f} x {fact} + {1 - FACT_SHARE:.2f} x {word}"
        if self.fact_total:
            return fact
        if self.word_total:
            return word
        return "nothing to match"


def _recall(
    ans: TextAnalysis,
    gt: TextAnalysis,
    qry: TextAnalysis,
    runs: list[list[Token]],
    polarities: tuple[str | None, str | None],
) -> _Recall:
    ans_pol, gt_pol = polarities
    entity_keys = {t.key for run in runs for t in run}
    # A named entity found as a whole counts whole ("Shakespeare" for "William Shakespeare").
    run_found = {t.key for run in runs if _run_present(run, ans, qry) for t in run}
    truth_tokens = _dedupe(gt.content)
    if not truth_tokens and gt_pol is None and not gt.refusal:
        # A truth of function words only (the symbol "Au" is also French "au"): match them all.
        truth_tokens = [t for t in _dedupe(gt.tokens) if t.kind in ("word", "code")]
    fact_found = fact_total = word_found = word_total = 0.0
    for tok in truth_tokens:
        in_query = _in_query(tok, qry)
        present = tok.key in ans.all_word_keys if tok.stop else _present(tok, ans) or tok.key in run_found
        if (_is_fact(tok) or tok.key in entity_keys) and not in_query:
            fact_total += 1.0
            fact_found += float(present)
        else:
            weight = QUERY_DISCOUNT if in_query else 1.0
            word_total += weight
            word_found += weight * float(present)
    if gt_pol is not None:
        fact_total += 1.0
        fact_found += float(ans_pol == gt_pol)
    if gt.refusal:
        fact_total += 1.0
        fact_found += float(bool(ans.refusal))
    return _Recall(fact_found, fact_total, word_found, word_total)


def _precision(
    ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis, polarities: tuple[str | None, str | None]
) -> tuple[int, int]:
    """(matched, total) of the answer's new tokens (not in the query) that the ground truth holds."""
    ans_pol, gt_pol = polarities
    new = [t for t in _dedupe(ans.content) if not _in_query(t, qry)]
    matched = sum(1 for t in new if _present(t, gt) or t.key in gt.all_word_keys)
    total = len(new)
    if ans_pol is not None:
        total += 1
        matched += int(ans_pol == gt_pol)
    return matched, total


# --------------------------------------------------------------------------------------------------
# Gates
# --------------------------------------------------------------------------------------------------


def _clause_negation(text: TextAnalysis) -> dict[int, bool]:
    neg: dict[int, bool] = {}
    for tok in text.tokens:
        neg[tok.clause] = neg.get(tok.clause, False) or tok.neg_cue
    return neg


def _negation_conflict(ans: TextAnalysis, gt: TextAnalysis) -> str | None:
    """Words shared by answer and truth, negated in one and affirmed in the other.

    Negation is judged per clause: a word is negated when its clause holds a negation cue. A shared
    word conflicts when none of its occurrences in the answer has the truth's polarity. The gate fires
    when at least half of the shared words conflict (a stray "no" elsewhere in a long answer does not).
    """
    truth_neg = _clause_negation(gt)
    answer_neg = _clause_negation(ans)
    truth_pol: dict[str, set[bool]] = {}
    for tok in gt.content:
        if tok.kind in ("word", "code", "num"):
            truth_pol.setdefault(tok.key, set()).add(truth_neg[tok.clause])
    answer_pol: dict[str, set[bool]] = {}
    for tok in ans.content:
        if tok.kind in ("word", "code", "num"):
            answer_pol.setdefault(tok.key, set()).add(answer_neg[tok.clause])
    shared = sorted(set(truth_pol) & set(answer_pol))
    conflicting = [k for k in shared if not (truth_pol[k] & answer_pol[k])]
    if not conflicting or len(conflicting) * 2 < len(shared):
        return None
    negated_in = "answer" if any(True in answer_pol[k] for k in conflicting) else "ground truth"
    return (
        f"opposite negation: {', '.join(conflicting[:4])} negated in the {negated_in} only "
        f"({len(conflicting)}/{len(shared)} shared words)"
    )


_MISSING_GATE: dict[str, GateName] = {"num": "missing_number", "date": "missing_date", "time": "missing_time"}


def _missing_fact_gates(ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis) -> list[Gate]:
    """Numbers, dates and times of the ground truth (not stated by the query) absent from the answer."""
    gates: list[Gate] = []
    for kind, label in (("num", "number"), ("date", "date"), ("time", "time")):
        truth = _dedupe([t for t in gt.content if t.kind == kind])
        missing = [t for t in truth if not _present(t, qry) and not _present(t, ans)]
        if not missing:
            continue
        # Say what the answer gave instead: the reasoning must show why, not only what.
        others = _dedupe([t for t in ans.content if t.kind == kind and not _present(t, gt)])
        if kind == "num":
            others = [t for t in others if not _present(t, qry)]
        if others:
            found = f" (found {_fmt_tokens(others)})"
        elif not any(t.kind == kind for t in ans.content):
            found = f" (answer states no {label})"
        else:
            found = ""
        noun = label if len(missing) == 1 else label + "s"
        name = _MISSING_GATE[kind]
        detail = f"ground-truth {noun} {_fmt_tokens(missing)} missing from answer{found}"
        gates.append(Gate(name, detail, cap=CAP_MISSING_FACT))
    return gates


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
            return f"unit conflict: ground truth {_show(tok)}, answer {_show(clash[0])}"
    return None


def _missing_key_terms(
    ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis, runs: list[list[Token]]
) -> list[str]:
    codes = _dedupe([t for t in gt.content if t.kind == "code"])
    missing = [t.raw for t in codes if not _present(t, qry) and not _present(t, ans)]
    missing += [" ".join(t.raw for t in run) for run in runs if not _run_present(run, ans, qry)]
    return missing


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
    types = {_value_type(t) for t in gt.content if _is_fact(t)} - {None}
    # Only beside values the answer does state: when one is missing, the missing-fact gate says so.
    types = {vt for vt in types if all(_present(t, ans) for t in gt.content if _value_type(t) == vt)}
    if not types:
        return None
    extra = [
        t
        for t in _dedupe(ans.content)
        if _value_type(t) in types and not _present(t, gt) and not _in_query(t, qry)
    ]
    if not extra:
        return None
    return f"answer adds {_fmt_tokens(extra)} beside the ground-truth values"


def _gates(
    ans: TextAnalysis,
    gt: TextAnalysis,
    qry: TextAnalysis,
    runs: list[list[Token]],
    polarity: tuple[tuple[str | None, str], tuple[str | None, str]],
) -> list[Gate]:
    (ans_pol, ans_how), (gt_pol, gt_how) = polarity
    gates: list[Gate] = []
    if ans.refusal and not gt.refusal:
        # A refusal answers nothing, however many words it shares with the truth.
        gates.append(Gate("refusal", f"answer is a refusal ({ans.refusal!r})", cap=0.0))
    elif gt.refusal and not ans.refusal:
        detail = f"ground truth refuses ({gt.refusal!r}) but the answer does not"
        gates.append(Gate("not_refusal", detail, cap=CAP_NOT_REFUSAL))
    if ans_pol is not None and gt_pol is not None:
        # Both give a yes/no: that compares the main claims; per-word negation would only add noise
        # ("No visa is required" vs "No, ... visa-free").
        if ans_pol != gt_pol:
            detail = f"answer says {ans_pol!r} ({ans_how}), ground truth says {gt_pol!r} ({gt_how})"
            gates.append(Gate("polarity", detail, cap=CAP_POLARITY))
    elif not (ans.refusal and gt.refusal):
        conflict = _negation_conflict(ans, gt)
        if conflict:
            gates.append(Gate("negation", conflict, cap=CAP_NEGATION))
    gates.extend(_missing_fact_gates(ans, gt, qry))
    unit = _unit_conflict(ans, gt)
    if unit:
        gates.append(Gate("unit_conflict", unit, cap=CAP_UNIT))
    terms = _missing_key_terms(ans, gt, qry, runs)
    if terms:
        noun = "key term" if len(terms) == 1 else "key terms"
        detail = f"ground-truth {noun} {', '.join(terms)} missing from answer"
        gates.append(Gate("missing_key_term", detail, cap=CAP_KEY_TERM))
    extra = _extra_values(ans, gt, qry)
    if extra:
        gates.append(Gate("extra_value", extra, factor=EXTRA_VALUE_FACTOR))
    return gates


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
    ans_pol = _polarity(ans, qry, yes_no)
    gt_pol = _polarity(gt, qry, yes_no)
    runs = _key_runs(gt, qry)

    recall = _recall(ans, gt, qry, runs, (ans_pol[0], gt_pol[0]))
    matched, new = _precision(ans, gt, qry, (ans_pol[0], gt_pol[0]))
    precision = matched / new if new else 1.0
    # Rounded before the gates so the reasoning's numbers reproduce the score exactly.
    similarity = round(recall.value * (PRECISION_FLOOR + (1.0 - PRECISION_FLOOR) * precision), 4)
    gates = _gates(ans, gt, qry, runs, (ans_pol, gt_pol))
    score = _apply(similarity, gates)

    pieces = [
        f"similarity {similarity:.4f} = recall {recall.value:.4f} [{recall.describe()}] x "
        f"({PRECISION_FLOOR:.2f} + {1 - PRECISION_FLOOR:.2f} x precision {precision:.4f} "
        f"[{matched}/{new} new answer tokens in ground truth])"
    ]
    pieces.extend(g.describe() for g in gates)
    if not gates:
        pieces.append("no gate fired")
    pieces.append(f"score {score:.4f}")
    return LexicalAnalysis(
        similarity=similarity,
        recall=round(recall.value, 4),
        precision=round(precision, 4),
        gates=tuple(gates),
        score=score,
        reasoning="; ".join(pieces),
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
