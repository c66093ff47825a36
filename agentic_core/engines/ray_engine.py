"""``evaluate(..., engine="ray")``: the same evaluation, its per-record work on Ray Data.

What runs where:

* **Ray workers**: the judge's calls for every item the cache could not answer
  (``map_batches``: :class:`~agentic_core.engines.ray_judge.RayJudge`); for files given by path,
  the checks of each piece of a large JSON Lines file (validation, tool scoring, columns:
  :class:`~agentic_core.engines.ray_load.RayPiecePool`, Ray tasks); for conversations handed over
  in memory, tool scoring and the interaction columns
  (:func:`~agentic_core.engines.ray_columns.columns_on_ray`).
* **The driver**: reading files (with ``ray://`` they are on this machine), merging the pieces in
  file order with the duplicate checks that span pieces and files, smaller files and other
  formats (validated here), deduplication, the verdict cache and shipped packs
  (:func:`~agentic_core.judges.runner.run_judge`, unchanged), and building the result tables
  (:func:`~agentic_core.evaluate.assemble`, vectorised). The per-group sums
  :func:`~agentic_core.evaluate.aggregate` needs depend on the threshold and the other slider
  settings, so they are made at aggregation time, in milliseconds, not once on Ray.

:func:`prepare_on_ray` does the Ray part and hands back the data and a Ray-backed judge; the local
:func:`~agentic_core.evaluate.evaluate` then runs its own orchestration with them (so this package never
imports it, and the two engines share one run: the cache, the agentic metrics, the timing): the result is
the local engine's, number for number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from agentic_core.data.schemas import Conversation
from agentic_core.engines import ray_load
from agentic_core.engines.ray_columns import ColumnarConversations, columns_on_ray
from agentic_core.engines.ray_judge import RayJudge
from agentic_core.engines.ray_load import RayPiecePool
from agentic_core.engines.ray_session import connect_ray
from agentic_core.engines.worker_judge import WorkerJudge
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_paths, paths_of
from agentic_core.judges.base import Judge
from agentic_core.judges.spec import JudgeSpecBase

__all__ = ["OnRay", "prepare_on_ray"]


def _in_memory(data: Any) -> Sequence[Conversation] | None:
    """``data`` when it is a non-empty sequence of conversations without columns, else ``None``."""
    if isinstance(data, (str, Path, LoadReport)) or not isinstance(data, Sequence) or not data:
        return None
    if getattr(data, "columns", None) is not None or not all(isinstance(c, Conversation) for c in data):
        return None
    return data


@dataclass(frozen=True)
class OnRay:
    """What the Ray engine hands to :func:`~agentic_core.evaluate.evaluate`, which runs the rest as it does locally.

    Attributes:
        data: The data as ``evaluate`` takes it: files read with their pieces checked by Ray tasks, or
            conversations carried with columns built on Ray.
        judge: The judge whose calls run on Ray workers (the run's identity, threshold and cacheability).
        local: The run's judge as built on the driver (for the agentic metrics, computed there).
        in_memory: Conversations were handed over in memory (their result keeps no load report, as locally).
    """

    data: Any
    judge: RayJudge
    local: Judge
    in_memory: bool


def prepare_on_ray(data: Any, judge: Judge | JudgeSpecBase, ray_address: str | None) -> OnRay:
    """Connect to Ray and move an evaluation's per-record work there (see the module docstring).

    Args:
        data: What :func:`~agentic_core.evaluate.evaluate` takes.
        judge: A judge object (pickled to the workers), or a validated spec (rebuilt on each worker from
            its worker dump).
        ray_address: ``None`` (a local Ray), ``"auto"`` or ``"ray://host:10001"`` (see
            :func:`~agentic_core.engines.ray_session.connect_ray`).

    Returns:
        The data and the Ray-backed judge for the local orchestration.

    Raises:
        JudgeConfigError: Ray is not installed, the judge cannot be built, or a judge object cannot
            be pickled.
        DataError: a file cannot be read.
    """
    local = judge.build() if isinstance(judge, JudgeSpecBase) else judge
    handover = WorkerJudge.of(judge)
    ray = connect_ray(ray_address)
    conversations = _in_memory(data)
    carried: Any = data
    paths = paths_of(data)
    if paths is not None:
        # Files are read here; the pieces of a large JSON Lines file are checked by Ray tasks.
        carried = load_paths(paths, pool=RayPiecePool(ray, piece_bytes=ray_load.RAY_PIECE_BYTES))
    if conversations is not None:
        # Columns built on Ray, carried by a report (a plain list would be rebuilt without them).
        columns = columns_on_ray(ray, conversations)
        carried = LoadReport(conversations=cast(Any, ColumnarConversations(conversations, columns)))
    return OnRay(carried, RayJudge(local, handover, ray), local, conversations is not None)
