"""The spans of one conversation as a tree: repeated span ids, parent cycles, and the order they are read in.

A span names its parent by id (within its trace); exporters and hand-written files can break that tree:

- two spans of one trace with one id: an exact copy (a batch exported twice) is left out, the first in the
  file kept; spans that differ are all kept, and a child naming the id hangs under the first in the file;
- a parent cycle (a span its own ancestor): found in one pass (each span walked once, with marks), and cut
  at the cycle's span that comes first in the file, which becomes a root;
- a span whose start is unknown (missing, or no time) is ordered at its parent's start, just after it.

Each problem is counted (:class:`Found`: how many, and the first), so a conversation reports it once.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentic_core.io.otel_spans import Span

__all__ = ["Found", "cut_cycles", "drop_copies", "ordered"]


@dataclass
class Found:
    """How many spans had one problem; the first of them and the span it is measured against.

    Attributes:
        count: How many.
        first: The first span found (where the warning points), ``None`` when none.
        other: For a repeated id, the earlier span with that id; for a cycle, the parent whose link was cut.
        size: For a cycle, the number of spans on the first one.
    """

    count: int = 0
    first: Span | None = None
    other: Span | None = None
    size: int = 0

    def add(self, span: Span, other: Span | None = None, size: int = 0) -> None:
        """Count one more; keep it when it is the first."""
        self.count += 1
        if self.first is None:
            self.first, self.other, self.size = span, other, size


def _exact_copy(a: Span, b: Span) -> bool:
    """Whether two spans say the same (their places in the file aside): one span exported twice."""
    return (a.name, a.parent_id, a.start_ns, a.end_ns, a.attrs, a.resource) == (
        b.name, b.parent_id, b.start_ns, b.end_ns, b.attrs, b.resource) and [
        (e.name, e.time_ns, e.attrs) for e in a.events] == [(e.name, e.time_ns, e.attrs) for e in b.events]


def drop_copies(spans: list[Span]) -> tuple[list[Span], Found, Found]:
    """The spans without exact copies of an earlier span of the same trace and id.

    Args:
        spans: One conversation's spans, in file order.

    Returns:
        The spans kept (file order); the copies left out; the spans kept although an earlier one has their id
        (they differ from it).
    """
    first: dict[tuple[str, str], Span] = {}
    kept: list[Span] = []
    copies, differing = Found(), Found()
    for span in spans:
        if span.span_id:
            earlier = first.setdefault((span.trace_id, span.span_id), span)
            if earlier is not span:
                if _exact_copy(earlier, span):
                    copies.add(span, earlier)
                    continue
                differing.add(span, earlier)
        kept.append(span)
    return kept, copies, differing


def _parents(spans: list[Span]) -> list[int]:
    """Each span's parent as an index into ``spans`` (-1: none here); a repeated id names its first span."""
    index: dict[tuple[str, str], int] = {}
    for i, span in enumerate(spans):
        if span.span_id:
            index.setdefault((span.trace_id, span.span_id), i)
    return [index.get((s.trace_id, s.parent_id), -1) if s.parent_id else -1 for s in spans]


def cut_cycles(spans: list[Span]) -> Found:
    """Cut every parent cycle: the cycle's span first in the file loses its parent (``parent_id`` emptied).

    Linear: each span is walked up once; a walk stops at a span already walked, and a walk that meets
    itself has found a cycle (each span has one parent, so a cycle is met only by the walk that enters it).

    Args:
        spans: One conversation's spans (changed in place where a link is cut).

    Returns:
        The spans whose link was cut (``other``: the parent they named; ``size``: the first cycle's length).
    """
    parent = _parents(spans)
    state = bytearray(len(spans))  # 0: not walked, 1: on the current walk, 2: walked
    found = Found()
    for start in range(len(spans)):
        walk: list[int] = []
        node = start
        while node >= 0 and state[node] == 0:
            state[node] = 1
            walk.append(node)
            node = parent[node]
        if node >= 0 and state[node] == 1:  # the walk came back to one of its own spans: a cycle
            cycle = walk[walk.index(node):]
            cut = min(cycle, key=lambda i: (spans[i].order, i))
            found.add(spans[cut], spans[parent[cut]], len(cycle))
            spans[cut].parent_id = ""
            parent[cut] = -1
        for i in walk:
            state[i] = 2
    return found


def ordered(spans: list[Span]) -> list[Span]:
    """Spans by start time, a parent before its children at the same instant, then in file order.

    A span whose start is unknown (0) takes its parent's (so it comes just after it); without a parent
    that has one, it comes first. Linear in the spans (plus the sort); a cycle left uncut is walked once.
    """
    parent = _parents(spans)
    depth = [-1] * len(spans)  # -1: not walked, -2: on the current walk
    start = [0] * len(spans)
    for i in range(len(spans)):
        walk: list[int] = []
        node = i
        while node >= 0 and depth[node] == -1:
            depth[node] = -2
            walk.append(node)
            node = parent[node]
        above, at = (depth[node], start[node]) if node >= 0 and depth[node] >= 0 else (-1, 0)
        for j in reversed(walk):
            above, at = above + 1, spans[j].start_ns or at
            depth[j], start[j] = above, at
    keys = sorted(range(len(spans)), key=lambda i: (start[i], depth[i], spans[i].order))
    return [spans[i] for i in keys]
