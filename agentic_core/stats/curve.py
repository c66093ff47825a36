"""Dataset-level pass@k and pass^k with intervals for k = 1..K (the curve).

The dataset value is the mean over groups of the per-group value (one group: its value). See
:func:`dataset_curve` for the intervals of each mode.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict

from agentic_core.settings import (
    Estimator,
    Mode,
    check_estimator,
    check_level,
    check_mode,
    check_n_samples,
    check_prior,
)
from agentic_core.stats.bootstrap import bootstrap_means
from agentic_core.stats.counts import (
    DistinctPairs,
    FloatArray,
    IntArray,
    check_count_arrays,
    check_ks,
    distinct_pairs,
    seed_entropy,
)
from agentic_core.stats.kernels import (
    beta_bounds,
    estimates,
    pass_at_from_p,
    pass_pow_from_p,
    posterior_means,
    posterior_params,
    wilson,
    z_of,
)
from agentic_core.stats.methods import IntervalMethod
from agentic_core.stats.posterior import posterior_draws
from agentic_core.wording import plural


class CurvePoint(BaseModel):
    """Dataset-level values at one k (the mean over included groups of the per-group value).

    Attributes:
        k: The k.
        pass_at_k: Mean pass@k, or ``None`` when no group can be used.
        pass_pow_k: Mean pass^k, or ``None``.
        pass_at_k_ci: Interval ``(low, high)`` at the requested level, or ``None``.
        pass_pow_k_ci: Interval, or ``None``.
        success_rate: The mode's estimate of the mean success probability (pass@1 = pass^1):
            the mean of c/n (frequentist) or its posterior mean (Bayesian), or ``None``.
        success_rate_ci: Its interval (Wilson / bootstrap, or credible).
        observed_success_rate: Mean of c/n over the included groups (no prior), or ``None``. In
            Bayesian mode the prior pulls ``success_rate`` away from it, most with few attempts per
            group, so the observed rate can lie outside the credible interval.
        n_groups: Groups included at this k.
        n_excluded: Groups excluded (n == 0; n < k with the unbiased estimator).
        excluded_reason: Why groups were excluded (or why nothing is left), else ``None``.
        interval_method: How the intervals were computed (see :data:`IntervalMethod`).
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


def _exclusion_reason(k: int, n_zero: int, n_short: int, max_n: int, n_left: int) -> str | None:
    parts = []
    if n_short:
        parts.append(
            f"{plural(n_short, 'group')} with fewer than {k} attempts (the unbiased estimator needs "
            f"n >= k = {k}; the largest group here has n = {max_n}); use the plug-in estimator, "
            "Bayesian mode or a smaller k to include them"
        )
    if n_zero:
        parts.append(f"{plural(n_zero, 'group')} with no attempts (n = 0)")
    if not parts:
        return None if n_left else "no groups: the dataset is empty"
    prefix = "excluded " if n_left else "undefined: no group can be used; excluded "
    return prefix + "; ".join(parts)


def _pair(lo: float, hi: float) -> tuple[float, float] | None:
    # None rather than NaN bounds: only possible if no bootstrap replicate kept a group.
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    return float(lo), float(hi)


def dataset_curve(
    n: ArrayLike,
    c: ArrayLike,
    ks: int | Sequence[int],
    *,
    mode: Mode,
    estimator: Estimator = "unbiased",
    prior: tuple[float, float] = (1.0, 1.0),
    level: float = 0.95,
    seed: int = 0,
    n_samples: int = 4000,
) -> list[CurvePoint]:
    """Dataset-level pass@k and pass^k with intervals for every k in ``ks`` (the curve).

    The dataset value is the mean over groups of the per-group value (one group: its value).

    Frequentist: point = the estimator's mean. With the unbiased estimator a group with n < k is
    excluded at that k and counted. One included group: Wilson interval for p pushed through
    1-(1-p)^k and p^k; it is an interval for the group's true pass@k / pass^k, and the unbiased point
    estimate can fall outside it (e.g. pass^k = 0 whenever c < k). Several: percentile bootstrap
    over groups (``n_samples`` replicates, seeded); each replicate resamples all groups with n >= 1
    and recomputes the mean with the same exclusions (replicates left with no included group are
    dropped). The bootstrap sees only the spread *between* groups: groups that all have the same
    (n, c) give a zero-width interval.

    Bayesian: the estimator is irrelevant (the posterior handles any k, so only n == 0 groups are
    excluded). Point = exact posterior mean. One group: exact Beta quantiles; several: seeded Monte
    Carlo of the posterior of the mean (see :func:`posterior_samples`).

    Numbers never depend on the order of the groups; the same seed gives the same numbers.

    Args:
        n: Attempts per group (integer array).
        c: Correct attempts per group (integer array).
        ks: The k values (sorted and deduplicated in the result).
        mode: ``frequentist`` or ``bayesian``.
        estimator: ``unbiased`` or ``plug-in`` (frequentist mode).
        prior: Beta prior (a, b) (Bayesian mode).
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
    md = check_mode(mode)
    est = check_estimator(estimator)
    pr = check_prior(prior)
    lvl = check_level(level)
    sd = seed_entropy(seed)
    draws = check_n_samples(n_samples)
    n_zero = int(np.count_nonzero(n_arr == 0))
    keep = n_arr > 0
    dist = distinct_pairs(n_arr[keep], c_arr[keep])
    if md == "bayesian":
        return _bayesian_curve(dist, k_arr, n_zero, pr, lvl, sd, draws)
    return _frequentist_curve(dist, k_arr, n_zero, est, lvl, sd, draws)


def _empty_point(k: int, n_excluded: int, reason: str | None) -> CurvePoint:
    return CurvePoint(
        k=k,
        pass_at_k=None,
        pass_pow_k=None,
        pass_at_k_ci=None,
        pass_pow_k_ci=None,
        success_rate=None,
        success_rate_ci=None,
        observed_success_rate=None,
        n_groups=0,
        n_excluded=n_excluded,
        excluded_reason=reason,
        interval_method=None,
    )


def _frequentist_curve(
    dist: DistinctPairs, ks: IntArray, n_zero: int, estimator: Estimator, level: float, seed: int, draws: int
) -> list[CurvePoint]:
    m = dist.m.astype(np.float64)
    n_pos = int(dist.m.sum())
    max_n = int(dist.n.max()) if dist.n.size else 0
    at_k, pow_k = estimates(dist.n, dist.c, ks, estimator)
    included = ~np.isnan(pow_k)
    rate = np.where(included, (dist.c / np.maximum(dist.n, 1))[:, None], np.nan)
    sizes = m @ included
    with np.errstate(divide="ignore", invalid="ignore"):
        point_at = (m @ np.where(included, at_k, 0.0)) / sizes
        point_pow = (m @ np.where(included, pow_k, 0.0)) / sizes
        point_rate = (m @ np.where(included, rate, 0.0)) / sizes
    tail = (1.0 - level) / 2.0
    bounds: FloatArray | None = None
    if np.any(sizes >= 2):
        reps = bootstrap_means(dist, np.concatenate([at_k, pow_k, rate], axis=1), seed, draws)
        if np.isnan(reps).any():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column becomes a None interval
                bounds = np.asarray(np.nanquantile(reps, [tail, 1.0 - tail], axis=0), dtype=np.float64)
        else:
            bounds = np.asarray(np.quantile(reps, [tail, 1.0 - tail], axis=0), dtype=np.float64)
    z = z_of(level)
    points = []
    K = ks.size
    for j, k in enumerate(ks.tolist()):
        size = round(float(sizes[j]))
        reason = _exclusion_reason(k, n_zero, n_pos - size, max_n, size)
        if size == 0:
            points.append(_empty_point(k, n_zero + n_pos, reason))
            continue
        if size == 1:
            d = int(np.flatnonzero(included[:, j])[0])
            lo_p, hi_p = wilson(np.array([float(dist.n[d])]), np.array([float(dist.c[d])]), z)
            at_ci = _pair(pass_at_from_p(lo_p, k)[0], pass_at_from_p(hi_p, k)[0])
            pow_ci = _pair(pass_pow_from_p(lo_p, k)[0], pass_pow_from_p(hi_p, k)[0])
            rate_ci = _pair(lo_p[0], hi_p[0])
            method: IntervalMethod = "wilson"
        else:
            assert bounds is not None
            at_ci = _pair(bounds[0, j], bounds[1, j])
            pow_ci = _pair(bounds[0, K + j], bounds[1, K + j])
            rate_ci = _pair(bounds[0, 2 * K + j], bounds[1, 2 * K + j])
            method = "bootstrap"
        points.append(
            CurvePoint(
                k=k,
                pass_at_k=float(point_at[j]),
                pass_pow_k=float(point_pow[j]),
                pass_at_k_ci=at_ci,
                pass_pow_k_ci=pow_ci,
                success_rate=float(point_rate[j]),
                success_rate_ci=rate_ci,
                observed_success_rate=float(point_rate[j]),
                n_groups=size,
                n_excluded=n_zero + n_pos - size,
                excluded_reason=reason,
                interval_method=method,
            )
        )
    return points


def _bayesian_curve(
    dist: DistinctPairs,
    ks: IntArray,
    n_zero: int,
    prior: tuple[float, float],
    level: float,
    seed: int,
    draws: int,
) -> list[CurvePoint]:
    size = int(dist.m.sum())
    reason = _exclusion_reason(0, n_zero, 0, 0, size)
    if size == 0:
        return [_empty_point(k, n_zero, reason) for k in ks.tolist()]
    m = dist.m.astype(np.float64)
    a, b = posterior_params(dist.n, dist.c, prior)
    mean_at, mean_pow = posterior_means(a, b, ks)
    point_at = (m @ mean_at) / size
    point_pow = (m @ mean_pow) / size
    point_rate = float(m @ (dist.c / dist.n)) / size
    point_mean_p = float(m @ (a / (a + b))) / size
    tail = (1.0 - level) / 2.0
    method: IntervalMethod
    if size == 1:
        lo_p, hi_p = beta_bounds(a, b, level)
        at_lo, at_hi = pass_at_from_p(lo_p[0], ks), pass_at_from_p(hi_p[0], ks)
        pow_lo, pow_hi = pass_pow_from_p(lo_p[0], ks), pass_pow_from_p(hi_p[0], ks)
        rate_ci = _pair(lo_p[0], hi_p[0])
        method = "beta-quantiles"
    else:
        samples = posterior_draws(dist, ks, prior, seed, draws, level)
        at_lo, at_hi = np.quantile(samples.pass_at_k, [tail, 1.0 - tail], axis=0)
        pow_lo, pow_hi = np.quantile(samples.pass_pow_k, [tail, 1.0 - tail], axis=0)
        rate_lo, rate_hi = np.quantile(samples.p, [tail, 1.0 - tail])
        rate_ci = _pair(rate_lo, rate_hi)
        method = samples.method
    return [
        CurvePoint(
            k=k,
            pass_at_k=float(point_at[j]),
            pass_pow_k=float(point_pow[j]),
            pass_at_k_ci=_pair(at_lo[j], at_hi[j]),
            pass_pow_k_ci=_pair(pow_lo[j], pow_hi[j]),
            success_rate=point_mean_p,
            success_rate_ci=rate_ci,
            observed_success_rate=point_rate,
            n_groups=size,
            n_excluded=n_zero,
            excluded_reason=reason,
            interval_method=method,
        )
        for j, k in enumerate(ks.tolist())
    ]
