"""How long the LLM judge waits for a call, and what it does when a call times out.

A call that times out is *cancelled*: the task awaiting the reply is cancelled, which closes its
HTTP connection, so a server that stops on a hang-up (llama.cpp's own server, Ollama, vLLM) stops
generating. A server that keeps working on it (llama-cpp-python's, for a request that does not
stream) stays busy: a call sent next waits behind the abandoned one. :class:`CallClock` keeps that
account for the judge's lifetime:

* **The timeout adapts** when the user did not set one: it starts at the default, and after each of
  the first :data:`ADAPT_REPLIES` replies becomes ``max(default, ADAPT_FACTOR x the slowest of
  them)`` (two significant digits, at most the ceiling), so a slow local server gets a longer
  timeout instead of a storm of retries. A timeout the user gave (``--timeout``, the API's
  ``timeout_s``, the Run page's field, the endpoint's ``connector.params.timeout``) is never changed.
  A call already waiting gets the longer timeout too.
* **The server is measured** by the first timeout. Until a server is known to stop, every abandoned
  call is *owed*: a call queued behind it (sent after it, while it is owed) gets one more timeout
  per owed call to wait it out, and calls go one at a time (if it times out even so, the calls it
  waited out are written off: a dead server costs one extra timeout per call, not ever more). The
  first reply to such a call (not a
  retry, whose own work may be slow) tells the kind: if it came later than the fastest reply by
  :data:`WAIT_SHARE` of the timeout, counted from the abandonment (or from its sending, if later),
  it waited for the abandoned call: the server does not stop. A reply to a call queued behind the
  owed ones also shows the server has finished them (one request at a time, in order).
* **A timed-out call is retried** only where a retry can help: when the timeout adapts, with the
  timeout doubled; onto a server known to stop; or when the call was queued behind others (it was
  sent while other calls were in flight, which nothing in its limit allowed for), since its own
  work may fit the timeout once the server is free: the retry waits for the abandoned call (one
  more timeout) and then gets its own. A call sent alone (given its timeout plus one for each owed
  call) on a server that may still be busy with it is not retried under a timeout the user gave:
  the retry would take as long again, behind the abandoned call; the item is left unscored
  (``timed_out``), saying so. Every retry is counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from agentic_core.judges.llm.options import DEFAULT_TIMEOUT_S, LLM_OPTIONS

if TYPE_CHECKING:
    from agentic_core.judges.llm.spec_fields import LLMSpecFields

ADAPT_REPLIES = 3
"""The first replies (to calls that waited for no abandoned one) whose latency sets an adaptive timeout."""
ADAPT_FACTOR = 4.0
"""An adaptive timeout is this many times the slowest of the first replies (and at least the default)."""
WAIT_SHARE = 0.25
"""A call after a timeout waited for the abandoned one when it took this share of the timeout more than
the fastest reply."""

BACKSTOP_FACTOR = 10.0
"""The HTTP client's own timeout is this many times the longest per-call timeout: the judge cancels its calls
itself (one path for every provider), and the client's timeout only guards against a call never returning."""

T = TypeVar("T")


def nice_seconds(seconds: float) -> float:
    """``seconds`` rounded up to two significant digits: 116 -> 120, 2.04 -> 2.1, 0.5 -> 0.5."""
    if seconds <= 0 or not math.isfinite(seconds):
        return seconds
    step = 10.0 ** (math.floor(math.log10(seconds)) - 1)
    return round(math.ceil(round(seconds / step, 9)) * step, 9)


class CallTimeout(TimeoutError):
    """A call cancelled at its timeout by :meth:`CallClock.run` (its connection closed)."""


class CallReport(BaseModel):
    """What the judge's calls showed about the server: the run records it (``JudgeRun.llm_calls``).

    Attributes:
        timeout_s: The per-call timeout at the end of the run.
        timeout_explicit: Whether the user set it (then it never adapts).
        timed_out_after_s: The per-call timeout at which an item was left unscored as timed out (the
            largest, when it changed), or ``None`` when none was.
        first_reply_s: How long the first reply took, or ``None`` when no call was answered.
        slowest_reply_s: The slowest reply to a call that waited for no abandoned one.
        suggested_timeout_s: A timeout that fits this server: :data:`ADAPT_FACTOR` x the slowest reply
            (twice the timeout when no call was answered), two significant digits.
        timeouts: Calls cancelled at their timeout (retried or not).
        server_stops: Whether the server stopped working on an abandoned call (``None``: not measured).
        concurrency: The concurrency asked for.
    """

    timeout_s: float
    timeout_explicit: bool
    timed_out_after_s: float | None = None
    first_reply_s: float | None = None
    slowest_reply_s: float | None = None
    suggested_timeout_s: float | None = None
    timeouts: int = 0
    server_stops: bool | None = None
    concurrency: int = 1


@dataclass(eq=False)
class Ticket:
    """One call as the clock sees it: when it was sent, how many abandoned calls it may wait behind (more when
    a call sent before it is abandoned meanwhile), whether it measures the server."""

    started: float
    owed: int
    retry: bool = False
    ahead: int = 0  # calls in flight when it was sent: it may have queued behind them
    owed_since: float = 0.0  # when the last call it is owed was abandoned


class CallClock:
    """The timeout and the server's account of one LLM judge (see the module docstring).

    Args:
        spec: The judge's spec: its ``timeout_s`` (the user's, or ``None`` for
            :data:`~agentic_core.judges.llm.options.DEFAULT_TIMEOUT_S`, which adapts), ``timeout_ceiling_s``
            (the longest an adaptive timeout reaches), ``adaptive_timeout`` (default: adapting only when
            ``timeout_s`` is ``None``) and ``concurrency`` (reported).
    """

    def __init__(self, spec: LLMSpecFields) -> None:
        self.configured_s = float(DEFAULT_TIMEOUT_S if spec.timeout_s is None else spec.timeout_s)
        self.timeout_s = self.configured_s
        self.adaptive = (spec.timeout_s is None) if spec.adaptive_timeout is None else spec.adaptive_timeout
        self.explicit = not self.adaptive  # the user's timeout: kept as given
        self.ceiling_s = max(float(spec.timeout_ceiling_s), self.configured_s)
        self.concurrency = spec.concurrency
        self.server_stops: bool | None = None
        self.timeouts = 0
        self._samples: list[float] = []  # latencies of the first replies (calls that waited for nothing)
        self._fastest_s: float | None = None
        self._slowest_s: float | None = None
        self._first_s: float | None = None
        self._owed: list[tuple[float, float]] = []  # (sent, abandoned) of each call the server may still work on
        self._changed_at = 0.0
        self._gave_up_at: list[float] = []
        self._adapted: str | None = None
        self._notes: list[str] = []
        self._changed: asyncio.Future[None] | None = None
        self._live: set[Ticket] = set()  # calls waiting for their reply

    # -- what a call gets ------------------------------------------------------------------------

    def start(self, *, retry: bool = False) -> Ticket:
        """A call is sent now (``retry``: it repeats one that failed): its ticket.

        The calls in flight count as ahead of it (it may queue behind them, and nothing extends its limit
        for them); owed calls do not: its limit already has one timeout for each.
        """
        owed_since = max((abandoned for _, abandoned in self._owed), default=0.0)
        ticket = Ticket(time.perf_counter(), len(self._owed), retry, len(self._live), owed_since)
        self._live.add(ticket)
        return ticket

    def limit_s(self, ticket: Ticket) -> float:
        """The call's whole wait: the timeout, plus one timeout per abandoned call it may wait behind."""
        return self.timeout_s * (1 + ticket.owed)

    async def run(self, call: Awaitable[T], ticket: Ticket) -> T:
        """Await ``call`` until its limit (which grows when the timeout adapts meanwhile).

        Raises:
            CallTimeout: the limit passed; the call was cancelled, its connection closed.
        """
        task = asyncio.ensure_future(call)
        try:
            while True:
                remaining = ticket.started + self.limit_s(ticket) - time.perf_counter()
                if remaining <= 0:
                    break
                waiting: set[asyncio.Future[Any]] = {task, self._change()}
                done, _ = await asyncio.wait(waiting, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
                if task in done:
                    return task.result()
        finally:
            self._live.discard(ticket)
            if not task.done():
                # Cancelling the awaiting task closes the HTTP connection (httpx drops a connection
                # whose response was not read): the server sees the client hang up.
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        raise CallTimeout(self._no_reply(ticket))

    def _no_reply(self, ticket: Ticket) -> str:
        limit = self.limit_s(ticket)
        if not ticket.owed:
            return f"no reply within {limit:g} s"
        return (
            f"no reply within {limit:g} s ({self.timeout_s:g} s for the call, after waiting for {ticket.owed} "
            "call(s) abandoned at their timeout that the server may still have been working on)"
        )

    def _change(self) -> asyncio.Future[None]:
        """A future resolved when the timeout changes (calls waiting re-read their limit)."""
        loop = asyncio.get_running_loop()
        if self._changed is None or self._changed.done() or self._changed.get_loop() is not loop:
            self._changed = loop.create_future()
        return self._changed

    def _set_timeout(self, seconds: float) -> None:
        self.timeout_s = seconds
        self._changed_at = time.perf_counter()
        self._wake()

    def _wake(self) -> None:
        """Calls waiting re-read their limit."""
        if self._changed is not None and not self._changed.done():
            self._changed.set_result(None)

    # -- what a call showed ----------------------------------------------------------------------

    def replied(self, ticket: Ticket) -> None:
        """A reply arrived for ``ticket``'s call: measure, adapt, and settle the owed calls."""
        now = time.perf_counter()
        latency = now - ticket.started
        # One request at a time, in order: abandoned calls sent before this one are done by now.
        self._owed = [(sent, gone) for sent, gone in self._owed if sent > ticket.started]
        if ticket.owed and not ticket.retry and self.server_stops is None and self._fastest_s is not None:
            # Had the server stopped at the hang-up, it was free from then (or from this call's sending).
            since = now - max(ticket.started, ticket.owed_since)
            waited = since - self._fastest_s
            self.server_stops = waited <= WAIT_SHARE * self.timeout_s
            self._say_server(since, waited)
        if ticket.owed:
            return  # it waited for abandoned work: its latency is not the server's pace
        if self._first_s is None:
            self._first_s = latency
        self._fastest_s = latency if self._fastest_s is None else min(self._fastest_s, latency)
        self._slowest_s = latency if self._slowest_s is None else max(self._slowest_s, latency)
        if len(self._samples) < ADAPT_REPLIES:
            self._samples.append(latency)
            if self.adaptive:
                fit = min(self.ceiling_s, max(self.configured_s, nice_seconds(ADAPT_FACTOR * max(self._samples))))
                if fit > self.timeout_s:
                    self._set_timeout(fit)
                    self._adapted = (
                        f"LLM timeout {fit:g} s instead of {self.configured_s:g} s: adapted to this server, "
                        f"{ADAPT_FACTOR:g} x the slowest of its first replies ({max(self._samples):.1f} s); "
                        "give --timeout to set it yourself"
                    )

    def timed_out(self, ticket: Ticket) -> bool:
        """``ticket``'s call was cancelled at its limit; whether a retry can help."""
        self.timeouts += 1
        self._live.discard(ticket)
        if self.server_stops is not True:
            now = time.perf_counter()
            # The calls it waited out (one timeout each) are written off: a server answering nothing must
            # not make every next call wait longer (time linear in the calls, not quadratic).
            self._owed = [(sent, gone) for sent, gone in self._owed if sent > ticket.started]
            self._owed.append((ticket.started, now))  # the server may still be working on it
            for behind in self._live:
                if behind.started > ticket.started:
                    # Sent after it, so queued behind it on a server that takes one request at a time.
                    behind.owed += 1
                    behind.owed_since = now
            self._wake()
        if self.adaptive:
            # Once per change: calls sent under the old timeout say nothing about the new one.
            if ticket.started >= self._changed_at and self.timeout_s < self.ceiling_s:
                old = self.timeout_s
                self._set_timeout(min(self.ceiling_s, 2 * old))
                self._adapted = (
                    f"LLM timeout {self.timeout_s:g} s: a call timed out at {old:g} s, so the timeout (not set, so "
                    "adapting to the server) was doubled; give --timeout to set it yourself"
                )
            return True
        return self.server_stops is True or ticket.ahead > 0

    def gave_up(self) -> None:
        """An item is left unscored after a timeout (at the current timeout)."""
        self._gave_up_at.append(self.timeout_s)

    def _say_server(self, since: float, waited: float) -> None:
        if self.server_stops:
            self._notes.append(
                f"the server stopped working on a call abandoned at its timeout (the call queued behind it was "
                f"answered {since:.1f} s later, as fast as before): timed-out calls are retried"
            )
        else:
            self._notes.append(
                f"the server kept working on a call abandoned at its timeout (the call queued behind it waited "
                f"{waited:.1f} s longer than the fastest reply): after a timeout, calls go one at a time and wait for "
                "the abandoned call; a timed-out call is retried only if it had queued behind others"
            )

    @property
    def notes(self) -> list[str]:
        """What the judge's warnings say about the timeout and the server (each once)."""
        return [*([self._adapted] if self._adapted else []), *self._notes]

    def report(self) -> CallReport:
        """The account so far (see :class:`CallReport`)."""
        if self._slowest_s is not None:
            suggested = nice_seconds(ADAPT_FACTOR * self._slowest_s)
        else:
            suggested = nice_seconds(2 * self.timeout_s)
        gave_up = max(self._gave_up_at) if self._gave_up_at else None
        if gave_up is not None and suggested <= gave_up:
            suggested = nice_seconds(2 * gave_up)  # replies vary more than the first ones showed
        return CallReport(
            timeout_s=self.timeout_s,
            timeout_explicit=self.explicit,
            timed_out_after_s=gave_up,
            first_reply_s=self._first_s,
            slowest_reply_s=self._slowest_s,
            suggested_timeout_s=min(suggested, LLM_OPTIONS["timeout_s"].maximum),
            timeouts=self.timeouts,
            server_stops=self.server_stops,
            concurrency=self.concurrency,
        )


def report_of(judge: Any) -> CallReport | None:
    """A judge's :class:`CallReport` (its ``call_report()``), or ``None`` for judges that call no LLM."""
    method = getattr(judge, "call_report", None)
    report = method() if callable(method) else None
    return report if isinstance(report, CallReport) else None
