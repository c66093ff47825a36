"""The Explorer shows an imported conversation's whole trace as a thread, and the answer diff side by side."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pages.conftest import OpenApp

PAGE = "pages/explorer.py"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def htmls(at: object) -> list[str]:
    return [h.proto.body for h in at.get("html")]  # type: ignore[attr-defined]


def test_tau_bench_trajectory_reads_whole(open_app: OpenApp) -> None:
    at = open_app(PAGE, SAMPLES / "tau_bench_airline.json")
    row = at.selectbox(key="conversation").value
    trials = json.loads((SAMPLES / "tau_bench_airline.json").read_text())
    traj = trials[int(row)]["traj"]
    threads = [h for h in htmls(at) if 'class="xt"' in h]
    assert len(threads) == 1
    assert threads[0].count('data-step="') == len(traj)
    assert threads[0].count("judged query") == 1 and threads[0].count("judged answer") == 1
    expander = [e for e in at.expander if e.label.startswith("Whole trace")]
    assert expander and expander[0].label == f"Whole trace: {len(traj):,} messages"


def test_seed_data_has_no_thread_and_a_side_by_side_diff(open_app: OpenApp) -> None:
    at = open_app(PAGE, "travel")
    assert not [e for e in at.expander if e.label.startswith("Whole trace")]
    diffs = [h for h in htmls(at) if 'class="xs"' in h]
    # The first listed conversation is failing, so its answers that differ from the ground truth show their diff.
    assert diffs and all(d.count('class="col"') == 2 for d in diffs)
    assert not [h for h in htmls(at) if 'class="xq"' in h and "<ins" in h], "no interleaved diff"
