"""The learned judge's features: what it measures about one (query, answer, reference) triple.

A feature is a number (in [0, 1], but for the count of findings) with a name and a way to say it in words. Three kinds:

* **similarities**: the MiniLM embedding cosine, rapidfuzz's token-set ratio, and the lexical
  analysis' word similarity, recall (how much of the reference the answer states) and precision
  (how much of the answer the reference backs), and how many distinct detectors fired;
* **detectors**: 1 when a check of the lexical analysis found something (a reference number missing
  from the answer, a flipped negation, swapped roles, a hedge, ...), else 0. The detectors keep
  the analysis' words for the reasoning but none of its hand-set caps: how much each finding
  weighs is a coefficient fitted on labelled pairs (``scripts/fit_learned_judge.py``).
* **fact agreement** (:mod:`agentic_core.judges.offline.facts`): per kind of fact (number, date, time, amount
  with a unit), the share of the reference's facts the answer does not state, and whether it states
  another one instead; read off the same tokens as the detectors, converted with ``pint``.

The column order is :data:`FEATURES`; the fitted coefficients name their features, so a model
file written for another order is refused rather than misread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import get_args

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz

from agentic_core.judges.offline.fact_agreement import NEAR_KINDS, fact_agreement
from agentic_core.judges.offline.facts import KINDS
from agentic_core.judges.offline.findings.lexical import LexicalAnalysis, lexical_analysis
from agentic_core.judges.offline.findings.lexical_gates import GateName
from agentic_core.judges.offline.findings.lexical_overlap import fuzzy_name_match
from agentic_core.judges.offline.findings.text_analysis import analyze_text

__all__ = [
    "DETECTORS",
    "FEATURES",
    "SIMILARITIES",
    "PairFeatures",
    "feature_matrix",
    "pair_features",
]

SIMILARITIES: tuple[str, ...] = (
    "cosine",
    "token_set",
    "word_similarity",
    "recall",
    "precision",
    "findings",
    "entity_missing",
    "entity_conflict",
    "entity_fuzzy",
    "code_missing",
    *(f"{kind}_{what}" for kind in KINDS for what in ("missing", "conflict", "extra")),
    *(f"{kind}_near" for kind in NEAR_KINDS),
)
"""The similarity and agreement features, in column order (``findings``: how many distinct detectors
fired; ``entity_missing``: the reference names an entity the answer does not; ``entity_conflict``: and the
answer names another one instead; ``entity_fuzzy``: a reference name is only misspelt; ``code_missing``: a code of
the reference is not in the answer; ``number_missing`` .. ``amount_conflict``: the fact agreement of
:mod:`agentic_core.judges.offline.facts`, the share of the reference's facts of that kind the answer does not state and
whether it states another one instead)."""
DETECTORS: tuple[str, ...] = tuple(get_args(GateName))
"""One indicator per finding of the lexical analysis, in column order."""
FEATURES: tuple[str, ...] = SIMILARITIES + DETECTORS
"""Every feature, in column order."""

_WORDS = {
    "cosine": "embedding cosine {:.2f}",
    "token_set": "fuzzy word overlap {:.2f}",
    "word_similarity": "word similarity {:.2f}",
    "recall": "{:.0%} of the reference stated",
    "precision": "{:.0%} of the answer backed by the reference",
    "findings": "{:.0f} finding(s)",
}
SHORT_TEXT_WORDS = 3
"""A text of at most this many words is a name ("Canberra", "The Nile"): its first word may be an entity."""


@dataclass(frozen=True, slots=True)
class PairFeatures:
    """One pair's features and the words for each finding.

    Attributes:
        values: One value per :data:`FEATURES` name (``cosine`` is NaN without embeddings).
        findings: The lexical analysis' words for each detector that fired, by detector name.
    """

    values: tuple[float, ...]
    findings: dict[str, str]

    def describe(self, name: str) -> str:
        """One feature in words: ``"embedding cosine 0.81"`` or the detector's finding."""
        value = self.values[FEATURES.index(name)]
        if name == "findings" and value:
            # The count alone says nothing: name what was found.
            return f"{value:.0f} finding(s): " + "; ".join(self.findings[d] for d in DETECTORS if d in self.findings)
        if name in _WORDS:
            return _WORDS[name].format(value)
        return self.findings.get(name, f"no {name.replace('_', ' ')}")


def _reference_codes(text: str) -> dict[str, str]:
    """Key -> word of the codes (``BA117``, ``QYR3A2``): identifiers, never matched fuzzily."""
    return {t.key: t.raw for t in analyze_text(text).tokens if t.kind == "code"}


def _entities(text: str) -> dict[str, str]:
    """Key -> word of the capitalised words that are not stop words nor (in a sentence) a sentence's first word
    (the key, a stem, compares; the word is what the reasoning shows)."""
    words = [t for t in analyze_text(text).tokens if t.kind in ("word", "code")]
    short = len(words) <= SHORT_TEXT_WORDS
    found: dict[str, str] = {}
    for t in words:
        if (t.capitalised or t.kind == "code") and not t.stop and (short or not t.sentence_start):
            found.setdefault(t.key, t.raw)
    return found


@dataclass(frozen=True, slots=True)
class EntityAgreement:
    """How the answer's named entities agree with the reference's (see :func:`entity_agreement`).

    Attributes:
        missing: The reference names entities and the answer states none of them, not even misspelt.
        conflict: ``missing``, and the answer names another entity that neither the reference nor the question
            names.
        fuzzy: An entity of the reference is stated only spelt differently ("Einstien" for "Einstein").
        code_missing: A code of the reference (a booking reference, a flight: ``QYR3A2``, ``BA117``) that the
            question does not state is not in the answer, whatever else is (one character off is another code).
        words: Which, for the reasoning.
    """

    missing: bool
    conflict: bool
    fuzzy: bool
    code_missing: bool
    words: str


def entity_agreement(query: str, answer: str, ground_truth: str) -> EntityAgreement:
    """Whether the reference's named entities are missing from the answer, replaced by others, or misspelt.

    Entities are capitalised words and codes (``Canberra``, ``LH400``) outside the question: a name the
    question states is no evidence that the answer knows it. A name word spelt a little differently matches
    (rapidfuzz's ratio at the entity word,
    :data:`agentic_core.judges.offline.findings.lexical_overlap.NAME_SIMILARITY`).
    """
    asked = {t.key for t in analyze_text(query).tokens}
    truth, said = _entities(ground_truth), _entities(answer)
    expected = set(truth) - asked
    answer_keys = {t.key for t in analyze_text(answer).tokens}
    named = set(said) - asked
    code_words = _reference_codes(ground_truth)
    codes = set(code_words) - asked
    near = {k: None if k in codes else fuzzy_name_match(k, named) for k in expected - answer_keys}
    absent = sorted(truth[k] for k, match in near.items() if match is None)
    misspelt = sorted(f"{said[match]} for {truth[k]}" for k, match in near.items() if match is not None)
    others = sorted(said[k] for k in named - set(truth) if k not in set(near.values()))
    missing = bool(expected) and len(absent) == len(expected)
    conflict = missing and bool(others)
    words = f"reference names {', '.join(absent)}" + (f", answer names {', '.join(others)}" if conflict else "")
    if misspelt:
        words = f"answer spells {', '.join(misspelt)}" + (f"; {words}" if absent else "")
    lost = sorted(code_words[k] for k in codes - answer_keys)
    if lost and not missing:
        words = f"reference code {', '.join(lost)} not in the answer" + (f"; {words}" if misspelt else "")
    return EntityAgreement(missing, conflict, bool(misspelt), bool(lost), words)


def pair_features(
    analysis: LexicalAnalysis, query: str, answer: str, ground_truth: str, cosine: float | None
) -> PairFeatures:
    """The features of one pair from its lexical analysis and embedding cosine.

    Args:
        analysis: :func:`~agentic_core.judges.offline.findings.lexical.lexical_analysis` of the pair.
        query: The question.
        answer: The answer.
        ground_truth: The reference answer.
        cosine: The MiniLM cosine, or ``None`` when embeddings are not used.

    Returns:
        The feature values in :data:`FEATURES` order and the detectors' findings.
    """
    fired: dict[str, str] = {}
    for gate in analysis.gates:
        # A detector may fire more than once (two missing numbers): the first finding speaks for it.
        fired.setdefault(gate.name, gate.describe())
    entities = entity_agreement(query, answer, ground_truth)
    fired_entities = {
        name: entities.words
        for name, fired_ in (
            ("entity_missing", entities.missing),
            ("entity_conflict", entities.conflict),
            ("entity_fuzzy", entities.fuzzy),
            ("code_missing", entities.code_missing),
        )
        if fired_
    }
    facts = fact_agreement(query, answer, ground_truth)
    fired_facts: dict[str, str] = {}
    for kind, said in facts.words.items():
        if facts.extra[kind]:
            fired_facts[f"{kind}_extra"] = said
            continue
        fired_facts[f"{kind}_missing"] = said
        if facts.near.get(kind):
            fired_facts[f"{kind}_near"] = said + ", near"
        if facts.conflict[kind]:
            fired_facts[f"{kind}_conflict"] = said + ", another stated instead"
    sims = (
        np.nan if cosine is None else float(np.clip(cosine, 0.0, 1.0)),
        fuzz.token_set_ratio(answer.lower(), ground_truth.lower()) / 100.0,
        analysis.similarity,
        analysis.recall,
        analysis.precision,
        float(len(fired)),
        float(entities.missing),
        float(entities.conflict),
        float(entities.fuzzy),
        float(entities.code_missing),
        *(value for kind in KINDS for value in (facts.missing[kind], facts.conflict[kind], facts.extra[kind])),
        *(facts.near[kind] for kind in NEAR_KINDS),
    )
    detectors = tuple(1.0 if d in fired else 0.0 for d in DETECTORS)
    return PairFeatures(values=sims + detectors, findings={**fired, **fired_entities, **fired_facts})


def feature_matrix(
    triples: Sequence[tuple[str, str, str]], cosines: Sequence[float] | None
) -> tuple[npt.NDArray[np.float64], list[PairFeatures]]:
    """Features of many (query, answer, ground truth) triples, as a matrix (the fit script's input).

    Args:
        triples: ``(query, answer, ground_truth)`` per pair.
        cosines: The MiniLM cosine per pair, or ``None`` for no embeddings.

    Returns:
        ``(matrix, per-pair features)``; the matrix has one row per pair and one column per
        :data:`FEATURES` name.
    """
    pairs = [
        pair_features(
            lexical_analysis(answer, truth, query), query, answer, truth, None if cosines is None else cosines[i]
        )
        for i, (query, answer, truth) in enumerate(triples)
    ]
    return np.array([p.values for p in pairs], dtype=np.float64).reshape(len(pairs), len(FEATURES)), pairs
