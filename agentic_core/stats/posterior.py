"""Posterior draws of dataset-level quantities (the mean over groups), Bayesian mode.

Exact Beta draws for few groups; for many, the total's exact cumulants with a Cornish-Fisher
correction where that is accurate (see :mod:`agentic_core.stats.cumulants`). Seeded from the
data's content, so no number depends on data order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import betaincc

from agentic_core.errors import UndefinedEstimateError
from agentic_core.settings import (
    Target,
    check_fraction,
    check_k,
    check_level,
    check_n_samples,
    check_prior,
    check_target,
)
from agentic_core.stats import counts
from agentic_core.stats.counts import CHUNK, DistinctPairs, FloatArray, IntArray
from agentic_core.stats.cumulants import cornish_fisher, moment_matched_rows, power_cumulants
from agentic_core.stats.hierarchical import hyper_posterior, population_draws, population_values
from agentic_core.stats.kernels import posterior_params, z_of
from agentic_core.stats.methods import IntervalMethod

EXACT_DRAWS_MAX_M = 64
"""Up to this many groups, the Bayesian Monte Carlo draws every group's p exactly (at most 64 x 4000
Beta draws); above it, sums of groups are drawn from their exact cumulants where that is accurate."""

# Distinct tags keep the random streams of the different uses independent under the same seed.
TAG_EXACT = 2
TAG_NORMAL = 3
TAG_POPULATION = 5


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


def posterior_draws(
    dist: DistinctPairs, ks: IntArray, prior: tuple[float, float], seed: int, draws: int, level: float
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
    a, b = posterior_params(dist.n, dist.c, prior)
    ks_all = np.union1d(ks, np.array([1], dtype=np.int64))  # k = 1 gives the success rate
    m = dist.m.astype(np.float64)
    total = float(m.sum())
    cum_p = power_cumulants(a, b, ks_all)  # f = p^k
    cum_q = power_cumulants(b, a, ks_all)  # f = (1-p)^k, since 1-p ~ Beta(b, a)
    # Few groups: exact draws for all (cheap: at most EXACT_DRAWS_MAX_M * draws Beta draws).
    # Many: moments for all but the pairs that make the total visibly non-normal.
    if total <= EXACT_DRAWS_MAX_M:
        approx = np.zeros(dist.m.size, dtype=bool)
    else:
        approx = moment_matched_rows(m, (cum_p, cum_q), z_of(level))
    method: IntervalMethod = "cornish-fisher" if approx.all() else "monte-carlo"
    # Sums over groups, one row per k, one column per draw (rows stay contiguous for the adds).
    sum_p = np.zeros((ks_all.size, draws))
    sum_q = np.zeros((ks_all.size, draws))
    if approx.any():
        rng = np.random.default_rng(
            counts.content_seed(TAG_NORMAL, seed, dist.n[approx], dist.c[approx], dist.m[approx])
        )
        z = rng.standard_normal(draws)
        for cum, sign, out in ((cum_p, 1.0, sum_p), (cum_q, -1.0, sum_q)):
            part = cum.rows(approx).summed(m[approx])
            skew, kurt, _ = part.shape()
            out += part.mean[:, None] + np.sqrt(part.var)[:, None] * cornish_fisher(sign * z, skew, kurt)
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
    dist: DistinctPairs,
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
    width = max(1, CHUNK // draws)
    buffer = np.empty((width, draws))
    fill = 0

    def flush() -> None:
        block = buffer[:fill]
        _accumulate_powers(block, ks, sum_p)
        _accumulate_powers(1.0 - block, ks, sum_q)

    for d in rows.tolist():
        n_d, c_d, m_d = int(dist.n[d]), int(dist.c[d]), int(dist.m[d])
        rng = np.random.default_rng(np.random.SeedSequence([TAG_EXACT, seed, n_d, c_d, m_d]))
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
    target: Target = "population",
    prior: tuple[float, float] = (1.0, 1.0),
    seed: int = 0,
    n_samples: int = 4000,
    level: float = 0.95,
) -> PosteriorSamples:
    """Posterior draws of the dataset-level p, pass@k and pass^k, for histograms.

    One group: exact Beta draws of p, transformed (both targets are the same). Several groups,
    target ``population``: draws of the population values under the hierarchical model (see
    :mod:`agentic_core.stats.hierarchical`); target ``these-tasks``: the mean over these groups, by
    the same seeded, order-independent Monte Carlo as :func:`dataset_curve`'s intervals. Groups with
    n == 0 are left out.

    Args:
        n: Attempts per group.
        c: Correct attempts per group.
        ks: One k or several.
        target: ``population`` or ``these-tasks``.
        prior: Beta prior (a, b) of each group (these tasks, one group).
        seed: Any integer; same seed, same draws, whatever the order of the groups.
        n_samples: Number of draws (>= 100).
        level: The credible level the draws will be summarised at (the moment-based shortcut for
            many groups is checked for accuracy at this level).

    Raises:
        SettingsError: invalid arguments.
        UndefinedEstimateError: no group has an attempt.
    """
    n_arr, c_arr = counts.check_count_arrays(n, c)
    k_arr = counts.check_ks(ks)
    tg, pr, lvl = check_target(target), check_prior(prior), check_level(level)
    return _checked_samples(n_arr, c_arr, k_arr, tg, pr, lvl, counts.seed_entropy(seed), check_n_samples(n_samples))


def _checked_samples(
    n_arr: IntArray,
    c_arr: IntArray,
    k_arr: IntArray,
    tg: Target,
    pr: tuple[float, float],
    lvl: float,
    sd: int,
    draws: int,
) -> PosteriorSamples:
    """:func:`posterior_samples` on validated arguments (a caller that validated its own does not validate twice)."""
    keep = n_arr > 0
    if not keep.any():
        raise UndefinedEstimateError(
            "posterior_samples",
            "needs at least one group with an attempt (n >= 1)",
            f"{n_arr.size} groups, none with attempts",
            "load data with at least one scored attempt",
        )
    dist = counts.distinct_pairs(n_arr[keep], c_arr[keep])
    if tg == "population" and int(dist.m.sum()) > 1:
        ks_all = np.union1d(k_arr, np.array([1], dtype=np.int64))
        post = hyper_posterior(dist, ks_all, lvl)
        values = population_draws(post, ks_all, draws, counts.content_seed(TAG_POPULATION, sd, dist.n, dist.c, dist.m))
        cols = np.searchsorted(ks_all, k_arr)
        return PosteriorSamples(
            ks=tuple(int(k) for k in k_arr),
            p=values["p"][:, 0].copy(),
            pass_at_k=np.ascontiguousarray(values["pass_at"][:, cols]),
            pass_pow_k=np.ascontiguousarray(values["pass_pow"][:, cols]),
            n_groups=int(dist.m.sum()),
            exact_groups=0,
            method="hierarchical-grid",
        )
    return posterior_draws(dist, k_arr, pr, sd, draws, lvl)


def prob_pass_pow_exceeds(
    n: ArrayLike,
    c: ArrayLike,
    k: int,
    target: float,
    a: float = 1.0,
    b: float = 1.0,
    *,
    population: bool = True,
    seed: int = 0,
    n_samples: int = 4000,
) -> float:
    """Posterior probability that pass^k exceeds ``target``.

    One group: exact, P(p^k > t) = P(p > t^(1/k)) = Beta(a+c, b+n-c).sf(t^(1/k)). Several groups:
    the population's pass^k under the hierarchical model (``population``, the default; read from the
    grid weights) or the mean over these groups (the share of :func:`posterior_samples` draws).

    Args:
        n: Attempts (one int, or one per group).
        c: Correct attempts (same shape as n).
        k: Whole number >= 1.
        target: Threshold in [0, 1].
        a: Prior alpha.
        b: Prior beta.
        seed: Monte Carlo seed (several groups only).
        n_samples: Monte Carlo draws (several groups only).
        population: The task population's pass^k (else the mean over these groups).

    Raises:
        SettingsError: invalid arguments.
        UndefinedEstimateError: no group has an attempt.
    """
    n_arr, c_arr = counts.check_count_arrays(n, c)
    k_ = check_k(k)
    t = check_fraction(target, "target", "give a probability such as 0.8")
    pr = check_prior((a, b))
    keep = n_arr > 0
    if int(keep.sum()) == 1:
        alpha, beta = posterior_params(n_arr[keep], c_arr[keep], pr)
        return float(betaincc(alpha[0], beta[0], t ** (1.0 / k_)))  # P(p > t^(1/k))
    if population and int(keep.sum()) > 1:
        ks = np.array([k_], dtype=np.int64)
        post = hyper_posterior(counts.distinct_pairs(n_arr[keep], c_arr[keep]), ks, 0.95)
        above = population_values(post, ks)["pass_pow"][:, 0] > t
        # Sum each side separately: exactly 1 (or 0) when every cell is above (or below) the target.
        p_above, p_below = float(post.weight[above].sum()), float(post.weight[~above].sum())
        return p_above / (p_above + p_below)
    # k, the counts and the prior were validated above: the draws take them as they are.
    ks_ = np.array([k_], dtype=np.int64)
    draws = check_n_samples(n_samples)
    samples = _checked_samples(n_arr, c_arr, ks_, "these-tasks", pr, 0.95, counts.seed_entropy(seed), draws)
    return float(np.mean(samples.pass_pow_k[:, 0] > t))
