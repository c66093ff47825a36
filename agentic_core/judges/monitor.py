"""Watching a judge run while it runs: progress, measured rate, ETA, partial verdicts, cancel.

A :class:`RunMonitor` is handed to :func:`~agentic_core.judges.runner.run_judge_sync` (through
``evaluate(monitor=...)``). The runner reports every verdict as soon as it is known; another
thread (the dashboard's Run page) reads :meth:`RunMonitor.snapshot` and :meth:`RunMonitor.partial`
at any time, and :meth:`RunMonitor.cancel` asks the run to stop: the runner cancels the judge's
calls in flight, writes what was judged to the cache, and raises :class:`RunCancelled`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

import numpy as np
from pydantic import BaseModel

from agentic_core.errors import AgenticError
from agentic_core.judges.base import Verdict
from agentic_core.judges.causes import UnscoredCause

# The rate is measured over the last RATE_WINDOW_S seconds of progress (an LLM judge slows down
# when a rate limit bites; the whole-run average would keep promising the early speed).
RATE_WINDOW_S = 30.0
# No ETA before this much judging time: the first second mixes in start-up work.
MIN_MEASURE_S = 0.5

STATUS_CODES = {"ok": 0, "cached": 1, "failed": 2, "uncertain": 3}
_PENDING = -1


class RunCancelled(AgenticError):
    """A run stopped because the user cancelled it; what was judged is in the cache (and the monitor)."""


class RunSnapshot(BaseModel):
    """A run's progress at one moment.

    Attributes:
        total: Interactions in the run.
        done: Interactions with a verdict (judged now, cached, duplicates, failed, uncertain).
        judged: Verdicts judged in this run (``ok``), ``cached``, ``failed`` and ``uncertain`` counts follow.
        cached: Verdicts taken from the cache or the shipped verdicts.
        failed: Unscored items (judge failures).
        uncertain: Unscored items the judge abstained on (judged now or taken from the cache).
        elapsed_s: Seconds since the run started.
        rate_per_s: Interactions per second over the last :data:`RATE_WINDOW_S` seconds, or ``None``
            before it can be measured.
        eta_s: Seconds left at that rate, or ``None`` when unknown.
        cancel_requested: Whether :meth:`RunMonitor.cancel` was called.
    """

    total: int
    done: int
    judged: int
    cached: int
    failed: int
    elapsed_s: float
    uncertain: int = 0
    rate_per_s: float | None
    eta_s: float | None
    cancel_requested: bool


def measured_rate(samples: Sequence[tuple[float, int]]) -> float | None:
    """Items per second from ``(time, done)`` samples, over the last :data:`RATE_WINDOW_S` seconds.

    Args:
        samples: Progress samples, oldest first; the first is the moment judging started (after
            the cache answered what it could, so cache hits do not inflate the rate).

    Returns:
        The rate, or ``None`` with fewer than two samples or less than :data:`MIN_MEASURE_S`
        seconds of judging (and 0.0 when nothing was judged in the window).
    """
    if len(samples) < 2:
        return None
    t_last, d_last = samples[-1]
    if t_last - samples[0][0] < MIN_MEASURE_S:
        return None
    first = samples[0]
    for sample in samples:
        if t_last - sample[0] <= RATE_WINDOW_S:
            first = sample
            break
    span = t_last - first[0]
    if span <= 0:
        first = samples[0]
        span = t_last - first[0]
    return max(0.0, (d_last - first[1]) / span)


def eta_seconds(remaining: int, rate: float | None) -> float | None:
    """Seconds left for ``remaining`` items at ``rate`` items per second (``None`` if unknown)."""
    if remaining <= 0:
        return 0.0
    if rate is None or rate <= 0:
        return None
    return remaining / rate


class RunMonitor:
    """Thread-safe progress of one judge run (written by the runner, read by anyone).

    Args:
        total: Interactions the run will judge.
        clock: Monotonic clock (tests pass a fake one).
    """

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self._clock = clock
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._started = clock()
        self._ended: float | None = None
        self._samples: deque[tuple[float, int]] = deque(maxlen=4096)
        self._done = 0
        self.scores = np.full(total, np.nan)
        """Per interaction, its score so far (NaN: unscored or not judged yet)."""
        self.status = np.full(total, _PENDING, dtype=np.int8)
        """Per interaction, :data:`STATUS_CODES` of its verdict, -1 while pending."""
        self._verdicts: list[Verdict | None] = [None] * total

    def cancel(self) -> None:
        """Ask the run to stop (it stops within a moment; judged verdicts stay in the cache)."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        """Whether the run was asked to stop."""
        return self._cancel.is_set()

    def finish(self) -> None:
        """The run has ended (done, failed or cancelled): its elapsed time stops here."""
        if self._ended is None:
            self._ended = self._clock()

    def record(self, position: int, verdict: Verdict) -> None:
        """The runner's report: ``verdict`` is known for item ``position``."""
        with self._lock:
            if self._verdicts[position] is None:
                self._done += 1
            self._verdicts[position] = verdict
            self.scores[position] = np.nan if verdict.score is None else verdict.score
            self.status[position] = STATUS_CODES.get(verdict.status, 2)

    def progress(self, done: int, total: int) -> None:
        """The runner's progress report; samples feed the measured rate."""
        del total
        now = self._clock()
        with self._lock:
            # Coalesce: one sample per 50 ms is plenty for a rate over 30 s.
            if self._samples and now - self._samples[-1][0] < 0.05 and len(self._samples) > 1:
                self._samples[-1] = (now, done)
            else:
                self._samples.append((now, done))

    def snapshot(self) -> RunSnapshot:
        """The run's progress now (counts, rate, ETA)."""
        with self._lock:
            samples = list(self._samples)
            done = self._done
            codes = np.bincount(self.status[self.status >= 0], minlength=len(STATUS_CODES))
        rate = measured_rate(samples)
        return RunSnapshot(
            total=self.total,
            done=done,
            judged=int(codes[0]),
            cached=int(codes[1]),
            failed=int(codes[2]),
            uncertain=int(codes[3]),
            elapsed_s=(self._ended if self._ended is not None else self._clock()) - self._started,
            rate_per_s=rate,
            eta_s=eta_seconds(self.total - done, rate),
            cancel_requested=self.cancel_requested,
        )

    def partial(self, reason: str) -> list[Verdict]:
        """Every item's verdict so far; items not judged yet are unscored with ``reason`` (cause: not judged)."""
        with self._lock:
            verdicts = list(self._verdicts)
        missing = Verdict(score=None, status="failed", error=reason, cause=UnscoredCause.NOT_JUDGED)
        return [v if v is not None else missing for v in verdicts]


def duration_words(seconds: float) -> str:
    """``"45 s"``, ``"3 min 20 s"``, ``"1 h 05 min"``: an ETA or elapsed time in words."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"
