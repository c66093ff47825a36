"""Benchmark: the dashboard in a real browser on a 10k-conversation dataset.

``python benchmarks/bench_dashboard.py [--conversations 10000] [--moves 5]``

Measures, with Playwright driving Debian's Chromium against ``streamlit run app.py``:
- time to the first Overview with results after the server is up, for the first session
  (loads and evaluates the dataset with the ``dataset`` judge) and for a second session
  (evaluation shared across sessions);
- time for a slider move (K, then the answer threshold) to be redrawn.
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

from tests.e2e.harness import chromium, metric_value, open_page, streamlit_server, wait_idle  # noqa: E402


def _move(page, label: str, key: str) -> None:  # type: ignore[no-untyped-def]
    slider = page.locator("[data-testid='stSidebar'] [data-testid='stSlider']").filter(has_text=label)
    thumb = slider.locator("input[type='range']")
    thumb.focus()
    thumb.press(key)


def main() -> None:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "large.jsonl"
        write_jsonl(data, make_records(args.conversations, args.interactions))
        env = {
            "AGENTIC_DEFAULT_DATA": str(data),
            "AGENTIC_DEFAULT_JUDGE": "dataset",
            "AGENTIC_CACHE_PATH": str(Path(tmp) / "cache.sqlite3"),
        }
        with streamlit_server(env, Path(tmp) / "streamlit.log") as url, chromium() as context:
            page = context.new_page()
            first = open_page(page, f"{url}/overview", "Overview", timeout_ms=300_000)
            second_page = context.new_page()
            second = open_page(second_page, f"{url}/overview", "Overview", timeout_ms=300_000)
            second_page.close()
            k_moves, t_moves = [], []
            for i in range(args.moves):
                k = 3 + i
                start = time.perf_counter()
                _move(page, "K (attempts)", "ArrowRight")
                page.locator("[data-testid='stMetricLabel']").filter(has_text=f"pass@{k + 1}").first.wait_for(
                    timeout=60_000
                )
                wait_idle(page)
                k_moves.append(time.perf_counter() - start)
                before = metric_value(page, "Conversation success")
                start = time.perf_counter()
                _move(page, "Answer threshold", "PageUp" if i % 2 == 0 else "PageDown")
                page.wait_for_function(
                    """(before) => [...document.querySelectorAll("[data-testid='stMetric']")].some(m =>
                        m.innerText.startsWith('Conversation success') && !m.innerText.includes(before))""",
                    arg=before,
                    timeout=60_000,
                )
                wait_idle(page)
                t_moves.append(time.perf_counter() - start)
    print(f"dataset: {args.conversations} conversations x {args.interactions} interactions, dataset judge\n")
    print("| measurement | seconds |")
    print("|---|---:|")
    print(f"| first Overview with results, first session (load + evaluate + render) | {first:.2f} |")
    print(f"| first Overview with results, second session | {second:.2f} |")
    print(f"| K slider move redrawn (median of {len(k_moves)}) | {statistics.median(k_moves):.2f} |")
    print(f"| threshold slider move redrawn (median of {len(t_moves)}) | {statistics.median(t_moves):.2f} |")


if __name__ == "__main__":
    main()
