"""The corrected estimators of one metric column and their intervals (docs/statistics.md, "Correcting for
the judge").

Four estimators, one per design and target, each with a lambda in [0, 1] (lambda = 0: the labels alone):

- ``ppi`` (task design, uniform sample, population): PPI++ with the labelled tasks as (Y, Yhat) and
  the unlabelled tasks as Yhat_u (:mod:`agentic_core.stats.ppi`); on one attempt per task this is
  ppi-python's ``ppi_mean_ci``.
- ``difference`` (task design, uniform sample, these tasks): the survey-sampling difference estimator
  lambda mean_T(Yhat) + mean_n(Y - lambda Yhat) of the mean over the T tasks, with variance
  (1 - n/T) s^2(Y - lambda Yhat) / n (simple random sampling without replacement: Cochran 1977,
  ch. 7), lambda = Cov_n(Y, Yhat) / Var_n(Yhat).
- ``ht-population`` (attempt design, or any design with inclusion probabilities): the active-inference
  estimate (Zrnic and Candes, ICML 2024) mean_i Z_i, Z_i = A_i + lambda (Yhat_i - B_i), variance
  s^2(Z) / T, lambda = -Cov(A, Yhat - B) / Var(Yhat - B).
- ``ht-these``: the same estimate; variance (1/T^2) sum_i (v_AA - 2 lambda v_AB + lambda^2 v_BB), the
  unbiased Horvitz-Thompson variance over the labelling (the tasks are fixed), lambda =
  sum v_AB / sum v_BB.

Small samples (the benchmark's reason for each rule):

- fewer than :data:`MIN_LABELLED` labelled tasks (tasks with enough labelled attempts): no value;
- pseudo-observations in the rectifier's sum of squares, in the spirit of Agresti and Coull (1998),
  who add z^2/2 successes and z^2/2 failures to a proportion: q^2/4 u^2 is added to
  sum (D_i - D_bar)^2 (q the t quantile of the interval, u how far one attempt's label can move a
  task's value: 1 / n_i for the success rate, min(1, k / n_i) for pass@k and pass^k, 1 with one
  attempt per task; u^2 averaged over the labelled tasks). The plain t interval of a mean of 0 / 1
  values (the Wald interval) covers erratically at small n (Brown, Cai and DasGupta 2001), and a judge
  agreeing on every one of a few labels would otherwise claim to have no error;
- the jackknife variance (Tukey 1958; leave one labelled task out, lambda re-tuned each time) where it
  is larger than the plug-in one: with tens of labels a tuned lambda follows the labelled sample, and
  the plug-in variance misses that noise (``ppi``, ``difference``, ``ht-population``);
- Student t quantiles: Welch-Satterthwaite degrees of freedom for ``ppi``, n - 1 otherwise.

From Welch's degrees of freedom :data:`NU_EXACT` on (more than that many labelled and unlabelled tasks),
none of this applies unless the labels and the judge almost never disagree (observed variance below the
pseudo-observations' share): there the ``ppi`` interval is ppi-python's, to the last digit (the z
quantile, variances with divisor the count); the step at the boundary is below half a percent of the
width.

Bayesian mode: :mod:`agentic_core.stats.corrected_bayes`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.special import stdtrit

from agentic_core.stats import kernels
from agentic_core.stats.counts import FloatArray
from agentic_core.stats.ppi import tuned_lambda

MIN_LABELLED = 20
"""Fewer labelled tasks than this give no corrected value (benchmarks/RESULTS.md, "Corrected estimates")."""
NU_EXACT = 1000.0
"""Welch degrees of freedom from which the ``ppi`` interval uses the z quantile (ppi-python's interval)."""


@dataclass(frozen=True)
class ColumnResult:
    """One metric's corrected value.

    Attributes:
        estimate: The estimate, or None (too few labels).
        ci: ``(low, high)``, or None.
        lam: The lambda used.
        exact_ppi: The interval is ppi-python's (no small-sample adjustment).
        floored: The pseudo-observations outweigh the observed disagreement (the labels and the judge
            almost never disagree).
        units: Labelled tasks the rectifier rests on.
    """

    estimate: float | None
    ci: tuple[float, float] | None
    lam: float | None
    exact_ppi: bool = False
    floored: bool = False
    units: int = 0
    flags: tuple[str, ...] = field(default=())


def _none(units: int) -> ColumnResult:
    return ColumnResult(None, None, None, units=units)


def _clip(lam: float) -> float:
    return min(max(lam, 0.0), 1.0) if math.isfinite(lam) else 0.0


def _var(x: FloatArray) -> float:
    return float(np.var(x, ddof=1)) if x.size > 1 else 0.0


def _t_interval(estimate: float, se: float, df: float, level: float) -> tuple[float, float]:
    q = float(stdtrit(df, 0.5 + level / 2.0)) if df < math.inf else kernels.z_of(level)
    return estimate - q * se, estimate + q * se


def _pseudo_ss(level: float, n: int, unit2: float | FloatArray) -> float | FloatArray:
    """The pseudo-observations' sum of squares q^2/4 u^2 (q: the t quantile with n - 1 degrees of freedom)."""
    q = float(stdtrit(max(n - 1, 1), 0.5 + level / 2.0))
    return q * q / 4.0 * unit2


def _jackknife_var(thetas: FloatArray) -> float:
    """Tukey's jackknife variance (m - 1) / m sum (theta_i - mean)^2 of leave-one-out estimates."""
    m = thetas.size
    return float((m - 1) / m * np.sum((thetas - thetas.mean()) ** 2)) if m > 1 else 0.0


def _clipped_ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    """num / den clipped to [0, 1], 0 where den <= 0 (lambda's rule)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, np.clip(num / np.where(den > 0, den, 1.0), 0.0, 1.0), 0.0)


def _loo_ppi(y: FloatArray, yh: FloatArray, yh_u: FloatArray, lam: float | None) -> FloatArray:
    """The PPI++ estimate with each labelled task left out in turn (lambda re-tuned each time)."""
    n, big_n = y.size, yh_u.size
    m = n - 1.0
    sy, sh = y.sum() - y, yh.sum() - yh
    if lam is None:
        syh = float(np.sum(y * yh)) - y * yh
        cov = syh / m - (sy / m) * (sh / m)  # divisor the count, as ppi-python's
        s_all = float(yh.sum() + yh_u.sum()) - yh
        s2_all = float(np.sum(yh * yh) + np.sum(yh_u * yh_u)) - yh * yh
        size = m + big_n
        var = (s2_all - s_all * s_all / size) / (size - 1.0)
        lams = _clipped_ratio(cov, (1.0 + m / big_n) * var)
    else:
        lams = np.full(n, lam)
    # Every task labelled (no unlabelled one): lambda is 0 and there is no imputed part (not NaN).
    imputed = float(yh_u.mean()) if big_n else 0.0
    return lams * imputed + sy / m - lams * sh / m


def _loo_difference(y: FloatArray, yh: FloatArray, mean_all: float, lam: float | None) -> FloatArray:
    """The difference estimate with each labelled task left out (lambda = Cov / Var re-fitted)."""
    m = y.size - 1.0
    sy, sh = y.sum() - y, yh.sum() - yh
    if lam is None:
        cov = (float(np.sum(y * yh)) - y * yh) / m - (sy / m) * (sh / m)
        var = (float(np.sum(yh * yh)) - yh * yh) / m - (sh / m) ** 2
        lams = _clipped_ratio(cov, var)
    else:
        lams = np.full(y.size, lam)
    return lams * mean_all + sy / m - lams * sh / m


def _loo_ht(a: FloatArray, g: FloatArray, lam: float | None) -> FloatArray:
    """mean(A) + lambda mean(G) with each task left out (lambda = -Cov(A, G) / Var(G) re-fitted)."""
    m = a.size - 1.0
    sa, sg = a.sum() - a, g.sum() - g
    if lam is None:
        cov = (float(np.sum(a * g)) - a * g) / m - (sa / m) * (sg / m)
        var = (float(np.sum(g * g)) - g * g) / m - (sg / m) ** 2
        lams = _clipped_ratio(-cov, var)
    else:
        lams = np.full(a.size, lam)
    return sa / m + lams * sg / m


def ppi_population(
    y: FloatArray, yh: FloatArray, yh_u: FloatArray, level: float, lam: float | None, unit2: float = 1.0
) -> ColumnResult:
    """PPI++ over tasks (task design, uniform sample, population target)."""
    n, big_n = y.size, yh_u.size
    if n < MIN_LABELLED:
        return _none(n)
    ones = np.ones(n)
    lam_ = (tuned_lambda(y, yh, yh_u, ones, np.ones(big_n)) if lam is None else lam) if big_n else 0.0
    d = y - lam_ * yh
    imp = lam_ * yh_u
    estimate = float((imp.mean() if big_n else 0.0) + d.mean())
    pseudo = float(_pseudo_ss(level, n, unit2)) / (n - 1)
    s2d = _var(d)
    floored = s2d < pseudo
    # The labelled part's variance: the jackknife's, which carries lambda's own noise (with few labels a
    # tuned lambda leans towards the labelled sample, and the plug-in variance misses it), plus the
    # pseudo-observations' share.
    jack = _jackknife_var(_loo_ppi(y, yh, yh_u, lam_ if (lam is not None or not big_n) else None))
    a = max(jack, s2d / n) + pseudo / n
    b = _var(imp) / big_n if big_n > 1 else 0.0
    spread = a * a / (n - 1) + (b * b / (big_n - 1) if big_n > 1 else 0.0)
    nu = (a + b) ** 2 / spread if spread > 0 else n - 1.0
    if nu >= NU_EXACT and not floored:
        se = math.sqrt(float(d.var()) / n + (float(imp.var()) / big_n if big_n else 0.0))
        return ColumnResult(estimate, _t_interval(estimate, se, math.inf, level), lam_, True, False, n)
    return ColumnResult(estimate, _t_interval(estimate, math.sqrt(a + b), nu, level), lam_, False, floored, n)


def difference_these(
    y: FloatArray, yh: FloatArray, yh_all: FloatArray, level: float, lam: float | None, unit2: float = 1.0
) -> ColumnResult:
    """The difference estimator of the mean over these T tasks (task design, uniform sample)."""
    n, big_t = y.size, yh_all.size
    if n < MIN_LABELLED:
        return _none(n)
    if lam is None:
        var_yh = _var(yh)
        lam_ = _clip(float(np.cov(y, yh)[0, 1]) / var_yh) if var_yh > 0 else 0.0
    else:
        lam_ = lam
    d = y - lam_ * yh
    estimate = float(lam_ * yh_all.mean() + d.mean())
    pseudo = float(_pseudo_ss(level, n, unit2)) / (n - 1)
    s2d = _var(d)
    jack = _jackknife_var(_loo_difference(y, yh, float(yh_all.mean()), lam))
    se = math.sqrt((1.0 - n / big_t) * (max(jack, s2d / n) + pseudo / n))
    return ColumnResult(estimate, _t_interval(estimate, se, n - 1, level), lam_, False, s2d < pseudo, n)


def _ht_pseudo(weight: FloatArray, unit2: FloatArray, units: int, big_t: int, level: float) -> float:
    """The pseudo-observations' variance share, each task weighted as its rectifier is (1 / pi)."""
    return float(np.sum(weight * weight * _pseudo_ss(level, units, unit2))) / big_t**2 / (units - 1)


def ht_population(
    a: FloatArray,
    b: FloatArray,
    yh: FloatArray,
    weight: FloatArray,
    units: int,
    level: float,
    lam: float | None,
    unit2: FloatArray,
) -> ColumnResult:
    """The active-inference (Horvitz-Thompson) estimate of the population mean."""
    big_t = a.size
    if units < MIN_LABELLED:
        return _none(units)
    g = yh - b
    if lam is None:
        var_g = _var(g)
        lam_ = _clip(-float(np.cov(a, g)[0, 1]) / var_g) if var_g > 0 else 0.0
    else:
        lam_ = lam
    z = a + lam_ * g
    estimate = float(z.mean())
    v_rect = _var(a - lam_ * b) / big_t
    pseudo = _ht_pseudo(weight, unit2, units, big_t, level)
    var = max(_var(z) / big_t, _jackknife_var(_loo_ht(a, g, lam))) + pseudo
    ci = _t_interval(estimate, math.sqrt(var), units - 1, level)
    return ColumnResult(estimate, ci, lam_, False, pseudo > v_rect, units)


def ht_these(
    a: FloatArray,
    b: FloatArray,
    yh: FloatArray,
    v: tuple[FloatArray, FloatArray, FloatArray],
    weight: FloatArray,
    units: int,
    level: float,
    lam: float | None,
    unit2: FloatArray,
) -> ColumnResult:
    """The Horvitz-Thompson estimate of the mean over these tasks, its variance over the labelling."""
    big_t = a.size
    if units < MIN_LABELLED:
        return _none(units)
    s_aa, s_ab, s_bb = (float(np.sum(x)) for x in v)
    lam_ = (_clip(s_ab / s_bb) if s_bb > 0 else 0.0) if lam is None else lam
    estimate = float(np.mean(a + lam_ * (yh - b)))
    var = max(s_aa - 2.0 * lam_ * s_ab + lam_ * lam_ * s_bb, 0.0) / big_t**2
    share = np.maximum(weight * (weight - 1.0), 0.0) * _pseudo_ss(level, units, unit2)
    pseudo = float(np.sum(share)) / big_t**2 / (units - 1)
    ci = _t_interval(estimate, math.sqrt(var + pseudo), units - 1, level)
    return ColumnResult(estimate, ci, lam_, False, pseudo > var, units)
