"""pass@k and pass^k estimators, frequentist and Bayesian (DESIGN.md §4): pure functions.

Vocabulary: a *group* is one unit of trial (a task, the whole set of conversations, or one
conversation's interactions) with ``n`` attempts of which ``c`` are correct.

Per group:

- ``unbiased`` (Chen et al. 2021): pass@k = 1 - C(n-c, k) / C(n, k), pass^k = C(c, k) / C(n, k),
  defined only for k <= n, computed as products of ratios (never huge binomials).
- ``plug-in`` (seed 003): p = c/n, pass@k = 1 - (1-p)^k, pass^k = p^k, any k.
- Bayesian: p ~ Beta(a + c, b + n - c); posterior means of p^k and 1 - (1-p)^k are exact products,
  credible bounds are Beta quantiles pushed through the (increasing) transforms.

Over a dataset the value is the mean over groups of the per-group value. Its interval is a
bootstrap over groups (frequentist) or a seeded Monte Carlo of the posterior of the mean
(Bayesian; exact Beta draws for few groups, the total's exact cumulants with a Cornish-Fisher
correction for many). Both work on the *distinct* (n, c) pairs with their multiplicities, in
sorted order, and seed from the data's content, so shuffling or renaming the groups never changes
a number and the cost grows with the number of distinct pairs, not of groups.

Undefined is never 0 or 1: scalar functions raise :class:`UndefinedEstimateError`; vectorised
functions return NaN with a ``defined`` mask; dataset functions exclude such groups and count them.
"""

from __future__ import annotations

import hashlib
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from pydantic import BaseModel, ConfigDict
from scipy.stats import beta as _beta_dist
from scipy.stats import norm as _norm_dist

from agentic_core.errors import SettingsError, UndefinedEstimateError
from agentic_core.settings import Estimator, Mode
from agentic_core.wording import plural

if TYPE_CHECKING:
    import pandas as pd

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

Label = Literal["reliable", "inconsistent", "functional", "needs_improvement"]
Metric = Literal["pass@k", "pass^k"]
IntervalMethod = Literal["wilson", "bootstrap", "beta-quantiles", "monte-carlo", "cornish-fisher"]
"""How an interval was obtained (shown on screen so the user knows what the bars mean).

``wilson``: Wilson score interval for p, transformed (one frequentist group).
``bootstrap``: percentile bootstrap over groups (several frequentist groups).
``beta-quantiles``: exact Beta posterior quantiles, transformed (one Bayesian group).
``monte-carlo``: seeded Monte Carlo of the posterior of the mean (several Bayesian groups) with
exact Beta draws for every group, or for the groups that keep the total from being near normal.
``cornish-fisher``: the same, with the whole total drawn from its exact cumulants (normal draws
with the Cornish-Fisher skewness / kurtosis correction); used only with more than
:data:`EXACT_DRAWS_MAX_M` groups and when the cumulants show that is accurate at the level asked.
"""

EXACT_DRAWS_MAX_M = 64
"""Up to this many groups, the Bayesian Monte Carlo draws every group's p exactly (at most 64 x 4000
Beta draws); above it, sums of groups are drawn from their exact cumulants where that is accurate."""

# A sum of many groups' values is drawn from its exact cumulants as mean + sd * CF(z), z standard
# normal and CF the second-order Cornish-Fisher polynomial in its skewness g1 and excess kurtosis
# g2, when that is accurate: the first omitted (third-order) term at the interval's quantile,
#   g3*(z^4-6z^2+3)/120 - g1*g2*(z^4-5z^2+2)/24 + g1^3*(12z^4-53z^2+17)/324
# (g3 = standardised fifth cumulant; Cornish & Fisher 1937, Abramowitz & Stegun 26.2.51), must be
# at most _CF_TOLERANCE standard deviations, half the Monte Carlo error of a 2.5% quantile from
# 4000 draws (about 0.04 sd); the cumulants must stay in the expansion's asymptotic range
# (_CF_MAX_SHAPE) and the polynomial must be increasing well beyond the interval's quantile, so
# draws keep their order. For sums over N groups g1 ~ N^-0.5, g2 ~ N^-1, g3 ~ N^-1.5: this holds
# from a few dozen groups for k <= 10. Measured against brute-force per-group draws (400k draws)
# the systematic error of the interval bounds stayed <= 0.04 sd at 99% and <= 0.015 sd at 95%.
_CF_TOLERANCE = 0.02
_CF_MAX_SHAPE = 0.75

# Elements per temporary array in chunked loops: keeps memory bounded (2 MB of float64) whatever
# the number of groups, k or draws.
_CHUNK = 1 << 18

# Distinct tags keep the random streams of the different uses independent under the same seed.
_TAG_BOOTSTRAP = 1
_TAG_EXACT = 2
_TAG_NORMAL = 3

# Interpretation thresholds (seed 001).
RELIABLE_PASS_AT = 0.95
RELIABLE_PASS_POW = 0.70
INCONSISTENT_PASS_POW = 0.50
NEEDS_IMPROVEMENT_PASS_AT = 0.70

_K_FIX = "give a whole number k >= 1, e.g. 3"


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def check_k(k: object, place: str = "k") -> int:
    """Validate k: a genuine whole number >= 1 (``True``, ``2.5``, ``3.0`` and ``"3"`` are rejected).

    Args:
        k: The candidate value.
        place: Name of the setting or argument, used in the error message.

    Returns:
        k as a Python ``int``.

    Raises:
        SettingsError: k is not an integer, is a bool, or is < 1.
    """
    # bool is an int subclass: True would silently mean k = 1.
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise SettingsError(place, "must be a whole number >= 1", k, _K_FIX)
    if int(k) < 1:
        raise SettingsError(place, "must be a whole number >= 1", k, _K_FIX)
    return int(k)


def _check_ks(ks: int | Sequence[int] | ArrayLike, place: str = "ks") -> IntArray:
    """Validate a list of k values; return them sorted and without duplicates."""
    items = [ks] if isinstance(ks, (int, np.integer)) else list(np.asarray(ks, dtype=object).ravel())
    if not items:
        raise SettingsError(place, "must hold at least one k", ks, "give k values such as 1..10")
    values = sorted({check_k(k, f"{place}[{i}]") for i, k in enumerate(items)})
    return np.asarray(values, dtype=np.int64)


def _check_count(value: object, place: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise SettingsError(
            place, "must be a whole number >= 0", value, "pass counts of attempts as integers"
        )
    if int(value) < 0:
        raise SettingsError(
            place, "must be a whole number >= 0", value, "pass counts of attempts as integers"
        )
    return int(value)


def _check_counts(n: object, c: object) -> tuple[int, int]:
    n_ = _check_count(n, "n")
    c_ = _check_count(c, "c")
    if c_ > n_:
        raise SettingsError(
            "c", f"must be at most n = {n_} (correct attempts are among the attempts)", c_, "check the counts"
        )
    return n_, c_


def _as_count_array(values: ArrayLike, place: str) -> IntArray:
    arr = np.asarray(values)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise SettingsError(
            place,
            "must be a one-dimensional array of counts",
            f"shape {arr.shape}",
            "pass one count per group",
        )
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype.kind not in "iuf":
        # bools and objects: a True must not silently count as one attempt.
        raise SettingsError(
            place, "must hold whole numbers >= 0", arr.dtype.name, "pass an integer array of counts"
        )
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise SettingsError(
                f"{place}[{i}]", "must be a whole number >= 0", float(arr[i]), "pass integer counts"
            )
    out = arr.astype(np.int64)
    negative = out < 0
    if negative.any():
        i = int(np.flatnonzero(negative)[0])
        raise SettingsError(f"{place}[{i}]", "must be a whole number >= 0", int(out[i]), "pass counts >= 0")
    return out


def _check_count_arrays(n: ArrayLike, c: ArrayLike) -> tuple[IntArray, IntArray]:
    n_arr = _as_count_array(n, "n")
    c_arr = _as_count_array(c, "c")
    if n_arr.shape != c_arr.shape:
        raise SettingsError(
            "c",
            f"must have one count per group, like n ({n_arr.size} groups)",
            f"{c_arr.size} counts",
            "pass arrays of the same length",
        )
    over = c_arr > n_arr
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise SettingsError(
            f"c[{i}]",
            f"must be at most n[{i}] = {int(n_arr[i])}",
            int(c_arr[i]),
            "check the counts of that group",
        )
    return n_arr, c_arr


def _check_estimator(estimator: object) -> Estimator:
    if estimator == "unbiased":
        return "unbiased"
    if estimator == "plug-in":
        return "plug-in"
    raise SettingsError(
        "estimator", "must be 'unbiased' or 'plug-in'", estimator, "choose unbiased or plug-in"
    )


def _check_mode(mode: object) -> Mode:
    if mode == "frequentist":
        return "frequentist"
    if mode == "bayesian":
        return "bayesian"
    raise SettingsError("mode", "must be 'frequentist' or 'bayesian'", mode, "choose frequentist or bayesian")


def _is_real(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _check_level(level: object) -> float:
    if not _is_real(level) or not 0.0 < float(level) < 1.0:  # type: ignore[arg-type]
        raise SettingsError(
            "ci_level", "must be a number strictly between 0 and 1", level, "give a level such as 0.95"
        )
    return float(level)  # type: ignore[arg-type]


def _check_prior(prior: object) -> tuple[float, float]:
    fix = "give two positive numbers: (1, 1) uniform or (0.5, 0.5) Jeffreys"
    if not isinstance(prior, (tuple, list)) or len(prior) != 2:
        raise SettingsError("prior", "must be a pair (a, b)", prior, fix)
    for name, value in zip(("prior_a", "prior_b"), prior, strict=True):
        if not _is_real(value) or not math.isfinite(float(value)) or float(value) <= 0:
            raise SettingsError(name, "must be a finite number > 0", value, fix)
    return float(prior[0]), float(prior[1])


def _check_seed(seed: object) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise SettingsError("seed", "must be a whole number", seed, "give an integer such as 0")
    # SeedSequence needs a non-negative entropy; reducing mod 2**64 keeps every seed usable.
    return int(seed) % (1 << 64)


def _check_n_samples(n_samples: object) -> int:
    if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, (int, np.integer)):
        raise SettingsError("n_samples", "must be a whole number >= 100", n_samples, "give e.g. 4000")
    if int(n_samples) < 100:
        raise SettingsError("n_samples", "must be a whole number >= 100", n_samples, "give e.g. 4000")
    return int(n_samples)


def _check_probability(value: object, place: str) -> float:
    if not _is_real(value) or not 0.0 <= float(value) <= 1.0:  # type: ignore[arg-type]
        raise SettingsError(place, "must be a number in [0, 1]", value, "give a probability such as 0.8")
    return float(value)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Numerical kernels
# --------------------------------------------------------------------------------------------


def _ratio_products(num0: FloatArray, den0: FloatArray, ks: IntArray, step: float) -> FloatArray:
    """``prod_{i<k} (num0 + step*i) / (den0 + step*i)`` for every row and every k in ``ks``.

    With ``step = -1`` these are the unbiased estimator's ratios C(x, k) / C(n, k): a numerator
    reaching 0 makes the product exactly 0 from there on, and a non-positive denominator (i >= n,
    so k > n) gives NaN, which the cumulative product carries to every larger k (undefined).
    With ``step = +1`` they are Beta moments E[p^k] = prod_{i<k} (a+i)/(a+b+i).

    Returns:
        Array of shape ``(len(num0), len(ks))``.
    """
    rows = num0.shape[0]
    out = np.empty((rows, ks.size), dtype=np.float64)
    if rows == 0 or ks.size == 0:
        return out
    kmax = int(ks.max())
    offsets = step * np.arange(kmax, dtype=np.float64)
    cols = ks - 1
    chunk = max(1, _CHUNK // kmax)
    for start in range(0, rows, chunk):
        part = slice(start, start + chunk)
        num = num0[part, None] + offsets
        den = den0[part, None] + offsets
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(den > 0, np.maximum(num, 0.0) / den, np.nan)
        out[part] = np.cumprod(term, axis=1)[:, cols]
    return out


def _estimates(n: IntArray, c: IntArray, ks: IntArray, estimator: Estimator) -> tuple[FloatArray, FloatArray]:
    """Point estimates (pass@k, pass^k), shape ``(groups, len(ks))``, NaN where undefined."""
    nf = n.astype(np.float64)
    cf = c.astype(np.float64)
    if estimator == "unbiased":
        pow_k = _ratio_products(cf, nf, ks, -1.0)
        at_k = 1.0 - _ratio_products(nf - cf, nf, ks, -1.0)
        return at_k, pow_k
    with np.errstate(divide="ignore", invalid="ignore"):
        p = cf / nf  # NaN where n == 0
    return _pass_at_from_p(p[:, None], ks), _pass_pow_from_p(p[:, None], ks)


def _pass_at_from_p(p: FloatArray, k: IntArray | int) -> FloatArray:
    # 1 - (1-p)^k written with expm1/log1p: exact to the last digit for small p too.
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(-np.expm1(k * np.log1p(-p)), dtype=np.float64)


def _pass_pow_from_p(p: FloatArray, k: IntArray | int) -> FloatArray:
    return np.asarray(p**k, dtype=np.float64)


def _z(level: float) -> float:
    return float(_norm_dist.ppf(0.5 + level / 2.0))


def _wilson(n: FloatArray, c: FloatArray, z: float) -> tuple[FloatArray, FloatArray]:
    """Wilson (1927) score interval for p, vectorised; NaN where n == 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        phat = c / n
        z2n = z * z / n
        denom = 1.0 + z2n
        center = (phat + z2n / 2.0) / denom
        half = (z / denom) * np.sqrt(phat * (1.0 - phat) / n + z2n / (4.0 * n))
    # At c = 0 (c = n) the bound is exactly 0 (1); rounding would otherwise give +-1e-17.
    lo = np.where(c == 0, 0.0, np.clip(center - half, 0.0, 1.0))
    hi = np.where(c == n, 1.0, np.clip(center + half, 0.0, 1.0))
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def _posterior_params(n: IntArray, c: IntArray, prior: tuple[float, float]) -> tuple[FloatArray, FloatArray]:
    return prior[0] + c.astype(np.float64), prior[1] + (n - c).astype(np.float64)


def _posterior_means(a: FloatArray, b: FloatArray, ks: IntArray) -> tuple[FloatArray, FloatArray]:
    """Exact E[1-(1-p)^k] and E[p^k] under Beta(a, b), shape ``(groups, len(ks))``."""
    return 1.0 - _ratio_products(b, a + b, ks, 1.0), _ratio_products(a, a + b, ks, 1.0)


def _beta_bounds(a: FloatArray, b: FloatArray, level: float) -> tuple[FloatArray, FloatArray]:
    tail = (1.0 - level) / 2.0
    lo = np.asarray(_beta_dist.ppf(tail, a, b), dtype=np.float64)
    hi = np.asarray(_beta_dist.ppf(1.0 - tail, a, b), dtype=np.float64)
    return lo, hi


@dataclass(frozen=True)
class _Distinct:
    """Distinct (n, c) pairs in sorted order, their multiplicities, and the map back to groups."""

    n: IntArray
    c: IntArray
    m: IntArray
    inverse: IntArray


def _distinct(n: IntArray, c: IntArray) -> _Distinct:
    if n.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return _Distinct(empty, empty, empty, empty)
    width = int(c.max()) + 1
    if int(n.max()) < (1 << 31) and width < (1 << 31):
        # One int64 key per group sorts exactly like (n, c) and is much faster than unique(axis=0).
        key = n * width + c
        uniq, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
        return _Distinct(uniq // width, uniq % width, counts.astype(np.int64), inverse.astype(np.int64))
    pairs = np.stack([n, c], axis=1)
    uniq2, inverse, counts = np.unique(pairs, axis=0, return_inverse=True, return_counts=True)
    return _Distinct(uniq2[:, 0], uniq2[:, 1], counts.astype(np.int64), inverse.reshape(-1).astype(np.int64))


def _content_seed(tag: int, seed: int, *arrays: IntArray) -> np.random.SeedSequence:
    """A SeedSequence from the seed and the *content* of canonical (sorted) arrays.

    Hashing content rather than positions is what makes a number independent of data order.
    """
    digest = hashlib.blake2b(digest_size=16)
    for arr in arrays:
        digest.update(np.ascontiguousarray(arr, dtype=np.int64).tobytes())
        digest.update(b"|")
    return np.random.SeedSequence([tag, seed, int.from_bytes(digest.digest(), "little")])


# --------------------------------------------------------------------------------------------
# Scalar API (seed 003 compatible)
# --------------------------------------------------------------------------------------------


def _require_defined(n: int, k: int, estimator: Estimator, what: str) -> None:
    if n == 0:
        raise UndefinedEstimateError(
            what,
            "is undefined for a group with no attempts (n = 0)",
            fix="collect at least one attempt for this group, or leave the group out",
            show=False,
        )
    if estimator == "unbiased" and k > n:
        raise UndefinedEstimateError(
            what,
            f"with the unbiased estimator needs at least {k} attempts; this group has {n}",
            fix=f"use --estimator plug-in (or Bayesian mode) or a k <= {n}",
            show=False,
        )


def pass_at_k(n: int, c: int, k: int, estimator: Estimator = "unbiased") -> float:
    """Probability that at least one of k attempts is correct, for one group of n attempts, c correct.

    Args:
        n: Number of attempts (>= 1).
        c: Number of correct attempts (0 <= c <= n).
        k: Number of attempts drawn (whole number >= 1; <= n for ``unbiased``).
        estimator: ``unbiased`` = 1 - C(n-c, k)/C(n, k) (Chen et al. 2021), or
            ``plug-in`` = 1 - (1 - c/n)^k (seed 003).

    Returns:
        pass@k in [0, 1].

    Raises:
        SettingsError: invalid k, n, c or estimator.
        UndefinedEstimateError: n == 0, or k > n with the unbiased estimator.
    """
    n_, c_ = _check_counts(n, c)
    k_ = check_k(k)
    est = _check_estimator(estimator)
    _require_defined(n_, k_, est, f"pass@{k_}")
    at_k, _ = _estimates(np.array([n_]), np.array([c_]), np.array([k_]), est)
    return float(at_k[0, 0])


def pass_pow_k(n: int, c: int, k: int, estimator: Estimator = "unbiased") -> float:
    """Probability that all of k attempts are correct, for one group of n attempts, c correct.

    Args:
        n: Number of attempts (>= 1).
        c: Number of correct attempts (0 <= c <= n).
        k: Number of attempts drawn (whole number >= 1; <= n for ``unbiased``).
        estimator: ``unbiased`` = C(c, k)/C(n, k), or ``plug-in`` = (c/n)^k (seed 003).

    Returns:
        pass^k in [0, 1].

    Raises:
        SettingsError: invalid k, n, c or estimator.
        UndefinedEstimateError: n == 0, or k > n with the unbiased estimator.
    """
    n_, c_ = _check_counts(n, c)
    k_ = check_k(k)
    est = _check_estimator(estimator)
    _require_defined(n_, k_, est, f"pass^{k_}")
    _, pow_k = _estimates(np.array([n_]), np.array([c_]), np.array([k_]), est)
    return float(pow_k[0, 0])


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
    n_, c_ = _check_counts(n, c)
    lvl = _check_level(level)
    if n_ == 0:
        raise UndefinedEstimateError(
            "wilson_interval", "is undefined for a group with no attempts (n = 0)", show=False
        )
    lo, hi = _wilson(np.array([float(n_)]), np.array([float(c_)]), _z(lvl))
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
    n_, c_ = _check_counts(n, c)
    k_ = check_k(k)
    pr = _check_prior(prior)
    lvl = _check_level(level)
    if metric not in ("pass@k", "pass^k"):
        raise SettingsError("metric", "must be 'pass@k' or 'pass^k'", metric, "choose pass@k or pass^k")
    _require_defined(n_, k_, "plug-in", f"{metric.replace('k', str(k_))} (Bayesian)")
    a, b = _posterior_params(np.array([n_]), np.array([c_]), pr)
    mean_at, mean_pow = _posterior_means(a, b, np.array([k_]))
    lo_p, hi_p = _beta_bounds(a, b, lvl)
    if metric == "pass@k":
        return Estimate(
            float(mean_at[0, 0]), float(_pass_at_from_p(lo_p, k_)[0]), float(_pass_at_from_p(hi_p, k_)[0])
        )
    return Estimate(
        float(mean_pow[0, 0]), float(_pass_pow_from_p(lo_p, k_)[0]), float(_pass_pow_from_p(hi_p, k_)[0])
    )


# --------------------------------------------------------------------------------------------
# Vectorised per-group API
# --------------------------------------------------------------------------------------------


def _per_group(n: ArrayLike, c: ArrayLike, k: int, estimator: Estimator) -> tuple[FloatArray, FloatArray]:
    n_arr, c_arr = _check_count_arrays(n, c)
    k_ = check_k(k)
    est = _check_estimator(estimator)
    dist = _distinct(n_arr, c_arr)
    at_k, pow_k = _estimates(dist.n, dist.c, np.array([k_]), est)
    return at_k[dist.inverse, 0], pow_k[dist.inverse, 0]


def pass_at_k_array(
    n: ArrayLike, c: ArrayLike, k: int, estimator: Estimator = "unbiased"
) -> tuple[FloatArray, BoolArray]:
    """Vectorised :func:`pass_at_k` over groups (computed once per distinct (n, c) pair).

    Args:
        n: Attempts per group (integer array).
        c: Correct attempts per group (integer array, same length).
        k: Whole number >= 1.
        estimator: ``unbiased`` or ``plug-in``.

    Returns:
        ``(values, defined)``: values are NaN where undefined (n == 0, or n < k for ``unbiased``).

    Raises:
        SettingsError: invalid arrays, k or estimator.
    """
    values, _ = _per_group(n, c, k, estimator)
    return values, ~np.isnan(values)


def pass_pow_k_array(
    n: ArrayLike, c: ArrayLike, k: int, estimator: Estimator = "unbiased"
) -> tuple[FloatArray, BoolArray]:
    """Vectorised :func:`pass_pow_k` over groups (computed once per distinct (n, c) pair).

    Args:
        n: Attempts per group (integer array).
        c: Correct attempts per group (integer array, same length).
        k: Whole number >= 1.
        estimator: ``unbiased`` or ``plug-in``.

    Returns:
        ``(values, defined)``: values are NaN where undefined (n == 0, or n < k for ``unbiased``).

    Raises:
        SettingsError: invalid arrays, k or estimator.
    """
    _, values = _per_group(n, c, k, estimator)
    return values, ~np.isnan(values)


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

    n_arr, c_arr = _check_count_arrays(n, c)
    k_ = check_k(k)
    md = _check_mode(mode)
    est = _check_estimator(estimator)
    pr = _check_prior(prior)
    lvl = _check_level(level)
    dist = _distinct(n_arr, c_arr)
    ks = np.array([k_])
    nf = dist.n.astype(np.float64)
    cf = dist.c.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = cf / nf
    if md == "frequentist":
        at_k, pow_k = (col[:, 0] for col in _estimates(dist.n, dist.c, ks, est))
        mean_p = rate
        lo_p, hi_p = _wilson(nf, cf, _z(lvl))
    else:
        a, b = _posterior_params(dist.n, dist.c, pr)
        at_k, pow_k = (col[:, 0] for col in _posterior_means(a, b, ks))
        mean_p = a / (a + b)
        lo_p, hi_p = _beta_bounds(a, b, lvl)
        # n == 0: the posterior would be the prior alone. Undefined, never a number.
        pow_k = np.where(dist.n == 0, np.nan, pow_k)
    defined = ~np.isnan(pow_k)

    def keep(x: FloatArray) -> FloatArray:
        return np.where(defined, x, np.nan)[dist.inverse]

    frame = pd.DataFrame(
        {
            "n": n_arr,
            "c": c_arr,
            "observed_success_rate": keep(rate),
            "success_rate": keep(mean_p),
            "success_rate_ci_low": keep(lo_p),
            "success_rate_ci_high": keep(hi_p),
            "pass_at_k": keep(at_k),
            "pass_at_k_ci_low": keep(_pass_at_from_p(lo_p, k_)),
            "pass_at_k_ci_high": keep(_pass_at_from_p(hi_p, k_)),
            "pass_pow_k": keep(pow_k),
            "pass_pow_k_ci_low": keep(_pass_pow_from_p(lo_p, k_)),
            "pass_pow_k_ci_high": keep(_pass_pow_from_p(hi_p, k_)),
            "defined": defined[dist.inverse],
        }
    )
    frame.attrs.update(k=k_, mode=md, estimator=est, level=lvl)
    return frame


def success_rate_interval(
    n: int,
    c: int,
    *,
    mode: Mode,
    prior: tuple[float, float] = (1.0, 1.0),
    level: float = 0.95,
) -> tuple[float | None, float | None, float | None]:
    """Observed success rate c/n of one pool of attempts, with the mode's interval for p.

    Frequentist: Wilson interval. Bayesian: equal-tailed Beta(a + c, b + n - c) credible interval,
    which does not contain c/n when c = 0 or c = n (the posterior puts no mass on exactly 0 or 1).

    Args:
        n: Attempts (e.g. scored conversations).
        c: Correct attempts.
        mode: ``frequentist`` or ``bayesian``.
        prior: Beta prior (a, b) (Bayesian mode only).
        level: Interval level in (0, 1).

    Returns:
        ``(rate, low, high)``; all ``None`` when n == 0 (undefined, never 0).

    Raises:
        SettingsError: invalid arguments.
    """
    n_, c_ = _check_counts(n, c)
    md = _check_mode(mode)
    pr = _check_prior(prior)
    lvl = _check_level(level)
    if n_ == 0:
        return None, None, None
    if md == "frequentist":
        lo, hi = _wilson(np.array([float(n_)]), np.array([float(c_)]), _z(lvl))
    else:
        a, b = _posterior_params(np.array([n_]), np.array([c_]), pr)
        lo, hi = _beta_bounds(a, b, lvl)
    return c_ / n_, float(lo[0]), float(hi[0])


# --------------------------------------------------------------------------------------------
# Resampling kernels (bootstrap, Monte Carlo)
# --------------------------------------------------------------------------------------------


def _multinomial_counts(rng: np.random.Generator, m: IntArray, draws: int) -> FloatArray:
    """``draws`` rows of Multinomial(sum(m), m / sum(m)) counts, shape ``(draws, len(m))``.

    Sequential conditional binomials vectorised over the rows: the same law as
    ``rng.multinomial`` but about twice as fast here, and the probabilities are exact integer
    ratios m_d / sum_{j>=d} m_j (no accumulated rounding).
    """
    out = np.empty((draws, m.size), dtype=np.float64)
    remaining = np.full(draws, int(m.sum()), dtype=np.int64)
    tail = np.cumsum(m[::-1])[::-1]
    for d in range(m.size - 1):
        got = rng.binomial(remaining, m[d] / tail[d])
        out[:, d] = got
        remaining -= got
    out[:, -1] = remaining
    return out


def _bootstrap_means(dist: _Distinct, values: FloatArray, seed: int, draws: int) -> FloatArray:
    """Bootstrap replicates of the mean over groups of each column of ``values`` (NaN = excluded).

    Resampling groups with replacement is the same as drawing multinomial counts over the distinct
    (n, c) pairs (groups sharing a pair share every value). Each replicate resamples the whole
    dataset and recomputes the statistic, exclusions included ("bootstrap the pipeline"): when no
    group is excluded this is the textbook bootstrap; otherwise the number of included groups varies
    between replicates as it would between datasets. A replicate with no included group is NaN.
    """
    rng = np.random.default_rng(_content_seed(_TAG_BOOTSTRAP, seed, dist.n, dist.c, dist.m))
    counts = _multinomial_counts(rng, dist.m, draws)
    included = ~np.isnan(values)
    sums = counts @ np.where(included, values, 0.0)
    sizes = counts @ included.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(sums / sizes, dtype=np.float64)


@dataclass(frozen=True)
class _Cumulants:
    """Exact cumulants of f = x^k (x = p or 1-p, x ~ Beta) per distinct pair (rows) and k (columns)."""

    mean: FloatArray
    var: FloatArray
    k3: FloatArray
    k4: FloatArray
    k5: FloatArray

    def rows(self, mask: BoolArray) -> _Cumulants:
        """The cumulants of the selected distinct pairs only."""
        return _Cumulants(self.mean[mask], self.var[mask], self.k3[mask], self.k4[mask], self.k5[mask])

    def summed(self, w: FloatArray) -> _Cumulants:
        """Cumulants of a sum of independent terms, ``w[d]`` of them following row d (cumulants add)."""
        return _Cumulants(w @ self.mean, w @ self.var, w @ self.k3, w @ self.k4, w @ self.k5)

    def shape(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Skewness, excess kurtosis and standardised fifth cumulant (all 0 for a constant)."""
        ok = self.var > 1e-300
        sd = np.sqrt(np.where(ok, self.var, 1.0))
        return (
            np.where(ok, self.k3 / sd**3, 0.0),
            np.where(ok, self.k4 / sd**4, 0.0),
            np.where(ok, self.k5 / sd**5, 0.0),
        )


def _power_cumulants(a: FloatArray, b: FloatArray, ks: IntArray) -> _Cumulants:
    """Exact first five cumulants of x^k for x ~ Beta(a, b), from the raw moments E[x^(j k)]."""
    orders = np.unique(np.concatenate([j * ks for j in range(1, 6)]))
    raw = _ratio_products(a, a + b, orders, 1.0)
    m1, m2, m3, m4, m5 = (raw[:, np.searchsorted(orders, j * ks)] for j in range(1, 6))
    var = np.maximum(m2 - m1 * m1, 0.0)
    mu3 = m3 - 3.0 * m1 * m2 + 2.0 * m1**3
    mu4 = m4 - 4.0 * m1 * m3 + 6.0 * m1**2 * m2 - 3.0 * m1**4
    mu5 = m5 - 5.0 * m1 * m4 + 10.0 * m1**2 * m3 - 10.0 * m1**3 * m2 + 4.0 * m1**5
    return _Cumulants(mean=m1, var=var, k3=mu3, k4=mu4 - 3.0 * var * var, k5=mu5 - 10.0 * mu3 * var)


def _cf_range(skew: FloatArray, kurt: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The interval around z = 0 on which the Cornish-Fisher polynomial is increasing.

    Its slope is the quadratic qa*t^2 + qb*t + qc with qc > 0 (for |kurt| < 8), so the interval
    runs from the largest negative root to the smallest positive one (infinite when none).
    """
    qa = kurt / 8.0 - skew * skew / 6.0
    qb = skew / 3.0
    qc = 1.0 - kurt / 8.0 + 5.0 * skew * skew / 36.0
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = qb * qb - 4.0 * qa * qc
        root = np.sqrt(np.maximum(disc, 0.0))
        quadratic = np.abs(qa) > 1e-12
        linear_root = np.where(qb != 0.0, -qc / qb, np.inf)
        r1 = np.where(quadratic, (-qb - root) / (2.0 * qa), linear_root)
        r2 = np.where(quadratic, (-qb + root) / (2.0 * qa), np.inf)
        real = ~quadratic | (disc >= 0.0)
        roots = np.where(real, np.stack([r1, r2]), np.nan)
        high = np.min(np.where(roots > 0.0, roots, np.inf), axis=0)
        low = np.max(np.where(roots < 0.0, roots, -np.inf), axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def _near_normal(skew: FloatArray, kurt: FloatArray, gamma3: FloatArray, z: float) -> BoolArray:
    """Whether :func:`_cornish_fisher` draws a law with these standardised cumulants accurately.

    Accurate means: the omitted third-order term at quantile z is within ``_CF_TOLERANCE``,
    every cumulant is within ``_CF_MAX_SHAPE``, and the polynomial is increasing well beyond z
    (on |t| <= max(3, z + 0.5)), so draws keep their order where the interval is read.
    """
    z2 = z * z
    z4 = z2 * z2
    third = (
        gamma3 * (z4 - 6.0 * z2 + 3.0) / 120.0
        - skew * kurt * (z4 - 5.0 * z2 + 2.0) / 24.0
        + skew**3 * (12.0 * z4 - 53.0 * z2 + 17.0) / 324.0
    )
    small = (
        (np.abs(skew) <= _CF_MAX_SHAPE) & (np.abs(kurt) <= _CF_MAX_SHAPE) & (np.abs(gamma3) <= _CF_MAX_SHAPE)
    )
    low, high = _cf_range(skew, kurt)
    reach = max(3.0, z + 0.5)
    return np.asarray(
        small & (np.abs(third) <= _CF_TOLERANCE) & (low <= -reach) & (high >= reach), dtype=bool
    )


def _moment_matched_rows(m: FloatArray, cums: Sequence[_Cumulants], z: float) -> BoolArray:
    """Which distinct pairs can be drawn from moments rather than exact Beta draws.

    The pairs with the largest third to fifth cumulants per unit of variance are drawn exactly,
    as few as possible; the rest, pooled, must pass :func:`_near_normal`. Ties keep the canonical
    (n, c) order, so the choice never depends on data order.
    """
    rows = m.size
    score = np.zeros(rows)
    for cum in cums:
        total = cum.summed(m)
        sd = np.sqrt(np.where(total.var > 1e-300, total.var, 1.0))
        var = np.where(cum.var > 1e-300, cum.var, np.inf)
        for power, kappa in ((3, cum.k3), (4, cum.k4), (5, cum.k5)):
            # Higher cumulant per unit of variance: removing such a pair lowers the pool's
            # standardised cumulant most for the variance it takes away.
            score = np.maximum(score, (np.abs(kappa) / var / sd ** (power - 2)).max(axis=1))
    order = np.argsort(-score, kind="stable")
    # ok[j]: the pairs order[j:] (all but the j largest contributors) pooled are close to normal.
    ok = np.ones(rows + 1, dtype=bool)
    for cum in cums:
        parts = [m[order, None] * x[order] for x in (cum.var, cum.k3, cum.k4, cum.k5)]
        # Sums over order[j:] for j = 0..rows (the last, empty, pool is a constant: fine).
        tails = [np.concatenate([np.cumsum(x[::-1], axis=0)[::-1], np.zeros((1, x.shape[1]))]) for x in parts]
        pooled = _Cumulants(np.zeros_like(tails[0]), *tails)
        ok &= _near_normal(*pooled.shape(), z).all(axis=1)
    first = int(np.argmax(ok))
    approx = np.zeros(rows, dtype=bool)
    approx[order[first:]] = True
    return approx


def _cornish_fisher(z: FloatArray, skew: FloatArray, kurt: FloatArray) -> FloatArray:
    """Standardised draws with the given skewness and excess kurtosis (second-order Cornish-Fisher).

    Args:
        z: Standard normal draws, shape ``(draws,)``.
        skew: Skewness per quantity, shape ``(q,)``.
        kurt: Excess kurtosis per quantity, shape ``(q,)``.

    Returns:
        Shape ``(q, draws)``. z is clamped to the range where the polynomial increases (beyond
        |z| = 3 at least, see :func:`_near_normal`), so the map keeps the order of the draws.
    """
    low, high = _cf_range(skew, kurt)
    t = np.clip(z[None, :], low[:, None], high[:, None])
    g1 = skew[:, None]
    g2 = kurt[:, None]
    t2 = t * t
    return np.asarray(
        t + g1 / 6.0 * (t2 - 1.0) + g2 / 24.0 * t * (t2 - 3.0) - g1 * g1 / 36.0 * t * (2.0 * t2 - 5.0),
        dtype=np.float64,
    )


def _accumulate_powers(x: FloatArray, ks: IntArray, out: FloatArray) -> None:
    """``out[j] += x**ks[j]`` summed over the rows of x (one row per group, one column per draw).

    Successive multiplications: one set of draws serves every k.
    """
    power = np.ones_like(x)
    previous = 0
    for j, k in enumerate(ks.tolist()):
        step = k - previous
        power *= x if step == 1 else x**step
        out[j] += power.sum(axis=0)
        previous = k


@dataclass(frozen=True)
class PosteriorSamples:
    """Posterior draws of dataset-level quantities (the mean over groups), for histograms.

    Attributes:
        ks: The k values, sorted (columns of ``pass_at_k`` / ``pass_pow_k``).
        p: Draws of the mean success probability, shape ``(n_samples,)``.
        pass_at_k: Draws of the mean pass@k, shape ``(n_samples, len(ks))``.
        pass_pow_k: Draws of the mean pass^k, shape ``(n_samples, len(ks))``.
        n_groups: Groups included (n >= 1).
        exact_groups: Groups whose p was drawn exactly from its Beta posterior (the others are
            summed through their exact cumulants).
        method: ``monte-carlo`` or ``cornish-fisher`` (see :data:`IntervalMethod`).
    """

    ks: tuple[int, ...]
    p: FloatArray
    pass_at_k: FloatArray
    pass_pow_k: FloatArray
    n_groups: int
    exact_groups: int
    method: IntervalMethod


def _posterior_draws(
    dist: _Distinct, ks: IntArray, prior: tuple[float, float], seed: int, draws: int, level: float
) -> PosteriorSamples:
    """Seeded, order-independent Monte Carlo of the posterior of the mean over groups.

    The groups are independent a posteriori, so the dataset total of f(p) is a sum over distinct
    (n, c) pairs of the sum of their m iid f(p) terms, and its cumulants are exact sums of Beta
    moments.

    - At most EXACT_DRAWS_MAX_M groups: exact Beta draws for every group (``monte-carlo``).
    - More: the pooled sum of the pairs is drawn from its exact cumulants with the Cornish-Fisher
      correction when that is accurate at this level (see ``_CF_TOLERANCE``): no Beta draw and a
      cost that does not grow with the number of groups (``cornish-fisher``). When it is not, the
      pairs with the largest higher cumulants per unit of variance are taken out of the pool, as
      few as needed, and get exact Beta draws (``monte-carlo``).

    Exact draws of a pair come from a generator seeded by (seed, n, c, m); the pool's normal draws
    from a seed hashed from the pool's sorted (n, c, m) content; so no number depends on data order.

    p is drawn once per group and every k is evaluated on the same draws. Moment-matched parts use
    one standard normal per draw for every k (z for p^k, -z for (1-p)^k, which falls as p rises): a
    comonotone coupling like a single p; each k's marginal law, all that an interval or a histogram
    uses, is right.
    """
    a, b = _posterior_params(dist.n, dist.c, prior)
    ks_all = np.union1d(ks, np.array([1], dtype=np.int64))  # k = 1 gives the success rate
    m = dist.m.astype(np.float64)
    total = float(m.sum())
    cum_p = _power_cumulants(a, b, ks_all)  # f = p^k
    cum_q = _power_cumulants(b, a, ks_all)  # f = (1-p)^k, since 1-p ~ Beta(b, a)
    # Few groups: exact draws for all (cheap: at most EXACT_DRAWS_MAX_M * draws Beta draws).
    # Many: moments for all but the pairs that make the total visibly non-normal.
    if total <= EXACT_DRAWS_MAX_M:
        approx = np.zeros(dist.m.size, dtype=bool)
    else:
        approx = _moment_matched_rows(m, (cum_p, cum_q), _z(level))
    method: IntervalMethod = "cornish-fisher" if approx.all() else "monte-carlo"
    # Sums over groups, one row per k, one column per draw (rows stay contiguous for the adds).
    sum_p = np.zeros((ks_all.size, draws))
    sum_q = np.zeros((ks_all.size, draws))
    if approx.any():
        rng = np.random.default_rng(
            _content_seed(_TAG_NORMAL, seed, dist.n[approx], dist.c[approx], dist.m[approx])
        )
        z = rng.standard_normal(draws)
        for cum, sign, out in ((cum_p, 1.0, sum_p), (cum_q, -1.0, sum_q)):
            part = cum.rows(approx).summed(m[approx])
            skew, kurt, _ = part.shape()
            out += part.mean[:, None] + np.sqrt(part.var)[:, None] * _cornish_fisher(sign * z, skew, kurt)
    _add_exact_draws(dist, a, b, np.flatnonzero(~approx), ks_all, seed, sum_p, sum_q)
    cols = np.searchsorted(ks_all, ks)
    mean_pow = np.clip(sum_p / total, 0.0, 1.0)
    mean_at = np.clip(1.0 - sum_q / total, 0.0, 1.0)
    return PosteriorSamples(
        ks=tuple(int(k) for k in ks),
        p=mean_pow[0].copy(),
        pass_at_k=np.ascontiguousarray(mean_at[cols].T),
        pass_pow_k=np.ascontiguousarray(mean_pow[cols].T),
        n_groups=int(total),
        exact_groups=int(dist.m[~approx].sum()),
        method=method,
    )


def _add_exact_draws(
    dist: _Distinct,
    a: FloatArray,
    b: FloatArray,
    rows: IntArray,
    ks: IntArray,
    seed: int,
    sum_p: FloatArray,
    sum_q: FloatArray,
) -> None:
    """Add exact Beta draws of sum_groups p^k and (1-p)^k for the distinct pairs ``rows``.

    Each pair's generator is seeded by (seed, n, c, m) and always fills the same (member, draw)
    layout, so its draws never depend on the other groups. Draws of all pairs share one buffer, so
    the powers are computed in a few large vectorised passes rather than once per pair.
    """
    draws = sum_p.shape[1]
    width = max(1, _CHUNK // draws)
    buffer = np.empty((width, draws))
    fill = 0

    def flush() -> None:
        block = buffer[:fill]
        _accumulate_powers(block, ks, sum_p)
        _accumulate_powers(1.0 - block, ks, sum_q)

    for d in rows.tolist():
        n_d, c_d, m_d = int(dist.n[d]), int(dist.c[d]), int(dist.m[d])
        rng = np.random.default_rng(np.random.SeedSequence([_TAG_EXACT, seed, n_d, c_d, m_d]))
        left = m_d
        while left:
            take = min(width - fill, left)
            # Member-major draws: splitting a pair across buffer flushes consumes its stream identically.
            buffer[fill : fill + take] = rng.beta(a[d], b[d], size=(take, draws))
            fill += take
            left -= take
            if fill == width:
                flush()
                fill = 0
    if fill:
        flush()


def posterior_samples(
    n: ArrayLike,
    c: ArrayLike,
    ks: int | Sequence[int],
    *,
    prior: tuple[float, float] = (1.0, 1.0),
    seed: int = 0,
    n_samples: int = 4000,
    level: float = 0.95,
) -> PosteriorSamples:
    """Posterior draws of the dataset-level p, pass@k and pass^k (mean over groups), for histograms.

    One group: exact Beta draws of p, transformed. Several: the same seeded, order-independent
    Monte Carlo as :func:`dataset_curve`'s intervals. Groups with n == 0 are left out.

    Args:
        n: Attempts per group.
        c: Correct attempts per group.
        ks: One k or several.
        prior: Beta prior (a, b).
        seed: Any integer; same seed, same draws, whatever the order of the groups.
        n_samples: Number of draws (>= 100).
        level: The credible level the draws will be summarised at (the moment-based shortcut for
            many groups is checked for accuracy at this level).

    Raises:
        SettingsError: invalid arguments.
        UndefinedEstimateError: no group has an attempt.
    """
    n_arr, c_arr = _check_count_arrays(n, c)
    k_arr = _check_ks(ks)
    pr = _check_prior(prior)
    lvl = _check_level(level)
    sd = _check_seed(seed)
    draws = _check_n_samples(n_samples)
    keep = n_arr > 0
    if not keep.any():
        raise UndefinedEstimateError(
            "posterior_samples",
            "needs at least one group with an attempt (n >= 1)",
            f"{n_arr.size} groups, none with attempts",
            "load data with at least one scored attempt",
        )
    return _posterior_draws(_distinct(n_arr[keep], c_arr[keep]), k_arr, pr, sd, draws, lvl)


def prob_pass_pow_exceeds(
    n: ArrayLike,
    c: ArrayLike,
    k: int,
    target: float,
    a: float = 1.0,
    b: float = 1.0,
    *,
    seed: int = 0,
    n_samples: int = 4000,
) -> float:
    """Posterior probability that pass^k exceeds ``target``.

    One group: exact, P(p^k > t) = P(p > t^(1/k)) = Beta(a+c, b+n-c).sf(t^(1/k)). Several groups:
    the fraction of :func:`posterior_samples` draws of the mean pass^k above the target.

    Args:
        n: Attempts (one int, or one per group).
        c: Correct attempts (same shape as n).
        k: Whole number >= 1.
        target: Threshold in [0, 1].
        a: Prior alpha.
        b: Prior beta.
        seed: Monte Carlo seed (several groups only).
        n_samples: Monte Carlo draws (several groups only).

    Raises:
        SettingsError: invalid arguments.
        UndefinedEstimateError: no group has an attempt.
    """
    n_arr, c_arr = _check_count_arrays(n, c)
    k_ = check_k(k)
    t = _check_probability(target, "target")
    pr = _check_prior((a, b))
    keep = n_arr > 0
    if int(keep.sum()) == 1:
        alpha, beta = _posterior_params(n_arr[keep], c_arr[keep], pr)
        return float(_beta_dist.sf(t ** (1.0 / k_), alpha[0], beta[0]))
    samples = posterior_samples(n_arr, c_arr, k_, prior=pr, seed=seed, n_samples=n_samples)
    return float(np.mean(samples.pass_pow_k[:, 0] > t))


# --------------------------------------------------------------------------------------------
# Dataset level
# --------------------------------------------------------------------------------------------


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
    n_arr, c_arr = _check_count_arrays(n, c)
    k_arr = _check_ks(ks)
    md = _check_mode(mode)
    est = _check_estimator(estimator)
    pr = _check_prior(prior)
    lvl = _check_level(level)
    sd = _check_seed(seed)
    draws = _check_n_samples(n_samples)
    n_zero = int(np.count_nonzero(n_arr == 0))
    keep = n_arr > 0
    dist = _distinct(n_arr[keep], c_arr[keep])
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
    dist: _Distinct, ks: IntArray, n_zero: int, estimator: Estimator, level: float, seed: int, draws: int
) -> list[CurvePoint]:
    m = dist.m.astype(np.float64)
    n_pos = int(dist.m.sum())
    max_n = int(dist.n.max()) if dist.n.size else 0
    at_k, pow_k = _estimates(dist.n, dist.c, ks, estimator)
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
        reps = _bootstrap_means(dist, np.concatenate([at_k, pow_k, rate], axis=1), seed, draws)
        if np.isnan(reps).any():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column becomes a None interval
                bounds = np.asarray(np.nanquantile(reps, [tail, 1.0 - tail], axis=0), dtype=np.float64)
        else:
            bounds = np.asarray(np.quantile(reps, [tail, 1.0 - tail], axis=0), dtype=np.float64)
    z = _z(level)
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
            lo_p, hi_p = _wilson(np.array([float(dist.n[d])]), np.array([float(dist.c[d])]), z)
            at_ci = _pair(_pass_at_from_p(lo_p, k)[0], _pass_at_from_p(hi_p, k)[0])
            pow_ci = _pair(_pass_pow_from_p(lo_p, k)[0], _pass_pow_from_p(hi_p, k)[0])
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
    dist: _Distinct,
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
    a, b = _posterior_params(dist.n, dist.c, prior)
    mean_at, mean_pow = _posterior_means(a, b, ks)
    point_at = (m @ mean_at) / size
    point_pow = (m @ mean_pow) / size
    point_rate = float(m @ (dist.c / dist.n)) / size
    point_mean_p = float(m @ (a / (a + b))) / size
    tail = (1.0 - level) / 2.0
    method: IntervalMethod
    if size == 1:
        lo_p, hi_p = _beta_bounds(a, b, level)
        at_lo, at_hi = _pass_at_from_p(lo_p[0], ks), _pass_at_from_p(hi_p[0], ks)
        pow_lo, pow_hi = _pass_pow_from_p(lo_p[0], ks), _pass_pow_from_p(hi_p[0], ks)
        rate_ci = _pair(lo_p[0], hi_p[0])
        method = "beta-quantiles"
    else:
        samples = _posterior_draws(dist, ks, prior, seed, draws, level)
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


# --------------------------------------------------------------------------------------------
# Interpretation (seed 001)
# --------------------------------------------------------------------------------------------


def interpret(pass_at_k: float, pass_pow_k: float) -> Label:
    """Label an agent from its dataset-level pass@K and pass^K (seed 001's table).

    - ``reliable``: pass@K > 0.95 and pass^K > 0.70
    - ``inconsistent``: pass@K > 0.95 and pass^K < 0.50
    - ``needs_improvement``: pass@K < 0.70
    - ``functional``: otherwise (pass@K in [0.70, 0.95], or pass@K > 0.95 with pass^K in [0.50, 0.70])

    Raises:
        SettingsError: a value outside [0, 1] or not a number.
    """
    at = _check_probability(pass_at_k, "pass_at_k")
    pw = _check_probability(pass_pow_k, "pass_pow_k")
    if at > RELIABLE_PASS_AT and pw > RELIABLE_PASS_POW:
        return "reliable"
    if at > RELIABLE_PASS_AT and pw < INCONSISTENT_PASS_POW:
        return "inconsistent"
    if at < NEEDS_IMPROVEMENT_PASS_AT:
        return "needs_improvement"
    return "functional"


def _fmt(x: float) -> str:
    # Three decimals, more when rounding would print a value equal to the threshold it is compared with.
    text = f"{x:.3f}"
    thresholds = (RELIABLE_PASS_AT, RELIABLE_PASS_POW, INCONSISTENT_PASS_POW, NEEDS_IMPROVEMENT_PASS_AT)
    if any(abs(float(text) - t) < 1e-12 for t in thresholds) and x not in thresholds:
        text = f"{x:.6f}"
    return text


_LABEL_TEXT: dict[str, str] = {
    "reliable": "Reliable: pass@K > 0.95 and pass^K > 0.70, so it succeeds and does so consistently.",
    "inconsistent": "Inconsistent: pass@K > 0.95 but pass^K < 0.50, so it can succeed but is unreliable.",
    "functional": "Functional: it works but could improve (pass@K between 0.70 and 0.95, or pass^K "
    "between 0.50 and 0.70).",
    "needs_improvement": "Needs improvement: pass@K < 0.70, so even with K attempts it often fails.",
}


def explain(
    label: str, pass_at_k: float | None = None, pass_pow_k: float | None = None, k: int | None = None
) -> str:
    """One-line human explanation of an :func:`interpret` label.

    With only the label, a general sentence with the thresholds; with the numbers and k, a sentence
    quoting them (and the label must be the one they give).

    Raises:
        SettingsError: unknown label, invalid numbers or k, or numbers that give another label.
    """
    if label not in _LABEL_TEXT:
        raise SettingsError(
            "label", f"must be one of {', '.join(_LABEL_TEXT)}", label, "pass the result of interpret()"
        )
    if pass_at_k is None or pass_pow_k is None or k is None:
        return _LABEL_TEXT[label]
    k_ = check_k(k)
    if interpret(pass_at_k, pass_pow_k) != label:
        raise SettingsError(
            "label",
            f"must match the numbers, which give {interpret(pass_at_k, pass_pow_k)!r}",
            label,
            "pass interpret(pass_at_k, pass_pow_k)",
        )
    at, pw = f"pass@{k_} = {_fmt(pass_at_k)}", f"pass^{k_} = {_fmt(pass_pow_k)}"
    if label == "reliable":
        return f"Reliable: {at} > 0.95 and {pw} > 0.70, so it succeeds and does so consistently."
    if label == "inconsistent":
        return (
            f"Inconsistent: {at} > 0.95 but {pw} < 0.50, so it can succeed "
            f"but rarely gets all {k_} attempts right."
        )
    if label == "needs_improvement":
        return f"Needs improvement: {at} < 0.70, so even with {k_} attempts it often fails."
    if pass_at_k > RELIABLE_PASS_AT:
        return (
            f"Functional: {at} > 0.95 with {pw} between 0.50 and 0.70, so it succeeds "
            "but is only moderately consistent."
        )
    return f"Functional: {at} is between 0.70 and 0.95, so it works but could improve."
