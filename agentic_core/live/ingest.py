"""Live traces in: a request's spans kept, conversations completed, judged and stored by a thread of their own.

:meth:`LiveIngest.receive` is what ``POST /v1/traces`` calls once the body is read: the spans are committed to the
spool (:mod:`agentic_core.live.spool`) and indexed (:mod:`agentic_core.live.pending`), or the whole request is
refused when the server already holds :attr:`~agentic_core.live.config.LiveConfig.max_pending` conversations
(429 with ``Retry-After``, which the SDKs' exporters honour). A thread (:meth:`LiveIngest.start`) takes the
complete conversations, a batch at a time, and judges and stores them (:mod:`agentic_core.live.judging`).

At start, the spans still in the spool (received before a stop or a crash, not yet judged) are indexed again:
their conversations complete and are judged as if the server had never stopped.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from agentic_core.io.otel_references import read_references
from agentic_core.io.otlp_export import ExportBatch
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CacheMode
from agentic_core.judges.spec import judge_spec
from agentic_core.live.config import LiveConfig
from agentic_core.live.judging import BatchOutcome, judge_buckets
from agentic_core.live.live_runs import LiveRuns
from agentic_core.live.pending import Pending
from agentic_core.live.spool import SPOOL_FILENAME, LiveSpool
from agentic_core.runs.store import ENV_VAR, RunStore, RunStoreError

log = logging.getLogger("agentic_core.live")

_TICK_S = 0.5
"""Longest the judging thread sleeps between looks at the pending conversations."""


@dataclass(frozen=True)
class Full:
    """A request refused because the server holds as many conversations as it may (answered 429).

    Attributes:
        held: Conversations held (waiting or being judged).
        retry_after: Seconds after which a retry may be taken (the next conversation's completion, at least 1).
    """

    held: int
    retry_after: int


class LiveIngest:
    """The live path of one server: spool, pending conversations, judge, live runs (see the module).

    Args:
        config: The live settings.
        cache: The server's judge cache (``None``: none).
        cache_mode: Its mode.

    Raises:
        RunStoreError: The run history cannot be opened, or it is read-only.
        SpoolError: The spool cannot be opened.
        DataError: The reference file cannot be read.
    """

    def __init__(self, config: LiveConfig, cache: JudgeCache | None = None, cache_mode: CacheMode = "use") -> None:
        self.config = config
        store = RunStore(Path(config.runs_path) if config.runs_path else None)
        if store.read_only:
            raise RunStoreError(str(store.path), "is read-only: live runs cannot be stored there", None,
                                f"make it writable, or point {ENV_VAR} at a writable file")
        self.references = read_references(config.references) if config.references else None
        self.judge = judge_spec(config.judge).build()  # an offline judge's name, checked by the config
        self.cache, self.cache_mode = cache, cache_mode
        path = Path(config.spool_path) if config.spool_path else store.path.parent / SPOOL_FILENAME
        self.spool = LiveSpool(path)
        self.pending = Pending(config.idle_s)
        self._lock = threading.Lock()  # the pending index: request threads and the judging thread
        self._judging = 0
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.picked_up = 0
        last = 0
        for span in self.spool.index():
            self.pending.see(span.seq, span.trace_id, span.conversation, span.root, span.received)
            self.picked_up += 1
            last = span.seq
        self.runs = LiveRuns(store, self.judge.identity, last)
        self.stored = 0
        self.left_out = 0

    @property
    def held(self) -> int:
        """Conversations held: waiting to be complete, or being judged."""
        with self._lock:
            return len(self.pending) + self._judging

    def receive(self, batch: ExportBatch) -> Full | None:
        """Keep a request's spans (on the disk when this returns), or refuse the whole request when full.

        Returns:
            ``None`` when the spans are kept; :class:`Full` when refused.
        """
        now = time.time()
        with self._lock:
            held = len(self.pending) + self._judging
            if held >= self.config.max_pending:
                wait = self.pending.next_due(now)
                return Full(held, max(1, math.ceil(wait if wait is not None else 1.0)))
        waiting = self.spool.add(batch, now)
        with self._lock:
            for span in waiting:
                self.pending.see(span.seq, span.trace_id, span.conversation, span.root, span.received)
        if waiting:
            self._wake.set()
        return None

    def step(self, now: float | None = None) -> BatchOutcome | None:
        """Judge and store one batch of complete conversations, if any (the judging thread's work).

        A failure (the history locked for long, a full disk) is logged and the batch's spans stay in the spool: its
        conversations wait ``idle_s`` more and are tried again (and a restart picks them up).
        """
        now = time.time() if now is None else now
        with self._lock:
            due = self.pending.take_due(now, self.config.batch_conversations)
            self._judging = len(due)
        if not due:
            return None
        try:
            outcome = judge_buckets(due, self.spool, self.runs, self.judge, self.cache, self.cache_mode,
                                    self.references, now)
        except Exception:  # the thread must go on: the spans stay on the disk, the conversations wait again
            log.exception("live batch of %d conversation(s) failed; their spans stay in %s and are tried again in "
                          "%g s", len(due), self.spool.path, self.config.idle_s)
            with self._lock:
                self.pending.restore(due, time.time())
            return None
        finally:
            with self._lock:
                self._judging = 0
        self.stored += outcome.stored
        self.left_out += outcome.left_out
        log.info("live: %d conversation(s) judged and stored, %d left out", outcome.stored, outcome.left_out)
        return outcome

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self.step()
            with self._lock:
                wait = self.pending.next_due(time.time())
            self._wake.wait(_TICK_S if wait is None else min(max(wait, 0.0), _TICK_S))
            self._wake.clear()

    def start(self) -> None:
        """Start the judging thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="live-judging", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the judging thread (after its batch) and close the spool; what waits stays there."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.spool.close()
