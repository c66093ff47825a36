"""The Bayesian bootstrap over tasks: a population posterior that assumes no shape (issue 30).

The hierarchical Beta-Binomial (:mod:`agentic_core.stats.hierarchical`) pools the tasks through one
Beta law. A benchmark whose tasks are a mixture (some always solved, the rest rarely) is no Beta, and
there its interval lay beside the truth (benchmarks/RESULTS.md, section "Coverage"). This posterior
lets the tasks speak for themselves (Rubin 1981): the population is the evaluated tasks with
weights w ~ Dirichlet(1, ..., 1) (the Dirichlet-process posterior as its prior mass goes to 0), plus
two prior tasks, one never solved (p = 0) and one always solved (p = 1), of weight
:data:`END_PRIOR` each. The prior tasks are why a few tasks cannot rule out a kind of task none of
them was: with T tasks none always solved, a share of always-solved tasks up to about the
Beta(1/2, T) upper quantile stays in the interval, as Jeffreys' interval for 0 of T would say.

Each task enters with its unbiased pass@k / pass^k (so the spread of the tasks' values carries the
attempts' noise too, as the population target needs); where k > n it has none, and its posterior
mean under the groups' Beta prior is used. A pair (n, c) seen m times gets weight Gamma(m) (a sum of
m independent Gamma(1)), so a draw costs one Gamma per distinct pair.
"""

from __future__ import annotations

import numpy as np

from agentic_core.stats.counts import CHUNK, DistinctPairs, FloatArray, IntArray
from agentic_core.stats.kernels import estimates, posterior_means, posterior_params

END_PRIOR = 0.5
"""Dirichlet weight of each prior task (never solved, always solved): Jeffreys' 1/2."""


def task_values(pairs: DistinctPairs, ks: IntArray, prior: tuple[float, float]) -> FloatArray:
    """Per distinct pair: pass@k for every k, then pass^k for every k, then c / n (one column).

    Unbiased where k <= n; the posterior mean under Beta(``prior``) where k > n.
    """
    at_k, pow_k = estimates(pairs.n, pairs.c, ks, "unbiased")
    a, b = posterior_params(pairs.n, pairs.c, prior)
    mean_at, mean_pow = posterior_means(a, b, ks)
    short = pairs.n[:, None] < ks[None, :]
    at_k = np.where(short, mean_at, at_k)
    pow_k = np.where(short, mean_pow, pow_k)
    share = (pairs.c / pairs.n)[:, None]
    return np.concatenate([at_k, pow_k, share], axis=1)


def task_bootstrap_draws(
    pairs: DistinctPairs, ks: IntArray, prior: tuple[float, float], draws: int, seed: np.random.SeedSequence
) -> dict[str, FloatArray]:
    """Bayesian-bootstrap draws of the population pass@k, pass^k (columns: ks) and mean p (one column).

    Args:
        pairs: The groups' distinct (n, c) pairs with multiplicities (every n >= 1).
        ks: The k values.
        prior: Beta prior (a, b) of each group (used only where k > n).
        draws: Number of draws.
        seed: The random stream (callers derive it from the data's content: order-independent).

    Returns:
        ``{"pass_at": (draws, len(ks)), "pass_pow": (draws, len(ks)), "p": (draws, 1)}``.
    """
    j = ks.size
    ends = np.zeros((2, 2 * j + 1))
    ends[1] = 1.0  # the always-solved prior task: every value is 1; the never-solved one: 0
    values = np.concatenate([task_values(pairs, ks, prior), ends])
    shape = np.concatenate([pairs.m.astype(np.float64), [END_PRIOR, END_PRIOR]])
    rng = np.random.default_rng(seed)
    out = np.empty((draws, values.shape[1]))
    chunk = max(1, CHUNK // shape.size)
    for start in range(0, draws, chunk):
        rows = min(chunk, draws - start)
        weight = rng.standard_gamma(shape, size=(rows, shape.size))
        out[start : start + rows] = (weight @ values) / weight.sum(axis=1, keepdims=True)
    return {"pass_at": out[:, :j], "pass_pow": out[:, j : 2 * j], "p": out[:, 2 * j :]}
