"""A page of the span tree (:mod:`agentic_core.report.span_tree`) as HTML: nested, collapsible, a bar per step.

Each step with steps inside it is a ``<details>`` element (the browser folds and unfolds it, no
script needed), its line saying the kind, the name, the duration, tokens and cost, and under it a
bar placed on the trace's timeline (its left edge the step's start, its width its duration, both
relative to the trace's length). The judged answer's step is outlined with its turn and verdict;
a step that failed is red with its error. Nesting deeper than :data:`MAX_NEST` levels is drawn at
that level with its depth written, so a deep trace stays readable on a 390 px phone. Every value is
HTML-escaped: span names and errors are data, never markup.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from agentic_core.common.wording import plural
from agentic_core.report.span_tree import SpanNode, SpanTree

MAX_NEST = 8
"""Levels of nesting drawn as such; deeper steps are drawn at this level, their depth written."""
MAX_NAME = 200
"""Characters of a step's name shown (the full name stays in the data)."""
OPEN_ALL_UP_TO = 60
"""A tree of at most this many steps opens whole; a larger one opens its first two levels."""
_MIN_BAR = 0.4  # percent: a step too short to see still shows a sliver

SPAN_CSS = (
    "<style>.stree{font-size:.85rem;max-width:100%;overflow-wrap:anywhere}"
    ".stree .sum{opacity:.85;margin-bottom:.3rem}"
    ".stree details,.stree .leaf{border-left:3px solid rgba(128,128,128,.35);margin:.2rem 0;"
    "padding:.1rem 0 .1rem .4rem;border-radius:3px}"
    ".stree summary{cursor:pointer;list-style-position:inside}"
    ".stree .kids{padding-left:.55rem}"
    ".stree .row{display:inline;word-break:break-word}"
    ".stree .k{font-size:.7rem;font-weight:600;border-radius:3px;padding:0 4px;margin-right:.3rem;color:#fff;"
    "white-space:nowrap}"
    ".stree .k-llm{background:#1f77b4}.stree .k-tool{background:#9467bd}.stree .k-agent{background:#2ca02c}"
    ".stree .k-other{background:#7f7f7f}"
    ".stree .nm{font-weight:600}.stree .meta{opacity:.8;font-size:.78rem;margin-left:.3rem}"
    ".stree .bar{position:relative;height:6px;background:rgba(128,128,128,.15);border-radius:3px;margin:.15rem 0}"
    ".stree .bar span{position:absolute;top:0;height:6px;border-radius:3px;background:#1f77b4}"
    ".stree .bar span.est{background:repeating-linear-gradient(90deg,#1f77b4 0 3px,transparent 3px 5px)}"
    ".stree .err{border-left-color:#d62728}.stree .err>summary .nm,.stree .leaf.err .nm{color:#d62728}"
    ".stree .err .bar span{background:#d62728}"
    ".stree .why{color:#d62728;font-size:.78rem;white-space:pre-wrap;word-break:break-word}"
    ".stree .ans{outline:2px solid #ff7f0e;background:rgba(255,127,14,.08)}"
    ".stree .tag{font-size:.72rem;background:#ff7f0e;color:#fff;border-radius:3px;padding:0 4px;margin-left:.3rem;"
    "white-space:nowrap}"
    "</style>"
)

_KIND_LABEL = {"llm": "LLM", "tool": "tool", "agent": "agent", "other": "step"}


def duration_text(ms: float) -> str:
    """A duration for a reader: ``0.42 ms``, ``120 ms``, ``1.25 s``, ``2 min 5 s``."""
    if ms < 1:
        return f"{ms:.2f} ms"
    if ms < 1_000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.2f} s"
    minutes, seconds = divmod(ms / 1000, 60)
    return f"{minutes:.0f} min {seconds:.0f} s"


def _cost_text(cost: float) -> str:
    """``cost 0.000096`` (never ``9.6e-05``: costs per step are small), ``cost 1.25`` from one up."""
    if cost >= 1:
        return f"cost {cost:,.2f}"
    return "cost " + (f"{cost:.6f}".rstrip("0").rstrip(".") or "0")


def _tokens_text(tokens_in: int | None, tokens_out: int | None) -> str:
    parts = [f"{what} {n:,}" for what, n in (("in", tokens_in), ("out", tokens_out)) if n is not None]
    return f"tokens {' / '.join(parts)}" if parts else ""


def tree_summary(tree: SpanTree) -> str:
    """What the whole trace holds, in one line (steps, length, tokens, cost, errors, what was mended)."""
    parts = [plural(tree.total, "step") + (" in sequence (no nesting recorded)" if tree.flat else "")]
    if tree.trace_ms is not None:
        parts.append(f"trace {duration_text(tree.trace_ms)}")
    tokens = _tokens_text(tree.input_tokens, tree.output_tokens)
    if tokens:
        parts.append(tokens)
    if tree.cost is not None:
        parts.append(_cost_text(tree.cost))
    if tree.errors:
        parts.append(plural(tree.errors, "error"))
    if tree.estimated:
        parts.append(f"{plural(tree.estimated, 'duration')} estimated (no end recorded; striped)")
    if tree.orphans:
        parts.append(f"{plural(tree.orphans, 'step')} naming a parent not in the trace, shown at the top level")
    if tree.cycles:
        parts.append(f"{plural(tree.cycles, 'parent cycle')} cut")
    return " · ".join(parts)


def _line(node: SpanNode, tree: SpanTree, statuses: Sequence[str], depth_note: str) -> str:
    """A step's line (kind, name, duration, tokens, cost, answer tag, error) and its bar."""
    name = node.name if len(node.name) <= MAX_NAME else node.name[:MAX_NAME] + "…"
    meta = []
    if node.duration_ms is not None:
        meta.append(("~" if node.estimated else "") + duration_text(node.duration_ms))
    tokens = _tokens_text(node.input_tokens, node.output_tokens)
    if tokens:
        meta.append(tokens)
    if node.cost is not None:
        meta.append(_cost_text(node.cost))
    if node.children:
        meta.append(plural(node.inside, "step") + " inside")
    if depth_note:
        meta.append(depth_note)
    tag = ""
    if node.answer:
        n = node.interaction
        status = statuses[n] if n is not None and 0 <= n < len(statuses) else ""
        turn = f" · turn {n + 1}" if n is not None else ""
        tag = f'<span class="tag">judged answer{turn}{" · " + html.escape(status) if status else ""}</span>'
    row = (
        f'<span class="row"><span class="k k-{node.kind}">{_KIND_LABEL[node.kind]}</span>'
        f'<span class="nm">{html.escape(name)}</span>{tag}'
        f'<span class="meta">{html.escape(" · ".join(meta))}</span></span>'
    )
    bar = ""
    if tree.trace_ms and node.start_ms is not None:
        left = min(max(node.start_ms / tree.trace_ms * 100, 0.0), 100.0)
        width = 0.0 if node.duration_ms is None else node.duration_ms / tree.trace_ms * 100
        width = min(max(width, _MIN_BAR), 100.0 - left) if left < 100 else _MIN_BAR
        est = ' class="est"' if node.estimated else ""
        bar = f'<div class="bar"><span{est} style="left:{left:.2f}%;width:{width:.2f}%"></span></div>'
    why = f'<div class="why">error: {html.escape(node.error)}</div>' if node.error is not None else ""
    return row + bar + why


def span_tree_html(tree: SpanTree, statuses: Sequence[str] = ()) -> str:
    """The page of the tree as one HTML block (with its style), for ``st.html``.

    Args:
        tree: A page of the tree (:func:`~agentic_core.report.span_tree.span_tree`).
        statuses: Per interaction, its status (``correct``, ``incorrect``, ``unscored``), for the answer's mark.

    Returns:
        Escaped HTML: nested ``<details>`` for steps with steps inside them on the page, a ``<div>`` for the others.
    """
    out = [SPAN_CSS, '<div class="stree">', f'<div class="sum">{html.escape(tree_summary(tree))}</div>']
    if tree.above:
        out.append(f'<div class="sum">Continues inside: {html.escape(" › ".join(tree.above[-5:]))}'
                   f'{" (and " + str(len(tree.above) - 5) + " more above)" if len(tree.above) > 5 else ""}</div>')
    base = min((n.depth for n in tree.nodes), default=0)
    open_all = tree.total <= OPEN_ALL_UP_TO
    stack: list[int] = []  # the drawn depth of each open <details>
    nodes = tree.nodes
    for k, node in enumerate(nodes):
        level = min(node.depth - base, MAX_NEST)
        while stack and stack[-1] >= level:
            out.append("</div></details>")
            stack.pop()
        note = f"depth {node.depth}" if node.depth - base > MAX_NEST else ""
        classes = " ".join(c for c in ("err" if node.error is not None else "", "ans" if node.answer else "") if c)
        nested = k + 1 < len(nodes) and nodes[k + 1].depth > node.depth and level < MAX_NEST
        if nested:
            is_open = " open" if open_all or node.depth - base < 2 else ""
            out.append(f'<details class="sp {classes}" data-span="{node.index}"{is_open}><summary>'
                       f'{_line(node, tree, statuses, note)}</summary><div class="kids">')
            stack.append(level)
        else:
            out.append(f'<div class="sp leaf {classes}" data-span="{node.index}">'
                       f"{_line(node, tree, statuses, note)}</div>")
    out.extend("</div></details>" for _ in stack)
    out.append("</div>")
    return "".join(out)
