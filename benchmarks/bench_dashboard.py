"""Benchmark: the dashboard in a real browser on a 10k-conversation dataset.

``python benchmarks/bench_dashboard.py [--conversations 10000] [--moves 5]``

Measures, with Playwright driving Debian's Chromium:
- time to the first Overview with results after the server is up (health endpoint answers),
  for the first and a second browser session, under both launch paths: ``start.sh``'s
  ``python -m ui.launch`` (prepares the first-run results before serving) and a plain
  ``streamlit run app.py`` (the first session loads and evaluates the dataset), on the built-in
  sample with the default judge and an empty judge cache (a fresh machine: the shipped verdicts
  answer), then on the large dataset;
- time for a slider move (K, then the answer threshold) to be redrawn, until the script is idle.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_large import make_records, write_jsonl  # noqa: E402

from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402
from tests.e2e.harness import (  # noqa: E402
    IDLE,
    chromium,
    metric_value,
    open_page,
    streamlit_server,
    time_to_results,
    wait_idle,
)


def _move(page, label: str, key: str) -> None:  # type: ignore[no-untyped-def]
    slider = page.locator("[data-testid='stSidebar'] [data-testid='stSlider']").filter(has_text=label)
    thumb = slider.locator("input[type='range']")
    thumb.focus()
    thumb.press(key)


def _session(context, url: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    page = context.new_page()
    try:
        return time_to_results(page, f"{url}/")
    finally:
        page.close()


def main() -> None:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--sample-only", action="store_true", help="only the built-in sample's first visits")
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_dashboard", "Dashboard in a real browser")
    rows: list[tuple[str, float, float]] = []
    k_moves: list[float] = []
    t_moves: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for launcher, label in ((True, "bash start.sh (python -m ui.launch)"), (False, "streamlit run app.py")):
            # A fresh machine: the built-in sample, the default judge, an empty cache each time.
            fresh = {"AGENTIC_CACHE_PATH": str(Path(tmp) / f"fresh-{launcher}.sqlite3")}
            with (
                streamlit_server(fresh, Path(tmp) / "fresh.log", 300, launcher=launcher) as url,
                chromium(reduced_motion=False) as ctx,  # what a user waits for, animations included
            ):
                rows.append((f"built-in sample, empty cache, {label}: first session", *_session(ctx, url)))
                rows.append((f"built-in sample, empty cache, {label}: second session", *_session(ctx, url)))
        if args.sample_only:
            _print(args, rows, k_moves, t_moves)
            recorder.finish()
            return
        data = Path(tmp) / "large.jsonl"
        write_jsonl(data, make_records(args.conversations, args.interactions))
        env = {
            "AGENTIC_DEFAULT_DATA": str(data),
            "AGENTIC_DEFAULT_JUDGE": "dataset",
            "AGENTIC_CACHE_PATH": str(Path(tmp) / "cache.sqlite3"),
        }
        for launcher, label in ((True, "bash start.sh (python -m ui.launch)"), (False, "streamlit run app.py")):
            with (
                streamlit_server(env, Path(tmp) / "streamlit.log", 300, launcher=launcher) as url,
                chromium(reduced_motion=False) as ctx,
            ):
                first = _session(ctx, url)
                second = _session(ctx, url)
                rows.append((f"{args.conversations:,} conversations, {label}: first session", *first))
                rows.append((f"{args.conversations:,} conversations, {label}: second session", *second))
                if not launcher:
                    continue
                page = ctx.new_page()
                open_page(page, f"{url}/", "Overview", timeout_ms=300_000)
                # K starts at 'auto'; one step right is K = 1, then 2, 3, ...
                _move(page, "K (attempts)", "ArrowRight")
                page.locator("[data-testid='stMetricLabel']").filter(has_text="pass^1").first.wait_for(timeout=60_000)
                wait_idle(page)
                for i in range(args.moves):
                    k = 2 + i
                    start = time.perf_counter()
                    _move(page, "K (attempts)", "ArrowRight")
                    page.locator("[data-testid='stMetricLabel']").filter(has_text=f"pass^{k}").first.wait_for(
                        timeout=60_000
                    )
                    page.wait_for_selector(IDLE, timeout=60_000)
                    k_moves.append(time.perf_counter() - start)
                    wait_idle(page)
                    before = metric_value(page, "Success rate")
                    start = time.perf_counter()
                    _move(page, "Answer threshold", "PageUp" if i % 2 == 0 else "PageDown")
                    page.wait_for_function(
                        """(before) => [...document.querySelectorAll("[data-testid='stMetric']")].some(m =>
                            m.innerText.startsWith('Success rate') && !m.innerText.includes(before))""",
                        arg=before,
                        timeout=60_000,
                    )
                    page.wait_for_selector(IDLE, timeout=60_000)
                    t_moves.append(time.perf_counter() - start)
                    wait_idle(page)
    _print(args, rows, k_moves, t_moves)
    recorder.finish()


def _print(
    args: argparse.Namespace, rows: list[tuple[str, float, float]], k_moves: list[float], t_moves: list[float]
) -> None:
    print(
        f"built-in sample: default judge; large dataset: {args.conversations} conversations x "
        f"{args.interactions} interactions, dataset judge\n"
    )
    print("| first Overview after the server is up | KPI values visible (s) | page settled (s) |")
    print("|---|---:|---:|")
    for label, visible, settled in rows:
        print(f"| {label} | {visible:.2f} | {settled:.2f} |")
    if not k_moves:
        return
    print("\n| slider move, until redrawn and the script is idle | median s | max s |")
    print("|---|---:|---:|")
    print(f"| K (attempts), {len(k_moves)} moves | {statistics.median(k_moves):.2f} | {max(k_moves):.2f} |")
    print(f"| answer threshold, {len(t_moves)} moves | {statistics.median(t_moves):.2f} | {max(t_moves):.2f} |")


if __name__ == "__main__":
    main()
