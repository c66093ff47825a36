"""Benchmark: the Explorer's filters and table, and the Tools page's failing-calls page, at 100k interactions.

``python benchmarks/bench_explorer.py [--conversations 20000] [--repeat 5]``

Judging is done once with the ``dataset`` judge; the timed parts are what a filter change or a slider
move computes on the server: the filter mask + the severity-ordered table (+ its Arrow bytes, what is
sent to the browser), and the Tools page's filter + one page (+ Arrow bytes). Prints median / best ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_large import make_records
from streamlit.dataframe_util import convert_pandas_df_to_arrow_bytes

from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.loader import load_records
from agentic_core.report.explorer import SearchIndex, conversation_index, explorer_table
from agentic_core.report.explorer_filters import ExplorerFilters, FilterIndex, filter_mask
from agentic_core.report.tool_tables import failing_tool_calls, filter_failing_calls, interaction_tool_names
from agentic_core.settings import make_settings
from benchmarks.results_file import Recorder, add_results_arguments
from ui.views import FAILING_COLUMNS, failing_page


def _time(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs), min(runs)


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_explorer", "Dashboard: Explorer and Tools")
    result = evaluate(load_records(make_records(args.conversations, args.interactions)), "dataset", cache_mode="off")
    agg = aggregate(result, make_settings(threshold=0.7))
    t0 = time.perf_counter()
    index, search, findex = conversation_index(result), SearchIndex(result), FilterIndex.build(result)
    once = (time.perf_counter() - t0) * 1000
    tool = findex.tool_names[0] if findex.tool_names else ""
    cases: dict[str, ExplorerFilters] = {
        "no filter": ExplorerFilters(),
        "status incorrect": ExplorerFilters(statuses=("incorrect",)),
        "tool + overall below 1": ExplorerFilters(tools=(tool,), tool_below=1.0),
        "score 0.2-0.6": ExplorerFilters(score_min=0.2, score_max=0.6),
        "everything + search": ExplorerFilters(
            statuses=("incorrect", "unscored"),
            tools=(tool,),
            tool_dimension="parameters",
            tool_below=0.9,
            score_min=0.1,
            unscored_reason="x",
        ),
    }
    print(
        f"{result.n_interactions:,} interactions, {result.n_conversations:,} conversations; "
        f"per-run indexes built once in {once:.0f} ms\n"
    )
    print("| Explorer: filter change | rows | median ms | best ms |\n|---|---:|---:|---:|")
    for label, filters in cases.items():

        def step(filters: ExplorerFilters = filters, label: str = label) -> int:
            mask = search.search("1") if "search" in label else None
            table = explorer_table(agg, index, mask=filter_mask(result, agg, findex, filters, mask))
            convert_pandas_df_to_arrow_bytes(table)
            return len(table)

        rows = step()
        med, best = _time(step, args.repeat)
        print(f"| {label} | {rows:,} | {med:.0f} | {best:.0f} |")

    failing = failing_tool_calls(result, agg)
    names = interaction_tool_names(result)
    print(
        f"\n| Tools: failing calls ({len(failing):,}) | rows sent | median ms | best ms | MB sent |\n"
        "|---|---:|---:|---:|---:|"
    )
    for label, paged in (("one page (the page)", True), ("whole table (for comparison)", False)):
        size: list[int] = []

        def tools_step(paged: bool = paged, size: list[int] = size) -> None:
            view = filter_failing_calls(failing, names)
            shown = failing_page(view, len(failing), agg.settings.tool_threshold).rows if paged else view
            size[:] = [len(shown), len(convert_pandas_df_to_arrow_bytes(shown[FAILING_COLUMNS]))]

        med, best = _time(tools_step, args.repeat)
        print(f"| {label} | {size[0]:,} | {med:.0f} | {best:.0f} | {size[1] / 1e6:.1f} |")
    recorder.finish()


if __name__ == "__main__":
    main()
