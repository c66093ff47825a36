"""A request's deadline: judging still running when it passes is stopped, and the caller told so (504)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from agentic_core.errors import RequestError

T = TypeVar("T")


def judge_within(deadline: float, work: Callable[[Any], T], total: int) -> T:
    """``work(monitor)``, its judge run cancelled through ``monitor`` once ``deadline`` passes.

    A thread cannot be stopped from outside, so the judge run is asked to stop instead: it
    cancels its calls in flight and keeps every verdict it has in the judge cache, so resending
    the same request continues where this one stopped.

    Args:
        deadline: When to stop, on :func:`time.monotonic`'s clock.
        work: The evaluation, given the :class:`~agentic_core.judges.monitor.RunMonitor` to pass
            to :func:`agentic_core.evaluate.evaluate`.
        total: The interactions the run judges (the monitor's size).

    Returns:
        What ``work`` returned.

    Raises:
        RequestError: status 504, when the deadline passed while judging.
    """
    from agentic_core.judges.monitor import RunCancelled, RunMonitor

    monitor = RunMonitor(total)
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), monitor.cancel)
    timer.daemon = True
    timer.start()
    try:
        return work(monitor)
    except RunCancelled:
        snap = monitor.snapshot()
        raise RequestError(
            "request",
            "passed this server's deadline while judging",
            f"{snap.done:,} of {snap.total:,} interactions had a verdict (kept in the judge cache)",
            "send fewer conversations per request or use a faster judge; resending the same request continues "
            "from the cache",
            status=504,
        ) from None
    finally:
        timer.cancel()
