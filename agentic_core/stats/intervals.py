"""Intervals for one group, and per-group tables with intervals (frequentist and Bayesian).

Frequentist: the Wilson (1927) score interval for p, pushed through the monotone transforms
1-(1-p)^k and p^k. Bayesian: p ~ Beta(a + c, b + n - c); posterior means of p^k and 1 - (1-p)^k are
exact products, credible bounds are Beta quantiles pushed through the (increasing) transforms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike

from agentic_core.common.frame_columns import StatCols
from agentic_core.errors import SettingsError, UndefinedEstimateError
from agentic_core.settings import Estimator, Mode, check_estimator, check_k, check_level, check_mode, check_prior
from agentic_core.stats import kernels
from agentic_core.stats.counts import FloatArray, check_count_arrays, check_counts, distinct_pairs
from agentic_core.stats.estimators import require_defined

if TYPE_CHECKING:
    import pandas as pd

Metric = Literal["pass@k", "pass^k"]


def wilson_interval(n: int, c: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson (1927) score interval for the success probability p of one group.

    Args:
        n: Number of attempts (>= 1).
        c: Number of correct attempts.
        level: Confidence level in (0, 1).

    Returns:
        ``(low, high)``; the same as statsmodels ``proportion_confint(c, n, method="wilson")``.

    Raises:
        SettingsError: invalid counts or level.
        UndefinedEstimateError: n == 0.
    """
    n_, c_ = check_counts(n, c)
    lvl = check_level(level)
    if n_ == 0:
        raise UndefinedEstimateError(
            "wilson_interval", "is undefined for a group with no attempts (n = 0)", show=False
        )
    lo, hi = kernels.wilson(np.array([float(n_)]), np.array([float(c_)]), kernels.z_of(lvl))
    return float(lo[0]), float(hi[0])


@dataclass(frozen=True)
class Estimate:
    """A point value with its interval."""

    value: float
    low: float
    high: float


def posterior_estimate(
    n: int,
    c: int,
    k: int,
    metric: Metric,
    *,
    prior: tuple[float, float] = (1.0, 1.0),
    level: float = 0.95,
) -> Estimate:
    """Exact Bayesian posterior mean and equal-tailed credible interval of pass@k or pass^k (one group).

    p ~ Beta(a + c, b + n - c). E[p^k] = prod_{i<k} (a'+i)/(a'+b'+i) and
    E[1-(1-p)^k] = 1 - prod_{i<k} (b'+i)/(a'+b'+i); the bounds are Beta quantiles of p pushed through
    the increasing transform. No Monte Carlo. Any k is allowed (the posterior covers k > n).

    Note: for very skewed posteriors (e.g. c = 0, large k) the mean of p^k can lie outside the
    equal-tailed interval; both are reported as they are.

    Args:
        n: Number of attempts (>= 1).
        c: Number of correct attempts.
        k: Whole number >= 1.
        metric: ``"pass@k"`` or ``"pass^k"``.
        prior: Beta prior (a, b); (1, 1) uniform, (0.5, 0.5) Jeffreys.
        level: Credible level in (0, 1).

    Raises:
        SettingsError: invalid arguments.
        UndefinedEstimateError: n == 0.
    """
    n_, c_ = check_counts(n, c)
    k_ = check_k(k)
    pr = check_prior(prior)
    lvl = check_level(level)
    if metric not in ("pass@k", "pass^k"):
        raise SettingsError("metric", "must be 'pass@k' or 'pass^k'", metric, "choose pass@k or pass^k")
    require_defined(n_, k_, "plug-in", f"{metric.replace('k', str(k_))} (Bayesian)")
    a, b = kernels.posterior_params(np.array([n_]), np.array([c_]), pr)
    mean_at, mean_pow = kernels.posterior_means(a, b, np.array([k_]))
    lo_p, hi_p = kernels.beta_bounds(a, b, lvl)
    if metric == "pass@k":
        return Estimate(
            float(mean_at[0, 0]), float(kernels.pass_at_from_p(lo_p, k_)[0]), float(kernels.pass_at_from_p(hi_p, k_)[0])
        )
    return Estimate(
        float(mean_pow[0, 0]), float(kernels.pass_pow_from_p(lo_p, k_)[0]), float(kernels.pass_pow_from_p(hi_p, k_)[0])
    )



def group_table(
    n: ArrayLike,
    c: ArrayLike,
    k: int,
    *,
    mode: Mode,
    estimator: Estimator = "unbiased",
    prior: tuple[float, float] = (1.0, 1.0),
    level: float = 0.95,
) -> pd.DataFrame:
    """Per-group pass@k / pass^k with per-group intervals, vectorised (per task / per conversation output).

    One row per input group, input order kept. Columns: ``n``, ``c``, ``observed_success_rate`` (c/n),
    ``success_rate`` with ``success_rate_ci_low`` / ``_high``, ``pass_at_k`` and ``pass_pow_k`` with
    ``*_ci_low`` / ``*_ci_high``, and ``defined``. ``df.attrs`` holds k, mode, estimator and level.

    Frequentist: the estimator's point values with Wilson intervals for p transformed;
    ``success_rate`` is c/n. Bayesian: exact posterior means with exact Beta-quantile credible
    intervals (the estimator is irrelevant); ``success_rate`` is the posterior mean of p, which the
    prior pulls towards a/(a+b), hence ``observed_success_rate`` beside it. Undefined rows (n == 0;
    n < k with the unbiased estimator) are NaN with ``defined`` False.

    Args:
        n: Attempts per group.
        c: Correct attempts per group.
        k: Whole number >= 1.
        mode: ``frequentist`` or ``bayesian``.
        estimator: ``unbiased`` or ``plug-in`` (frequentist mode only).
        prior: Beta prior (a, b) (Bayesian mode only).
        level: Interval level in (0, 1).

    Returns:
        A pandas DataFrame (pandas is imported here only: the rest of the module needs none).

    Raises:
        SettingsError: invalid arguments.
    """
    import pandas as pd

    n_arr, c_arr = check_count_arrays(n, c)
    k_ = check_k(k)
    md = check_mode(mode)
    est = check_estimator(estimator)
    pr = check_prior(prior)
    lvl = check_level(level)
    dist = distinct_pairs(n_arr, c_arr)
    ks = np.array([k_])
    nf = dist.n.astype(np.float64)
    cf = dist.c.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = cf / nf
    if md == "frequentist":
        at_k, pow_k = (col[:, 0] for col in kernels.estimates(dist.n, dist.c, ks, est))
        mean_p = rate
        lo_p, hi_p = kernels.wilson(nf, cf, kernels.z_of(lvl))
    else:
        a, b = kernels.posterior_params(dist.n, dist.c, pr)
        at_k, pow_k = (col[:, 0] for col in kernels.posterior_means(a, b, ks))
        mean_p = a / (a + b)
        lo_p, hi_p = kernels.beta_bounds(a, b, lvl)
        # n == 0: the posterior would be the prior alone. Undefined, never a number.
        pow_k = np.where(dist.n == 0, np.nan, pow_k)
    defined = ~np.isnan(pow_k)

    def keep(x: FloatArray) -> FloatArray:
        return np.where(defined, x, np.nan)[dist.inverse]

    # Every point inside its interval: the unbiased pass^8 of 7/10 is 0, below the transformed
    # Wilson bound; a skewed posterior's mean can pass its tail quantile. Widen to the point.
    bounds = {
        StatCols.SUCCESS_RATE: (mean_p, lo_p, hi_p),
        StatCols.PASS_AT_K: (at_k, kernels.pass_at_from_p(lo_p, k_), kernels.pass_at_from_p(hi_p, k_)),
        StatCols.PASS_POW_K: (pow_k, kernels.pass_pow_from_p(lo_p, k_), kernels.pass_pow_from_p(hi_p, k_)),
    }
    columns: dict[str, FloatArray] = {}
    for name, (point, low, high) in bounds.items():
        columns[name] = keep(point)
        columns[f"{name}_ci_low"] = keep(np.fmin(low, point))
        columns[f"{name}_ci_high"] = keep(np.fmax(high, point))
    frame = pd.DataFrame(
        {
            StatCols.N: n_arr,
            StatCols.C: c_arr,
            StatCols.OBSERVED_SUCCESS_RATE: keep(rate),
            **columns,
            StatCols.DEFINED: defined[dist.inverse],
        }
    )
    frame.attrs.update(k=k_, mode=md, estimator=est, level=lvl)
    return frame
