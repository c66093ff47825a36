"""benchmarks/bench_few_tasks.py: it measures dataset_curve's own intervals, and counts [0, 1] and seed moves right."""

from __future__ import annotations

from benchmarks.bench_few_tasks import cell, intervals


def test_the_benchmark_reads_the_curves_own_intervals() -> None:
    # 3 tasks of 5 attempts solved 0, 2 and 5 times: every frequentist population interval is [0, 1] (the
    # curve's note counts them, tests/stats/test_curve.py); the Bayesian ones are narrower.
    low, high = intervals((0, 2, 5), 5, [1, 3, 5], "frequentist", 0)
    assert low.tolist() == [0.0] * 6 and high.tolist() == [1.0] * 6
    b_low, b_high = intervals((0, 2, 5), 5, [1, 3, 5], "bayesian", 0)
    assert ((b_high - b_low) < 1.0).all()


def test_one_small_cell() -> None:
    name, tasks, attempts, res = cell(("Beta(1,1)", 3, 3, 4, 2))
    assert (name, tasks, attempts) == ("Beta(1,1)", 3, 3) and set(res) == {"frequentist", "bayesian"}
    for mode in res.values():
        assert set(mode) == {"coverage", "width", "full", "moved"}
        assert all(0.0 <= v <= 1.0 for v in mode.values())
    assert res["bayesian"]["full"] == 0.0
