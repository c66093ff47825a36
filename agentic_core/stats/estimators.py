"""pass@k and pass^k point estimates per group (docs/statistics.md), scalar and vectorised.

- ``unbiased`` (Chen et al. 2021): pass@k = 1 - C(n-c, k) / C(n, k), pass^k = C(c, k) / C(n, k),
  defined only for k <= n, computed as products of ratios (never huge binomials).
- ``plug-in`` (seed 003): p = c/n, pass@k = 1 - (1-p)^k, pass^k = p^k, any k.

Undefined is never 0 or 1: scalar functions raise :class:`UndefinedEstimateError`; vectorised
functions return NaN with a ``defined`` mask.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from agentic_core.errors import UndefinedEstimateError
from agentic_core.settings import Estimator, check_estimator, check_k
from agentic_core.stats.counts import BoolArray, FloatArray, check_count_arrays, check_counts, distinct_pairs
from agentic_core.stats.kernels import estimates


def require_defined(n: int, k: int, estimator: Estimator, what: str) -> None:
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
            fix=f"use the plug-in estimator (or Bayesian mode), or a k <= {n}",
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
    return _one_group(n, c, k, estimator, "@")[0]


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
    return _one_group(n, c, k, estimator, "^")[1]


def _one_group(n: int, c: int, k: int, estimator: Estimator, sign: str) -> tuple[float, float]:
    """(pass@k, pass^k) of one group, checked; ``sign`` names the metric asked for (``@`` or ``^``) in errors."""
    n_, c_ = check_counts(n, c)
    k_ = check_k(k)
    est = check_estimator(estimator)
    require_defined(n_, k_, est, f"pass{sign}{k_}")
    at_k, pow_k = estimates(np.array([n_]), np.array([c_]), np.array([k_]), est)
    return float(at_k[0, 0]), float(pow_k[0, 0])



def _per_group(n: ArrayLike, c: ArrayLike, k: int, estimator: Estimator) -> tuple[FloatArray, FloatArray]:
    n_arr, c_arr = check_count_arrays(n, c)
    k_ = check_k(k)
    est = check_estimator(estimator)
    dist = distinct_pairs(n_arr, c_arr)
    at_k, pow_k = estimates(dist.n, dist.c, np.array([k_]), est)
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
    """Vectorised :func:`pass_pow_k` over groups: the arguments, result and errors of :func:`pass_at_k_array`."""
    _, values = _per_group(n, c, k, estimator)
    return values, ~np.isnan(values)
