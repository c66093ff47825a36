"""Elementary symmetric polynomials of per-attempt values: pass@k and pass^k of uncertain attempts.

A task with n attempts, attempt j correct with probability p_j independently, has c = sum of
Bernoulli(p_j) correct attempts. The unbiased estimators' expectations are then exact and cheap:

    E[C(c, k)]     = sum over k-subsets S of prod_{j in S} p_j       = e_k(p)
    E[C(n - c, k)] = e_k(1 - p)

so E[pass^k estimate] = e_k(p) / C(n, k) and E[pass@k estimate] = 1 - e_k(1 - p) / C(n, k). With
0/1 values these are the unbiased estimators themselves (e_k of c ones and n - c zeros is C(c, k)).

e_k comes from the generating function prod_j (1 + x_j s): coefficient of s^k. The recursion
adds one attempt at a time, O(n K) per task, vectorised over tasks of the same size. The same
recursion in two variables (coefficient of s^k t^k of prod_j (1 + a_j s + b_j t + w_j s t)) gives
the products of two such sums that the Horvitz-Thompson variance needs
(:mod:`agentic_core.stats.corrected_terms`).
"""

from __future__ import annotations

import math

import numpy as np

from agentic_core.stats.counts import FloatArray


def elementary(values: FloatArray, k_max: int) -> FloatArray:
    """e_0..e_{k_max} of each row of ``values`` (tasks x attempts).

    Args:
        values: Array ``(tasks, n)``; a zero contributes nothing (an attempt left out).
        k_max: The largest degree wanted.

    Returns:
        Array ``(tasks, k_max + 1)``: column k is e_k of the row (0 where k > n).
    """
    rows = values.shape[0]
    out = np.zeros((rows, k_max + 1), dtype=np.float64)
    out[:, 0] = 1.0
    for j in range(values.shape[1]):
        x = values[:, j : j + 1]
        # Highest degree first would need a loop; one shifted add of the previous row is the same.
        out[:, 1:] = out[:, 1:] + x * out[:, :-1]
    return out


def bivariate(a: FloatArray, b: FloatArray, w: FloatArray, k: int) -> FloatArray:
    """Coefficients of s^d t^d, d = 0..k, in prod_j (1 + a_j s + b_j t + w_j s t), per row.

    Args:
        a: Coefficients of s, ``(tasks, n)``.
        b: Coefficients of t, same shape.
        w: Coefficients of s t, same shape.
        k: The degree in each variable.

    Returns:
        Array ``(tasks, k + 1)`` (the product truncated at degree k in each variable keeps every
        coefficient of lower degree exact). Cost O(n k^2) per row.
    """
    rows = a.shape[0]
    poly = np.zeros((rows, k + 1, k + 1), dtype=np.float64)
    poly[:, 0, 0] = 1.0
    for j in range(a.shape[1]):
        aj = a[:, j, None, None]
        bj = b[:, j, None, None]
        wj = w[:, j, None, None]
        new = poly.copy()
        new[:, 1:, :] += aj * poly[:, :-1, :]
        new[:, :, 1:] += bj * poly[:, :, :-1]
        new[:, 1:, 1:] += wj * poly[:, :-1, :-1]
        poly = new
    diag = np.arange(k + 1)
    return poly[:, diag, diag]


def binomial(n: int, k: int) -> float:
    """C(n, k) as a float (0 for k > n)."""
    return float(math.comb(n, k))


def expected_values(p: FloatArray, ks: list[int]) -> FloatArray:
    """Per row of per-attempt probabilities: success rate, E[pass@k] for each k, E[pass^k] for each k.

    pass^k = e_k(p) / C(n, k) and pass@k = 1 - e_k(1 - p) / C(n, k), the expectations of the unbiased
    estimators; with 0/1 rows these are the estimators themselves.

    Returns:
        Array ``(tasks, 1 + 2 len(ks))``; NaN where k > n.
    """
    n = p.shape[1]
    k_max = min(max(ks), n)
    e_p = elementary(p, k_max)
    e_q = elementary(1.0 - p, k_max)
    nan = np.full(p.shape[0], np.nan)
    at = [1.0 - e_q[:, k] / binomial(n, k) if k <= n else nan for k in ks]
    pw = [e_p[:, k] / binomial(n, k) if k <= n else nan for k in ks]
    return np.column_stack([p.mean(axis=1), *at, *pw])
