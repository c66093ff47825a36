"""The judge's calls on Ray Data: a stand-in judge that ships the items it is given to Ray workers.

:class:`RayJudge` has the run's judge's identity, threshold and cacheability, and is handed to the
ordinary :func:`~agentic_core.judges.runner.run_judge` on the driver. So deduplication, the SQLite
verdict cache (looked up and written on the driver only: workers never reach it) and the shipped
verdict packs work exactly as in a local run, and only the misses reach :meth:`RayJudge.ajudge_stream`,
which turns them into a Ray Dataset and judges it with ``map_batches``: each worker runs the judge
(rebuilt from its spec or unpickled once per worker process, :mod:`agentic_core.engines.worker_judge`) through the
same runner, without a cache. Verdicts stream back as blocks finish, so the driver's runner writes
them to the cache as they come, and a cancelled run keeps what was judged.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import pyarrow as pa

from agentic_core.common.gc_control import gc_paused
from agentic_core.engines.verdict_columns import verdicts_from_columns, verdicts_to_columns
from agentic_core.engines.worker_judge import WorkerJudge, worker_judge
from agentic_core.judges.base import Judge, JudgeItem, ProgressFn, Verdict, capabilities, fitted_band

__all__ = ["BLOCKS_PER_CPU", "MIN_BLOCK_ROWS", "RayJudge", "WorkerStats", "judge_batch", "ray_cpus"]

BLOCKS_PER_CPU = 4
"""Blocks per CPU of the Ray cluster: enough to keep every worker busy while the last blocks finish."""
MIN_BLOCK_ROWS = 32
"""No block holds fewer items (a task's overhead is a few milliseconds)."""


@dataclass
class WorkerStats:
    """The workers' judges' counters, summed (the runner reads ``retries`` and ``reasks``)."""

    retries: int = 0
    reasks: int = 0
    batches: int = 0
    items: int = 0


def judge_batch(batch: dict[str, np.ndarray], handover: WorkerJudge) -> dict[str, np.ndarray]:
    """Judge one block on a worker (a ``map_batches`` function).

    Args:
        batch: Columns ``index``, ``query``, ``answer``, ``ground_truth`` and ``score`` (NaN: none).
        handover: How to get the run's judge.

    Returns:
        Columns ``index``, the verdict's (:mod:`~agentic_core.engines.verdict_columns`), and the
        block's ``retries``, ``reasks`` and ``warnings`` (JSON list) on its first row.
    """
    from agentic_core.judges.runner import run_judge_sync

    judge = worker_judge(handover)
    scores = [None if s != s else float(s) for s in batch["score"].tolist()]
    columns = (batch[name].tolist() for name in ("query", "answer", "ground_truth"))
    items = [JudgeItem(str(q), str(a), str(g), s) for q, a, g, s in zip(*columns, scores, strict=True)]
    with gc_paused(not capabilities(judge).calls_llm):  # as evaluate() does for judges that call no LLM
        run = run_judge_sync(judge, items, cache=None, cache_mode="off")
    n = len(items)
    retries = np.zeros(n, dtype=np.int64)
    reasks = np.zeros(n, dtype=np.int64)
    warnings = np.full(n, "[]", dtype=object)
    if n:
        retries[0], reasks[0], warnings[0] = run.retries, run.reasks, json.dumps(run.warnings)
    return {
        "index": batch["index"],
        **verdicts_to_columns(run.verdicts),
        "retries": retries,
        "reasks": reasks,
        "warnings": warnings,
    }


def ray_cpus(ray: ModuleType) -> int:
    """The CPUs of the Ray cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _item_table(items: Sequence[JudgeItem], start: int, stop: int) -> pa.Table:
    part = items[start:stop]
    return pa.table(
        {
            "index": pa.array(np.arange(start, stop, dtype=np.int64)),
            "query": pa.array([i.query for i in part], type=pa.large_string()),
            "answer": pa.array([i.answer for i in part], type=pa.large_string()),
            "ground_truth": pa.array([i.ground_truth for i in part], type=pa.large_string()),
            "score": pa.array([math.nan if i.score is None else i.score for i in part], type=pa.float64()),
        }
    )


class RayJudge:
    """A judge whose calls run on Ray Data workers (see the module docstring).

    Args:
        local: The run's judge as built on the driver (identity, threshold, cacheability).
        handover: How workers get the same judge.
        ray: The initialised ``ray`` module.
    """

    def __init__(self, local: Judge, handover: WorkerJudge, ray: ModuleType) -> None:
        self.local = local
        self.identity = local.identity
        self.recommended_threshold = local.recommended_threshold
        self.fitted_band = fitted_band(local)  # recorded with the run, as the local judge's
        self.cacheable = local.cacheable
        able = capabilities(local)  # the same items, deduplication and collector as locally
        self.calls_llm, self.reads_texts = able.calls_llm, able.reads_texts
        self.abstains, self.notice = able.abstains, able.notice
        self.handover = handover
        self.stats = WorkerStats()
        self.warnings: list[str] = []
        self._ray = ray

    def dataset(self, items: Sequence[JudgeItem]) -> Any:
        """The Ray Dataset of ``items``' verdicts (lazy: nothing runs before it is read)."""
        rows = max(MIN_BLOCK_ROWS, math.ceil(len(items) / (ray_cpus(self._ray) * BLOCKS_PER_CPU)))
        tables = [_item_table(items, s, min(s + rows, len(items))) for s in range(0, len(items), rows)]
        return self._ray.data.from_arrow(tables).map_batches(
            judge_batch, fn_kwargs={"handover": self.handover}, batch_format="numpy", batch_size=None
        )

    async def ajudge_stream(self, items: Sequence[JudgeItem]) -> AsyncIterator[tuple[int, Verdict]]:
        """``(index, verdict)`` pairs as Ray's blocks finish (in completion order)."""
        if not items:
            return
        blocks = iter(self.dataset(items).iter_batches(batch_format="numpy", batch_size=None))
        # Ray's iterator blocks: it is read in a thread of its own, so the event loop (progress, cancel)
        # stays free; closing it in that same thread (after a read in flight) stops Ray's execution cleanly.
        reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="agentic-ray-blocks")
        loop = asyncio.get_running_loop()
        try:
            while (batch := await loop.run_in_executor(reader, next, blocks, None)) is not None:
                for pair in self._read_block(batch):
                    yield pair
        finally:
            close = getattr(blocks, "close", None)
            if close is not None:
                reader.submit(close)
            reader.shutdown(wait=False)

    def _read_block(self, batch: dict[str, np.ndarray]) -> list[tuple[int, Verdict]]:
        """One block's ``(index, verdict)`` pairs; its counters and warnings are added to the judge's."""
        self.stats.batches += 1
        self.stats.retries += int(batch["retries"].sum())
        self.stats.reasks += int(batch["reasks"].sum())
        for text in batch["warnings"].tolist():
            self.warnings.extend(w for w in json.loads(text) if w not in self.warnings)
        verdicts = verdicts_from_columns(batch)
        self.stats.items += len(verdicts)
        return list(zip(batch["index"].tolist(), verdicts, strict=True))

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item on Ray; same length and order as ``items``."""
        out: list[Verdict | None] = [None] * len(items)
        done = 0
        async for index, verdict in self.ajudge_stream(items):
            out[index] = verdict
            done += 1
            if progress is not None:
                progress(done, len(items))
        return [v for v in out if v is not None]
