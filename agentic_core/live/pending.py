"""Which live conversations are complete: spans gathered by trace and conversation id, idle time, root spans.

The file importer groups a whole file at once (:meth:`~agentic_core.io.otel_spool.SpanSpool.groups`): a
conversation is every trace that names its ``gen_ai.conversation.id`` (or ``session.id``), a trace naming none is
its own. A live stream never ends, so spans are gathered here into *buckets*: a trace joins the bucket of each
conversation id its spans name (two buckets meeting become one), so every conversation the importer would make
lies inside one bucket. When a bucket is complete, its spans are grouped by the importer's own code.

A bucket is complete when

- no span has arrived for it for ``idle_s`` seconds; or
- it is one trace that names no conversation id, and its root span (the span without a parent, which the
  exporters send last, once it has ended) arrived :data:`ROOT_GRACE_S` ago (a moment for spans of that trace
  other processes export). A conversation named by an id may go on in another trace (one trace per user turn
  is common), so only its idle time completes it.

Memory: per bucket, its traces and ids and two numbers; the spans themselves wait on the disk
(:mod:`agentic_core.live.spool`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROOT_GRACE_S = 1.0
"""Seconds a trace without a conversation id waits after its root span arrives (capped by ``idle_s``)."""


@dataclass(eq=False)
class Bucket:
    """Traces that belong together (they share conversation ids), waiting to be complete.

    Attributes:
        traces: Its trace ids.
        conversations: The conversation ids its spans name.
        first: The ``seq`` of its first span (its key in the history, see :attr:`key`).
        last_seen: When its last span arrived (seconds since the epoch).
        root_at: When the root span of its trace arrived (``None`` before).
        spans: Spans received.
    """

    traces: set[str] = field(default_factory=set)
    conversations: set[str] = field(default_factory=set)
    first: int = 0
    last_seen: float = 0.0
    root_at: float | None = None
    spans: int = 0

    def key(self, spool: str) -> str:
        """The bucket's key in the history: the spool's name and its first span's ``seq`` (the same after a
        restart)."""
        return f"{spool}:{self.first}"

    def due_at(self, idle_s: float) -> float:
        """When it is complete if nothing more arrives (see the module)."""
        idle = self.last_seen + idle_s
        if self.root_at is not None and not self.conversations and len(self.traces) == 1:
            return min(idle, max(self.root_at, self.last_seen) + min(ROOT_GRACE_S, idle_s))
        return idle


class Pending:
    """The buckets waiting to be complete (see the module).

    Args:
        idle_s: Seconds without a span after which a bucket is complete.
    """

    def __init__(self, idle_s: float) -> None:
        self.idle_s = idle_s
        self._by_trace: dict[str, Bucket] = {}
        self._by_conversation: dict[str, Bucket] = {}
        self._buckets: set[Bucket] = set()

    def __len__(self) -> int:
        """Buckets waiting (about one per conversation)."""
        return len(self._buckets)

    def see(self, seq: int, trace: str, conversation: str | None, root: bool, when: float) -> None:
        """One span arrived (or was found in the spool at start)."""
        bucket = self._by_trace.get(trace)
        if bucket is None:
            bucket = Bucket(first=seq)
            bucket.traces.add(trace)
            self._by_trace[trace] = bucket
            self._buckets.add(bucket)
        if conversation is not None:
            other = self._by_conversation.get(conversation)
            if other is None:
                bucket.conversations.add(conversation)
                self._by_conversation[conversation] = bucket
            elif other is not bucket:
                bucket = self._merge(bucket, other)
        bucket.spans += 1
        bucket.first = min(bucket.first, seq)
        bucket.last_seen = max(bucket.last_seen, when)
        if root:
            bucket.root_at = when if bucket.root_at is None else max(bucket.root_at, when)

    def _merge(self, one: Bucket, two: Bucket) -> Bucket:
        """Two buckets as one (the smaller moved into the larger: each trace moves O(log n) times at most)."""
        big, small = (one, two) if len(one.traces) + len(one.conversations) >= len(two.traces) + len(
            two.conversations) else (two, one)
        for trace in small.traces:
            self._by_trace[trace] = big
        for conversation in small.conversations:
            self._by_conversation[conversation] = big
        big.traces |= small.traces
        big.conversations |= small.conversations
        big.spans += small.spans
        big.first = min(big.first, small.first)
        big.last_seen = max(big.last_seen, small.last_seen)
        if small.root_at is not None:
            big.root_at = small.root_at if big.root_at is None else max(big.root_at, small.root_at)
        self._buckets.discard(small)
        return big

    def restore(self, buckets: list[Bucket], now: float) -> None:
        """Put taken buckets back (their judging failed), as if their spans had just arrived: they complete after
        ``idle_s`` more (spans that arrived for their traces meanwhile join them)."""
        for bucket in buckets:
            link = next(iter(sorted(bucket.conversations)), None)
            anchor = min(bucket.traces)
            for trace in sorted(bucket.traces):
                self.see(bucket.first, trace, link, False, now)
            for conversation in sorted(bucket.conversations):
                self.see(bucket.first, anchor, conversation, False, now)

    def take_due(self, now: float, limit: int) -> list[Bucket]:
        """Remove and return up to ``limit`` complete buckets, the longest waiting first.

        A span of their traces arriving later starts a new bucket.
        """
        due = sorted((b for b in self._buckets if b.due_at(self.idle_s) <= now), key=lambda b: b.first)[:limit]
        for bucket in due:
            self._buckets.discard(bucket)
            for trace in bucket.traces:
                self._by_trace.pop(trace, None)
            for conversation in bucket.conversations:
                self._by_conversation.pop(conversation, None)
        return due

    def next_due(self, now: float) -> float | None:
        """Seconds until the next bucket is complete (``None``: none waits)."""
        if not self._buckets:
            return None
        return max(0.0, min(b.due_at(self.idle_s) for b in self._buckets) - now)
