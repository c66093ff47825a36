"""Tests of the corrected curve (agentic_core.stats.corrected and its terms): exactness, unbiasedness, order,
small samples, and what a biased judge does to the judge-only number (issue 37)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.stats import corrected_intervals
from agentic_core.stats.corrected import corrected_curve
from agentic_core.stats.corrected_terms import Conversations, build_terms
from agentic_core.stats.intervals import wilson_interval
from agentic_core.stats.symmetric import expected_values


def _run(seed: int, tasks: int, attempts: int, sens: float = 0.85, spec: float = 0.7, law=(2.0, 3.0)):
    """Truth, a judge (verdicts, and a probability on 30% of attempts) and task codes."""
    rng = np.random.default_rng(seed)
    p = rng.beta(*law, tasks)
    task = np.repeat(np.arange(tasks), attempts)
    y = (rng.random(task.size) < p[task]).astype(float)
    verdict = np.where(y == 1, rng.random(y.size) < sens, rng.random(y.size) >= spec).astype(float)
    judge = np.where(rng.random(y.size) < 0.3, rng.beta(2, 2, y.size), verdict)
    return y, judge, task


def _label_tasks(rng: np.random.Generator, y: np.ndarray, task: np.ndarray, count: int) -> np.ndarray:
    chosen = rng.choice(int(task.max()) + 1, size=count, replace=False)
    return np.where(np.isin(task, chosen), y, np.nan)


# --- exact expectations: symmetric polynomials against brute force -------------------------------------------


def _brute_expectations(p: np.ndarray, k: int) -> tuple[float, float]:
    """E[unbiased pass@k], E[unbiased pass^k] over every outcome of independent Bernoulli(p_j) attempts."""
    n = p.size
    at = pow_ = 0.0
    for outcome in itertools.product([0, 1], repeat=n):
        prob = math.prod(pj if o else 1 - pj for pj, o in zip(p, outcome, strict=True))
        c = sum(outcome)
        pow_ += prob * math.comb(c, k) / math.comb(n, k)
        at += prob * (1 - math.comb(n - c, k) / math.comb(n, k))
    return at, pow_


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=7), st.integers(1, 7))
def test_symmetric_polynomial_expectations_equal_brute_force(p: list[float], k: int) -> None:
    arr = np.array([p])
    values = expected_values(arr, [k])
    if k > len(p):
        assert np.isnan(values[0, 1]) and np.isnan(values[0, 2])
        return
    at, pow_ = _brute_expectations(np.array(p), k)
    assert values[0, 1] == pytest.approx(at, abs=1e-12)
    assert values[0, 2] == pytest.approx(pow_, abs=1e-12)
    assert values[0, 0] == pytest.approx(float(np.mean(p)), abs=1e-15)


# --- the Horvitz-Thompson rectifier: exact per labelling, unbiased over labellings ----------------------------


def _one_task_terms(y, p, labelled, pi, ks, these=True):
    human = np.where(labelled, y, np.nan)
    conv = Conversations(np.asarray(p, float), human, np.zeros(len(y), dtype=np.int64), np.asarray(pi, float))
    return build_terms(conv, ks, "attempts", None, None, these)


def _brute_ht(y, p, labelled, pi, k):
    """sum over k-subsets S with every member labelled of (h(Y_S), h(p_S)) / prod pi / C(n, k), for pass@k, pass^k."""
    n = len(y)
    sums = np.zeros(4)
    for subset in itertools.combinations(range(n), k):
        if not all(labelled[j] for j in subset):
            continue
        weight = 1.0 / math.prod(pi[j] for j in subset) / math.comb(n, k)
        all_y = math.prod(y[j] for j in subset)
        all_p = math.prod(p[j] for j in subset)
        none_y = math.prod(1 - y[j] for j in subset)
        none_p = math.prod(1 - p[j] for j in subset)
        sums += weight * np.array([1 - none_y, 1 - none_p, all_y, all_p])
    return sums


tiny = st.integers(1, 5).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n),
        st.lists(st.floats(0.2, 1.0), min_size=n, max_size=n),
        st.integers(1, n),
    )
)


@settings(max_examples=60, deadline=None)
@given(tiny, st.data())
def test_ht_rectifier_equals_the_sum_over_labelled_subsets(case, data) -> None:
    y, p, pi, k = case
    labelled = data.draw(st.lists(st.booleans(), min_size=len(y), max_size=len(y)))
    terms = _one_task_terms(y, p, labelled, pi, [k])
    a_at, b_at, a_pow, b_pow = _brute_ht(y, p, labelled, pi, k)
    # Columns: success rate, pass@k, pass^k.
    assert terms.ht_a[0, 1] == pytest.approx(a_at, abs=1e-9)
    assert terms.ht_b[0, 1] == pytest.approx(b_at, abs=1e-9)
    assert terms.ht_a[0, 2] == pytest.approx(a_pow, abs=1e-9)
    assert terms.ht_b[0, 2] == pytest.approx(b_pow, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(tiny)
def test_ht_terms_and_their_variance_are_unbiased_over_every_labelling(case) -> None:
    """Over all 2^n labellings (attempt j labelled with probability pi_j): E[A] = Y, E[B] = Yhat, and the
    variance pieces' expectations are the exact variances and covariance of A and B."""
    y, p, pi, k = case
    n = len(y)
    ks = [k]
    full = expected_values(np.array([y], dtype=float), ks)[0]
    judge = expected_values(np.array([p], dtype=float), ks)[0]
    moments = np.zeros((7, 3))  # E[A], E[B], E[A^2], E[AB], E[B^2], E[v_aa], E[v_ab] ... per column
    e_vbb = np.zeros(3)
    for pattern in itertools.product([False, True], repeat=n):
        prob = math.prod(q if lab else 1 - q for q, lab in zip(pi, pattern, strict=True))
        if prob == 0:
            continue
        t = _one_task_terms(y, p, list(pattern), pi, ks)
        a, b = t.ht_a[0], t.ht_b[0]
        moments += prob * np.stack([a, b, a * a, a * b, b * b, t.var_aa[0], t.var_ab[0]])
        e_vbb += prob * t.var_bb[0]
    e_a, e_b, e_a2, e_ab, e_b2, e_vaa, e_vab = moments
    np.testing.assert_allclose(e_a, full, atol=1e-9)
    np.testing.assert_allclose(e_b, judge, atol=1e-9)
    np.testing.assert_allclose(e_vaa, e_a2 - e_a**2, atol=1e-8)
    np.testing.assert_allclose(e_vab, e_ab - e_a * e_b, atol=1e-8)
    np.testing.assert_allclose(e_vbb, e_b2 - e_b**2, atol=1e-8)


def test_active_sampling_is_unbiased_by_simulation() -> None:
    """'Uncertain first' (task design, inclusion favouring tasks the judge is unsure of) weighted by 1/pi: the
    mean estimate over seeded runs is the truth within four standard errors (lambda fixed: no tuning bias)."""
    rng = np.random.default_rng(37)
    estimates = []
    for _ in range(300):
        p = rng.beta(2.0, 3.0, 150)
        y = (rng.random(150) < p).astype(float)
        judge = np.where(rng.random(150) < 0.4, 0.5, np.where(y == 1, rng.random(150) < 0.8, rng.random(150) < 0.3))
        pi = np.where(judge == 0.5, 0.6, 0.15)
        human = np.where(rng.random(150) < pi, y, np.nan)
        curve = corrected_curve(judge, human, np.arange(150), [1], design="tasks", inclusion=pi, lam=0.7)
        estimates.append(curve.points[0].success_rate)
    est = np.array(estimates, dtype=float)
    assert abs(est.mean() - 0.4) < 4 * est.std() / math.sqrt(est.size)
    assert "active inference" in curve.method and "inclusion" in curve.method


# --- order, seeds, undefined values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("design", "mode", "target"),
    [
        ("tasks", "frequentist", "population"),
        ("tasks", "bayesian", "population"),
        ("tasks", "bayesian", "these-tasks"),
        ("attempts", "frequentist", "these-tasks"),
        ("attempts", "bayesian", "population"),
    ],
)
def test_results_do_not_depend_on_data_order_or_task_names(design: str, mode: str, target: str) -> None:
    y, judge, task = _run(3, 80, 3)
    judge[[4, 17]] = np.nan
    rng = np.random.default_rng(4)
    human = _label_tasks(rng, y, task, 30) if design == "tasks" else np.where(rng.random(y.size) < 0.5, y, np.nan)
    kw = {"design": design, "mode": mode, "target": target, "seed": 5}
    base = corrected_curve(judge, human, task, [1, 2, 3], **kw)  # type: ignore[arg-type]
    order = rng.permutation(y.size)
    rename = rng.permutation(80)
    shuffled = corrected_curve(judge[order], human[order], rename[task[order]], [1, 2, 3], **kw)  # type: ignore[arg-type]
    assert shuffled == base
    assert base.points[-1].pass_pow_k is not None or design == "attempts"


def test_bayesian_mode_is_seeded_and_holds_the_frequentist_interval() -> None:
    y, judge, task = _run(8, 120, 2)
    human = _label_tasks(np.random.default_rng(9), y, task, 30)
    freq = corrected_curve(judge, human, task, [1, 2], design="tasks")
    one = corrected_curve(judge, human, task, [1, 2], design="tasks", mode="bayesian", seed=1)
    assert one == corrected_curve(judge, human, task, [1, 2], design="tasks", mode="bayesian", seed=1)
    for f, b in zip(freq.points, one.points, strict=True):
        assert b.pass_pow_k == f.pass_pow_k
        assert b.pass_pow_k_ci[0] <= f.pass_pow_k_ci[0] and b.pass_pow_k_ci[1] >= f.pass_pow_k_ci[1]


def test_bayesian_these_tasks_needs_a_uniform_task_sample() -> None:
    y, judge, task = _run(13, 100, 2)
    human = np.where(np.random.default_rng(14).random(y.size) < 0.5, y, np.nan)
    curve = corrected_curve(judge, human, task, [1, 2], design="attempts", mode="bayesian", target="these-tasks")
    assert all(p.success_rate is None and p.pass_pow_k is None for p in curve.points)
    assert any("Bayesian mode for these tasks needs a uniform sample of tasks" in note for note in curve.notes)
    frequentist = corrected_curve(judge, human, task, [1, 2], design="attempts", target="these-tasks")
    assert frequentist.points[0].success_rate is not None


def test_too_few_labels_give_none_and_say_how_many_are_needed() -> None:
    y, judge, task = _run(1, 100, 1)
    few = corrected_curve(judge, _label_tasks(np.random.default_rng(2), y, task, 15), task, [1], design="tasks")
    assert few.points[0].success_rate is None and few.points[0].success_rate_ci is None
    assert few.human_only[0].success_rate is None
    need = f"at least {corrected_intervals.MIN_LABELLED}"
    assert any(need in note and "label 5 more tasks" in note for note in few.notes)
    enough = corrected_curve(judge, _label_tasks(np.random.default_rng(2), y, task, 20), task, [1], design="tasks")
    assert enough.points[0].success_rate is not None


def test_attempt_design_needs_tasks_with_k_labelled_attempts_for_pass_k() -> None:
    y, judge, task = _run(5, 200, 4)
    human = np.where(np.random.default_rng(6).random(y.size) < 0.1, y, np.nan)
    curve = corrected_curve(judge, human, task, [1, 4], design="attempts")
    assert curve.points[0].success_rate is not None
    assert curve.points[1].pass_pow_k is None and curve.points[1].pass_at_k is None
    assert any("k labelled attempts" in note for note in curve.notes)


def test_judge_failures_are_predicted_never_dropped() -> None:
    y, judge, task = _run(2, 60, 1)
    judge[:7] = np.nan
    human = _label_tasks(np.random.default_rng(3), y, task, 30)
    curve = corrected_curve(judge, human, task, [1], design="tasks")
    assert curve.n_conversations == 60 and curve.n_tasks == 60
    assert curve.n_judge_missing == 7
    assert curve.judge_imputed == pytest.approx(float(np.nanmean(judge)))
    assert any("7 conversations had no judge value" in note for note in curve.notes)
    assert curve.agreement.n_judge_missing == int(np.sum(np.isfinite(human[:7])))


def test_agreement_counts_and_wilson_intervals() -> None:
    judge = np.array([1, 1, 0, 0.7, 0.2, 1, 0, np.nan, 0.5, 0])
    human = np.array([1, 1, 1, 1, 0, 0, 0, 1, np.nan, np.nan])
    a = corrected_curve(judge, human, np.arange(10), [1], design="tasks").agreement
    # Read at 0.5: human 1 -> judge 1, 1, 0, 0.7 (TP 3, FN 1); human 0 -> 0.2, 1, 0 (TN 2, FP 1); nan not compared.
    assert (a.true_positives, a.false_negatives, a.true_negatives, a.false_positives) == (3, 1, 2, 1)
    assert a.sensitivity == pytest.approx(0.75) and a.specificity == pytest.approx(2 / 3)
    assert a.sensitivity_ci == pytest.approx(wilson_interval(4, 3))
    assert a.specificity_ci == pytest.approx(wilson_interval(3, 2))
    assert (a.n_compared, a.n_judge_missing, a.n_uncertain) == (7, 1, 2)


# --- what the correction is for --------------------------------------------------------------------------------


def test_a_judge_equal_to_the_labels_gives_the_judge_only_estimate_with_a_narrower_interval() -> None:
    y, _, task = _run(11, 300, 1)
    human = _label_tasks(np.random.default_rng(12), y, task, 60)
    judge = y.copy()  # the judge agrees with every label
    these = corrected_curve(judge, human, task, [1], design="tasks", target="these-tasks")
    # Difference estimator: lambda = Cov(Y, Yhat) / Var(Yhat) = 1, every difference 0: the judge's mean.
    assert these.points[0].success_rate_lambda == pytest.approx(1.0, abs=1e-12)
    assert these.points[0].success_rate == pytest.approx(float(judge.mean()), abs=1e-12)
    pop = corrected_curve(judge, human, task, [1], design="tasks")
    [p], [alone] = pop.points, pop.human_only
    lab = np.isfinite(human)
    big_n, n = int((~lab).sum()), int(lab.sum())
    # PPI with Y = Yhat on the labelled: lambda mean_U(Yhat) + (1 - lambda) mean_L(Y), which is the judge-only
    # mean plus (lambda - N/T) (mean_U - mean_L).
    gap = (p.success_rate_lambda - big_n / (n + big_n)) * (judge[~lab].mean() - y[lab].mean())
    assert p.success_rate == pytest.approx(float(judge.mean()) + gap, abs=1e-12)
    width = p.success_rate_ci[1] - p.success_rate_ci[0]
    assert width < alone.success_rate_ci[1] - alone.success_rate_ci[0]
    assert any("pseudo-observations" in note for note in pop.notes)


def test_a_biased_judge_is_corrected_where_the_judge_alone_misses() -> None:
    """The issue's example: a judge passing 40% of wrong answers turns a true 50% into about 68%. Corrected
    with 30% of the tasks labelled, the interval covers; the judge-only interval almost never does."""
    rng = np.random.default_rng(2024)
    corrected_hits = judge_hits = 0
    sims = 120
    for _ in range(sims):
        y = (rng.random(300) < 0.5).astype(float)
        judge = np.where(y == 1, rng.random(300) < 0.95, rng.random(300) < 0.4).astype(float)
        human = _label_tasks(rng, y, np.arange(300), 90)
        point = corrected_curve(judge, human, np.arange(300), [1], design="tasks").points[0]
        corrected_hits += point.success_rate_ci[0] <= 0.5 <= point.success_rate_ci[1]
        half = 1.96 * judge.std(ddof=1) / math.sqrt(300)
        judge_hits += judge.mean() - half <= 0.5 <= judge.mean() + half
    assert corrected_hits / sims >= 0.88
    assert judge_hits / sims <= 0.05


def test_these_tasks_with_every_task_labelled_is_exact() -> None:
    y, judge, task = _run(21, 40, 3)
    curve = corrected_curve(judge, y, task, [1, 3], design="tasks", target="these-tasks")
    full = expected_values(y.reshape(40, 3), [1, 3]).mean(axis=0)
    point = curve.points[-1]
    assert point.pass_pow_k == pytest.approx(full[-1]) and point.pass_pow_k_ci == pytest.approx((full[-1],) * 2)


def test_small_coverage_benchmark() -> None:
    """benchmarks/bench_ppi_coverage.py on a few cells, seeded: enough runs to catch a broken interval (the
    judge-only interval, which ignores the judge's errors, is checked in the same runs to fail the bar)."""
    from benchmarks.bench_ppi_coverage import run_cell

    sims = 120
    for cell in [
        ("Beta(2,5)", 200, 1, 0.85, 0.75, 0.30, "tasks", "frequentist", "population", sims),
        ("Beta(0.5,0.5)", 200, 4, 0.70, 0.55, 0.30, "tasks", "frequentist", "population", sims),
        ("Beta(5,2)", 200, 4, 0.95, 0.95, 0.30, "attempts", "frequentist", "population", sims),
    ]:
        _, acc = run_cell(cell)  # type: ignore[arg-type]
        metrics = [0] if cell[2] == 1 or cell[6] == "attempts" else [0, 1, 2]
        for m in metrics:
            assert acc["defined"][m] == sims
            assert acc["hits"][m] / sims >= 0.87, (cell, m)
            assert acc["width"][m] <= acc["human_width"][m] * 1.02
        assert min(acc["judge_hits"][m] / sims for m in metrics) <= 0.5


@pytest.mark.parametrize(
    ("kwargs", "place"),
    [
        ({"judge": [1.5, 0], "human": [1, 0], "task_codes": [0, 1]}, "judge[0]"),
        ({"judge": [1, 0], "human": [0.5, 0], "task_codes": [0, 1]}, "human[0]"),
        ({"judge": [1, 0], "human": [1, 0], "task_codes": [0.0, 1.0]}, "task_codes"),
        ({"judge": [1, 0], "human": [1], "task_codes": [0, 1]}, "human"),
        ({"judge": [1, 0], "human": [1, 0], "task_codes": [0, 1], "design": "items"}, "design"),
        ({"judge": [1, 0], "human": [1, 0], "task_codes": [0, 1], "inclusion": [0.0, 1.0]}, "inclusion[0]"),
        ({"judge": [1, 0], "human": [1, 0], "task_codes": [0, 1], "mode": "fuzzy"}, "mode"),
    ],
)
def test_bad_inputs_are_settings_errors_naming_the_place(kwargs: dict[str, object], place: str) -> None:
    kwargs.setdefault("design", "tasks")
    with pytest.raises(SettingsError) as info:
        corrected_curve(ks=[1], **kwargs)  # type: ignore[arg-type]
    assert info.value.place == place
