"""The ``embedding`` judge: cosine similarity of all-MiniLM-L6-v2 sentence embeddings.

This is the seeds' judge (design note 002), run without torch and without a model hub: the
encoder is :class:`agentic_core.judges.offline.minilm.MiniLMEncoder`, its files and install checks are in
:mod:`agentic_core.judges.offline.minilm_files`. This module holds the pair similarity (each distinct text
embedded once) and the judge's rules for blank texts and scores.

Cosine similarity alone is a weak correctness judge ("3.15" vs "3.14" scores high, a negated
answer can be closer than a paraphrase; see docs/judges.md), so this judge is offered but is
not the default; the hybrid judge calls :func:`similarities` for its paraphrase signal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.offline.minilm import (
    DEFAULT_BATCH_SIZE,
    MAX_TOKENS,
    BatchProgress,
    MiniLMEncoder,
    check_batch_size,
)
from agentic_core.judges.offline.minilm_files import MODEL_NAME, MODEL_SHA256, require_stack

__all__ = [
    "JUDGE_VERSION",
    "RECOMMENDED_THRESHOLD",
    "EmbeddingJudge",
    "similarities",
]

JUDGE_VERSION = "1"
"""Bump when anything that changes a score changes (pooling, truncation, mapping, blank rules):
it is part of the identity, hence of the cache key."""

RECOMMENDED_THRESHOLD = 0.55
"""Cosine at which right and wrong answers separate best on the project's labelled pairs.

From ``benchmarks/bench_embedding.py`` (section "calibration") on ``sample_data/judge_devset.jsonl``:
balanced accuracy peaks near 0.55 (figures in benchmarks/RESULTS.md). The curve is flat and low: cosine
ranks paraphrases, refusals, wrong entities and lists well but numbers, units, times, negation and yes/no
at or below chance, so no threshold makes this judge good alone. The seeds' 0.7 does worse because it
fails most correct but differently worded answers. A starting point for the threshold slider, not a
probability.
"""


def _is_blank(text: str) -> bool:
    return not text.strip()


def _distinct_texts(answers: Sequence[str], ground_truths: Sequence[str]) -> tuple[list[str], list[int], list[int]]:
    """The distinct non-blank texts of both sides, and each pair's row in that list (-1: blank)."""
    index: dict[str, int] = {}

    def row(text: str) -> int:
        if _is_blank(text):
            return -1
        return index.setdefault(text, len(index))

    answer_rows = [row(text) for text in answers]
    truth_rows = [row(text) for text in ground_truths]
    return list(index), answer_rows, truth_rows


def _cosines(vectors: np.ndarray, answer_rows: Sequence[int], truth_rows: Sequence[int]) -> np.ndarray:
    """Row-wise cosine of unit vectors, with the blank rules of :func:`similarities`."""
    a = np.asarray(answer_rows, dtype=np.int64)
    t = np.asarray(truth_rows, dtype=np.int64)
    result = np.full(len(a), np.nan, dtype=np.float64)
    both = (a >= 0) & (t >= 0)
    if both.any():
        dots = np.einsum("ij,ij->i", vectors[a[both]], vectors[t[both]]).astype(np.float64)
        # Unit vectors in float32 can give 1.0000001: keep cosines in their mathematical range.
        result[both] = np.clip(dots, -1.0, 1.0)
    result[(a < 0) & (t >= 0)] = 0.0
    return result


def _check_lengths(answers: Sequence[str], ground_truths: Sequence[str]) -> None:
    if len(answers) != len(ground_truths):
        raise ValueError(
            f"similarities(answers, ground_truths): both must have the same length "
            f"(got {len(answers)} answers and {len(ground_truths)} ground truths)"
        )


_DEFAULT_ENCODER: MiniLMEncoder | None = None


def _default_encoder() -> MiniLMEncoder:
    global _DEFAULT_ENCODER
    if _DEFAULT_ENCODER is None:
        _DEFAULT_ENCODER = MiniLMEncoder()
    return _DEFAULT_ENCODER


def similarities(
    answers: Sequence[str],
    ground_truths: Sequence[str],
    *,
    encoder: MiniLMEncoder | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: BatchProgress | None = None,
) -> np.ndarray:
    """Cosine similarity of each answer with its ground truth, embedding each distinct text once.

    Ground truths repeat across the K attempts at a task (and answers often repeat too), so the
    texts of both sides are deduplicated before embedding: on the benchmark's realistic K=5 data,
    1000 pairs need 681 distinct texts instead of 2000.

    Blank rules (a text that is empty or only whitespace is blank): a blank answer against a
    non-blank ground truth is ``0.0`` (it says nothing); a blank ground truth gives ``nan``
    (nothing to compare with: a data problem, not a score).

    Args:
        answers: The answers.
        ground_truths: The ground truths, same length as ``answers``.
        encoder: The encoder to use; defaults to a shared :class:`MiniLMEncoder`.
        batch_size: Texts per model call.
        progress: Called as ``progress(texts_done, distinct_texts)`` after each batch.

    Returns:
        A float64 array of raw cosines in [-1, 1] (``nan`` where the ground truth is blank).

    Raises:
        ValueError: the two sequences differ in length.
        JudgeConfigError: the model cannot be loaded.
    """
    _check_lengths(answers, ground_truths)
    texts, answer_rows, truth_rows = _distinct_texts(answers, ground_truths)
    vectors = (encoder or _default_encoder()).encode(texts, batch_size=batch_size, progress=progress)
    return _cosines(vectors, answer_rows, truth_rows)


def item_cosines(items: Sequence[JudgeItem], progress: ProgressFn | None) -> np.ndarray:
    """The answer / ground-truth cosine of every item, for judges that weigh it with other evidence.

    Progress is reported as items (scaled from the distinct texts embedded), stopping short of the
    total: the caller's own work on the items comes after and reports the end.

    Raises:
        Exception: whatever the model raised; the caller makes its items unscored.
    """
    total = len(items)

    def on_batch(done: int, distinct: int) -> None:
        if progress is not None and distinct:
            progress(min(total - 1, int(total * done / distinct)), total)

    return similarities([i.answer for i in items], [i.ground_truth for i in items], progress=on_batch)


class EmbeddingJudge:
    """Scores an answer by the cosine similarity of its embedding with the ground truth's.

    Score: ``max(0, cosine)``, the raw cosine clipped at 0 and otherwise unchanged, so the number
    in the table is the number in the reasoning and anyone can reproduce it with the model. No
    monotone "calibration" curve is applied: it could not change which answers pass at a given
    threshold (only where the threshold sits), and with no labelled data of the user's there is
    nothing honest to calibrate it on. Negative cosines (rare with this model) mean unrelated,
    so 0. The threshold carries the calibration instead: :data:`RECOMMENDED_THRESHOLD`.

    Blank texts: an empty answer scores 0 ("answer is empty"); an empty ground truth leaves the
    item unscored (``failed``), because a 0 there would silently count data problems as wrong
    answers.

    Cacheable: yes. Scores are deterministic for the identity (model checksum, version), and
    while a few hundred pairs per second is cheap, a 100k-interaction re-run is still minutes of
    CPU that the cache turns into a lookup.

    Args:
        encoder: The encoder; defaults to the shared :class:`MiniLMEncoder`.
        batch_size: Texts per model call (does not change scores, so not part of the identity).

    Raises:
        JudgeConfigError: onnxruntime, tokenizers or the model package is not installed (checked
            at construction, cheaply; the model itself loads on first use).
    """

    cacheable: bool = True
    recommended_threshold: float = RECOMMENDED_THRESHOLD
    calls_llm, reads_texts, abstains, notice = False, True, False, None

    def __init__(self, encoder: MiniLMEncoder | None = None, *, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        require_stack("judge 'embedding'", alternative=", or choose the 'lexical' judge")
        check_batch_size(batch_size, "EmbeddingJudge(batch_size=...)")
        self.encoder = encoder or _default_encoder()
        self.batch_size = batch_size
        self.identity = JudgeIdentity(
            kind="embedding",
            model=MODEL_NAME,
            params={
                "version": JUDGE_VERSION,
                "model_sha256": MODEL_SHA256,
                "max_tokens": MAX_TOKENS,
                "pooling": "mean",
                "score": "max(0, cosine)",
            },
        )

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item; same length and order as ``items``.

        Progress is reported after every model batch, scaled from texts embedded to items, as
        ``progress(done, len(items))`` and ending with ``(len(items), len(items))``.

        Raises:
            JudgeConfigError: the model cannot be loaded (a setup problem for the whole run, so it
                is raised rather than turned into N identical failed verdicts).
        """
        total = len(items)
        if total == 0:
            return []
        start = time.perf_counter()

        reported = 0

        def on_batch(texts_done: int, texts_total: int) -> None:
            nonlocal reported
            reported = math.floor(total * texts_done / texts_total)
            if progress is not None:
                progress(reported, total)

        try:
            # similarities() off the event loop: the model runs in a worker thread, batch by batch.
            texts, answer_rows, truth_rows = _distinct_texts([item.answer for item in items],
                                                             [item.ground_truth for item in items])
            vectors = await self.encoder.aencode(texts, batch_size=self.batch_size, progress=on_batch)
            cosines = _cosines(vectors, answer_rows, truth_rows)
        except JudgeConfigError:
            raise
        except Exception as exc:  # an onnxruntime / memory failure: unscored, never 0
            error = f"embedding failed: {type(exc).__name__}: {exc}"
            if progress is not None:
                progress(total, total)
            return [Verdict(score=None, status="failed", error=error) for _ in items]

        # Work is batched, so per-item latency is the amortised share of the wall time.
        latency = (time.perf_counter() - start) / total
        if progress is not None and reported < total:
            progress(total, total)  # every text was blank: nothing embedded, no batch reported
        return [self._verdict(item, float(cos), latency) for item, cos in zip(items, cosines, strict=True)]

    @staticmethod
    def _verdict(item: JudgeItem, cosine: float, latency: float) -> Verdict:
        if _is_blank(item.ground_truth):
            return Verdict(
                score=None,
                status="failed",
                latency_s=latency,
                error="ground truth is empty: nothing to compare the answer with (fix the data)",
            )
        if _is_blank(item.answer):
            return Verdict(score=0.0, reasoning="answer is empty", latency_s=latency)
        score = min(1.0, max(0.0, cosine))
        return Verdict(
            score=score,
            reasoning=f"cosine similarity {cosine:.2f} between answer and ground truth (all-MiniLM-L6-v2)",
            latency_s=latency,
        )
