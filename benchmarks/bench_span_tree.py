"""Benchmark: the Explorer's span tree of one large trace, a page built and drawn.

Builds ``Conversation.spans`` of ``--spans`` steps in four shapes (a chain, each step the parent of the next;
the same chain closed into a cycle; a random tree, each step under an earlier one; a flat sequence with start
times only, whose ends are estimated) and times :func:`agentic_core.report.span_tree` for the first and the
last page and :func:`agentic_core.report.span_tree_html` for one page (median of ``--repeat`` runs, seconds).
The work is linear in the steps: doubling ``--spans`` should about double the times.

Run: ``.venv/bin/python benchmarks/bench_span_tree.py [--spans 60000] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentic_core.data import TraceSpan
from agentic_core.report import span_tree, span_tree_html

T0 = 1_700_000_000_000_000_000


def shapes(n: int) -> dict[str, list[TraceSpan]]:
    """The four traces of ``n`` steps."""
    rng = random.Random(39)
    chain = [TraceSpan(name=f"s{i}", id=str(i), parent_id=str(i - 1) if i else None, start_ns=T0 + i * 1000,
                       end_ns=T0 + i * 1000 + 500) for i in range(n)]
    cycle = [chain[0].model_copy(update={"parent_id": str(n - 1)}), *chain[1:]]
    tree = [TraceSpan(name=f"s{i}", id=str(i), parent_id=str(rng.randrange(i)) if i else None,
                      start_ns=T0 + i * 1000, end_ns=T0 + i * 1000 + 500) for i in range(n)]
    flat = [TraceSpan(name=f"s{i}", start_ns=T0 + i * 1000) for i in range(n)]
    return {"chain": chain, "cycle": cycle, "random tree": tree, "flat, start times only": flat}


def _median(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print one line per shape: the first page, the last page, drawing a page."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spans", type=int, default=60_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| trace | steps | first page | last page | one page drawn (HTML) |")
    print("|---|---:|---:|---:|---:|")
    for name, spans in shapes(args.spans).items():
        first = _median(lambda spans=spans: span_tree(spans), args.repeat)
        last = _median(lambda spans=spans: span_tree(spans, page=10**9), args.repeat)
        page = span_tree(spans)
        drawn = _median(lambda page=page: span_tree_html(page), args.repeat)
        print(f"| {name} | {len(spans):,} | {first:.2f} s | {last:.2f} s | {drawn * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
