"""Trends across stored runs of one dataset: known values, order, overrides, the reopening cache."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.data.overrides import Override
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.runs import RunStore
from agentic_core.runs.trends import ReopenedRuns, run_trend, runs_of_dataset
from agentic_core.settings import make_settings
from tests.datasets import conv, convs
from tests.fakes import FakeJudge

# Two tasks of two attempts each, one interaction per attempt.
RECORDS = [conv(f"s{i}", [1.0], task=f"t{i // 2}") for i in range(4)]


def _score_of(scores: dict[str, float]):  # a fake judge's score by the item's question
    return lambda item: scores[item.query.split(":")[0]]


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "runs.sqlite3")


def test_each_run_of_the_dataset_has_its_headline_oldest_first(store: RunStore) -> None:
    data = convs(RECORDS)
    # First run: everything right; second: one wrong attempt in t1; another dataset in between.
    first = evaluate(data, FakeJudge(1.0), cache_mode="off")
    second = evaluate(data, FakeJudge(_score_of({"s0": 1.0, "s1": 1.0, "s2": 1.0, "s3": 0.0})), cache_mode="off")
    other = evaluate(convs([conv("x", [1.0])]), FakeJudge(1.0), cache_mode="off")
    a = store.save(first, "tiny", name="first")
    store.save(other, "other")
    time.sleep(0.01)
    b = store.save(second, "tiny", name="second")
    assert a.data_fingerprint == b.data_fingerprint
    settings = make_settings(threshold=0.5, unit="task", k=2, mode="frequentist", estimator="unbiased")
    points = run_trend(store, a.data_fingerprint, settings)
    assert [p.run_id for p in points] == [a.id, b.id]
    assert [p.name for p in points] == ["first", "second"]
    assert points[0].k == points[1].k == 2
    # Known values: t0 2/2, t1 2/2 -> 1; then t0 2/2, t1 1/2 -> success 0.75, pass@2 1, pass^2 0.5.
    assert points[0].success_rate == pytest.approx(1.0)
    assert points[0].pass_pow_k == pytest.approx(1.0)
    assert points[1].success_rate == pytest.approx(0.75)
    assert points[1].pass_at_k == pytest.approx(1.0)
    assert points[1].pass_pow_k == pytest.approx(0.5)
    assert points[1].judge == second.judge_identity.label()
    # The same numbers as aggregating the reopened run, intervals included.
    head = aggregate(store.open(b.id), settings).headline
    assert (points[1].success_rate_ci, points[1].pass_at_k_ci, points[1].pass_pow_k_ci) == (
        head.success_rate_ci,
        head.pass_at_k_ci,
        head.pass_pow_k_ci,
    )
    assert [m.id for m in runs_of_dataset(store, a.data_fingerprint)] == [a.id, b.id]
    assert run_trend(store, "no-such-fingerprint", settings) == []


def test_overrides_and_names_are_read_afresh_from_a_warm_cache(store: RunStore) -> None:
    data = convs(RECORDS)
    meta = store.save(evaluate(data, FakeJudge(1.0), cache_mode="off"), "tiny")
    settings = make_settings(threshold=0.5, unit="task", k=2)
    cache = ReopenedRuns()
    assert run_trend(store, meta.data_fingerprint, settings, cache)[0].success_rate == pytest.approx(1.0)
    store.set_override(meta.id, Override(row=3, correct=False))
    store.rename(meta.id, "renamed")
    (point,) = run_trend(store, meta.data_fingerprint, settings, cache)
    assert point.success_rate == pytest.approx(0.75) and point.name == "renamed"
    assert cache.reads == 1  # reopened once
    store.clear_override(meta.id, 3)
    assert run_trend(store, meta.data_fingerprint, settings, cache)[0].success_rate == pytest.approx(1.0)


def test_twenty_runs_of_the_support_sample_are_each_reopened_once(store: RunStore) -> None:
    result = evaluate(load_sample("support"), "dataset", cache_mode="off")
    metas = [store.save(result, "support") for _ in range(20)]
    settings = make_settings()
    cache = ReopenedRuns()
    points = run_trend(store, metas[0].data_fingerprint, settings, cache)
    again = run_trend(store, metas[0].data_fingerprint, settings, cache)
    assert len(points) == 20 and again == points
    head = aggregate(result, settings).headline
    assert {p.pass_at_k for p in points} == {head.pass_at_k}
    # Each run is read from the history once, the second trend none: what keeps the trend fast (its time is
    # measured by benchmarks/, never asserted here).
    assert cache.reads == 20


def test_one_attempt_runs_have_no_pass_at_k_and_say_why(store: RunStore) -> None:
    # Issue 36: four tasks with one attempt each; 'auto' pools them, but pass@2 is not measured.
    data = convs([conv(f"s{i}", [1.0], task=f"t{i}") for i in range(4)])
    first = store.save(evaluate(data, FakeJudge(1.0), cache_mode="off"), "one-attempt", name="first")
    store.save(evaluate(data, FakeJudge(_score_of({"s0": 0.0, "s1": 1.0, "s2": 1.0, "s3": 1.0})), cache_mode="off"),
               "one-attempt", name="second")  # fmt: skip
    points = run_trend(store, first.data_fingerprint, make_settings(threshold=0.5, k=2))
    assert [p.success_rate for p in points] == pytest.approx([1.0, 0.75])  # 4 of 4, 3 of 4: c / n
    for point in points:
        assert (point.pass_at_k, point.pass_at_k_ci, point.pass_pow_k, point.pass_pow_k_ci) == (None,) * 4
        assert point.not_measured is not None and "every task has one attempt" in point.not_measured
