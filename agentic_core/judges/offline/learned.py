"""The offline judges: one fitted model, and the ``learned`` judge (the product's default) says when it does not know.

It measures a few features of each pair (:mod:`agentic_core.judges.offline.features`: MiniLM
cosine, fuzzy word overlap, the lexical analysis' similarity, recall and precision, one indicator
per finding such as a flipped negation, and the agreement of the numbers, dates, times and amounts
read by parsing libraries, :mod:`agentic_core.judges.offline.facts`), turns them into a
calibrated probability that the answer is correct with a logistic regression fitted on labelled
pairs, and then:

* ``p >= high``: correct, scored ``p``;
* ``p <= low``: incorrect, scored ``p``;
* otherwise **uncertain**: unscored with the reason ``uncertain`` (never 0, never 1), carrying
  ``p`` so the Calibration page can show what abstaining buys, and the ``cascade`` judge can hand
  exactly these interactions to an LLM.

The coefficients and the band ``(low, high)`` are data (``data/learned_judge.json``), written by
``scripts/fit_learned_judge.py`` from ``sample_data/judge_devset.jsonl``; a new failure class
becomes labelled rows and a refit, never a new rule here. The judge's identity holds the model
file's sha256, the fact parser's version (:data:`agentic_core.judges.offline.facts.FACTS_VERSION`) and its
libraries' versions, so neither a refit nor a change in how facts are read reuses cached verdicts.

Without the embedding packages the judge uses the model fitted without the cosine feature, and
says so in its notice and identity.

The ``hybrid`` and ``lexical`` judges are fitted variants of the same model that score every pair with its
probability and never abstain: ``hybrid`` with the embedding (:class:`HybridJudge`), ``lexical`` without it
(:class:`LexicalJudge`, the fast path: no MiniLM).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from agentic_core.common.passing import band_decides, reaches
from agentic_core.common.wording import decimals_apart
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import (
    FittedBand,
    JudgeIdentity,
    JudgeItem,
    ProgressFn,
    Verdict,
    uncertain_verdict,
)
from agentic_core.judges.offline.embedding import item_cosines
from agentic_core.judges.offline.facts import FACTS_VERSION, library_versions
from agentic_core.judges.offline.features import FEATURES, PairFeatures, pair_features
from agentic_core.judges.offline.findings.lexical import RULES_VERSION, lexical_analysis
from agentic_core.judges.offline.minilm_files import MODEL_NAME, embedding_choice

__all__ = [
    "MODEL_PATH",
    "RECOMMENDED_THRESHOLD",
    "FittedModel",
    "HybridJudge",
    "LearnedJudge",
    "LexicalJudge",
    "load_models",
]

MODEL_PATH = Path(__file__).parent / "data" / "learned_judge.json"
"""The fitted coefficients (written by ``scripts/fit_learned_judge.py``)."""
RECOMMENDED_THRESHOLD = 0.5
"""The score is a calibrated probability: 0.5 is where "more likely right than wrong" starts."""
TOP_REASONS = 3
"""How many of the features that moved the probability most the reasoning names."""


@dataclass(frozen=True)
class FittedModel:
    """One fitted logistic regression over standardised features.

    Attributes:
        features: The feature names, in the order of ``mean`` / ``scale`` / ``coef``.
        mean: Each feature's mean on the fitting pairs.
        scale: Each feature's standard deviation on the fitting pairs.
        intercept: The intercept.
        coef: One coefficient per standardised feature.
        low: At or below this probability the verdict is "incorrect".
        high: At or above this probability the verdict is "correct"; between, "uncertain".
    """

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    intercept: float
    coef: np.ndarray
    low: float
    high: float

    @cached_property
    def columns(self) -> np.ndarray:
        """Where each of the model's features sits in :data:`FEATURES` (found once, not per pair)."""
        return np.array([FEATURES.index(name) for name in self.features], dtype=np.intp)

    def contributions(self, values: Sequence[float]) -> np.ndarray:
        """Each feature's term in the log-odds: ``coef * (value - mean) / scale``."""
        picked = np.asarray(values, dtype=np.float64)[self.columns]
        return self.coef * (picked - self.mean) / self.scale

    def probability(self, values: Sequence[float]) -> float:
        """P(correct) for one pair's feature values (in :data:`FEATURES` order).

        Raises:
            ValueError: a feature is not a finite number (the item is then unscored, never 0).
        """
        z = self.intercept + float(self.contributions(values).sum())
        if not math.isfinite(z):
            raise ValueError(f"the log-odds are {z} (a feature is not a finite number)")
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


REFIT = "refit with `python scripts/fit_learned_judge.py` (or restore the file from the release)"


def _refused(place: str, rule: str, value: object) -> JudgeConfigError:
    return JudgeConfigError(place=place, rule=rule, value=repr(value), fix=REFIT)


def _model_from(raw: dict[str, Any], where: str) -> FittedModel:
    features = tuple(raw["features"])
    unknown = [f for f in features if f not in FEATURES]
    if unknown:
        raise _refused(where, "every feature must be one this version computes", unknown)
    arrays = [np.asarray(raw[k], dtype=np.float64) for k in ("mean", "scale", "coef")]
    if any(a.shape != (len(features),) for a in arrays) or not all(np.isfinite(a).all() for a in arrays):
        raise _refused(where, "mean, scale and coef must hold one finite number per feature", [a.shape for a in arrays])
    low, high = float(raw["band"][0]), float(raw["band"][1])
    if not 0.0 <= low <= high <= 1.0:
        raise _refused(where, "the abstention band must satisfy 0 <= low <= high <= 1", raw["band"])
    return FittedModel(features, arrays[0], arrays[1], float(raw["intercept"]), arrays[2], low, high)


@lru_cache(maxsize=4)
def load_models(path: Path = MODEL_PATH) -> tuple[dict[str, FittedModel], str, str]:
    """Read the fitted models.

    Args:
        path: The model file.

    Returns:
        ``({"embedding": ..., "lexical": ...}, version, sha256 of the file)``.

    Raises:
        JudgeConfigError: the file is missing or malformed (refit it).
    """
    place = f"learned judge model {path}"
    try:
        blob = path.read_bytes()
        raw = json.loads(blob)
        models = {name: _model_from(spec, f"{place}, model {name!r}") for name, spec in raw["models"].items()}
        version = str(raw["version"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise _refused(
            place, "must be a readable model file written by the fit script", f"{type(exc).__name__}: {exc}"
        ) from exc
    missing = {"embedding", "lexical"} - models.keys()
    if missing:
        raise _refused(place, "must hold an 'embedding' and a 'lexical' model", sorted(missing))
    return models, version, hashlib.sha256(blob).hexdigest()


def _reasoning(model: FittedModel, features: PairFeatures, p: float, verdict: str, banded: bool = True) -> str:
    """P(correct), the verdict and its rule (the band, or the 0.5 cut of a judge that never abstains), and the
    features that weighed most with their terms in the log-odds."""
    terms = model.contributions(features.values)
    order = np.argsort(-np.abs(terms))[:TOP_REASONS]
    said = "; ".join(f"{features.describe(model.features[i])} ({terms[i]:+.2f})" for i in order if terms[i] != 0)
    if not banded:
        rule, d = f"correct at or above {RECOMMENDED_THRESHOLD}", 3
    else:
        d = decimals_apart([model.low, p, model.high])  # never "0.93: uncertain (correct at or above 0.93)"
        rule = f"correct at or above {model.high:.{d}f}, incorrect at or below {model.low:.{d}f}"
    return f"P(correct) {p:.{max(d, 3)}f}: {verdict} ({rule}); weighed most: {said or 'nothing stood out'}"


def uncertain_reason(p: float, low: float, high: float) -> str:
    """Why the judge abstained, in the rule's own terms: ``low < p < high``, with digits enough to read so.

    Args:
        p: P(correct), strictly inside the band.
        low: The band's lower edge (at or below it: incorrect).
        high: The band's upper edge (at or above it: correct).
    """
    d = decimals_apart([low, p, high])
    return f"P(correct) {p:.{d}f} is above {low:.{d}f} and below {high:.{d}f}"


class LearnedJudge:
    """The fitted offline judge with abstention (see the module docstring).

    Args:
        use_embedding: Force the model without embeddings (``False``) or require them (``True``);
            ``None`` uses them when installed.
        model_path: The fitted model file (tests point it elsewhere).
    """

    recommended_threshold = RECOMMENDED_THRESHOLD
    cacheable = True
    kind = "learned"
    calls_llm, reads_texts = False, True
    abstains = True
    """Whether probabilities inside the band are left uncertain (``hybrid`` and ``lexical`` score every pair)."""
    without = "Learned judge without embeddings"

    def __init__(self, use_embedding: bool | None = None, model_path: Path = MODEL_PATH) -> None:
        models, version, digest = load_models(model_path)
        self.embedding, self.notice = embedding_choice(use_embedding, self.without)
        name = "embedding" if self.embedding else "lexical"
        self.model = models[name]
        # The band as fitted, recorded with each run: at aggregation it is the default of the setting
        # abstain_band, and the holdout figures of the same model say what it costs and buys. The variants
        # that never abstain (hybrid, lexical) have none: their threshold alone decides.
        self.fitted_band = (
            FittedBand(low=self.model.low, high=self.model.high, holdout=name) if self.abstains else None
        )
        self.warnings: list[str] = [self.notice] if self.notice else []
        self.identity = JudgeIdentity(
            kind=self.kind,
            model=MODEL_NAME if self.embedding else None,
            params={
                "version": version,
                "model_sha256": digest,
                "rules": RULES_VERSION,
                # The fact parser and its libraries decide features too: a change there must not reuse verdicts.
                "facts": FACTS_VERSION,
                "fact_libraries": library_versions(),
                "embedding": self.embedding,
                **({} if self.abstains else {"abstains": False}),
            },
        )

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item; the CPU-bound work runs off the event loop."""
        return await asyncio.to_thread(self._judge_all, list(items), progress)

    def _judge_all(self, items: list[JudgeItem], progress: ProgressFn | None) -> list[Verdict]:
        start = time.perf_counter()
        total = len(items)
        cosines: np.ndarray | None = None
        if self.embedding and items:
            try:
                cosines = item_cosines(items, progress)
            except Exception as exc:  # the model failed for the batch: unscored, never 0
                if progress is not None:
                    progress(total, total)
                error = f"embedding similarity failed: {type(exc).__name__}: {exc}"
                return [Verdict(status="failed", error=error) for _ in items]
        latency = (time.perf_counter() - start) / max(total, 1)
        verdicts = [
            self._verdict(item, None if cosines is None else float(cosines[i]), latency) for i, item in enumerate(items)
        ]
        if progress is not None:
            progress(total, total)
        return verdicts

    def _verdict(self, item: JudgeItem, cosine: float | None, latency: float) -> Verdict:
        if not item.ground_truth.strip():
            return Verdict(
                status="failed",
                error="ground truth is empty: nothing to compare the answer with (fix the data)",
                latency_s=latency,
            )
        if not item.answer.strip():
            # No answer states nothing: wrong, not unsure (an abstention would drop the conversation
            # from the rates and, under the cascade, pay an LLM call to learn it).
            return Verdict(score=0.0, probability=0.0, reasoning="the answer is empty", latency_s=latency)
        try:
            analysis = lexical_analysis(item.answer, item.ground_truth, item.query)
            features = pair_features(analysis, item.query, item.answer, item.ground_truth, cosine)
            p = self.model.probability(features.values)
        except Exception as exc:  # one odd input must not sink the run
            return Verdict(
                status="failed", error=f"{self.kind} judge failed: {type(exc).__name__}: {exc}", latency_s=latency
            )
        notice = f" [{self.notice}]" if self.notice else ""
        if not self.abstains:
            verdict = "correct" if reaches(p, self.recommended_threshold) else "incorrect"
            reasoning = _reasoning(self.model, features, p, verdict, banded=False) + notice
            return Verdict(score=p, probability=p, reasoning=reasoning, latency_s=latency)
        if band_decides(p, self.model.low, self.model.high):  # the one band rule, as the aggregate applies it
            verdict = "correct" if p >= self.model.high else "incorrect"
            reasoning = _reasoning(self.model, features, p, verdict) + notice
            return Verdict(score=p, probability=p, reasoning=reasoning, latency_s=latency)
        return uncertain_verdict(
            p,
            _reasoning(self.model, features, p, "uncertain") + notice,
            uncertain_reason(p, self.model.low, self.model.high),
            latency,
        )


class HybridJudge(LearnedJudge):
    """The learned model with the embedding, scoring every pair with its probability (never abstains)."""

    kind = "hybrid"
    abstains = False
    without = "Hybrid judge without embeddings"


class LexicalJudge(LearnedJudge):
    """The learned model without the embedding, scoring every pair with its probability (never abstains).

    The fast path: no MiniLM, so no model to load and no notice that embeddings are missing.

    Args:
        model_path: The fitted model file (tests point it elsewhere).
    """

    kind = "lexical"
    abstains = False
    cacheable = False
    """No model to load and deterministic: recomputing a verdict costs about what looking it up would."""

    def __init__(self, model_path: Path = MODEL_PATH) -> None:
        super().__init__(use_embedding=False, model_path=model_path)
        self.notice, self.warnings = None, []
