"""How many LLM calls a run keeps in flight: one until the server has answered once, then the
configured concurrency, halved each time replies show they waited in the server's queue. (Until a
reply arrives, calls go one at a time: a server that refuses every call is not flooded, and the
reply format is settled by one call, not eight.)

A self-hosted server often serves one request at a time (llama.cpp, Ollama by default): eight
calls sent at once then wait behind each other, the last for eight replies' time, close to the
timeout, while throughput is no better than one at a time. The first reply, received alone, is
the unqueued latency; a later reply that took :data:`QUEUE_FACTOR` times longer *and* at least
:data:`TIMEOUT_SHARE` of the timeout waited in a queue, so the limit is halved and the change is
said in the judge's warnings. Tying the trigger to the timeout leaves fast cloud APIs alone: their
latencies vary, but never by a sizeable share of the timeout.
"""

from __future__ import annotations

import asyncio
import time

QUEUE_FACTOR = 3.0
"""A reply this many times slower than the fastest one seen may have been queued."""
TIMEOUT_SHARE = 0.25
"""...and it counts as queued only when it also took this share of the timeout."""


class Pacer:
    """The in-flight limit of one run (see the module docstring).

    Args:
        concurrency: The limit asked for.
        timeout_s: The per-call timeout.
    """

    def __init__(self, concurrency: int, timeout_s: float) -> None:
        self.target = concurrency
        self.limit = 1  # the first call goes alone: its latency is the unqueued one
        self.timeout_s = timeout_s
        self.baseline_s: float | None = None
        self.notes: list[str] = []
        self._in_flight = 0
        self._changed_at = 0.0
        self._serial_from: int | None = None  # the limit before a timeout made calls go one at a time
        self._cond = asyncio.Condition()

    async def acquire(self) -> float:
        """Wait for a free slot; returns the call's start time, to hand back to :meth:`release`."""
        async with self._cond:
            await self._cond.wait_for(lambda: self._in_flight < self.limit)
            self._in_flight += 1
        return time.perf_counter()

    async def release(self, started: float, *, replied: bool, timed_out: bool = False, serialise: bool = False) -> None:
        """Free the slot of a call that ``replied`` (any reply) or failed (``timed_out`` or not).

        ``serialise``: the call timed out and the server may still be working on it, so calls go one
        at a time from now on (the next one waits behind the abandoned call: see
        :mod:`agentic_core.judges.llm.timing`).
        """
        now = time.perf_counter()
        latency = now - started
        async with self._cond:
            self._in_flight -= 1
            queued = False
            if replied:
                if self.baseline_s is None and self._serial_from is None:
                    self.limit = self.target
                self.baseline_s = latency if self.baseline_s is None else min(self.baseline_s, latency)
                queued = latency > QUEUE_FACTOR * self.baseline_s and latency > TIMEOUT_SHARE * self.timeout_s
            # A call sent before the last change waited under the old limit: it says nothing new.
            queued = (queued or timed_out) and started >= self._changed_at
            if timed_out and serialise and self._serial_from is None:
                self._serial_from = self.limit if self.baseline_s is not None else self.target
            if (queued or (timed_out and serialise)) and self.limit > 1:
                old, self.limit = self.limit, 1 if timed_out and serialise else max(1, self.limit // 2)
                self._changed_at = now
                unqueued = f"{self.baseline_s:.1f} s" if self.baseline_s is not None else "unknown"
                waited = "timed out" if timed_out and not replied else f"took {latency:.1f} s"
                self.notes.append(
                    f"LLM concurrency lowered from {old} to {self.limit}: a reply {waited} against {unqueued} "
                    f"unqueued (timeout {self.timeout_s:g} s), so the server queues requests; set --concurrency "
                    f"{self.limit} to start there"
                    + (" (one at a time: the server may still be working on the call abandoned at its timeout)"
                       if self.limit == 1 and timed_out and serialise else "")
                )
            self._cond.notify_all()

    async def reopen(self) -> None:
        """The server turned out to stop on a hang-up: leave one-at-a-time for half the limit before it."""
        async with self._cond:
            if self._serial_from is not None:
                self.limit = max(self.limit, self._serial_from // 2, 1)
                self._serial_from = None
                self._cond.notify_all()
