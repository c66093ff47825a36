"""Dataset-level pass@k and pass^k with intervals for k = 1..K (the curve), for two targets.

The dataset value is the mean over groups of the per-group value (one group: its value). The whole
curve is computed on one set of groups (those with n >= K under the unbiased estimator, every group
with an attempt otherwise), so pass@k never falls and pass^k never rises as k grows.

Targets (docs/statistics.md): ``population`` (the default) treats the evaluated tasks as a sample of
the tasks the agent will face; ``these-tasks`` describes exactly these tasks. With one group both
are the same. Intervals by mode and target:

================  ===========================================  ==============================================
                  population                                   these tasks
================  ===========================================  ==============================================
frequentist       BCa bootstrap over groups, with Hesterberg's  bootstrap of the attempts within each group
                  small-sample expansion, widened to hold the   (``within-task-bootstrap``)
                  hierarchical interval (``bca-bootstrap``)
bayesian          hierarchical Beta-Binomial, exact on a grid,  independent Beta posteriors per group
                  widened to hold the Bayesian bootstrap over   (``monte-carlo`` / ``cornish-fisher``)
                  tasks (``hierarchical-grid``)
one group         Wilson (frequentist), Beta quantiles (Bayesian), pushed through the transforms
================  ===========================================  ==============================================

Every point lies inside its interval: where an exact interval would leave it outside (the unbiased
pass^8 of 7/10 is 0, below Wilson's transformed bound; a skewed posterior's mean beyond its tail
quantile), the interval is widened to the point and the point's ``notes`` say so.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict

from agentic_core.common.wording import plural
from agentic_core.settings import (
    Estimator,
    Mode,
    Target,
    check_estimator,
    check_level,
    check_mode,
    check_n_samples,
    check_prior,
    check_target,
)
from agentic_core.stats import kernels
from agentic_core.stats.bootstrap import bca_bounds, bootstrap_means, within_task_means
from agentic_core.stats.counts import (
    BoolArray,
    DistinctPairs,
    FloatArray,
    IntArray,
    check_count_arrays,
    check_ks,
    content_seed,
    distinct_pairs,
    seed_entropy,
)
from agentic_core.stats.hierarchical import hyper_posterior, population_summary
from agentic_core.stats.methods import IntervalMethod, few_groups_note
from agentic_core.stats.posterior import posterior_draws
from agentic_core.stats.task_bootstrap import task_bootstrap_draws

RELIABLE_GROUPS = 10
"""Below this many groups, a population interval is flagged as unreliable on screen."""
BOOTSTRAP_DRAWS = 4000
"""Draws of the Bayesian bootstrap that widens the Bayesian population interval."""
# Random-stream tag of those draws (distinct from posterior.py's tags).
TAG_TASK_BOOTSTRAP = 10


class CurvePoint(BaseModel):
    """Dataset-level values at one k (the mean over the included groups of the per-group value).

    Attributes:
        k: The k.
        pass_at_k: pass@k, or ``None`` when no group can be used.
        pass_pow_k: pass^k, or ``None``.
        pass_at_k_ci: Interval ``(low, high)`` at the requested level, or ``None``.
        pass_pow_k_ci: Interval, or ``None``.
        success_rate: pass@1 (= pass^1) by the same method and on the same groups: the success
            rate to show next to the curve.
        success_rate_ci: Its interval.
        observed_success_rate: The mean of c/n over the included groups (no model, no prior),
            labelled "observed" wherever it is shown.
        n_groups: Groups included (the same for every k of one curve).
        n_excluded: Groups excluded (n == 0; n < K with the unbiased estimator).
        excluded_reason: Why groups were excluded (or why nothing is left), else ``None``.
        interval_method: How the intervals were computed (see :data:`IntervalMethod`).
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks`` (one group: the two are the same).
        notes: Things to know when reading the numbers (few groups, a widened interval, ...).
    """

    model_config = ConfigDict(frozen=True)

    k: int
    pass_at_k: float | None
    pass_pow_k: float | None
    pass_at_k_ci: tuple[float, float] | None
    pass_pow_k_ci: tuple[float, float] | None
    success_rate: float | None
    success_rate_ci: tuple[float, float] | None
    observed_success_rate: float | None
    n_groups: int
    n_excluded: int
    excluded_reason: str | None = None
    interval_method: IntervalMethod | None = None
    mode: Mode = "frequentist"
    target: Target = "population"
    notes: tuple[str, ...] = ()


def needs_k_attempts(mode: Mode, estimator: Estimator) -> bool:
    """Whether pass@k of a group needs n >= k attempts: the unbiased frequentist estimator; plug-in and Bayesian
    estimates take any k (from the group's success rate)."""
    return mode == "frequentist" and estimator == "unbiased"


def included_groups(n: IntArray, k_max: int, mode: Mode, estimator: Estimator) -> BoolArray:
    """The groups one curve up to ``k_max`` is computed on (the same set for every k).

    Unbiased frequentist estimates exist only for k <= n, so a group needs n >= k_max; otherwise
    every group with an attempt is used.
    """
    needed = k_max if needs_k_attempts(mode, estimator) else 1
    return np.asarray(n >= needed, dtype=bool)


def _exclusion_reason(k_max: int, n_zero: int, n_short: int, max_n: int, n_left: int) -> str | None:
    parts = []
    if n_short:
        parts.append(
            f"{plural(n_short, 'group')} with fewer than {k_max} attempts (the unbiased estimator needs "
            f"n >= K = {k_max} for the whole curve; the largest group here has n = {max_n}); use the plug-in "
            "estimator, Bayesian mode or a smaller K to include them"
        )
    if n_zero:
        parts.append(f"{plural(n_zero, 'group')} with no attempts (n = 0)")
    if not parts:
        return None if n_left else "no groups: the dataset is empty"
    prefix = "excluded " if n_left else "undefined: no group can be used; excluded "
    return prefix + "; ".join(parts)


def dataset_curve(
    n: ArrayLike,
    c: ArrayLike,
    ks: int | Sequence[int],
    *,
    mode: Mode,
    target: Target = "population",
    estimator: Estimator = "unbiased",
    prior: tuple[float, float] = (1.0, 1.0),
    level: float = 0.95,
    seed: int = 0,
    n_samples: int = 4000,
) -> list[CurvePoint]:
    """Dataset-level pass@k and pass^k with intervals for every k in ``ks`` (the curve).

    See the module docstring for the point estimates and intervals of each mode and target. Numbers
    never depend on the order of the groups; the same seed gives the same numbers.

    Args:
        n: Attempts per group (integer array).
        c: Correct attempts per group (integer array).
        ks: The k values (sorted and deduplicated in the result).
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` (default) or ``these-tasks``.
        estimator: ``unbiased`` or ``plug-in`` (frequentist mode).
        prior: Beta prior (a, b) of each group (Bayesian, these tasks and one group).
        level: Interval level in (0, 1).
        seed: Any integer.
        n_samples: Bootstrap replicates / Monte Carlo draws (>= 100).

    Returns:
        One :class:`CurvePoint` per distinct k, in increasing k.

    Raises:
        SettingsError: invalid arguments.
    """
    n_arr, c_arr = check_count_arrays(n, c)
    k_arr = check_ks(ks)
    md, tg, est = check_mode(mode), check_target(target), check_estimator(estimator)
    pr, lvl, sd, draws = check_prior(prior), check_level(level), seed_entropy(seed), check_n_samples(n_samples)
    return checked_curve(n_arr, c_arr, k_arr, md, tg, est, pr, lvl, sd, draws)


def checked_curve(
    n_arr: IntArray,
    c_arr: IntArray,
    k_arr: IntArray,
    md: Mode,
    tg: Target,
    est: Estimator,
    pr: tuple[float, float],
    lvl: float,
    sd: int,
    draws: int,
) -> list[CurvePoint]:
    """:func:`dataset_curve` on arguments already validated (by it, or by a caller that validated its own).

    Callers inside the statistics package that validated K and the rest once (the joint draws of
    comparisons and leaderboards) call this, so nothing is validated twice.

    Args:
        n_arr: Attempts per group (``check_count_arrays``).
        c_arr: Correct attempts per group.
        k_arr: Sorted distinct k values (``check_ks``).
        md: Mode.
        tg: Target.
        est: Estimator.
        pr: Beta prior (``check_prior``).
        lvl: Interval level (``check_level``).
        sd: Seed entropy (``seed_entropy``).
        draws: Replicates / draws (``check_n_samples``).

    Returns:
        One :class:`CurvePoint` per k, in increasing k.
    """
    keep = included_groups(n_arr, int(k_arr.max()), md, est)
    n_zero = int(np.count_nonzero(n_arr == 0))
    n_short = int(np.count_nonzero((n_arr > 0) & ~keep))
    dist = distinct_pairs(n_arr[keep], c_arr[keep])
    size = int(dist.m.sum())
    reason = _exclusion_reason(int(k_arr.max()), n_zero, n_short, int(n_arr.max()) if n_arr.size else 0, size)
    # Issue 30: the success rate uses every group with an attempt, whatever K excludes from the
    # curve, so it does not move when K changes (the curve names the groups each k uses).
    rate = _success_rate(n_arr, c_arr, md, tg, est, pr, lvl, sd, draws) if n_short else None
    if size == 0:
        empty = {"pass_at_k": None, "pass_pow_k": None, "pass_at_k_ci": None, "pass_pow_k_ci": None}
        rate_fields: dict[str, object] = {"success_rate": None, "success_rate_ci": None, "observed_success_rate": None}
        if rate is not None:
            rate_fields = {"success_rate": rate[0], "success_rate_ci": rate[1], "observed_success_rate": rate[2]}
        return [
            CurvePoint(
                k=k,
                **empty,
                **rate_fields,
                n_groups=0,
                n_excluded=n_zero + n_short,
                excluded_reason=reason,
                mode=md,
                target=tg,
            )
            for k in k_arr.tolist()
        ]
    ks_all = np.union1d(k_arr, np.array([1], dtype=np.int64))  # k = 1 gives the success rate
    if md == "frequentist":
        point, low, high, method, notes = _frequentist(dist, ks_all, tg, est, lvl, sd, draws)
    else:
        point, low, high, method, notes = _bayesian(dist, ks_all, tg, pr, lvl, sd, draws)
    K = ks_all.size
    first = int(np.searchsorted(ks_all, 1))
    # pass@1 and pass^1 are the same number (the success rate), computed by two formulas that can
    # differ in the last bit; one of them is kept for both, so they never disagree on screen.
    for arr in (point, low, high):
        arr[first] = arr[K + first]
    if size > 1 and tg == "population" and size < RELIABLE_GROUPS:
        asked = np.searchsorted(ks_all, k_arr)
        shown = np.concatenate([asked, K + asked])  # the intervals of the k asked for, pass@k and pass^k
        full = int(np.count_nonzero((low[shown] <= 1e-12) & (high[shown] >= 1 - 1e-12)))
        notes.append(few_groups_note(size, RELIABLE_GROUPS, md, full, shown.size))
    widened = (point < low - 1e-12) | (point > high + 1e-12)
    low, high = np.minimum(low, point), np.maximum(high, point)
    if widened.any():
        notes.append("an interval was widened to contain its point estimate")
    m = dist.m.astype(np.float64)
    observed = float(m @ (dist.c / dist.n)) / size
    success = float(point[K + first])
    success_ci = (float(low[K + first]), float(high[K + first]))
    if rate is not None:
        success, success_ci, observed = rate
    points = []
    for k in k_arr.tolist():
        j = int(np.searchsorted(ks_all, k))
        points.append(
            CurvePoint(
                k=k,
                pass_at_k=float(point[j]),
                pass_pow_k=float(point[K + j]),
                pass_at_k_ci=(float(low[j]), float(high[j])),
                pass_pow_k_ci=(float(low[K + j]), float(high[K + j])),
                success_rate=success,
                success_rate_ci=success_ci,
                observed_success_rate=observed,
                n_groups=size,
                n_excluded=n_zero + n_short,
                excluded_reason=reason,
                interval_method=method,
                mode=md,
                target=tg,
                notes=tuple(notes),
            )
        )
    return points


def _success_rate(
    n: IntArray,
    c: IntArray,
    mode: Mode,
    target: Target,
    estimator: Estimator,
    prior: tuple[float, float],
    level: float,
    seed: int,
    draws: int,
) -> tuple[float, tuple[float, float], float]:
    """The success rate, its interval and the observed share over every group with an attempt."""
    scored = n > 0
    dist = distinct_pairs(n[scored], c[scored])
    one = np.array([1], dtype=np.int64)
    if mode == "frequentist":
        point, low, high, _, _ = _frequentist(dist, one, target, estimator, level, seed, draws)
    else:
        point, low, high, _, _ = _bayesian(dist, one, target, prior, level, seed, draws)
    # Index 1 is pass^1 (index 0 pass@1, the same number); the point is kept inside its interval.
    value = float(point[1])
    observed = float(dist.m.astype(np.float64) @ (dist.c / dist.n)) / float(dist.m.sum())
    return value, (min(float(low[1]), value), max(float(high[1]), value)), observed


Summary = tuple[FloatArray, FloatArray, FloatArray, IntervalMethod, list[str]]
"""Point, low and high (pass@k for every k, then pass^k for every k), the method and notes."""


def _frequentist(
    dist: DistinctPairs, ks: IntArray, target: Target, estimator: Estimator, level: float, seed: int, draws: int
) -> Summary:
    at_k, pow_k = kernels.estimates(dist.n, dist.c, ks, estimator)
    values = np.concatenate([at_k, pow_k], axis=1)
    m = dist.m.astype(np.float64)
    size = float(m.sum())
    point = m @ values / size
    if size == 1:
        lo_p, hi_p = kernels.wilson(dist.n.astype(np.float64), dist.c.astype(np.float64), kernels.z_of(level))
        low = np.concatenate([kernels.pass_at_from_p(lo_p[0], ks), kernels.pass_pow_from_p(lo_p[0], ks)])
        high = np.concatenate([kernels.pass_at_from_p(hi_p[0], ks), kernels.pass_pow_from_p(hi_p[0], ks)])
        return point, low, high, "wilson", []
    if target == "population":
        low, high, notes = bca_population(dist, values, point, level, seed, draws)
        # Issue 30: the BCa bootstrap alone covered only 0.71-0.84 when task difficulty is skewed
        # (Beta(2, 5), Beta(5, 2)) at 10 tasks: its replicates never see the rare easy (or hard)
        # task it was not dealt. The hierarchical model's interval pools the tasks through a Beta
        # law and covers on those shapes, but not on every mixture; the interval is the smallest
        # one holding both, which covered >= 0.93 in every cell of benchmarks/bench_coverage.py.
        key = [np.asarray(x, dtype=np.int64).tobytes() for x in (dist.n, dist.c, dist.m, ks)]
        h_low, h_high = _hierarchical_bounds(*key, level)
        return point, np.minimum(low, h_low), np.maximum(high, h_high), "bca-bootstrap", notes

    def value_of(n: int) -> FloatArray:
        c_star = np.arange(n + 1)
        at, pw = kernels.estimates(np.full(n + 1, n), c_star, ks, estimator)
        return np.concatenate([at, pw], axis=1)

    replicates = within_task_means(dist, value_of, seed, draws)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail], axis=0)
    return point, low, high, "within-task-bootstrap", []


@functools.lru_cache(maxsize=64)
def _hierarchical_bounds(n: bytes, c: bytes, m: bytes, ks: bytes, level: float) -> tuple[FloatArray, FloatArray]:
    """The hierarchical posterior's pass@k then pass^k bounds (memoised on the counts: a trend or a
    page reopening the same data pays for the grid once; the arrays are read-only)."""
    counts = np.frombuffer(m, dtype=np.int64)
    dist = DistinctPairs(
        np.frombuffer(n, dtype=np.int64), np.frombuffer(c, dtype=np.int64), counts, np.arange(counts.size)
    )
    k_arr = np.frombuffer(ks, dtype=np.int64)
    summary = population_summary(hyper_posterior(dist, k_arr, level), k_arr, level, ("pass_at", "pass_pow"))
    low = np.concatenate([summary["pass_at"][1], summary["pass_pow"][1]])
    high = np.concatenate([summary["pass_at"][2], summary["pass_pow"][2]])
    low.flags.writeable = False
    high.flags.writeable = False
    return low, high


@functools.lru_cache(maxsize=64)
def _bootstrap_bounds(
    n: bytes, c: bytes, m: bytes, ks: bytes, prior: tuple[float, float], level: float
) -> tuple[FloatArray, FloatArray]:
    """The Bayesian bootstrap's pass@k then pass^k bounds over :data:`BOOTSTRAP_DRAWS` draws.

    Seeded from the counts alone (the hierarchical interval it widens has no seed either), and
    memoised on them like :func:`_hierarchical_bounds`; the arrays are read-only.
    """
    counts = np.frombuffer(m, dtype=np.int64)
    n_arr, c_arr = np.frombuffer(n, dtype=np.int64), np.frombuffer(c, dtype=np.int64)
    dist = DistinctPairs(n_arr, c_arr, counts, np.arange(counts.size))
    k_arr = np.frombuffer(ks, dtype=np.int64)
    draws = task_bootstrap_draws(
        dist, k_arr, prior, BOOTSTRAP_DRAWS, content_seed(TAG_TASK_BOOTSTRAP, 0, n_arr, c_arr, counts)
    )
    tail = (1.0 - level) / 2.0
    both = np.concatenate([draws["pass_at"], draws["pass_pow"]], axis=1)
    low, high = np.quantile(both, [tail, 1.0 - tail], axis=0)
    low.flags.writeable = False
    high.flags.writeable = False
    return low, high


def bca_population(
    dist: DistinctPairs, values: FloatArray, point: FloatArray, level: float, seed: int, draws: int
) -> tuple[FloatArray, FloatArray, list[str]]:
    """The BCa bootstrap over groups of the mean of each column of ``values`` (two or more groups).

    Returns:
        ``(low, high, notes)``.
    """
    size = float(dist.m.sum())
    replicates = bootstrap_means(dist, values, seed, draws)
    low, high = bca_bounds(dist, values, replicates, level)
    notes: list[str] = []
    # Every task with the same value (e.g. pass@8 = 1 for every task) leaves the bootstrap nothing
    # to resample: its interval has zero width although the population value is not known
    # exactly. Such a column gets the Wilson interval of T tasks of which a share `value`
    # succeeded: a Bernoulli spread is the widest a [0, 1] value can have.
    constant = np.all(values == values[:1], axis=0)
    if constant.any():
        lo_t, hi_t = kernels.wilson(np.full(constant.sum(), size), size * point[constant], kernels.z_of(level))
        low[constant], high[constant] = lo_t, hi_t
        notes.append(
            "where every task had the same value the bootstrap has no spread to resample, so the interval "
            "is Wilson's over the tasks"
        )
    return low, high, notes


def _bayesian(
    dist: DistinctPairs,
    ks: IntArray,
    target: Target,
    prior: tuple[float, float],
    level: float,
    seed: int,
    draws: int,
) -> Summary:
    m = dist.m.astype(np.float64)
    size = float(m.sum())
    notes: list[str] = []
    if size > 1 and target == "population":
        post = hyper_posterior(dist, ks, level)
        summary = population_summary(post, ks, level, ("pass_at", "pass_pow"))
        both = np.concatenate([summary["pass_at"], summary["pass_pow"]], axis=1)
        if post.truncated:
            notes.append(
                "every task is all-right or all-wrong, so the population model is bounded only by its grid "
                "(alpha + beta >= e^-7): read the interval as approximate"
            )
        # Issue 30: one Beta law cannot fit a mixture of always-solved and rarely-solved tasks, and
        # there the hierarchical interval lay beside the truth. The interval is widened to hold the
        # Bayesian bootstrap's, which assumes no shape; the Beta model still carries the small-T cells
        # where the bootstrap alone is too narrow (coverage of each: benchmarks/RESULTS.md).
        key = [np.asarray(x, dtype=np.int64).tobytes() for x in (dist.n, dist.c, dist.m, ks)]
        b_low, b_high = _bootstrap_bounds(*key, prior, level)
        return both[0], np.minimum(both[1], b_low), np.maximum(both[2], b_high), "hierarchical-grid", notes
    a, b = kernels.posterior_params(dist.n, dist.c, prior)
    mean_at, mean_pow = kernels.posterior_means(a, b, ks)
    point = np.concatenate([m @ mean_at, m @ mean_pow]) / size
    if size == 1:
        lo_p, hi_p = kernels.beta_bounds(a, b, level)
        low = np.concatenate([kernels.pass_at_from_p(lo_p[0], ks), kernels.pass_pow_from_p(lo_p[0], ks)])
        high = np.concatenate([kernels.pass_at_from_p(hi_p[0], ks), kernels.pass_pow_from_p(hi_p[0], ks)])
        return point, low, high, "beta-quantiles", notes
    samples = posterior_draws(dist, ks, prior, seed, draws, level)
    tail = (1.0 - level) / 2.0
    bounds = np.quantile(np.concatenate([samples.pass_at_k, samples.pass_pow_k], axis=1), [tail, 1.0 - tail], axis=0)
    return point, bounds[0], bounds[1], samples.method, notes
