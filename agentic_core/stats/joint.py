"""Joint draws of several agents' metrics over the same tasks: the machinery behind comparisons and ranks.

:func:`joint_sample` restricts the tasks to those every agent can use (the curve's rules, applied to each
side), takes each agent's curve values and intervals on them, and draws every agent's metrics *jointly*:
a paired cluster bootstrap over tasks (frequentist; one set of resampled tasks for every agent) or the
agents' hierarchical posteriors tied by a Gaussian copula (Bayesian). :mod:`agentic_core.stats.compare`
reads two columns of it (B - A); :mod:`agentic_core.stats.leaderboard` ranks all of them. The methods and
why they were chosen are described in :mod:`agentic_core.stats.compare`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import betaincinv, ndtr

from agentic_core.common.wording import plural
from agentic_core.errors import SettingsError
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
    content_seed,
    distinct_pairs,
    seed_entropy,
)
from agentic_core.stats.curve import CurvePoint, checked_curve, included_groups
from agentic_core.stats.hierarchical import hyper_posterior, population_draws
from agentic_core.stats.kernels import estimates, pass_at_from_p, pass_pow_from_p, posterior_params
from agentic_core.stats.methods import IntervalMethod, ProbabilityMethod

# Distinct tags keep these random streams apart from the curve's under the same seed.
TAG_PAIRED = 7
TAG_SIDE = 8
TAG_COPULA = 9


class JointOptions(TypedDict, total=False):
    """The statistical keywords of a comparison and a leaderboard, each optional (checked by :func:`joint_sample`).

    Declared once for :func:`~agentic_core.stats.compare.compare_counts` and
    :func:`~agentic_core.stats.leaderboard.leaderboard`, which take them as ``**options``:

    - ``mode``: ``frequentist`` (default) or ``bayesian``.
    - ``estimator``: ``unbiased`` (default) or ``plug-in`` (frequentist mode).
    - ``prior``: Beta prior (a, b) of one task (Bayesian mode, one task); default (1, 1).
    - ``level``: Interval level in (0, 1); default 0.95.
    - ``seed``: Any integer; default 0.
    - ``n_samples``: Bootstrap replicates / posterior draws; default 4000.
    """

    mode: Mode
    estimator: Estimator
    prior: tuple[float, float]
    level: float
    seed: int
    n_samples: int


@dataclass(frozen=True)
class JointSample:
    """Every agent's curve values and their joint replicates / draws over the same tasks.

    Attributes:
        metrics: ``(name, k)`` of each metric column (success rate, pass@k per k, pass^k per k).
        point: The curve's value, shape ``(agents, metrics)``; empty when no task can be used.
        low: The curve's lower bounds, same shape.
        high: The curve's upper bounds, same shape.
        draws: Bootstrap replicates or joint posterior draws, shape ``(draws, agents, metrics)``.
        units: Distinct paired task rows and their multiplicities (frequentist), else ``None``.
        unit_values: Per unit, agent and metric, the per-task value (frequentist), else ``None``.
        n_tasks: Tasks used.
        n_excluded: Tasks left out.
        excluded_reason: Why, or ``None``.
        interval_method: ``paired-bca-bootstrap``, ``hierarchical-copula`` or ``beta-draws``.
        p_method: ``bootstrap-share`` or ``posterior-share``.
        notes: The agents' curve notes, without repeats.
        mode: The checked mode.
        estimator: The checked estimator.
        level: The checked interval level.
    """

    metrics: tuple[tuple[str, int | None], ...]
    point: FloatArray
    low: FloatArray
    high: FloatArray
    draws: FloatArray
    units: DistinctPairs | None
    unit_values: FloatArray | None
    n_tasks: int
    n_excluded: int
    excluded_reason: str | None
    interval_method: IntervalMethod
    p_method: ProbabilityMethod
    notes: tuple[str, ...]
    mode: Mode
    estimator: Estimator
    level: float


def count_matrix(n: Sequence[ArrayLike], c: Sequence[ArrayLike], names: Sequence[str]) -> tuple[IntArray, IntArray]:
    """Validated per-agent counts as ``(tasks, agents)`` matrices (row i: task i of every agent)."""
    columns = [check_count_arrays(n_j, c_j) for n_j, c_j in zip(n, c, strict=True)]
    sizes = {col[0].size for col in columns}
    if len(sizes) > 1:
        lengths = ", ".join(f"{name}: {col[0].size}" for name, col in zip(names, columns, strict=True))
        raise SettingsError(
            "n",
            "must hold one count per paired task for every side",
            lengths,
            "pass the counts of the same tasks, in the same order",
        )
    return np.stack([col[0] for col in columns], axis=1), np.stack([col[1] for col in columns], axis=1)


def _exclusions(n: IntArray, keep_each: np.ndarray, names: Sequence[str], k_max: int, short_rule: bool) -> str | None:
    """Why paired tasks were left out, per agent (the curve's reasons, for each side)."""
    dropped = int(np.count_nonzero(~keep_each.all(axis=1)))
    if not dropped:
        return None if n.shape[0] else "no paired tasks"
    parts = []
    for j, name in enumerate(names):
        zero = int(np.count_nonzero(n[:, j] == 0))
        short = int(np.count_nonzero((n[:, j] > 0) & ~keep_each[:, j]))
        said = [f"{plural(short, 'task')} with fewer than {k_max} attempts"] if short else []
        said += [f"{plural(zero, 'task')} with no attempts"] if zero else []
        if said:
            parts.append(f"{name}: {', '.join(said)}")
    text = f"excluded {dropped} of {plural(n.shape[0], 'paired task')} ({'; '.join(parts)})"
    if short_rule and np.any((n > 0) & ~keep_each):
        text += (
            f"; the unbiased estimator needs n >= K = {k_max} on every side for the whole curve: use the plug-in "
            "estimator, Bayesian mode or a smaller K to include them"
        )
    return text if dropped < n.shape[0] else "undefined: no task can be used; " + text


def metric_columns(at_k: FloatArray, pow_k: FloatArray, ks_all: IntArray, ks: IntArray) -> FloatArray:
    """Per-metric columns: success rate, pass@k per k, pass^k per k (last axis; pass@1 := pass^1, as the curve)."""
    first = int(np.searchsorted(ks_all, 1))
    cols = np.searchsorted(ks_all, ks)
    at = at_k[..., cols].copy()
    at[..., ks == 1] = pow_k[..., first : first + 1]
    return np.concatenate([pow_k[..., first : first + 1], at, pow_k[..., cols]], axis=-1)


def _canonical_order(n: IntArray, c: IntArray) -> IntArray:
    """An agent order fixed by the data, not by the caller: the bootstrap's streams follow it.

    Agents are sorted by their own sorted (n, c) pairs; two agents with the same pairs but paired
    differently are ordered by the sorted rows of their joint table, so swapping A and B resamples the
    same tasks (and a delta is negated exactly). Task order never matters: everything is sorted.
    """
    agents = n.shape[1]
    own = [np.unique(np.stack([n[:, j], c[:, j]], axis=1), axis=0).tobytes() for j in range(agents)]
    order = sorted(range(agents), key=lambda j: own[j])
    if agents == 2 and own[0] == own[1]:
        joint = [np.unique(np.concatenate([n[:, p], c[:, p]], axis=1), axis=0).tobytes() for p in ([0, 1], [1, 0])]
        order = [0, 1] if joint[0] <= joint[1] else [1, 0]
    return np.asarray(order, dtype=np.int64)


def _bootstrap_draws(
    n: IntArray, c: IntArray, ks_all: IntArray, ks: IntArray, estimator: Estimator, seed: int, draws: int
) -> tuple[FloatArray, DistinctPairs, FloatArray]:
    """Replicates of every agent's mean over the same resampled tasks, shape ``(draws, agents, metrics)``."""
    agents = n.shape[1]
    order = _canonical_order(n, c)
    table = np.concatenate([n[:, order], c[:, order]], axis=1)
    rows, inverse, counts = np.unique(table, axis=0, return_inverse=True, return_counts=True)
    # bootstrap_means resamples units by their multiplicities m (a task's row of counts is its unit); the
    # rows' content enters through the seed, so the stream is the data's, as for the curve.
    units = DistinctPairs(
        np.arange(rows.shape[0], dtype=np.int64),
        np.zeros(rows.shape[0], dtype=np.int64),
        counts.astype(np.int64),
        inverse.reshape(-1).astype(np.int64),
    )
    stream = int(content_seed(TAG_PAIRED, seed, rows, counts).generate_state(1, np.uint64)[0])
    values = np.empty((rows.shape[0], agents, 1 + 2 * ks.size))
    for slot, j in enumerate(order.tolist()):
        at_k, pow_k = estimates(rows[:, slot], rows[:, agents + slot], ks_all, estimator)
        values[:, j] = metric_columns(at_k, pow_k, ks_all, ks)
    replicates = bootstrap_means(units, values.reshape(rows.shape[0], -1), stream, draws)
    return replicates.reshape(draws, agents, -1), units, values


def _correlation(x: FloatArray) -> FloatArray:
    """Correlation matrix of the columns of ``x``; a constant column is uncorrelated with the others."""
    if x.shape[0] < 2:
        return np.eye(x.shape[1])
    cov = np.atleast_2d(np.cov(x, rowvar=False))
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    scale = np.outer(sd, sd)
    with np.errstate(divide="ignore", invalid="ignore"):
        corr = np.where(scale > 0, cov / scale, 0.0)
    np.fill_diagonal(corr, 1.0)
    return np.clip(corr, -1.0, 1.0)


@dataclass(frozen=True)
class _Posterior:
    """What the Bayesian joint draws are made with, the same for every agent (validated by the caller).

    Attributes:
        ks_all: The k values the metrics need, 1 included (sorted, distinct).
        ks: The curve's k values.
        prior: Beta prior of one task.
        level: Interval level (the hierarchical posterior's grid depends on it).
        seed: Seed entropy.
        draws: Draws per agent.
    """

    ks_all: IntArray
    ks: IntArray
    prior: tuple[float, float]
    level: float
    seed: int
    draws: int


def _side_quantiles(n: IntArray, c: IntArray, post: _Posterior) -> FloatArray:
    """One side's posterior of each metric as sorted draws, shape ``(draws, metrics)`` (its quantile function).

    Several tasks: the curve's hierarchical posterior, drawn from its grid. One task: the exact Beta
    posterior's quantiles at (i + 1/2) / draws, pushed through the increasing pass@k / pass^k formulas.
    """
    ks_all, ks, draws = post.ks_all, post.ks, post.draws
    dist = distinct_pairs(n, c)
    if int(dist.m.sum()) > 1:
        hyper = hyper_posterior(dist, ks_all, post.level)
        values = population_draws(hyper, ks_all, draws, content_seed(TAG_SIDE, post.seed, dist.n, dist.c, dist.m))
        return np.sort(metric_columns(values["pass_at"], values["pass_pow"], ks_all, ks), axis=0)
    a, b = posterior_params(dist.n, dist.c, post.prior)
    p = betaincinv(a[0], b[0], (np.arange(draws) + 0.5) / draws)[:, None]
    return metric_columns(pass_at_from_p(p, ks_all), pass_pow_from_p(p, ks_all), ks_all, ks)


def _copula_draws(n: IntArray, c: IntArray, post: _Posterior) -> FloatArray:
    """Joint posterior draws of every agent's population metrics, shape ``(draws, agents, metrics)``.

    Each agent's sorted draws are read at correlated uniforms: a Gaussian copula with the correlation of
    the agents' per-task estimates (unbiased where n >= k, plug-in elsewhere; none with one task, where
    the sides are independent a posteriori). Agents with the same results on every task share one
    normal and one posterior, so an agent compared with itself gets a delta of exactly 0.
    """
    tasks, ks_all, ks, draws = n.shape[0], post.ks_all, post.ks, post.draws
    # Tasks in an order fixed by the data (the agents read in their canonical order), then one column
    # per distinct agent by content: neither the tasks' nor the agents' order changes a draw.
    order = _canonical_order(n, c)
    key = np.concatenate([n[:, order], c[:, order]], axis=1)
    rows = np.lexsort(key.T[::-1])
    n, c = n[rows], c[rows]
    agents, which = np.unique(np.concatenate([n.T, c.T], axis=1), axis=0, return_inverse=True)
    which = which.reshape(-1)
    n_u, c_u = agents[:, :tasks].T, agents[:, tasks:].T
    tables = [_side_quantiles(n_u[:, j], c_u[:, j], post) for j in range(len(agents))]
    at_k, pow_k = estimates(n_u.T.ravel(), c_u.T.ravel(), ks_all, "unbiased")
    at_p, pow_p = estimates(n_u.T.ravel(), c_u.T.ravel(), ks_all, "plug-in")
    per_task = metric_columns(np.where(np.isnan(at_k), at_p, at_k), np.where(np.isnan(pow_k), pow_p, pow_k), ks_all, ks)
    per_task = per_task.reshape(len(agents), tasks, -1)
    metrics = per_task.shape[2]
    rng = np.random.default_rng(content_seed(TAG_COPULA, post.seed, agents))
    normals = rng.standard_normal((metrics, draws, len(agents)))
    out = np.empty((draws, which.size, metrics))
    for m in range(metrics):
        weights, vectors = np.linalg.eigh(_correlation(per_task[:, :, m].T))
        root = vectors * np.sqrt(np.clip(weights, 0.0, None))
        index = np.minimum((ndtr(normals[m] @ root.T) * draws).astype(np.int64), draws - 1)
        for j, u in enumerate(which.tolist()):
            out[:, j, m] = tables[u][index[:, u], m]
    return out


def _curve_rows(curve: list[CurvePoint]) -> list[tuple[float, float, float]]:
    """(value, low, high) of each metric column of one agent's curve (every task usable, so none is None)."""
    pairs = [(curve[0].success_rate, curve[0].success_rate_ci)]
    pairs += [(p.pass_at_k, p.pass_at_k_ci) for p in curve] + [(p.pass_pow_k, p.pass_pow_k_ci) for p in curve]
    out = []
    for value, ci in pairs:
        assert value is not None and ci is not None
        out.append((value, ci[0], ci[1]))
    return out


def joint_sample(n: IntArray, c: IntArray, names: Sequence[str], ks: IntArray, options: JointOptions) -> JointSample:
    """The curve values of every agent on the tasks all of them can use, and their joint draws.

    Args:
        n: Attempts, shape ``(tasks, agents)`` (validated).
        c: Correct attempts, same shape.
        names: The agents' names (for the exclusion reason).
        ks: Sorted distinct k values (validated).
        options: The statistical options as given (checked here, once for every agent).

    Raises:
        SettingsError: an invalid or unknown option.
    """
    for name, value in options.items():
        if name not in JointOptions.__annotations__:
            fix = f"pass only {', '.join(JointOptions.__annotations__)}"
            raise SettingsError(name, "is not an option of a comparison or leaderboard", value, fix)
    mode = check_mode(options.get("mode", "frequentist"))
    estimator = check_estimator(options.get("estimator", "unbiased"))
    prior = check_prior(options.get("prior", (1.0, 1.0)))
    level = check_level(options.get("level", 0.95))
    seed = seed_entropy(options.get("seed", 0))
    draws = check_n_samples(options.get("n_samples", 4000))
    k_max = int(ks.max())
    keep_each = np.stack([included_groups(n[:, j], k_max, mode, estimator) for j in range(n.shape[1])], axis=1)
    keep = keep_each.all(axis=1)
    short_rule = mode == "frequentist" and estimator == "unbiased"
    reason = _exclusions(n, keep_each, names, k_max, short_rule)
    metrics = (
        ("success_rate", None),
        *(("pass_at_k", k) for k in ks.tolist()),
        *(("pass_pow_k", k) for k in ks.tolist()),
    )
    frequentist = mode == "frequentist"
    method: IntervalMethod = "paired-bca-bootstrap" if frequentist else "hierarchical-copula"
    p_method: ProbabilityMethod = "bootstrap-share" if frequentist else "posterior-share"
    tasks = int(keep.sum())
    if tasks == 0:
        empty = np.zeros((0, len(metrics)))
        return JointSample(
            metrics,
            empty,
            empty,
            empty,
            np.zeros((0, 0, len(metrics))),
            None,
            None,
            0,
            n.shape[0],
            reason,
            method,
            p_method,
            (),
            mode,
            estimator,
            level,
        )
    n_in, c_in = n[keep], c[keep]
    bounds, notes = [], []
    for j in range(n.shape[1]):
        # The options were checked once above: not again per agent.
        curve = checked_curve(n_in[:, j], c_in[:, j], ks, mode, "population", estimator, prior, level, seed, draws)
        notes += list(curve[0].notes)
        bounds.append(_curve_rows(curve))
    table = np.asarray(bounds, dtype=np.float64)  # (agents, metrics, 3)
    ks_all = np.union1d(ks, np.array([1], dtype=np.int64))
    units: DistinctPairs | None = None
    unit_values: FloatArray | None = None
    if frequentist:
        sample, units, unit_values = _bootstrap_draws(n_in, c_in, ks_all, ks, estimator, seed, draws)
    else:
        sample = _copula_draws(n_in, c_in, _Posterior(ks_all, ks, prior, level, seed, draws))
        if tasks == 1:
            method = "beta-draws"
    return JointSample(
        metrics,
        table[:, :, 0],
        table[:, :, 1],
        table[:, :, 2],
        sample,
        units,
        unit_values,
        tasks,
        n.shape[0] - tasks,
        reason,
        method,
        p_method,
        tuple(dict.fromkeys(notes)),
        mode,
        estimator,
        level,
    )


def share_ahead(delta: FloatArray) -> FloatArray:
    """Per column, the share of draws with delta > 0, ties (delta == 0) counted half."""
    return np.asarray((delta > 0).mean(axis=0) + 0.5 * (delta == 0).mean(axis=0), dtype=np.float64)
