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

The local :func:`~agentic_core.evaluate.evaluate` runs the orchestration itself (it is passed in,
so this package never imports it), with the Ray-backed judge and columns: the result is the local
engine's, number for number.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from agentic_core.data.schemas import Conversation
from agentic_core.engines import ray_load
from agentic_core.engines.judge_spec import JudgeSpec
from agentic_core.engines.ray_columns import ColumnarConversations, columns_on_ray
from agentic_core.engines.ray_judge import RayJudge
from agentic_core.engines.ray_load import RayPiecePool
from agentic_core.engines.ray_session import connect_ray
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_paths, paths_of
from agentic_core.judges.base import Judge, ProgressFn
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.monitor import RunMonitor

if TYPE_CHECKING:
    from agentic_core.judges.runner import CacheMode
    from agentic_core.result import EvaluationResult

__all__ = ["evaluate_on_ray"]


def _in_memory(data: Any) -> Sequence[Conversation] | None:
    """``data`` when it is a non-empty sequence of conversations without columns, else ``None``."""
    if isinstance(data, (str, Path, LoadReport)) or not isinstance(data, Sequence) or not data:
        return None
    if getattr(data, "columns", None) is not None or not all(isinstance(c, Conversation) for c in data):
        return None
    return data


def evaluate_on_ray(
    evaluate_locally: Callable[..., EvaluationResult],
    add_metrics: Callable[..., Any],
    data: Any,
    judge: Judge | str | None = None,
    *,
    ray_address: str | None = None,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    progress: ProgressFn | None = None,
    monitor: RunMonitor | None = None,
    metrics: str | Sequence[str] | None = None,
    goal_judge: str | None = None,
    judge_options: dict[str, Any] | None = None,
) -> EvaluationResult:
    """Evaluate with the per-record work on Ray Data (see the module docstring).

    Args:
        evaluate_locally: :func:`agentic_core.evaluate.evaluate` (called with the Ray-backed judge).
        add_metrics: :func:`agentic_core.evaluate.add_agentic_metrics` (passed in, as ``evaluate_locally``
            is, so the engine never imports the orchestration that imports it).
        data: What :func:`~agentic_core.evaluate.evaluate` takes.
        judge: A judge (pickled to the workers), or a registry name (rebuilt on each worker from
            the name and ``judge_options``); ``hybrid`` when ``None``.
        ray_address: ``None`` (a local Ray), ``"auto"`` or ``"ray://host:10001"`` (see
            :func:`~agentic_core.engines.ray_session.connect_ray`).
        cache: The verdict cache (read and written on the driver only).
        cache_mode: ``use``, ``refresh`` or ``off``.
        progress: Called as ``progress(done, total)`` while judging.
        monitor: Watches the run and can cancel it, as in a local run.
        metrics: Seed 004's agentic metrics, computed on the driver with the run's judge.
        goal_judge: The offline judge of goal accuracy with reference.
        judge_options: Registry options when ``judge`` is a name.

    Returns:
        The evaluation result, equal to the local engine's.

    Raises:
        JudgeConfigError: Ray is not installed, the judge cannot be built, or a judge object cannot
            be pickled.
        DataError: no valid conversation.
    """
    from agentic_core.judges.registry import DEFAULT_JUDGE, build_judge

    start = time.perf_counter()
    options = dict(judge_options or {})
    if judge is None or isinstance(judge, str):
        name = judge or DEFAULT_JUDGE
        local, spec = build_judge(name, **options), JudgeSpec.of(name, options)
    else:
        local, spec = judge, JudgeSpec.of(judge, {})
    ray = connect_ray(ray_address)
    if cache is None and cache_mode != "off" and local.cacheable:
        cache = JudgeCache()  # as the local engine does; kept here for the metrics too
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
    result = evaluate_locally(
        carried, RayJudge(local, spec, ray), cache=cache, cache_mode=cache_mode, progress=progress, monitor=monitor
    )
    if conversations is not None:
        result.load_report = None  # as for conversations evaluated locally
    if metrics:
        add_metrics(
            result, local, metrics=metrics, cache=cache, cache_mode=cache_mode, goal_judge=goal_judge, monitor=monitor
        )
    result.elapsed_s = time.perf_counter() - start
    return result
