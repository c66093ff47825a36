"""A time limit on the work of this thread, checked at cooperative checkpoints (a leaf: no project imports).

The endpoint answers every request by its deadline. Judging is stopped through its run monitor;
the work before it (validating the records and scoring tool use, which happens while the
loader builds the columns) runs deep below the loader, in pure functions every face shares. Rather
than a parameter threaded through every one of them (and through faces that never have a limit),
the endpoint sets the limit around its work with :func:`time_limited`, and the loops that can
run long call :func:`checkpoint`, which raises :class:`TimeLimitPassed` once the limit has passed.
Without a limit a checkpoint costs one context-variable read.

The limit lives in a :class:`contextvars.ContextVar`: it holds for the thread (or task) that set
it, never for other requests served at the same time.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_LIMIT: ContextVar[float | None] = ContextVar("agentic_time_limit", default=None)


class TimeLimitPassed(BaseException):
    """The time limit set by :func:`time_limited` passed at a checkpoint.

    A :class:`BaseException`, as :class:`asyncio.CancelledError` is: a stop, not an error, so that
    no ``except Exception`` on the way up (a record reported invalid, a judge call counted as
    failed) mistakes it for one. The code that set the limit turns it into its answer.
    """


@contextmanager
def time_limited(deadline: float | None) -> Iterator[None]:
    """Let :func:`checkpoint` raise :class:`TimeLimitPassed` inside the block once ``deadline`` passes.

    Args:
        deadline: When to stop, on :func:`time.monotonic`'s clock; ``None``: no limit.
    """
    token = _LIMIT.set(deadline)
    try:
        yield
    finally:
        _LIMIT.reset(token)


def checkpoint() -> None:
    """Raise :class:`TimeLimitPassed` if the limit set by :func:`time_limited` has passed.

    Raises:
        TimeLimitPassed: the limit has passed.
    """
    deadline = _LIMIT.get()
    if deadline is not None and time.monotonic() >= deadline:
        raise TimeLimitPassed
