"""The run monitor: measured rate, ETA, partial verdicts, and cancelling a run half-way."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.judges.base import Verdict
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.monitor import (
    RunCancelled,
    RunMonitor,
    duration_words,
    eta_seconds,
    measured_rate,
)
from agentic_core.judges.runner import run_judge_sync
from tests.fakes import SlowStreamJudge, make_items


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rate_is_items_over_seconds_since_judging_started() -> None:
    # 40 cache hits at t=0 then 60 items judged in 3 s: 20 per second (the hits do not count).
    assert measured_rate([(0.0, 40), (1.0, 60), (3.0, 100)]) == pytest.approx(20.0)


def test_rate_looks_at_the_last_window_only() -> None:
    # Fast at first (100/s for 10 s), then a rate limit: 1 per second for the last 40 s.
    samples = [(0.0, 0), (10.0, 1000)] + [(10.0 + t, 1000 + t) for t in range(1, 41)]
    assert measured_rate(samples) == pytest.approx(1.0)
    assert eta_seconds(500, measured_rate(samples)) == pytest.approx(500.0)


def test_no_rate_before_it_can_be_measured() -> None:
    assert measured_rate([]) is None
    assert measured_rate([(0.0, 0)]) is None
    assert measured_rate([(0.0, 0), (0.2, 50)]) is None  # under half a second
    assert eta_seconds(10, None) is None
    assert eta_seconds(10, 0.0) is None
    assert eta_seconds(0, None) == 0.0


@given(st.lists(st.tuples(st.floats(0.01, 5.0), st.integers(0, 50)), min_size=2, max_size=40))
def test_rate_is_never_negative_and_bounded_by_the_fastest_step(steps: list[tuple[float, int]]) -> None:
    t, done, samples = 0.0, 0, [(0.0, 0)]
    for dt, dn in steps:
        t, done = t + dt, done + dn
        samples.append((t, done))
    rate = measured_rate(samples)
    if rate is not None:
        fastest = max(dn / dt for dt, dn in steps)
        assert 0.0 <= rate <= fastest + 1e-9


def test_durations_in_words() -> None:
    assert [duration_words(s) for s in (0, 45.4, 60, 200, 3600, 3725)] == [
        "0 s", "45 s", "1 min 00 s", "3 min 20 s", "1 h 00 min", "1 h 02 min"
    ]


def test_monitor_counts_verdicts_and_gives_an_eta() -> None:
    clock = FakeClock()
    monitor = RunMonitor(10, clock=clock)
    monitor.progress(2, 10)  # two cache hits known when judging starts
    monitor.record(0, Verdict(score=1.0, status="cached"))
    monitor.record(1, Verdict(score=0.2, status="cached"))
    for i in range(2, 6):
        clock.now += 0.5
        monitor.record(i, Verdict(score=None, status="failed", error="x") if i == 5 else Verdict(score=0.8))
        monitor.progress(i + 1, 10)
    snap = monitor.snapshot()
    assert (snap.done, snap.judged, snap.cached, snap.failed) == (6, 3, 2, 1)
    assert snap.rate_per_s == pytest.approx(2.0)  # 4 items in 2 s
    assert snap.eta_s == pytest.approx(2.0)  # 4 left
    assert np.isnan(monitor.scores[5]) and monitor.scores[2] == 0.8
    partial = monitor.partial("not judged")
    assert [v.status for v in partial[5:]] == ["failed"] * 5
    assert partial[7].error == "not judged" and partial[7].score is None
    assert not snap.cancel_requested
    monitor.cancel()
    assert monitor.snapshot().cancel_requested
    monitor.finish()
    ended = monitor.snapshot().elapsed_s
    clock.now += 60.0
    assert monitor.snapshot().elapsed_s == ended == pytest.approx(2.0), "a finished run's time stops"


def test_cancel_stops_the_run_and_keeps_what_was_judged_in_the_cache(tmp_path: Path) -> None:
    items = make_items(200)
    judge = SlowStreamJudge(0.9, per_item_s=0.01)
    monitor = RunMonitor(len(items))
    timer = threading.Timer(0.4, monitor.cancel)
    timer.start()
    with JudgeCache(tmp_path / "cache.sqlite") as cache, pytest.raises(RunCancelled) as info:
        run_judge_sync(judge, items, cache=cache, monitor=monitor)
    judged = judge.streamed
    assert 0 < judged < len(items), "cancelled half-way"
    assert "cancelled after" in str(info.value) and "run again" in str(info.value)
    assert monitor.snapshot().done >= judged - 1

    # What was judged is in the cache: the next run asks the judge only for the rest.
    again = SlowStreamJudge(0.9, per_item_s=0.0)
    with JudgeCache(tmp_path / "cache.sqlite") as cache:
        run = run_judge_sync(again, items, cache=cache)
    assert run.cache_hits == judged
    assert again.streamed == len(items) - judged
    assert run.counts["failed"] == 0


def test_a_monitor_sees_every_verdict_of_a_finished_run() -> None:
    items = make_items(30) + make_items(5)  # 5 duplicates: judged once, reported at each position
    monitor = RunMonitor(len(items))
    run = run_judge_sync(SlowStreamJudge(0.7, per_item_s=0.0), items, monitor=monitor)
    snap = monitor.snapshot()
    assert snap.done == len(items) == len(run.verdicts)
    assert snap.judged == len(items)  # duplicates carry the status of their first item
    assert np.allclose(monitor.scores, 0.7)
