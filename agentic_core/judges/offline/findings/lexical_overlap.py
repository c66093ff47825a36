"""Token overlap for the lexical judge: which ground-truth tokens an answer states, and how much.

Steps 2 and 3 of the score described in :mod:`agentic_core.judges.offline.findings.lexical` rest on the tests here:

* **presence**: whether a text states a token (a number, also in another unit of the same system or
  as the same share in another form, ``75%`` / ``0.75`` / ``3/4``; a date, possibly without its year;
  a time; a word stem), and whether the query already states it;
* **key runs**: the named entities (or, in a short truth, the words) that must appear in the answer;
* **recall** and **precision** of the answer against the ground truth, kept in parts for the reasoning.

The presence tests are shared by the similarity and by the gates
(:mod:`agentic_core.judges.offline.findings.lexical_gates`),
so they sit below both.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from agentic_core.judges.offline.findings.text_analysis import NAME_PARTICLES, TextAnalysis
from agentic_core.judges.offline.findings.tokens import Token, in_base_unit, unit_family
from agentic_core.judges.offline.findings.values import FRACTION_FAMILY, date_satisfies, numbers_equal, same_share

__all__ = [
    "FACT_SHARE",
    "QUERY_DISCOUNT",
    "SHORT_TRUTH_WORDS",
    "Recall",
    "dedupe",
    "is_fact",
    "key_runs",
    "measure_precision",
    "measure_recall",
    "name_present",
    "present_in",
    "run_present",
    "stated_in_query",
]

# Any change below changes scores: bump RULES_VERSION (agentic_core.judges.offline.findings.lexical).
FACT_SHARE = 0.8
QUERY_DISCOUNT = 0.25
SHORT_TRUTH_WORDS = 2
"""A ground truth of at most this many content words and no number / date / time / code *is* its
fact ("Paris", "Tokyo; the yen"): every word of it is key."""

NAME_SIMILARITY = 85
"""A name word this close to a word of the other text (rapidfuzz's ratio, 0-100) is the same name misspelt:
"Einstien" / "Einstein" 88, "Vivaldy" / "Vivaldi" 86, "Pittsburg" / "Pittsburgh" 95. So is a near-miss
("Austria" / "Australia" 88): the learned model weighs the fuzzy match apart (``entity_fuzzy``)."""
NAME_MIN_LENGTH = 4
"""Shorter words are never matched fuzzily ("Rome" / "Rose" is one letter and no misspelling)."""


# --------------------------------------------------------------------------------------------------
# Matching
# --------------------------------------------------------------------------------------------------


def is_fact(tok: Token) -> bool:
    """Whether a token is a fact (number, date, time or code) rather than a word."""
    return tok.kind in ("num", "date", "time", "code")


def _number_present(tok: Token, other: TextAnalysis) -> bool:
    assert tok.value is not None
    base = in_base_unit(tok)
    family = FRACTION_FAMILY if tok.parts else unit_family(tok.unit)
    # Only a share can equal a number in another form; most numbers are not, so skip the test.
    share = family in ("percent", FRACTION_FAMILY) or (
        family is None and tok.value != int(tok.value) and abs(tok.value) < 10
    )
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
        # The same share in another form: "75%" == "0.75" == "3/4".
        if share and same_share(tok.value, family, value, cand_family):
            return True
    if tok.parts:
        # "3 out of 4" is stated by an answer that gives both parts ("3 of the 4").
        plain = [v for v, _, fam in other.number_values if fam is None]
        return all(any(numbers_equal(p, v) for v in plain) for p in tok.parts)
    return False


def present_in(tok: Token, other: TextAnalysis) -> bool:
    """Whether ``other`` states the fact or word ``tok``."""
    if tok.kind == "num":
        return _number_present(tok, other)
    if tok.kind == "date":
        return any(date_satisfies(truth, given) for given in other.date_values for truth in tok.dates)
    if tok.kind == "time":
        return tok.key in other.time_keys
    if tok.alt_keys:
        return not other.stems.isdisjoint(tok.keys)
    return tok.key in other.stems


def fuzzy_name_match(key: str, keys: frozenset[str] | set[str]) -> str | None:
    """The key among ``keys`` that spells the name word ``key`` a little differently, if any (see
    :data:`NAME_SIMILARITY`)."""
    if len(key) < NAME_MIN_LENGTH or not keys:
        return None
    found = process.extractOne(key, keys, scorer=fuzz.ratio, score_cutoff=NAME_SIMILARITY)
    return None if found is None else str(found[0])


def name_present(tok: Token, other: TextAnalysis) -> bool:
    """Whether ``other`` states the word ``tok``, a capitalised name word also when misspelt."""
    if present_in(tok, other):
        return True
    return tok.kind == "word" and tok.capitalised and fuzzy_name_match(tok.key, other.stems) is not None


def stated_in_query(tok: Token, query: TextAnalysis) -> bool:
    """Whether the query already states ``tok``; a word also when it abbreviates a query word
    ("min" for "minimum"). Restating the question is not answering it.

    An inverse word ("closed") is stated only by a query that says it inversely too ("Is the road
    closed?"): "Is the road open?" asks, and "closed" answers."""
    if tok.inverse and tok.negated:
        return not query.inverse_keys.isdisjoint(tok.keys)
    if tok.kind == "word" and tok.key in query.inverse_keys:
        return False  # "open" answers "Is the road closed?"
    if present_in(tok, query):
        return True
    return tok.kind == "word" and len(tok.key) >= 3 and any(q.startswith(tok.key) for q in query.stems)


def dedupe(tokens: Sequence[Token]) -> list[Token]:
    """The tokens in order, without repeats of the same kind and key (the first one is kept)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for tok in tokens:
        ident = (tok.kind, tok.key)
        if ident not in seen:
            seen.add(ident)
            out.append(tok)
    return out


def key_runs(truth: TextAnalysis, query: TextAnalysis) -> list[list[Token]]:
    """Runs of words that must appear in the answer: named entities, or every word of a short truth.

    An entity is a run of capitalised content words (``Neil Armstrong``, ``Hilton Garden Inn``) with a
    word capitalised mid-sentence (a sentence-initial capital alone says nothing). In a short truth
    (see ``SHORT_TRUTH_WORDS``) every capitalised run and every other word is key. Runs wholly
    restated from the query are never key.
    """
    words = [t for t in truth.content if t.kind == "word"]
    short = len(words) <= SHORT_TRUTH_WORDS and not any(is_fact(t) for t in truth.content)
    runs: list[list[Token]] = []
    current: list[Token] = []
    for tok in truth.tokens:
        if tok.kind == "word" and tok.capitalised and not tok.stop and not tok.neg_cue:
            current.append(tok)
            continue
        if current and tok.kind == "word" and not tok.capitalised and tok.raw.lower() in NAME_PARTICLES:
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
        if ident not in seen and not all(stated_in_query(t, query) for t in run):
            seen.add(ident)
            out.append(run)
    return out


def run_present(run: Sequence[Token], ans: TextAnalysis, qry: TextAnalysis) -> bool:
    """Whether the answer states a key run (see :func:`key_runs`); words restated from the query
    do not count when the run has others."""
    words = [t for t in run if t.key not in qry.stems] or list(run)
    hits = sum(1 for t in words if name_present(t, ans))
    # The last word names the thing ("Shakespeare", "Aldrin"); otherwise half the words must be there.
    return name_present(run[-1], ans) or (hits > 0 and hits * 2 >= len(words))


# --------------------------------------------------------------------------------------------------
# Recall and precision
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recall:
    """Recall split into facts and other words."""

    fact_found: float
    fact_total: float
    word_found: float
    word_total: float

    @property
    def value(self) -> float:
        """The recall in [0, 1]: facts carry ``FACT_SHARE`` of it when there are facts and words."""
        if self.fact_total and self.word_total:
            return FACT_SHARE * self.fact_found / self.fact_total + (1.0 - FACT_SHARE) * (
                self.word_found / self.word_total
            )
        if self.fact_total:
            return self.fact_found / self.fact_total
        if self.word_total:
            return self.word_found / self.word_total
        return 0.0


@dataclass(frozen=True, slots=True)
class AnalysedPair:
    """One pair as every lexical check reads it: the answer, the ground truth and the query analysed, and
    the ground truth's key runs (:func:`key_runs`). What the query states counts less, and is never a fact."""

    ans: TextAnalysis
    gt: TextAnalysis
    qry: TextAnalysis
    runs: list[list[Token]]

    def __iter__(self) -> Iterator[Any]:
        """``ans, gt, qry, runs = pair``."""
        return iter((self.ans, self.gt, self.qry, self.runs))


def measure_recall(pair: AnalysedPair, polarities: tuple[str | None, str | None]) -> Recall:
    """Share of the ground truth found in the answer (step 2 in :mod:`agentic_core.judges.offline.findings.lexical`).

    Args:
        pair: The analysed answer, ground truth and query, and the ground truth's key runs.
        polarities: The yes/no of the answer and of the ground truth (``None``: none given).

    Returns:
        The :class:`Recall`, in parts.
    """
    ans, gt, qry, runs = pair
    ans_pol, gt_pol = polarities
    entity_keys = {t.key for run in runs for t in run}
    # A named entity found as a whole counts whole ("Shakespeare" for "William Shakespeare").
    run_found = {t.key for run in runs if run_present(run, ans, qry) for t in run}
    truth_tokens = dedupe(gt.content)
    if not truth_tokens and gt_pol is None and not gt.refusal:
        # A truth of function words only (the symbol "Au" is also French "au"): match them all.
        truth_tokens = [t for t in dedupe(gt.tokens) if t.kind in ("word", "code")]
    fact_found = fact_total = word_found = word_total = 0.0
    for tok in truth_tokens:
        in_query = stated_in_query(tok, qry)
        present = tok.key in ans.all_word_keys if tok.stop else present_in(tok, ans) or tok.key in run_found
        if (is_fact(tok) or tok.key in entity_keys) and not in_query:
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
    return Recall(fact_found, fact_total, word_found, word_total)


def measure_precision(
    ans: TextAnalysis, gt: TextAnalysis, qry: TextAnalysis, polarities: tuple[str | None, str | None]
) -> tuple[int, int]:
    """(matched, total) of the answer's new tokens (not in the query) that the ground truth holds."""
    ans_pol, gt_pol = polarities
    new = [t for t in dedupe(ans.content) if not stated_in_query(t, qry)]
    matched = sum(1 for t in new if present_in(t, gt) or t.key in gt.all_word_keys)
    total = len(new)
    if ans_pol is not None:
        total += 1
        matched += int(ans_pol == gt_pol)
    return matched, total
