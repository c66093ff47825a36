"""Run a judge over items with deduplication and the persistent cache.

``run_judge`` is the one place that decides what is sent to a judge:

1. identical items are judged once (the verdict is copied to the duplicates);
2. with ``cache_mode="use"`` the cache answers what it can (status ``cached``; a stored abstention
   comes back ``uncertain``, with its probability: an offline judge would abstain again);
3. the rest goes to the judge, and each verdict is written to the cache as it completes (in
   small batches), so a run that fails half-way (Ctrl-C, a cancelled task, a judge bug) keeps
   everything judged so far: the next run starts where this one stopped.

Only cacheable judges use the cache (the ``dataset`` judge reads scores from the data itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncGenerator, Callable, Hashable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from agentic_core.errors import CacheError, SettingsError
from agentic_core.judges.base import (
    FittedBand,
    Judge,
    JudgeIdentity,
    JudgeItem,
    ProgressFn,
    Verdict,
    fitted_band,
    item_key,
)
from agentic_core.judges.cache import JudgeCache, cache_key
from agentic_core.judges.llm.timing import CallReport, report_of
from agentic_core.judges.monitor import RunCancelled, RunMonitor
from agentic_core.judges.packs import packed_verdicts
from agentic_core.judges.verdict_counts import STATUSES, status_counts

CacheMode = Literal["use", "refresh", "off"]
CACHE_MODES: tuple[str, str, str] = ("use", "refresh", "off")
CACHE_MODE_HELP: dict[str, str] = {
    "use": "use: reuse cached verdicts, store new ones",
    "refresh": "refresh: judge everything again, overwrite",
    "off": "off: neither read nor write",
}
"""Each cache mode in words (menus and ``--help``)."""

# Verdicts are written after this many completions or this many seconds, whichever comes
# first: small enough that an interruption loses little, large enough that writing costs
# nothing next to judging.
FLUSH_EVERY = 32
FLUSH_SECONDS = 1.0
# Judges without ``ajudge_stream`` are called on chunks of this many items, so their verdicts
# reach the cache before the whole run ends.
CHUNK_SIZE = 128


class JudgeRun(BaseModel):
    """The outcome of :func:`run_judge`.

    Attributes:
        verdicts: One per input item, same order; cache hits have status ``cached`` (stored
            abstentions stay ``uncertain``).
        identity: The judge that produced (or originally produced) the verdicts.
        counts: Items by status: ``{"ok": .., "failed": .., "cached": .., "uncertain": ..}``
            (:func:`~agentic_core.judges.verdict_counts.verdict_counts` says them in words).
        cache_hits: Distinct items answered by the cache.
        cache_misses: Distinct items looked up and not found (0 when the cache was not read).
        model_calls: Distinct items actually sent to the judge.
        duplicates: Items that repeated an earlier item and were not judged again.
        retries: Calls the judge repeated after retryable errors (LLM judges).
        reasks: Items the judge asked a second time because its first reply held several different
            verdicts (LLM judges; an answer carrying its own ``{"score": 1.0}`` can cause that).
        elapsed_s: Wall time of the run.
        input_tokens: Prompt tokens spent by this run (cache hits cost none).
        output_tokens: Completion tokens spent by this run.
        cache_mode: The cache mode used (``off`` when no cache was used at all).
        cache_path: The cache file, or ``None`` (no cache, or in memory).
        warnings: Things the user should know (corrupt cache rebuilt, cache not writable, ...).
        llm_calls: What an LLM judge's calls showed (its timeout, the first reply, the server), or ``None``
            for judges that call no LLM: what the unscored causes' words quote.
        fitted_band: The judge's fitted abstention band, for a judge that abstains by its probability
            (the ``learned`` judge, and the cascade's offline judge); ``None`` for the others, and for runs
            stored before it was recorded.
    """

    verdicts: list[Verdict]
    identity: JudgeIdentity
    counts: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(STATUSES, 0))
    cache_hits: int = 0
    cache_misses: int = 0
    model_calls: int = 0
    duplicates: int = 0
    retries: int = 0
    reasks: int = 0
    elapsed_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_mode: str = "off"
    cache_path: str | None = None
    warnings: list[str] = Field(default_factory=list)
    llm_calls: CallReport | None = None
    fitted_band: FittedBand | None = None

    def __repr_args__(self) -> Any:
        # A full repr lists every verdict; asyncio formats a finished task's result with repr,
        # which cost about a second on 50k items. Summarise the list instead.
        for name, value in super().__repr_args__():
            yield (name, f"<{len(self.verdicts)} verdicts>") if name == "verdicts" else (name, value)


def _check_cache_mode(cache_mode: str) -> None:
    if cache_mode not in CACHE_MODES:
        raise SettingsError("cache_mode", f"must be one of {', '.join(CACHE_MODES)}", cache_mode, "use 'use'")


def _dedupe_key(judge: Judge) -> Callable[[JudgeItem], Hashable]:
    """What a judge's verdict depends on, as a function of the item."""
    # A cacheable judge's verdict depends on exactly the texts (that is the cache key); a
    # non-cacheable one (the dataset judge) may also read the item's own score.
    if judge.cacheable:
        return lambda item: (item.query, item.answer, item.ground_truth)
    return item_key


def _distinct_items(
    judge: Judge, items: Sequence[JudgeItem]
) -> tuple[list[JudgeItem], list[int], dict[int, list[int]]]:
    """The distinct items, each one's first position in ``items``, and the later positions of repeated ones.

    Repeats are kept apart (a dict holding only the repeated items) because most items occur once:
    a list of positions per item cost about 100 MB per million interactions.
    """
    where: dict[Hashable, int] = {}
    unique: list[JudgeItem] = []
    first: list[int] = []
    copies: dict[int, list[int]] = {}
    key_of = _dedupe_key(judge)
    for pos, item in enumerate(items):
        key = key_of(item)
        u = where.get(key)
        if u is None:
            where[key] = len(unique)
            unique.append(item)
            first.append(pos)
        else:
            copies.setdefault(u, []).append(pos)
    return unique, first, copies


def estimate_calls(
    judge: Judge,
    items: Sequence[JudgeItem],
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
) -> int:
    """How many items :func:`run_judge` would send to the judge (for the dashboard's estimate).

    Distinct items, minus those the cache would answer. A cache that cannot be read counts
    as empty (the estimate is then an upper bound).
    """
    _check_cache_mode(cache_mode)
    unique, _, _ = _distinct_items(judge, items)
    if cache is None or cache_mode != "use" or not judge.cacheable:
        return len(unique)
    fingerprint = judge.identity.fingerprint()
    keys = [cache_key(fingerprint, item) for item in unique]
    try:
        hits = cache.contains_many(keys)
    except (CacheError, sqlite3.Error):
        hits = set()
    return len(unique) - len(hits.union(packed_verdicts(keys)))


async def stream_verdicts(
    judge: Judge, items: Sequence[JudgeItem], chunk_size: int = CHUNK_SIZE
) -> AsyncGenerator[tuple[int, Verdict], None]:
    """``(index, verdict)`` pairs as the judge completes them: its own ``ajudge_stream`` when it has one,
    else ``ajudge`` on ``chunk_size`` items at a time.

    Raises:
        RuntimeError: the judge returned another number of verdicts than items.
    """
    stream = getattr(judge, "ajudge_stream", None)
    if stream is not None:
        async with contextlib.aclosing(stream(items)) as pairs:
            async for pair in pairs:
                yield pair
        return
    for start in range(0, len(items), chunk_size):
        chunk = items[start : start + chunk_size]
        verdicts = await judge.ajudge(chunk)
        if len(verdicts) != len(chunk):
            raise RuntimeError(
                f"judge {judge.identity.label()} returned {len(verdicts)} verdicts for {len(chunk)} items"
            )
        for offset, verdict in enumerate(verdicts):
            yield start + offset, verdict


def _stat(judge: Judge, name: str) -> int:
    """A lifetime counter of the judge (``retries``, ``reasks``); 0 for judges without one."""
    stats: Any = getattr(judge, "stats", None)
    value = getattr(stats, name, 0)
    return value if isinstance(value, int) else 0


async def run_judge(
    judge: Judge,
    items: Sequence[JudgeItem],
    *,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    progress: ProgressFn | None = None,
    on_verdict: Callable[[int, Verdict], None] | None = None,
) -> JudgeRun:
    """Judge ``items`` once each, using and filling the cache.

    Args:
        judge: Any :class:`~agentic_core.judges.base.Judge`.
        items: What to judge (duplicates are judged once).
        cache: The persistent cache, or ``None`` for none.
        cache_mode: ``use`` (read and write), ``refresh`` (judge everything again, overwrite),
            ``off`` (neither read nor write; the database is not even opened).
        progress: Called as ``progress(done, total)`` over ``len(items)`` as items complete
            (cache hits and duplicates count as done when their verdict is known); called once
            with the cache's share before judging starts.
        on_verdict: Called as ``on_verdict(position, verdict)`` for every item as soon as its
            verdict is known (a :class:`~agentic_core.judges.monitor.RunMonitor` shows partial
            results with it).

    Returns:
        The verdicts and the run's accounting.

    Raises:
        SettingsError: unknown ``cache_mode``.
        BaseException: whatever interrupted the judge; everything judged before it is
            already in the cache.
    """
    _check_cache_mode(cache_mode)
    started = time.perf_counter()
    total = len(items)
    use_cache = cache is not None and judge.cacheable and cache_mode != "off"
    warnings: list[str] = []
    unique, first_at, copies_at = _distinct_items(judge, items)
    verdicts: list[Verdict | None] = [None] * total
    done = 0

    def place(u: int, verdict: Verdict) -> None:
        nonlocal done
        first = first_at[u]
        verdicts[first] = verdict
        copies = copies_at.get(u, ()) if copies_at else ()
        # Repeated items share the verdict object (verdicts are never changed in place): a
        # million copies of a few thousand dataset-judge verdicts would cost seconds.
        for pos in copies:
            verdicts[pos] = verdict
        done += 1 + len(copies)
        if on_verdict is not None:
            on_verdict(first, verdict)
            for pos in copies:
                on_verdict(pos, verdict)

    fingerprint = judge.identity.fingerprint()
    keys: list[str] = [cache_key(fingerprint, item) for item in unique] if use_cache else []
    hits: dict[str, Verdict] = {}
    if use_cache and cache is not None and cache_mode == "use":
        try:
            hits = cache.get_many(keys)
        except (CacheError, sqlite3.Error) as exc:
            warnings.append(f"{exc} The run continues without cached verdicts.")
    pending: list[tuple[str, Verdict]] = []
    if use_cache and cache_mode == "use":
        # Verdicts shipped with the project (the built-in samples under the default judge) count
        # as cache hits, and are copied into the cache.
        shipped = packed_verdicts(key for key in keys if key not in hits)
        hits.update(shipped)
        pending.extend(shipped.items())
    todo = [u for u in range(len(unique)) if not (hits and keys[u] in hits)]
    for u in range(len(unique)):
        if hits and keys[u] in hits:
            place(u, hits[keys[u]])
    if progress is not None:
        progress(done, total)  # the moment judging starts: a measured rate counts from here

    retries_before, reasks_before = _stat(judge, "retries"), _stat(judge, "reasks")
    writable = use_cache
    last_flush = time.monotonic()

    def flush() -> None:
        nonlocal writable, last_flush
        last_flush = time.monotonic()
        if not pending or not writable or cache is None:
            pending.clear()
            return
        try:
            cache.put_many(pending, judge=fingerprint)
        except (CacheError, sqlite3.Error) as exc:
            # Judging goes on; only persistence is lost, and the user is told.
            writable = False
            warnings.append(f"{exc} Verdicts of this run are not cached.")
        except Exception as exc:  # one verdict the cache cannot take must not cost the batch
            _put_one_by_one(cache, pending, fingerprint, exc, warnings)
        pending.clear()

    judged: list[Verdict] = []
    try:
        # aclosing: if ``progress`` raises, the judge's calls in flight are cancelled at once.
        async with contextlib.aclosing(stream_verdicts(judge, [unique[u] for u in todo])) as stream:
            async for index, verdict in stream:
                u = todo[index]
                place(u, verdict)
                judged.append(verdict)
                # Abstentions are kept too: an offline judge abstains on the same item every time.
                storable = verdict.status == "uncertain" or (verdict.status == "ok" and verdict.score is not None)
                if writable and storable:
                    pending.append((keys[u], verdict))
                    if len(pending) >= FLUSH_EVERY or time.monotonic() - last_flush >= FLUSH_SECONDS:
                        flush()
                if progress is not None:
                    progress(done, total)
    finally:
        # Also on KeyboardInterrupt / cancellation: keep what was judged.
        flush()
        if cache is not None and use_cache:
            warnings.extend(cache.drain_warnings())
    warnings.extend(getattr(judge, "warnings", None) or [])

    missing = [i for i, v in enumerate(verdicts) if v is None]
    if missing:
        raise RuntimeError(f"judge {judge.identity.label()} returned no verdict for items {missing[:10]}")
    final: list[Verdict] = [v for v in verdicts if v is not None]
    counts = status_counts(final)
    return JudgeRun(
        verdicts=final,
        identity=judge.identity,
        counts=counts,
        cache_hits=len(unique) - len(todo),
        cache_misses=len(todo) if use_cache and cache_mode == "use" else 0,
        model_calls=len(todo),
        duplicates=total - len(unique),
        retries=max(0, _stat(judge, "retries") - retries_before),
        reasks=max(0, _stat(judge, "reasks") - reasks_before),
        elapsed_s=time.perf_counter() - started,
        input_tokens=sum(v.input_tokens or 0 for v in judged),
        output_tokens=sum(v.output_tokens or 0 for v in judged),
        cache_mode=cache_mode if use_cache else "off",
        cache_path=str(cache.path) if use_cache and cache is not None and cache.path else None,
        warnings=list(dict.fromkeys(warnings)),
        llm_calls=report_of(judge),
        fitted_band=fitted_band(judge),
    )


def _put_one_by_one(
    cache: JudgeCache, entries: list[tuple[str, Verdict]], fingerprint: str, first: Exception, warnings: list[str]
) -> None:
    """Store a batch that failed as a whole verdict by verdict, so only the bad ones are left out (and counted)."""
    refused = 0
    for entry in entries:
        try:
            cache.put_many([entry], judge=fingerprint)
        except Exception:  # the same fault as the batch's: that verdict is judged again next run
            refused += 1
    if refused:
        warnings.append(
            f"judge cache: {refused} verdict(s) could not be stored ({type(first).__name__}: {first}); "
            "they count in this run and will be judged again next run"
        )


_LOOP: asyncio.AbstractEventLoop | None = None
_LOOP_LOCK = threading.Lock()
# How long an interrupted synchronous run waits for the judge to stop and the cache to be written.
_STOP_GRACE_S = 30.0


def _judge_loop() -> asyncio.AbstractEventLoop:
    """The one long-lived event loop (in a daemon thread) that synchronous runs use.

    Why not ``asyncio.run`` per call: chat model clients (``ChatOpenAI``'s shared httpx client)
    keep connections bound to the loop of their first call, so a second run on a fresh loop
    fails with "Event loop is closed". One loop for the whole process avoids that.
    """
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None or _LOOP.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="agentic-judge-loop", daemon=True).start()
            _LOOP = loop
        return _LOOP


def run_judge_sync(
    judge: Judge,
    items: Sequence[JudgeItem],
    *,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    progress: ProgressFn | None = None,
    monitor: RunMonitor | None = None,
) -> JudgeRun:
    """:func:`run_judge` from synchronous code (CLI, Streamlit, notebooks, tests).

    The run executes on a long-lived background event loop (see :func:`_judge_loop`), so it
    works whether or not this thread runs a loop, and repeated runs can share one chat model.
    ``progress`` is called in *this* thread (Streamlit widgets must be updated from the script
    thread), with bursts of updates coalesced.

    If this thread is interrupted (Ctrl-C, or ``progress`` raising, as Streamlit does when a
    script reruns), the run is cancelled and, before the exception propagates, allowed up to
    30 s to stop and write what it judged to the cache.

    With a ``monitor``, every verdict and progress update is also reported to it, and
    :meth:`RunMonitor.cancel` (from any thread) stops the run the same way, raising
    :class:`~agentic_core.judges.monitor.RunCancelled`.
    """
    loop = _judge_loop()
    with contextlib.suppress(RuntimeError):
        if asyncio.get_running_loop() is loop:
            raise RuntimeError("run_judge_sync cannot be called from the judge loop; await run_judge instead")
    updates: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
    finished = threading.Event()

    def report(done: int, total: int) -> None:
        if monitor is not None:
            monitor.progress(done, total)
        if progress is not None:
            updates.put((done, total))

    async def job() -> JudgeRun:
        try:
            return await run_judge(
                judge,
                items,
                cache=cache,
                cache_mode=cache_mode,
                progress=report if progress is not None or monitor is not None else None,
                on_verdict=monitor.record if monitor is not None else None,
            )
        finally:
            finished.set()

    future = asyncio.run_coroutine_threadsafe(job(), loop)
    try:
        while not finished.wait(0.05):
            _relay(updates, progress)
            if monitor is not None and monitor.cancel_requested:
                raise cancelled_error(monitor, judge)
        _relay(updates, progress)
        return future.result()
    except BaseException:
        future.cancel()
        finished.wait(_STOP_GRACE_S)
        raise


def cancelled_error(monitor: RunMonitor, judge: Judge) -> RunCancelled:
    """The error a run cancelled through ``monitor`` raises (how far it got, and what to do)."""
    snap = monitor.snapshot()
    return RunCancelled(
        "run",
        f"was cancelled after {snap.done:,} of {snap.total:,} interactions had a verdict",
        judge.identity.label(),
        "run again: what was judged is in the cache, so the next run continues from there",
    )


def _relay(updates: queue.SimpleQueue[tuple[int, int]], progress: ProgressFn | None) -> None:
    """Report the latest queued progress update (earlier ones are stale by now)."""
    latest = None
    while True:
        try:
            latest = updates.get_nowait()
        except queue.Empty:
            break
    if latest is not None and progress is not None:
        progress(*latest)


def judge_sync(judge: Judge, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
    """Run ``judge.ajudge`` from synchronous code (CLI, notebooks, tests), without a cache; ``progress`` receives
    ``(done, total)`` as the judge reports it (a notebook's progress bar; the tests of a judge's reporting).

    Uses :func:`run_judge_sync`, which keeps one long-lived event loop: a fresh ``asyncio.run`` per
    call would break chat-model clients whose HTTP connections stay bound to the loop of their
    first call.
    """
    return run_judge_sync(judge, items, cache=None, cache_mode="off", progress=progress).verdicts
