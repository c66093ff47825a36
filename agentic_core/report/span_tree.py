"""A traced conversation's spans as a tree: nesting, each step's offset and duration, a page at a time.

Like the trace views of Phoenix, LangSmith and Inspect's viewer: each step (``Conversation.spans``,
:mod:`agentic_core.data.spans`) under the step it ran in, children in the order they started, with
its start relative to the trace's start, its duration, tokens, cost and error, and the step whose
output is the judged answer marked. A step whose parent is not in the trace is shown as a root, and
parent links that form a cycle are cut (a hand-written record can have both; the importers already
mend their spans). A format with times but no parents gives a flat sequence. A step with no recorded
end lasts, as an estimate, until the next step starts (a leaf) or its last step inside ends (a
parent); the estimate is marked.

Bounded: every pass is linear in the steps (plus sorting each step's children), and only one page
of steps (:data:`SPAN_PAGE`) becomes nodes, so a 60,000-span trace is shown a page at a time, with
the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_core.data.spans import SpanKind, TraceSpan

SPAN_PAGE = 300
"""Steps shown at a time: a page of the tree, in depth-first order."""

_NS_PER_MS = 1_000_000


@dataclass(frozen=True)
class SpanNode:
    """One step of the tree as shown.

    Attributes:
        index: Its position in ``Conversation.spans``.
        depth: How many steps it is nested in (0: a root).
        name: Its name.
        kind: ``llm``, ``tool``, ``agent`` or ``other``.
        start_ms: Its start after the trace's start, in milliseconds (``None``: unknown).
        duration_ms: How long it ran, in milliseconds (``None``: unknown).
        estimated: The duration is an estimate (its end is not recorded; see the module).
        input_tokens: Its input tokens, if recorded.
        output_tokens: Its output tokens, if recorded.
        cost: Its cost, if recorded.
        error: Its error, ``None`` when it did not fail.
        interaction: The interaction it belongs to, if known.
        answer: Its output is that interaction's judged answer.
        children: The steps directly inside it.
        inside: All the steps inside it, at any depth.
    """

    index: int
    depth: int
    name: str
    kind: SpanKind
    start_ms: float | None
    duration_ms: float | None
    estimated: bool
    input_tokens: int | None
    output_tokens: int | None
    cost: float | None
    error: str | None
    interaction: int | None
    answer: bool
    children: int
    inside: int


@dataclass(frozen=True)
class SpanTree:
    """One page of a trace's span tree and what the whole trace holds.

    Attributes:
        nodes: The page's steps, depth first (a step, then the steps inside it in start order).
        total: Steps in the trace.
        first: The position of ``nodes[0]`` in the depth-first order (0 on the first page).
        page: The page shown (0-based).
        pages: How many pages the trace has.
        trace_ms: The trace's length, first start to last end, in milliseconds (``None``: no times).
        flat: No step has a parent in the trace: a sequence, not a tree.
        orphans: Steps naming a parent the trace does not hold (shown as roots).
        cycles: Parent links cut because they led back to the step.
        above: The names of the steps the page's first step is inside, outermost first (on a later page).
        input_tokens: Input tokens over every step that records them (``None``: none does).
        output_tokens: Output tokens likewise.
        cost: Cost over every step that records one (``None``: none does).
        errors: Steps that failed.
        estimated: Steps whose duration is an estimate.
    """

    nodes: tuple[SpanNode, ...]
    total: int
    first: int
    page: int
    pages: int
    trace_ms: float | None
    flat: bool
    orphans: int
    cycles: int
    above: tuple[str, ...]
    input_tokens: int | None
    output_tokens: int | None
    cost: float | None
    errors: int
    estimated: int


def _parent_links(spans: Sequence[TraceSpan]) -> tuple[list[int], int, int]:
    """Each step's parent as an index (-1: a root), the steps whose parent is missing, the cycles cut.

    A repeated id names its first step. A cycle is found by walking up once per step with marks
    (linear) and cut at its step first in the list.
    """
    first: dict[str, int] = {}
    for i, span in enumerate(spans):
        if span.id:
            first.setdefault(span.id, i)
    parent = [-1] * len(spans)
    orphans = 0
    for i, span in enumerate(spans):
        if span.parent_id:
            p = first.get(span.parent_id, -1)
            orphans += p < 0
            parent[i] = p
    state = bytearray(len(spans))  # 0: not walked, 1: on this walk, 2: done
    cycles = 0
    for start in range(len(spans)):
        walk: list[int] = []
        node = start
        while node >= 0 and state[node] == 0:
            state[node] = 1
            walk.append(node)
            node = parent[node]
        if node >= 0 and state[node] == 1:  # the walk met itself: a cycle
            cut = min(walk[walk.index(node):])
            parent[cut] = -1
            cycles += 1
        for i in walk:
            state[i] = 2
    return parent, orphans, cycles


def _depth_first(spans: Sequence[TraceSpan], parent: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The steps depth first (children by start, a step without one at its parent's), their depths and children."""
    kids: list[list[int]] = [[] for _ in spans]
    roots: list[int] = []
    for i, p in enumerate(parent):
        (kids[p] if p >= 0 else roots).append(i)
    big = 1 << 80  # a root without a start comes after those with one
    at = [span.start_ns if span.start_ns is not None else big for span in spans]
    order: list[int] = []
    depth = [0] * len(spans)
    stack = sorted(roots, key=lambda i: (at[i], i), reverse=True)
    while stack:
        node = stack.pop()
        order.append(node)
        children = kids[node]
        for child in children:
            depth[child] = depth[node] + 1
            if spans[child].start_ns is None:
                at[child] = at[node]  # just after its parent
        stack.extend(sorted(children, key=lambda i: (at[i], i), reverse=True))
    return order, depth, [len(k) for k in kids]


def _ends(
    spans: Sequence[TraceSpan], order: list[int], parent: list[int], children: list[int]
) -> tuple[list[int | None], list[bool]]:
    """Each step's end: recorded, else estimated (a leaf: the next step's start; a parent: its last inside's end).

    One pass backwards over the depth-first order: the steps inside a step come after it, so each is
    done before the step it is in, and the step after a leaf is the next one to start.
    """
    end: list[int | None] = [None] * len(spans)
    estimated = [False] * len(spans)
    latest = [-1] * len(spans)  # the latest time reached inside each step (-1: none)
    next_start = -1
    for i in reversed(order):
        span = spans[i]
        start = span.start_ns
        if span.end_ns is not None and (start is None or span.end_ns >= start):
            end[i] = span.end_ns
        elif start is not None:
            guess = latest[i] if children[i] else next_start
            if guess >= start:
                end[i], estimated[i] = guess, True
        stop = end[i]
        reach = max(latest[i], stop if stop is not None else -1, start if start is not None else -1)
        if parent[i] >= 0 and reach > latest[parent[i]]:
            latest[parent[i]] = reach
        if start is not None:
            next_start = start
    return end, estimated


def _total(values: Sequence[int | float | None]) -> int | float | None:
    given = [v for v in values if v is not None]
    return sum(given) if given else None


def span_tree(spans: Sequence[TraceSpan], page: int = 0, page_size: int = SPAN_PAGE) -> SpanTree:
    """The span tree of a conversation's steps, one page of it.

    Args:
        spans: ``Conversation.spans``.
        page: The page to show (0-based; clamped to the pages there are).
        page_size: Steps per page.

    Returns:
        The page's nodes, depth first, and the trace's totals.
    """
    parent, orphans, cycles = _parent_links(spans)
    order, depth, children = _depth_first(spans, parent)
    end, estimated = _ends(spans, order, parent, children)
    inside = [0] * len(spans)
    for i in reversed(order):
        if parent[i] >= 0:
            inside[parent[i]] += inside[i] + 1
    starts = [s.start_ns for s in spans if s.start_ns is not None]
    t0 = min(starts) if starts else None
    last = max((t for t in [*starts, *(e for e in end if e is not None)]), default=None)
    pages = max(1, -(-len(order) // page_size))
    page = min(max(page, 0), pages - 1)
    lo = page * page_size
    nodes = []
    for i in order[lo : lo + page_size]:
        span, stop = spans[i], end[i]
        start = span.start_ns
        nodes.append(SpanNode(
            index=i, depth=depth[i], name=span.name, kind=span.kind,
            start_ms=None if start is None or t0 is None else (start - t0) / _NS_PER_MS,
            duration_ms=None if start is None or stop is None else (stop - start) / _NS_PER_MS,
            estimated=estimated[i], input_tokens=span.input_tokens, output_tokens=span.output_tokens,
            cost=span.cost, error=span.error, interaction=span.interaction, answer=span.answer,
            children=children[i], inside=inside[i],
        ))  # fmt: skip
    above: list[str] = []
    node = parent[order[lo]] if nodes else -1
    while node >= 0 and len(above) < 1_000:  # a chain 60,000 deep names its nearest thousand
        above.append(spans[node].name)
        node = parent[node]
    tokens_in = _total([s.input_tokens for s in spans])
    tokens_out = _total([s.output_tokens for s in spans])
    return SpanTree(
        nodes=tuple(nodes), total=len(order), first=lo if nodes else 0, page=page, pages=pages,
        trace_ms=None if t0 is None or last is None else (last - t0) / _NS_PER_MS,
        flat=all(p < 0 for p in parent), orphans=orphans, cycles=cycles, above=tuple(reversed(above)),
        input_tokens=None if tokens_in is None else int(tokens_in),
        output_tokens=None if tokens_out is None else int(tokens_out),
        cost=_total([s.cost for s in spans]), errors=sum(s.error is not None for s in spans),
        estimated=sum(estimated),
    )  # fmt: skip
