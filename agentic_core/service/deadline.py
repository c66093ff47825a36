"""A request's deadline: the work still running when it passes is stopped, and the caller told so (504).

Two kinds of work run before the answer: reading the records (validation, and tool scoring while
the columns are built), stopped at the checkpoints of :mod:`agentic_core.common.time_limit`; and
judging, stopped through its run monitor.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from agentic_core.common.time_limit import TimeLimitPassed, time_limited
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


def load_within(deadline: float, load: Callable[[], T]) -> T:
    """``load()``, stopped at its next checkpoint once ``deadline`` passes.

    Validating a request's records and scoring their tool use is CPU work in the request's own
    thread: it checks the deadline between chunks of records, between conversations and between
    rows of a large matching (:func:`agentic_core.common.time_limit.checkpoint`), so a request whose
    scoring would take minutes frees its worker at the deadline instead.

    Args:
        deadline: When to stop, on :func:`time.monotonic`'s clock.
        load: The loading (``load_records`` of the request's datasets).

    Returns:
        What ``load`` returned.

    Raises:
        RequestError: status 504, when the deadline passed while loading.
    """
    try:
        with time_limited(deadline):
            return load()
    except TimeLimitPassed:
        raise RequestError(
            "request",
            "passed this server's deadline while reading the conversations and scoring their tool use "
            "(nothing was judged)",
            "0 interactions had a verdict: judging had not begun",
            fix="send fewer conversations, or fewer tool calls per interaction, per request; or ask the operator "
            "to raise --request-deadline-s",
            show=False,
            status=504,
        ) from None
