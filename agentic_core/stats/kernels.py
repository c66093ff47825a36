"""Numerical kernels shared by the estimators, intervals and posteriors (vectorised, no validation).

Callers validate their inputs; these functions trust them. Products of ratios replace huge
binomial coefficients and Beta moments alike (see :func:`ratio_products`).
"""

from __future__ import annotations

import numpy as np

# scipy.special, not scipy.stats: the same functions (Boost's), and 0.5 s less to import when the
# dashboard starts.
from scipy.special import betaincinv, ndtri

from agentic_core.settings import Estimator
from agentic_core.stats.counts import CHUNK, FloatArray, IntArray


def ratio_products(num0: FloatArray, den0: FloatArray, ks: IntArray, step: float) -> FloatArray:
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
    chunk = max(1, CHUNK // kmax)
    for start in range(0, rows, chunk):
        part = slice(start, start + chunk)
        num = num0[part, None] + offsets
        den = den0[part, None] + offsets
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(den > 0, np.maximum(num, 0.0) / den, np.nan)
        out[part] = np.cumprod(term, axis=1)[:, cols]
    return out


def estimates(n: IntArray, c: IntArray, ks: IntArray, estimator: Estimator) -> tuple[FloatArray, FloatArray]:
    """Point estimates (pass@k, pass^k), shape ``(groups, len(ks))``, NaN where undefined."""
    nf = n.astype(np.float64)
    cf = c.astype(np.float64)
    if estimator == "unbiased":
        pow_k = ratio_products(cf, nf, ks, -1.0)
        at_k = 1.0 - ratio_products(nf - cf, nf, ks, -1.0)
        return at_k, pow_k
    with np.errstate(divide="ignore", invalid="ignore"):
        p = cf / nf  # NaN where n == 0
    return pass_at_from_p(p[:, None], ks), pass_pow_from_p(p[:, None], ks)


def pass_at_from_p(p: FloatArray, k: IntArray | int) -> FloatArray:
    # 1 - (1-p)^k written with expm1/log1p: exact to the last digit for small p too.
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(-np.expm1(k * np.log1p(-p)), dtype=np.float64)


def pass_pow_from_p(p: FloatArray, k: IntArray | int) -> FloatArray:
    return np.asarray(p**k, dtype=np.float64)


def z_of(level: float) -> float:
    return float(ndtri(0.5 + level / 2.0))


def wilson(n: FloatArray, c: FloatArray, z: float) -> tuple[FloatArray, FloatArray]:
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


def posterior_params(n: IntArray, c: IntArray, prior: tuple[float, float]) -> tuple[FloatArray, FloatArray]:
    return prior[0] + c.astype(np.float64), prior[1] + (n - c).astype(np.float64)


def posterior_means(a: FloatArray, b: FloatArray, ks: IntArray) -> tuple[FloatArray, FloatArray]:
    """Exact E[1-(1-p)^k] and E[p^k] under Beta(a, b), shape ``(groups, len(ks))``."""
    return 1.0 - ratio_products(b, a + b, ks, 1.0), ratio_products(a, a + b, ks, 1.0)


def beta_bounds(a: FloatArray, b: FloatArray, level: float) -> tuple[FloatArray, FloatArray]:
    tail = (1.0 - level) / 2.0
    lo = np.asarray(betaincinv(a, b, tail), dtype=np.float64)
    hi = np.asarray(betaincinv(a, b, 1.0 - tail), dtype=np.float64)
    return lo, hi
