"""Comparing two runs or agents on the same tasks (docs/compare.md): deltas, intervals, P(B > A).

The tasks are *paired*: each task was attempted by both sides. For every metric (success rate, pass@k
and pass^k at each k) the comparison reports a and b (exactly :func:`dataset_curve`'s values of each
side on the paired tasks), delta = b - a, an interval for delta and P(B > A), the probability that B's
*population* value (the task population, docs/statistics.md) exceeds A's.

Frequentist (``paired-t``): the mean over tasks of the per-task difference b_i - a_i, with a Student-t
interval on T - 1 degrees of freedom and P(B > A) = the t distribution's probability that the mean
difference is above 0 (``t-distribution``; a confidence probability, not a posterior one). Pairing
is what narrows it: a task that is hard for A and for B cancels in b_i - a_i, so the spread is that of
the per-task differences, not of two independent means. A paired cluster bootstrap over tasks with BCa
(the curve's own method) was tried first and under-covered where few tasks differ: with 10 tasks of one
attempt and no true difference its 95% interval held 0 in 0.82 of 400 simulations, because no
resample can move past the few discordant tasks; the t interval held it in 0.95, and it matches or
beats the bootstrap elsewhere (``benchmarks/bench_compare_coverage.py``; the bootstrap replicates are
still drawn, one set of resampled tasks for both sides, and rank agents on the leaderboard). Where the
difference of every metric is 0 on every paired task (a run against itself, two runs with the same
verdicts) the interval is [0, 0], as the t interval and the paired bootstrap of all-zero differences
both give, and P(B > A) is not given (``no-difference``): neither side is ahead anywhere, and the 1/2
a tie rule would print reads as a coin toss between two real differences. Where every task has the
same difference otherwise (one task; every task fixed; one metric saturated on both sides, as pass@K
= 1 everywhere, while the verdicts differ) there is no spread either: the two sides' curve intervals
are combined by MOVER (Zou & Donner 2008; with one task and Wilson's intervals this is Newcombe's
interval for a difference of proportions), and P comes from a normal matched to that interval
(``mover-normal``). [0, 0] there would miss a real difference that the saturated metric hides (how
often that happens with few tasks: ``benchmarks/RESULTS.md``, comparing runs).

Bayesian (``hierarchical-copula``): each side keeps the curve's own posterior, the hierarchical
Beta-Binomial model of BDA3 section 5.3 (:mod:`agentic_core.stats.hierarchical`), and the two
posteriors are drawn *jointly* through a Gaussian copula whose correlation is that of the two sides'
per-task estimates. Why this construction:

- Each side's marginal is exactly the posterior the curve shows, so a and b are the curve's numbers and
  the posterior mean of delta is b - a.
- Two separately fitted models are independent a posteriori: drawn independently they ignore the
  pairing and overstate the spread of delta. The dependence the pairing creates is the one between the
  two sides' estimates of their population means, and for means over the same tasks that correlation
  is the correlation of the per-task values (it is what the paired bootstrap sees too). By
  Bernstein-von Mises, a joint model of (p_A, p_B) would give the same correlation to the posteriors.
- The construction the issue suggests, per-task draws p_i under each side's fitted population and the
  mean over tasks of the per-task differences, describes *these* tasks: it leaves out which tasks
  happened to be drawn, and its 95% interval for the population difference covered only 0.49-0.80 in
  simulations made while this was built (the copula's coverage: ``benchmarks/bench_compare_coverage.py``).

With one paired task each side's posterior is its Beta(prior + c, prior + n - c) (``beta-draws``), and
the sides are independent. P(B > A) is the share of joint draws with B ahead (``posterior-share``);
where every joint draw of the difference is 0 (the same verdicts on every paired task: both sides
share one posterior) it is not given, as in frequentist mode.

Exclusions mirror the curve (:func:`included_groups`): a task is used only where both sides can be
(unbiased estimator: n >= K on both sides, for the whole curve, so pass@k never falls and pass^k never
rises with k; otherwise n >= 1); the others are counted with the reason. Every delta lies inside its
interval (widened, with a note, where it would not). Seeded and reproducible: the same data and seed
give the same numbers whatever the order of the tasks, and swapping A and B negates every delta and
mirrors every interval and P. :func:`compare_task_means` compares continuous per-task values (the tool
dimensions); :mod:`agentic_core.stats.leaderboard` ranks three or more agents with the same draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict
from scipy.special import ndtr, stdtr, stdtrit

from agentic_core.common.wording import plural
from agentic_core.errors import SettingsError
from agentic_core.settings import Estimator, Mode, check_level, check_n_samples
from agentic_core.stats.bootstrap import bca_bounds, bootstrap_means
from agentic_core.stats.counts import (
    DistinctPairs,
    FloatArray,
    check_ks,
    content_seed,
    seed_entropy,
)
from agentic_core.stats.curve import RELIABLE_GROUPS
from agentic_core.stats.joint import TAG_PAIRED, JointOptions, count_matrix, joint_sample, share_ahead
from agentic_core.stats.kernels import z_of
from agentic_core.stats.methods import IntervalMethod, ProbabilityMethod


class MetricComparison(BaseModel):
    """One metric of a paired comparison; ``model_dump(include=JSON_FIELDS)`` is its JSON row.

    Attributes:
        metric: ``success_rate``, ``pass_at_k``, ``pass_pow_k`` or a per-task mean's name.
        k: The k (``None`` for the success rate and per-task means).
        a: A's value on the paired tasks (the curve's), or ``None`` when nothing can be used.
        b: B's value.
        delta: b - a.
        delta_ci: Interval for delta at the requested level, or ``None``.
        p_b_better: P(B > A): the probability that B's population value exceeds A's (see ``p_method``).
        a_ci: A's own interval (the curve's).
        b_ci: B's own interval.
        n_tasks: Paired tasks used.
        interval_method: How ``delta_ci`` was computed (see :data:`IntervalMethod`).
        p_method: How ``p_b_better`` was computed (see :data:`ProbabilityMethod`).
        notes: Things to know when reading the numbers.
    """

    model_config = ConfigDict(frozen=True)

    metric: str
    k: int | None
    a: float | None
    b: float | None
    delta: float | None
    delta_ci: tuple[float, float] | None
    p_b_better: float | None
    a_ci: tuple[float, float] | None = None
    b_ci: tuple[float, float] | None = None
    n_tasks: int = 0
    interval_method: IntervalMethod | None = None
    p_method: ProbabilityMethod | None = None
    notes: tuple[str, ...] = ()


JSON_FIELDS = frozenset({"metric", "k", "a", "b", "delta", "delta_ci", "p_b_better"})
"""The fields of one row of ``compare --json``'s ``metrics`` list."""

NO_DIFFERENCE_NOTE = (
    "the difference is 0 on every paired task: the interval is [0, 0] and P(B > A) is not given, since neither side "
    "is ahead"
)
"""The note of a metric on which no paired task differs (see the module docstring)."""


class PairedComparison(BaseModel):
    """A paired comparison of B against A over the tasks both attempted.

    Attributes:
        metrics: The success rate, then pass@k for every k, then pass^k for every k.
        n_tasks: Paired tasks used.
        n_excluded: Paired tasks left out (see ``excluded_reason``).
        excluded_reason: Why, or ``None``.
        mode: ``frequentist`` or ``bayesian``.
        estimator: The estimator (frequentist mode).
        level: The interval level.
        notes: Things to know about the whole comparison (e.g. each side's curve notes).
    """

    model_config = ConfigDict(frozen=True)

    metrics: tuple[MetricComparison, ...]
    n_tasks: int
    n_excluded: int
    excluded_reason: str | None
    mode: Mode
    estimator: Estimator
    level: float
    notes: tuple[str, ...] = ()


def paired_t(differences: FloatArray, m: ArrayLike, level: float) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Student-t interval of the mean per-task difference, and P(mean > 0) from the t distribution.

    Args:
        differences: Per distinct task row, the difference of each metric, shape ``(rows, metrics)``.
        m: How many tasks each row stands for (at least two tasks in all).
        level: Interval level.

    Returns:
        ``(lows, highs, p)`` per metric; the bounds are clipped to [-1, 1] (differences of rates). Where
        the differences have no spread the interval is the point and P is 1, 0 or 1/2.
    """
    weights = np.asarray(m, dtype=np.float64)
    tasks = float(weights.sum())
    mean = weights @ differences / tasks
    with np.errstate(divide="ignore", invalid="ignore"):
        # One task has no spread to measure: the variance is NaN, so is the interval, and P comes from the sign
        # below; compare_counts reports that task's difference as a point (it is "flat").
        var = weights @ (differences - mean) ** 2 / (tasks - 1.0)
    se = np.sqrt(np.clip(var, 0.0, None) / tasks)
    half = float(stdtrit(tasks - 1.0, 0.5 + level / 2.0)) * se
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, stdtr(tasks - 1.0, mean / np.where(se > 0, se, 1.0)), 0.5 + 0.5 * np.sign(mean))
    return np.clip(mean - half, -1.0, 1.0), np.clip(mean + half, -1.0, 1.0), np.asarray(p, dtype=np.float64)


def _mover(
    a: float, a_ci: tuple[float, float], b: float, b_ci: tuple[float, float], level: float
) -> tuple[tuple[float, float], float]:
    """MOVER interval for b - a from the two sides' intervals (Zou & Donner 2008), and P(B > A) from it.

    P is a normal with the spread the interval shows on the side of 0: P = Phi(delta / s), s = (delta - low) / z
    for a positive delta (high - delta for a negative one), 1/2 at delta = 0.
    """
    delta = b - a
    low = delta - float(np.hypot(b - b_ci[0], a_ci[1] - a))
    high = delta + float(np.hypot(b_ci[1] - b, a - a_ci[0]))
    spread = (delta - low if delta > 0 else high - delta) / z_of(level)
    if delta == 0:
        p = 0.5
    elif spread <= 0:
        p = 1.0 if delta > 0 else 0.0
    else:
        p = float(ndtr(delta / spread))
    return (low, high), p


def _compose(
    metric: str,
    k: int | None,
    a: float,
    b: float,
    a_ci: tuple[float, float],
    b_ci: tuple[float, float],
    bounds: tuple[float, float] | None,
    p: float,
    tasks: int,
    level: float,
    method: IntervalMethod,
    p_method: ProbabilityMethod,
    no_difference: bool = False,
) -> MetricComparison:
    """One metric's comparison: MOVER where the draws have no spread (``bounds`` None), delta kept inside.

    ``no_difference``: the difference is 0 on every paired task (or in every joint draw): [0, 0], no P(B > A).
    """
    delta = b - a
    notes = []
    shown_p: float | None = p
    if no_difference:
        notes.append(NO_DIFFERENCE_NOTE)
        bounds, shown_p, p_method = (0.0, 0.0), None, "no-difference"
    elif bounds is None:
        notes.append(
            "every task has the same difference, so resampling tasks gives no spread: the interval combines the two "
            "sides' intervals (MOVER) and P(B > A) is read from it"
        )
        bounds, p = _mover(a, a_ci, b, b_ci, level)
        method, p_method = "mover", "mover-normal"
    low, high = bounds
    if delta < low - 1e-12 or delta > high + 1e-12:
        notes.append("the interval was widened to contain delta")
    return MetricComparison(
        metric=metric,
        k=k,
        a=a,
        b=b,
        delta=delta,
        delta_ci=(min(low, delta), max(high, delta)),
        p_b_better=shown_p,
        a_ci=a_ci,
        b_ci=b_ci,
        n_tasks=tasks,
        interval_method=method,
        p_method=p_method,
        notes=tuple(notes),
    )


def compare_counts(
    n_a: ArrayLike,
    c_a: ArrayLike,
    n_b: ArrayLike,
    c_b: ArrayLike,
    ks: int | Sequence[int],
    **options: Unpack[JointOptions],
) -> PairedComparison:
    """Compare B with A over paired tasks: each metric's a, b, delta = b - a, its interval and P(B > A).

    See the module docstring for the methods. Task i of A and task i of B must be the same task.

    Args:
        n_a: A's attempts per paired task.
        c_a: A's fully correct attempts per paired task.
        n_b: B's attempts per paired task.
        c_b: B's fully correct attempts per paired task.
        ks: The k values (sorted and deduplicated).
        **options: ``mode``, ``estimator``, ``prior``, ``level``, ``seed``, ``n_samples``, each optional
            (:class:`~agentic_core.stats.joint.JointOptions`).

    Returns:
        The comparison; with no usable task every value is ``None`` and ``excluded_reason`` says why.

    Raises:
        SettingsError: invalid arguments.
    """
    n, c = count_matrix([n_a, n_b], [c_a, c_b], ("A", "B"))
    sample = joint_sample(n, c, ("A", "B"), check_ks(ks), options)
    lvl = sample.level
    rows = []
    if sample.n_tasks == 0:
        rows = [
            MetricComparison(metric=name, k=k, a=None, b=None, delta=None, delta_ci=None, p_b_better=None)
            for name, k in sample.metrics
        ]
    else:
        method, p_method = sample.interval_method, sample.p_method
        if sample.units is not None and sample.unit_values is not None:
            differences = sample.unit_values[:, 1] - sample.unit_values[:, 0]
            lows, highs, shares = paired_t(differences, sample.units.m, lvl)
            flat = np.all(differences == differences[:1], axis=0)
            # The same results on every task for every metric, not one saturated metric (module docstring).
            zero = np.full(len(sample.metrics), bool(np.all(differences == 0.0)))
            method, p_method = "paired-t", "t-distribution"
        else:
            delta = sample.draws[:, 1] - sample.draws[:, 0]
            tail = (1.0 - lvl) / 2.0
            lows, highs = np.quantile(delta, [tail, 1.0 - tail], axis=0)
            flat = np.zeros(len(sample.metrics), dtype=bool)
            zero = np.all(delta == 0.0, axis=0)
            shares = share_ahead(delta)
        for m, (name, k) in enumerate(sample.metrics):
            rows.append(
                _compose(
                    name,
                    k,
                    float(sample.point[0, m]),
                    float(sample.point[1, m]),
                    (float(sample.low[0, m]), float(sample.high[0, m])),
                    (float(sample.low[1, m]), float(sample.high[1, m])),
                    None if flat[m] else (float(lows[m]), float(highs[m])),
                    float(shares[m]),
                    sample.n_tasks,
                    lvl,
                    method,
                    p_method,
                    no_difference=bool(zero[m]),
                )
            )
    notes = list(sample.notes)
    if 1 < sample.n_tasks < RELIABLE_GROUPS:
        notes.append(
            f"only {plural(sample.n_tasks, 'paired task')}: an interval for the population difference from fewer than "
            f"{RELIABLE_GROUPS} tasks is unreliable"
        )
    return PairedComparison(
        metrics=tuple(rows),
        n_tasks=sample.n_tasks,
        n_excluded=sample.n_excluded,
        excluded_reason=sample.excluded_reason,
        mode=sample.mode,
        estimator=sample.estimator,
        level=lvl,
        notes=tuple(dict.fromkeys(notes)),
    )


def compare_task_means(
    a: ArrayLike, b: ArrayLike, *, metric: str, level: float = 0.95, seed: int = 0, n_samples: int = 4000
) -> MetricComparison:
    """Compare per-task means of a continuous score (a tool dimension) between A and B over paired tasks.

    Tasks where either side is NaN (the dimension does not apply) are left out. a and b are the means
    over the tasks that have both; delta = b - a; the interval is the Student-t interval of the mean
    per-task difference (``paired-t``) and P(B > A) its t probability, as for the pass metrics; each
    side's own interval is its BCa bootstrap over those tasks. Where every task has the same non-zero
    difference the two sides' intervals are combined by MOVER; where the difference is 0 on every task
    the interval is [0, 0] and P(B > A) is not given. Fewer than two such tasks: no interval.

    Args:
        a: A's per-task mean, NaN where absent.
        b: B's per-task mean of the same tasks, NaN where absent.
        metric: Its name (e.g. ``selection``), carried into the result.
        level: Interval level in (0, 1).
        seed: Any integer.
        n_samples: Bootstrap replicates.

    Raises:
        SettingsError: arrays of different lengths or infinite values.
    """
    lvl, sd, draws = check_level(level), seed_entropy(seed), check_n_samples(n_samples)
    x, y = np.asarray(a, dtype=np.float64).ravel(), np.asarray(b, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise SettingsError(
            "b", f"must hold one value per paired task, like a ({x.size})", y.size, "pass the same tasks"
        )
    if np.isinf(x).any() or np.isinf(y).any():
        raise SettingsError(metric, "must be finite or NaN (absent)", "inf", "drop or fix the infinite values")
    both = ~np.isnan(x) & ~np.isnan(y)
    tasks = int(both.sum())
    if tasks < 2:
        mean_a = float(x[both].mean()) if tasks else None
        mean_b = float(y[both].mean()) if tasks else None
        return MetricComparison(
            metric=metric,
            k=None,
            a=mean_a,
            b=mean_b,
            delta=None if mean_a is None or mean_b is None else mean_b - mean_a,
            delta_ci=None,
            p_b_better=None,
            n_tasks=tasks,
            notes=(f"{plural(tasks, 'task')} with both values: no interval over tasks",),
        )
    rows, inverse, counts = np.unique(
        np.stack([x[both], y[both]], axis=1), axis=0, return_inverse=True, return_counts=True
    )
    units = DistinctPairs(
        np.arange(rows.shape[0], dtype=np.int64),
        np.zeros(rows.shape[0], dtype=np.int64),
        counts.astype(np.int64),
        inverse.reshape(-1).astype(np.int64),
    )
    stream = int(content_seed(TAG_PAIRED, sd, rows.view(np.int64), counts).generate_state(1, np.uint64)[0])
    values = np.column_stack([rows, rows[:, 1] - rows[:, 0]])
    replicates = bootstrap_means(units, values, stream, draws)
    lows, highs = bca_bounds(units, values, replicates, lvl)
    mean = counts @ rows / tasks
    flat = bool(np.all(values[:, 2] == values[0, 2]))
    t_low, t_high, t_p = paired_t(values[:, 2:], counts, lvl)
    return _compose(
        metric,
        None,
        float(mean[0]),
        float(mean[1]),
        (float(lows[0]), float(highs[0])),
        (float(lows[1]), float(highs[1])),
        None if flat else (float(t_low[0]), float(t_high[0])),
        float(t_p[0]),
        tasks,
        lvl,
        "paired-t",
        "t-distribution",
        no_difference=flat and bool(values[0, 2] == 0.0),
    )
