"""Tool scoring on Ray Data: the interaction columns of conversations built on workers.

:func:`~agentic_core.columnar.columns.columns_of` scores every interaction's tool use
(:func:`~agentic_core.tools.score_tools`) while it builds the columns evaluation reads. For
conversations handed over in memory, :func:`columns_on_ray` runs that same code over blocks of
conversations on Ray workers and joins the blocks' columns in order, so the columns (tool
components included) equal the ones built locally. Loaded files carry their columns already (the
loader builds them while it validates), so they are not built again.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Sequence
from types import ModuleType

import numpy as np
import pyarrow as pa

from agentic_core.columnar.columns import ColumnBuilder, InteractionColumns, columns_of
from agentic_core.common.gc_control import gc_paused
from agentic_core.data.schemas import Conversation
from agentic_core.engines.ray_judge import BLOCKS_PER_CPU, MIN_BLOCK_ROWS, ray_cpus

__all__ = ["ColumnarConversations", "columns_batch", "columns_on_ray", "join_columns"]


class ColumnarConversations(list[Conversation]):
    """A list of conversations carrying their columns (read by :func:`~agentic_core.columnar.columns.columns_of`)."""

    def __init__(self, conversations: Sequence[Conversation], columns: InteractionColumns) -> None:
        super().__init__(conversations)
        self.columns = columns

    @property
    def n_interactions(self) -> int:
        """Number of interactions in all conversations."""
        return self.columns.n_interactions


def columns_batch(batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Build one block's columns on a worker (a ``map_batches`` function): one row out per block."""
    first = int(batch["position"][0]) if len(batch["position"]) else 0
    with gc_paused():  # many small objects and no garbage cycle, as when the loader builds them
        conversations = [pickle.loads(blob) for blob in batch["conversation"].tolist()]
        columns = pickle.dumps(columns_of(conversations))
    return {"position": np.array([first], dtype=np.int64), "columns": np.array([columns], dtype=object)}


def join_columns(parts: Sequence[InteractionColumns]) -> InteractionColumns:
    """The columns of consecutive blocks, joined in order (the same values as building them at once)."""
    builder = ColumnBuilder()
    for part in parts:
        builder.add_columns(part)
    return builder.build()


def columns_on_ray(ray: ModuleType, conversations: Sequence[Conversation]) -> InteractionColumns:
    """The columns of ``conversations`` (tool scoring included), built by Ray Data workers."""
    n = len(conversations)
    if not n:
        return columns_of([])
    rows = max(MIN_BLOCK_ROWS, math.ceil(n / (ray_cpus(ray) * BLOCKS_PER_CPU)))
    tables = [
        pa.table(
            {
                "position": pa.array(np.arange(start, min(start + rows, n), dtype=np.int64)),
                "conversation": pa.array(
                    [pickle.dumps(c) for c in conversations[start : start + rows]], type=pa.large_binary()
                ),
            }
        )
        for start in range(0, n, rows)
    ]
    built = ray.data.from_arrow(tables).map_batches(columns_batch, batch_format="numpy", batch_size=None)
    parts: list[tuple[int, InteractionColumns]] = []
    for batch in built.iter_batches(batch_format="numpy", batch_size=None):
        for position, blob in zip(batch["position"].tolist(), batch["columns"].tolist(), strict=True):
            parts.append((int(position), pickle.loads(blob)))
    parts.sort(key=lambda part: part[0])
    expected = 0
    for position, columns in parts:  # every block once, in order: nothing lost or repeated
        if position != expected:
            raise RuntimeError(f"Ray returned the columns of conversations from {position}, expected {expected}")
        expected += len(columns.sizes)
    if expected != n:
        raise RuntimeError(f"Ray returned the columns of {expected} conversations, expected {n}")
    return join_columns([columns for _, columns in parts])
