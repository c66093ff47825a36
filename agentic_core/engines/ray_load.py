"""Loading on Ray: the pieces of a large JSON Lines file checked by Ray tasks instead of forked workers.

The loader cuts a large JSON Lines file into pieces of whole lines and merges what each piece's
check returns in file order (:mod:`agentic_core.io.load_pieces`). :class:`RayPiecePool` runs those
same checks (:func:`~agentic_core.io.load_pieces.load_piece`) as Ray tasks, on this machine's Ray
or a cluster's workers; the merge (record indices, duplicates across pieces and files, the
conversations kept) stays on the driver, with the same code as in a local load, so the report is
the same, issue for issue. The pieces' bytes travel to the workers through Ray's object store:
with ``ray://`` the file is read on this machine and the workers need not see it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from types import ModuleType
from typing import Any, TypeVar

from agentic_core.engines.ray_judge import ray_cpus
from agentic_core.io.load_pieces import PiecePool, PieceSettings

__all__ = ["RAY_PIECE_BYTES", "RayPiecePool"]

RAY_PIECE_BYTES = 8 * 1024 * 1024
"""Bytes of the file per Ray task (whole lines): about 4,000 records of a typical file."""

_T = TypeVar("_T")


class _RayTasks(Executor):
    """An executor whose tasks are Ray tasks (each call's future is its object reference's)."""

    def __init__(self, ray: ModuleType) -> None:
        self._ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        future: Future[_T] = remote.remote(*args, **kwargs).future()
        return future


class RayPiecePool(PiecePool):
    """The pieces of a load checked by Ray tasks (one CPU each), as many at once as the cluster has CPUs.

    Args:
        ray: The ``ray`` module, connected (:func:`~agentic_core.engines.ray_session.connect_ray`).
        piece_bytes: Bytes per piece (whole lines).
    """

    def __init__(self, ray: ModuleType, piece_bytes: int = RAY_PIECE_BYTES) -> None:
        super().__init__(PieceSettings(workers=max(2, ray_cpus(ray)), min_bytes=0, piece_bytes=piece_bytes))
        self._tasks = _RayTasks(ray)

    def available(self) -> bool:
        """Always: nothing is forked here."""
        return True

    def start(self) -> Executor:
        """The executor of Ray tasks."""
        return self._tasks

    def start_with(self, data: bytes) -> tuple[Executor, str | None]:
        """The executor of Ray tasks; each piece is sent to its task (nothing is forked)."""
        return self._tasks, None

    def close(self) -> None:
        """Nothing to stop: tasks end with their pieces, and the Ray session is the engine's."""
