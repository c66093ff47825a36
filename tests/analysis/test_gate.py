"""The CI gate's checks: bounds on a run's metrics, and B worse than A."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.analysis.compare_runs import RunComparison, Side, compare_sides
from agentic_core.analysis.gate import (
    below_bounds,
    gate_passed,
    holm_rejections,
    parse_bounds,
    parse_gate_metrics,
    worse_than_baseline,
)
from agentic_core.analysis.k_evidence import KEvidence
from agentic_core.errors import SettingsError
from agentic_core.evaluate import aggregate
from agentic_core.settings import make_settings
from agentic_core.stats.compare import MetricComparison, PairedComparison, compare_counts, compare_task_means
from benchmarks import bench_gate
from tests.analysis.test_compare_runs import agent, judged


def test_bounds_are_parsed_and_checked() -> None:
    assert parse_bounds("success_rate=0.8, pass_pow_k=0.5") == {"success_rate": 0.8, "pass_pow_k": 0.5}
    bad_values = [
        ("succes=0.8", "unknown metric"),
        ("success_rate", "METRIC=BOUND"),
        ("success_rate=2", r"\[0, 1\]"),
        ("pass_pow_k@2=0.5", "no @k"),
        ("", "at least one"),
    ]
    for bad, match in bad_values:
        with pytest.raises(SettingsError, match=match):
            parse_bounds(bad)
    assert parse_gate_metrics("success_rate,pass_pow_k@3") == [("success_rate", None), ("pass_pow_k", 3)]
    assert len(parse_gate_metrics("all")) == 8
    with pytest.raises(SettingsError, match="@k"):
        parse_gate_metrics("success_rate@2")


def test_a_point_estimate_or_a_lower_bound_below_its_bound_fails() -> None:
    agg = aggregate(judged(agent("a", set(range(15)))), make_settings(unit="task", k=1))
    assert below_bounds(agg, {"success_rate": 0.45}) == []
    [failure] = below_bounds(agg, {"success_rate": 0.45}, lower=True)
    assert "success_rate = 0.500" in failure and "lower bound" in failure and "0.45" in failure
    [failure] = below_bounds(agg, {"success_rate": 0.8, "pass_at_k": 0.2})
    assert "success_rate = 0.500" in failure and "below the bound 0.8" in failure
    [undefined] = below_bounds(agg, {"tool_overall": 0.5})  # no tool use in this run
    assert "undefined" in undefined


def test_b_worse_than_a_fails_only_the_named_metrics() -> None:
    good, bad = judged(agent("a", set(range(23)))), judged(agent("b", set(range(15))))
    result = compare_sides(Side(good, label="main"), Side(bad, label="branch"))
    [failure] = worse_than_baseline(result, [("success_rate", None)])
    assert failure.startswith("success_rate: branch 0.500 vs main 0.767, delta -0.267")
    assert "P(B worse than A) = " in failure and "0.95" in failure
    assert worse_than_baseline(result, [("tool_overall", None)]) == []  # not in this comparison
    better = compare_sides(Side(bad, label="main"), Side(good, label="branch"))
    assert worse_than_baseline(better, parse_gate_metrics("all")) == []


# --- Issue 36: the gate's family-wise false-alarm rate (Holm over the metrics it checks)


def _comparison(p_values: dict[tuple[str, int | None], float | None], k: int = 3) -> RunComparison:
    """A comparison whose metrics have the given P(B > A) (B a little behind A on each)."""
    rows = tuple(
        MetricComparison(metric=name, k=kk, a=0.6, b=0.5, delta=-0.1, delta_ci=(-0.2, 0.0), p_b_better=p, n_tasks=30)
        for (name, kk), p in p_values.items()
    )
    paired = PairedComparison(
        metrics=rows, n_tasks=30, n_excluded=0, excluded_reason=None, mode="frequentist", estimator="unbiased",
        level=0.95,
    )  # fmt: skip
    # 30 tasks of k attempts each: pass@k and pass^k are measured at every k up to the comparison's K.
    evidence = KEvidence(k=k, tasks=30, tasks_with_k=30, max_attempts=k, needed=k, measured_up_to=k, measured=True)
    return RunComparison(
        a_label="main", b_label="branch", k=k, paired=paired, tools=(), tasks=(), k_evidence=evidence
    )


def test_holm_matches_the_step_down_worked_by_hand() -> None:
    # m = 4 at 0.05: 0.005 <= 0.05/4 and 0.01 <= 0.05/3 are rejected; 0.03 > 0.05/2 stops the procedure, so
    # 0.04 is kept although it is below 0.05/1 (Holm 1979: step down, stop at the first acceptance).
    assert holm_rejections([0.01, 0.04, 0.03, 0.005], 0.05) == [True, False, False, True]
    assert holm_rejections([0.05], 0.05) == [True] and holm_rejections([0.0501], 0.05) == [False]
    assert holm_rejections([], 0.05) == []
    assert holm_rejections([float("nan"), 0.001], 0.05) == [False, True]  # NaN counts as 1


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12), st.floats(0.001, 0.5))
def test_holm_lies_between_bonferroni_and_no_correction(p_values: list[float], alpha: float) -> None:
    rejected = holm_rejections(p_values, alpha)
    m = len(p_values)
    for p, r in zip(p_values, rejected, strict=True):
        if p <= alpha / m:
            assert r  # Bonferroni's rejections are Holm's first steps
        if r:
            assert p <= alpha  # never more than testing each at alpha alone
    # Step-down: every rejected p-value is at most every kept one (the smallest ones go first).
    kept = [p for p, r in zip(p_values, rejected, strict=True) if not r]
    taken = [p for p, r in zip(p_values, rejected, strict=True) if r]
    if kept and taken:
        assert max(taken) <= min(kept)


def test_several_metrics_each_just_worse_no_longer_fail_the_gate_together() -> None:
    # Before issue 36 each metric failed on its own at P(B worse than A) >= 0.95: a re-run of the same agent
    # failed the gate of three metrics 7-9% of the time. Holm: the most doubtful must reach 1 - 0.05 / 3.
    cmp = _comparison({("success_rate", None): 0.04, ("pass_at_k", 3): 0.30, ("pass_pow_k", 3): 0.20})
    assert worse_than_baseline(cmp, [("success_rate", None)]) != []  # alone, 0.96 >= 0.95 fails
    assert worse_than_baseline(cmp, parse_gate_metrics("success_rate,pass_at_k,pass_pow_k")) == []
    clear = _comparison({("success_rate", None): 0.01, ("pass_at_k", 3): 0.02, ("pass_pow_k", 3): 0.30})
    first, second = worse_than_baseline(clear, parse_gate_metrics("success_rate,pass_at_k,pass_pow_k"))
    # 0.01 <= 0.05 / 3 and then 0.02 <= 0.05 / 2; 0.30 > 0.05 stops.
    assert first.startswith("success_rate:") and "0.9833 (Holm: 1 - 0.05 / 3; 3 metrics checked" in first
    assert second.startswith("pass_at_k (k = 3):") and "the bound 0.975 (Holm: 1 - 0.05 / 2" in second
    assert "passed" not in gate_passed(clear, parse_gate_metrics("success_rate"))


def test_pass_at_1_and_pass_pow_1_are_the_success_rate_and_count_once() -> None:
    same = {("success_rate", None): 0.03, ("pass_at_k", 1): 0.03, ("pass_pow_k", 1): 0.03}
    cmp = _comparison(same, k=1)
    # One test, not three: 0.97 >= 0.95 fails (three copies would have needed 1 - 0.05 / 3).
    [failure] = worse_than_baseline(cmp, parse_gate_metrics("success_rate,pass_at_k,pass_pow_k"))
    assert failure.startswith("success_rate:") and "the bound 0.95" in failure


def test_a_metric_with_no_difference_cannot_fail_but_counts_in_the_family() -> None:
    cmp = _comparison({("success_rate", None): None, ("pass_pow_k", 3): 0.03})
    # Two metrics checked: 0.03 > 0.05 / 2, so nothing fails (alone, pass^3 would: 0.97 >= 0.95).
    assert worse_than_baseline(cmp, parse_gate_metrics("success_rate,pass_pow_k")) == []
    assert worse_than_baseline(cmp, [("pass_pow_k", None)]) != []


def test_identical_runs_pass_the_gate_saying_the_same_verdicts() -> None:
    run = judged(agent("a", set(range(15))))
    cmp = compare_sides(Side(run, label="main"), Side(run, label="branch"))
    assert worse_than_baseline(cmp, parse_gate_metrics("all")) == []
    assert gate_passed(cmp, parse_gate_metrics("all")).startswith("B cannot be worse than A: A and B have the same")


def test_the_benchmark_s_comparisons_are_the_real_ones() -> None:
    # bench_gate.py computes P(B > A) without the sides' curve intervals; it must give compare_counts' and
    # compare_task_means' values, the saturated (flat, zero) and the no-difference cases included.
    rng = np.random.default_rng(4)
    pairs = []
    for tasks, attempts in ((10, 1), (10, 3), (12, 3)):
        p = rng.beta(0.5, 0.5, tasks)
        pairs.append((np.full(tasks, attempts), bench_gate.rerun(rng, p, attempts), bench_gate.rerun(rng, p, attempts)))
    n, (c, t) = pairs[0][0], pairs[0][1]
    pairs.append((n, (c, t), (c, t)))  # the same results: no P(B > A)
    n12 = np.full(12, 3)
    pairs.append((n12, (np.array([1, 2] * 6), pairs[2][1][1]), (np.array([2, 3] * 6), pairs[2][2][1])))  # pass@3 = 1
    for n, (c_a, t_a), (c_b, t_b) in pairs:
        k = min(3, int(n[0]))
        fast = bench_gate.comparison(n, c_a, c_b, t_a, t_b, k)
        real = compare_counts(n, c_a, n, c_b, list(range(1, k + 1)), n_samples=200)
        tools = [compare_task_means(t_a[:, j], t_b[:, j], metric="x", n_samples=200) for j in range(5)]
        for mine, theirs in zip(fast.metrics, (*real.metrics, *tools), strict=True):
            assert mine.delta == pytest.approx(theirs.delta, abs=1e-12)
            if theirs.p_b_better is None:
                assert mine.p_b_better is None
            else:
                assert mine.p_b_better == pytest.approx(theirs.p_b_better, abs=1e-9)


@pytest.mark.parametrize(("tasks", "attempts"), [(10, 1), (30, 3)])
def test_a_re_run_of_the_same_agent_fails_the_gate_within_its_bound(tasks: int, attempts: int) -> None:
    # The seeded small variant of benchmarks/bench_gate.py (its figures: benchmarks/RESULTS.md). The bound:
    # 0.05 plus three Monte-Carlo standard errors of 300 re-runs; the uncorrected rule of 'all' sits above it.
    sims = 300
    rates = bench_gate.cell(tasks, attempts, sims, seed=5)
    bound = 0.05 + 3 * (0.05 * 0.95 / sims) ** 0.5
    for text, (before, after) in rates.items():
        assert after <= bound, (text, after)
        assert after <= before, text
    assert rates["all"][0] > bound  # the correction is what holds it
