"""Benchmark: the server's memory over browser sessions that upload, judge and close (figures in benchmarks/RESULTS.md).

``python benchmarks/bench_memory.py [--conversations 20000] [--interactions 5] [--sessions 3]``

Each session (a Chromium tab, driven by Playwright) uploads the same generated dataset on the
Data page, judges it with the dataset judge on Run and opens Overview, Tools and Explorer; then
every tab is closed. The server's resident memory (``VmRSS`` of its process) is read when the
server is idle after the first page, after all sessions have worked, and after they have been
closed long enough for the server to let them go (``server.disconnectedSessionTTL``, set to
5 s here, plus two housekeeping sweeps). Run twice: with the housekeeping thread
(``ui/housekeeping.py``) and with it switched off (``AGENTIC_SWEEP_SECONDS=0``), the behaviour
before it existed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_large import make_records, write_jsonl  # noqa: E402

from agentic_core.judges.registry import JUDGES  # noqa: E402
from benchmarks.results_file import Recorder, add_results_arguments  # noqa: E402
from tests.e2e.harness import chromium, open_page, streamlit_server, wait_idle  # noqa: E402

TTL_S = 5
SWEEP_S = 2


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def settled_rss(pid: int, wait_s: float, limit_s: float = 90.0) -> float:
    """RSS once it has stopped falling: after ``wait_s``, read every 2 s until three readings agree."""
    time.sleep(wait_s)
    readings = [rss_mb(pid)]
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        time.sleep(2)
        readings.append(rss_mb(pid))
        if len(readings) >= 3 and max(readings[-3:]) - min(readings[-3:]) < 5:
            break
    return readings[-1]


def _nav(page, title: str) -> None:  # type: ignore[no-untyped-def]
    page.locator("[data-testid='stSidebarNav'] a").filter(has_text=title).first.click()
    page.get_by_role("heading", name=title).first.wait_for(timeout=300_000)
    wait_idle(page, 300_000)


def work(context, url: str, data: Path):  # type: ignore[no-untyped-def]
    """One session: upload, judge with the dataset judge, look at the results pages."""
    page = context.new_page()
    open_page(page, f"{url}/data", "Data", timeout_ms=300_000)
    page.locator("[data-testid='stFileUploaderDropzoneInput']").first.set_input_files(str(data))
    page.get_by_text("go to Run to evaluate").first.wait_for(timeout=300_000)
    wait_idle(page, 300_000)
    _nav(page, "Run")
    page.get_by_text(JUDGES["dataset"].title, exact=True).click()
    wait_idle(page, 300_000)
    page.get_by_role("button", name="Run evaluation").click()
    page.get_by_text("Done:").first.wait_for(timeout=600_000)
    wait_idle(page, 300_000)
    for title in ("Overview", "Tools", "Explorer"):
        _nav(page, title)
    return page


def measure(data: Path, sessions: int, sweep: int, tmp: Path) -> dict[str, float]:
    """Memory readings of one server run, in MB."""
    env = {
        "AGENTIC_CACHE_PATH": str(tmp / f"cache-{sweep}.sqlite3"),
        "AGENTIC_RUNS_PATH": str(tmp / f"runs-{sweep}.sqlite3"),
        "AGENTIC_SWEEP_SECONDS": str(sweep),
        "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(TTL_S),
        "AGENTIC_MAX_UPLOAD_MB": "400",
    }
    pid: list[int] = []
    readings: dict[str, float] = {}
    with streamlit_server(env, tmp / f"server-{sweep}.log", 300, pid=pid) as url, chromium(reduced_motion=False) as ctx:
        first = ctx.new_page()
        open_page(first, f"{url}/", "Overview", timeout_ms=300_000)
        first.close()
        time.sleep(TTL_S + 3 * SWEEP_S)
        readings["idle, first page seen"] = rss_mb(pid[0])
        pages = []
        start = time.perf_counter()
        for _ in range(sessions):
            pages.append(work(ctx, url, data))
        readings["work (s)"] = time.perf_counter() - start
        readings[f"{sessions} sessions open, each with its upload and run"] = rss_mb(pid[0])
        for page in pages:
            page.close()
        readings["all sessions closed (after the reconnect window)"] = settled_rss(pid[0], TTL_S + 2 * SWEEP_S)
    return readings


def main() -> None:
    """Run the benchmark with and without housekeeping; print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--conversations", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=5)
    parser.add_argument("--sessions", type=int, default=3)
    add_results_arguments(parser)
    args = parser.parse_args()
    recorder = Recorder(args, "bench_memory", "Server memory over sessions")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = tmp / "upload.jsonl"
        write_jsonl(data, make_records(args.conversations, args.interactions))
        size = data.stat().st_size / 1024 / 1024
        runs = {"housekeeping off (before)": measure(data, args.sessions, 0, tmp)}
        runs["housekeeping on"] = measure(data, args.sessions, SWEEP_S, tmp)
    n = args.conversations * args.interactions
    print(f"upload: {args.conversations:,} conversations, {n:,} interactions ({size:.0f} MB), dataset judge\n")
    labels = [key for key in next(iter(runs.values())) if key != "work (s)"]
    print("| server memory (RSS, MB) | " + " | ".join(runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for label in labels:
        print(f"| {label} | " + " | ".join(f"{r[label]:,.0f}" for r in runs.values()) + " |")
    recorder.finish()


if __name__ == "__main__":
    main()
