"""The hierarchical Beta-Binomial model over tasks: the Bayesian answer for the task population.

Model (Gelman et al., *Bayesian Data Analysis*, 3rd ed., section 5.3): each task's success
probability p_i ~ Beta(alpha, beta), its attempts c_i ~ Binomial(n_i, p_i), and the hyperprior
p(alpha, beta) proportional to (alpha + beta)^(-5/2). No MCMC: the exact Beta-Binomial marginal
likelihood is evaluated on a grid over u = log(alpha / beta), v = log(alpha + beta) (density in
those coordinates: alpha * beta * (alpha + beta)^(-5/2) times the likelihood), normalised into
weights. For each grid point the population values are exact,

    E[p^k] = prod_{i<k} (alpha + i) / (alpha + beta + i),
    E[1 - (1 - p)^k] = 1 - prod_{i<k} (beta + i) / (alpha + beta + i),

so their posterior is a weighted mixture over the grid: the mean and equal-tailed quantiles are
read from the weights. The grid is found in two passes (a wide coarse one locates the mass, a fine
one covers it) and refined until the bounds move less than :data:`BOUND_TOLERANCE`.

Where every task is all-or-nothing (each c_i is 0 or n_i) the posterior is improper towards
alpha + beta -> 0; the grid's floor on log(alpha + beta) (:data:`V_RANGE`) then acts as a
truncation of the hyperprior, and the result says so.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from agentic_core.stats.counts import BoolArray, DistinctPairs, FloatArray, IntArray

U_RANGE = (-12.0, 12.0)
"""Range of log(alpha / beta) searched by the coarse pass (a population mean from 6e-6 to 1 - 6e-6)."""
V_RANGE = (-7.0, 15.0)
"""Range of log(alpha + beta): from nearly all-or-nothing tasks to tasks that all share one p."""
COARSE = 48
FINE = 32
MAX_FINE = 480
BOUND_TOLERANCE = 1e-4
"""The fine grid is doubled until no interval bound's estimated error exceeds this."""
# The fine grid covers all but this much posterior mass (split between the tails of each axis).
_TAIL_MASS = 1e-7
SUMMARY_NAMES = ("pass_at", "pass_pow", "p")
"""The population quantities :func:`population_summary` reports: pass@k, pass^k and the mean p."""
# Cells holding this much mass in all are left out of the quantiles (see HyperPosterior.quantile_cells).
_NEGLIGIBLE = 1e-9


@dataclass(frozen=True)
class HyperPosterior:
    """The posterior of (alpha, beta) as weighted grid cells in (log(alpha/beta), log(alpha+beta)).

    Attributes:
        alpha: alpha at each cell's centre (u-major order).
        beta: beta at each cell's centre.
        weight: Normalised posterior mass of each cell (density at the centre times the area).
        truncated: Whether the posterior is improper without the grid's floor (every task
            all-or-nothing), so the floor acted as a truncation of the hyperprior.
        u_edges: Cell edges along u = log(alpha / beta).
        v_edges: Cell edges along v = log(alpha + beta).
    """

    alpha: FloatArray
    beta: FloatArray
    weight: FloatArray
    truncated: bool
    u_edges: FloatArray
    v_edges: FloatArray
    # The interval bounds already read off this grid, by (quantity, k, level): the refinement loop reads k = 1
    # and the largest k on the final grid, and the curve then asks for them again (half its time, before).
    known_bounds: dict[tuple[str, int, float], FloatArray] = field(default_factory=dict, repr=False, compare=False)

    @property
    def cells(self) -> int:
        """Cells per axis."""
        return int(self.u_edges.size - 1)

    @functools.cached_property
    def quantile_cells(self) -> tuple[BoolArray, FloatArray]:
        """The cells the quantiles are read from and their renormalised weights (see :func:`population_summary`).

        The lightest cells, together holding at most ``_NEGLIGIBLE`` of the mass, can move a quantile's level by
        at most that much: leaving them out halves the sorting. Computed once per grid, for every quantity.
        """
        order = np.argsort(self.weight)
        light = np.cumsum(self.weight[order]) <= _NEGLIGIBLE
        mass = np.ones(self.weight.size, dtype=bool)
        mass[order[light]] = False
        return mass, self.weight[mass] / self.weight[mass].sum()

    @functools.cached_property
    def corners(self) -> tuple[FloatArray, FloatArray]:
        """(alpha, beta) at every cell corner, u-major (where :func:`_cell_ranges` reads the values)."""
        return _alpha_beta(self.u_edges, self.v_edges)


def _count_above(values: IntArray, multiplicity: IntArray, top: int) -> FloatArray:
    """``out[j]`` = number of groups whose value exceeds j, for j = 0..top-1."""
    hist = np.bincount(values, weights=multiplicity, minlength=top + 1)
    return np.asarray(hist[::-1].cumsum()[::-1][1:], dtype=np.float64)


def _log_likelihood(alpha: FloatArray, beta: FloatArray, pairs: DistinctPairs) -> FloatArray:
    """Sum over groups of log BetaBinomial(c | n, alpha, beta), up to the binomial constants.

    Written as sums of logs rather than lgamma differences: lgamma(alpha + c) - lgamma(alpha) =
    sum_{j<c} log(alpha + j), so the whole likelihood is sum_j A_j log(alpha + j) + B_j log(beta + j)
    - C_j log(alpha + beta + j) with A_j, B_j, C_j the numbers of groups with c, n - c, n above j.
    That costs (grid points) x (largest n) instead of (grid points) x (groups), and is exact.
    """
    top = int(pairs.n.max())
    a_j = _count_above(pairs.c, pairs.m, top)
    b_j = _count_above(pairs.n - pairs.c, pairs.m, top)
    c_j = _count_above(pairs.n, pairs.m, top)
    out = np.zeros_like(alpha)
    total = alpha + beta
    for j in np.flatnonzero(c_j):
        out += a_j[j] * np.log(alpha + j) + b_j[j] * np.log(beta + j) - c_j[j] * np.log(total + j)
    return out


def _alpha_beta(u: FloatArray, v: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(alpha, beta) at every combination of ``u`` (rows) and ``v`` (columns), flattened row-major."""
    uu, vv = np.meshgrid(u, v, indexing="ij")
    mean = 1.0 / (1.0 + np.exp(-uu.ravel()))
    total = np.exp(vv.ravel())
    return mean * total, (1.0 - mean) * total


def _grid(u_lo: float, u_hi: float, v_lo: float, v_hi: float, cells: int) -> tuple[FloatArray, FloatArray]:
    """Cell centres of a uniform ``cells`` x ``cells`` grid, as flat (alpha, beta) arrays (u-major)."""
    centres: FloatArray = np.arange(cells, dtype=np.float64) + 0.5
    return _alpha_beta(u_lo + (u_hi - u_lo) / cells * centres, v_lo + (v_hi - v_lo) / cells * centres)


def _weights(alpha: FloatArray, beta: FloatArray, pairs: DistinctPairs, area: FloatArray | None = None) -> FloatArray:
    """Normalised posterior masses of grid cells in (u, v) (equal areas when ``area`` is None)."""
    # Density in (u, v): the hyperprior (alpha+beta)^(-5/2) times the Jacobian alpha * beta.
    log_post = np.log(alpha) + np.log(beta) - 2.5 * np.log(alpha + beta) + _log_likelihood(alpha, beta, pairs)
    if area is not None:
        log_post += np.log(area)
    log_post -= log_post.max()
    weight = np.exp(log_post)
    return np.asarray(weight / weight.sum(), dtype=np.float64)


def posterior_on_grid(
    pairs: DistinctPairs, u_edges: FloatArray, v_edges: FloatArray, truncated: bool
) -> HyperPosterior:
    """The posterior masses of the cells between the given edges."""
    alpha, beta = _alpha_beta((u_edges[:-1] + u_edges[1:]) / 2, (v_edges[:-1] + v_edges[1:]) / 2)
    area = np.outer(np.diff(u_edges), np.diff(v_edges)).ravel()
    return HyperPosterior(alpha, beta, _weights(alpha, beta, pairs, area), truncated, u_edges, v_edges)


def _edges(lo: float, hi: float, marginal: FloatArray, cells: int) -> FloatArray:
    """``cells + 1`` edges on [lo, hi], dense where the coarse ``marginal`` mass is.

    Half the cells follow the mass (equal-mass slices of the coarse marginal), half are spread
    evenly, so the bulk where the quantiles are read is fine and the tails are still covered.
    """
    coarse: FloatArray = np.linspace(lo, hi, marginal.size + 1)
    cdf = np.concatenate([[0.0], np.cumsum(marginal)])
    mixture = 0.5 * cdf / cdf[-1] + 0.5 * (coarse - lo) / (hi - lo)
    edges: FloatArray = np.interp(np.linspace(0.0, 1.0, cells + 1), mixture, coarse)
    return edges


def _box(
    alpha: FloatArray, beta: FloatArray, weight: FloatArray, cells: int, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The part of ``box`` holding all but :data:`_TAIL_MASS` of the posterior, one cell wider each side."""
    u_lo, u_hi, v_lo, v_hi = box
    du = (u_hi - u_lo) / cells
    dv = (v_hi - v_lo) / cells
    grid = weight.reshape(cells, cells)  # axis 0: u, axis 1: v (see _grid)
    u_cdf = np.cumsum(grid.sum(axis=1))
    v_cdf = np.cumsum(grid.sum(axis=0))
    half = _TAIL_MASS / 2
    u_first, u_last = int(np.searchsorted(u_cdf, half)), int(np.searchsorted(u_cdf, 1.0 - half))
    v_first, v_last = int(np.searchsorted(v_cdf, half)), int(np.searchsorted(v_cdf, 1.0 - half))
    return (
        max(u_lo, u_lo + (u_first - 1) * du),
        min(u_hi, u_lo + (u_last + 2) * du),
        max(v_lo, v_lo + (v_first - 1) * dv),
        min(v_hi, v_lo + (v_last + 2) * dv),
    )


def hyper_posterior(pairs: DistinctPairs, ks: IntArray, level: float) -> HyperPosterior:
    """The grid posterior of (alpha, beta), refined until the pass@k / pass^k bounds are stable.

    Args:
        pairs: The groups' distinct (n, c) pairs with multiplicities (every n >= 1).
        ks: The k values whose bounds must be stable.
        level: The interval level the bounds are read at.
    """
    truncated = bool(np.all((pairs.c == 0) | (pairs.c == pairs.n)))
    box: tuple[float, float, float, float] = (*U_RANGE, *V_RANGE)
    # Two locating passes (wide and coarse, then the mass's own box); the second one's marginals
    # place the fine grid's edges where the posterior is.
    for _ in range(2):
        alpha, beta = _grid(*box, COARSE)
        box = _box(alpha, beta, _weights(alpha, beta, pairs), COARSE, box)
    alpha, beta = _grid(*box, COARSE)
    coarse = _weights(alpha, beta, pairs).reshape(COARSE, COARSE)
    cells = FINE
    previous: FloatArray | None = None
    # Convergence is checked on the extreme k (1 and the largest): the bounds in between follow the
    # same smooth functions of (alpha, beta) and converge with them, at a tenth of the sorting.
    check = np.unique(np.array([1, int(ks.max())], dtype=np.int64))
    while True:
        u_edges = _edges(box[0], box[1], coarse.sum(axis=1), cells)
        v_edges = _edges(box[2], box[3], coarse.sum(axis=0), cells)
        post = posterior_on_grid(pairs, u_edges, v_edges, truncated)
        bounds = np.concatenate([_bounds(post, check, level, name).ravel() for name in ("pass_at", "pass_pow")])
        # The spread quantiles converge quadratically in the grid step, so halving the step removes
        # about 3/4 of the error: the finer grid's error is about a third of the change.
        if previous is not None and float(np.max(np.abs(bounds - previous))) / 3.0 < BOUND_TOLERANCE:
            return post
        if cells >= MAX_FINE:
            return post
        previous = bounds
        cells *= 2


def _k_major_values(alpha: FloatArray, beta: FloatArray, ks: IntArray, names: tuple[str, ...]) -> dict[str, FloatArray]:
    """Population pass@k and pass^k (rows: ks) and mean p (one row) at (alpha, beta) points, one row per value.

    Built k-major, shape ``(len(ks), points)``: the running products then run over whole rows of points (a
    short cumulative product along each point's row was most of the time), with the same multiplications in
    the same order as a point-major product, so every value is the same to the last bit.
    """
    out: dict[str, FloatArray] = {}
    if "p" in names:
        out["p"] = np.asarray((alpha / (alpha + beta))[None, :], dtype=np.float64)
    if "pass_at" not in names and "pass_pow" not in names:
        return out
    steps = np.arange(int(ks.max()), dtype=np.float64)[:, None]
    total = alpha + beta + steps
    rows = ks - 1
    if "pass_at" in names:
        out["pass_at"] = np.asarray(1.0 - np.cumprod((beta + steps) / total, axis=0)[rows], dtype=np.float64)
    if "pass_pow" in names:
        out["pass_pow"] = np.asarray(np.cumprod((alpha + steps) / total, axis=0)[rows], dtype=np.float64)
    return out


def _values(alpha: FloatArray, beta: FloatArray, ks: IntArray) -> dict[str, FloatArray]:
    """Population pass@k and pass^k (columns: ks) and mean p (one column) at (alpha, beta) points."""
    # The transposed view is Fortran-ordered, like the point-major table this was once indexed from: the posterior
    # mean's matrix product (population_summary) takes the same BLAS path and gives the same last bit.
    return {name: rows.T for name, rows in _k_major_values(alpha, beta, ks, SUMMARY_NAMES).items()}


def population_values(post: HyperPosterior, ks: IntArray) -> dict[str, FloatArray]:
    """Per grid cell (at its centre), the population pass@k, pass^k (columns: ks) and mean p (one column)."""
    return _values(post.alpha, post.beta, ks)


def _cell_ranges(post: HyperPosterior, ks: IntArray, name: str) -> tuple[FloatArray, FloatArray]:
    """Per k (rows) and cell, the lowest and highest value over its four corners (the values are smooth in a cell)."""
    alpha, beta = post.corners
    side = post.cells + 1
    grid = _k_major_values(alpha, beta, ks, (name,))[name]
    grid = grid.reshape(grid.shape[0], side, side)
    a, b, c, d = grid[:, :-1, :-1], grid[:, 1:, :-1], grid[:, :-1, 1:], grid[:, 1:, 1:]
    rows = grid.shape[0]
    low = np.minimum(np.minimum(a, b), np.minimum(c, d)).reshape(rows, -1)
    high = np.maximum(np.maximum(a, b), np.maximum(c, d)).reshape(rows, -1)
    return low, high


def spread_quantiles(low: FloatArray, high: FloatArray, weight: FloatArray, qs: FloatArray) -> FloatArray:
    """Quantiles of a mixture of uniforms: cell g puts weight ``weight[g]`` evenly on [low[g], high[g]].

    Spreading each grid cell's mass over the values the function takes across the cell (instead of
    a point mass at its centre) makes the quantiles converge quadratically in the grid step, so a
    modest grid pins them to 1e-4. The mixture's CDF is piecewise linear: it is built exactly from
    the sorted breakpoints and inverted by linear interpolation.
    """
    width = np.maximum(high - low, 1e-15)  # a constant cell is a (very narrow) ramp, not a jump
    slope = weight / width
    points = np.concatenate([low, low + width])
    change = np.concatenate([slope, -slope])
    order = np.argsort(points, kind="stable")
    points, change = points[order], change[order]
    slopes = np.cumsum(change)[:-1]  # the CDF's slope between consecutive breakpoints
    cdf = np.concatenate([[0.0], np.cumsum(slopes * np.diff(points))])
    cdf /= cdf[-1]
    return np.asarray(np.interp(qs, cdf, points), dtype=np.float64)


def _bounds(post: HyperPosterior, ks: IntArray, level: float, name: str) -> FloatArray:
    """Equal-tailed bounds of one population quantity, shape ``(2, len(ks))`` (one column for ``p``).

    Each k's bounds are read once per grid and level (``post.known_bounds``): they depend on that k alone.
    """
    keys = [0] if name == "p" else [int(k) for k in ks]
    todo = [j for j, k in enumerate(keys) if (name, k, level) not in post.known_bounds]
    if todo:
        tail = (1.0 - level) / 2.0
        qs = np.array([tail, 1.0 - tail])
        mass, weight = post.quantile_cells
        low, high = _cell_ranges(post, ks[todo] if name != "p" else ks, name)
        for row, j in enumerate(todo):
            post.known_bounds[(name, keys[j], level)] = spread_quantiles(low[row, mass], high[row, mass], weight, qs)
    return np.stack([post.known_bounds[(name, k, level)] for k in keys], axis=1)


def population_summary(
    post: HyperPosterior, ks: IntArray, level: float, names: tuple[str, ...] = SUMMARY_NAMES
) -> dict[str, FloatArray]:
    """Posterior mean and equal-tailed bounds of the population pass@k, pass^k and mean p.

    Args:
        post: The grid posterior.
        ks: The k values (columns of pass@k and pass^k).
        level: The interval level.
        names: The quantities wanted (of :data:`SUMMARY_NAMES`); each costs a sort of the grid's cells.

    Returns:
        ``{"pass_at": (3, len(ks)), "pass_pow": (3, len(ks)), "p": (3, 1)}``: rows mean, low, high.
    """
    centres = {name: rows.T for name, rows in _k_major_values(post.alpha, post.beta, ks, names).items()}
    return {name: np.vstack([(post.weight @ centres[name])[None, :], _bounds(post, ks, level, name)]) for name in names}


def population_draws(
    post: HyperPosterior, ks: IntArray, draws: int, seed: np.random.SeedSequence
) -> dict[str, FloatArray]:
    """Draws of the population values, for histograms: a cell by weight, then a point uniform in it."""
    rng = np.random.default_rng(seed)
    index = rng.choice(post.weight.size, size=draws, p=post.weight)
    iu, iv = np.divmod(index, post.cells)
    u = post.u_edges[iu] + rng.random(draws) * np.diff(post.u_edges)[iu]
    v = post.v_edges[iv] + rng.random(draws) * np.diff(post.v_edges)[iv]
    mean = 1.0 / (1.0 + np.exp(-u))
    total = np.exp(v)
    return _values(mean * total, (1.0 - mean) * total, ks)


def shrunk_tasks(
    post: HyperPosterior, pairs: DistinctPairs, level: float, draws: int, seed: np.random.SeedSequence
) -> dict[str, FloatArray]:
    """Each distinct pair's success probability under the hierarchical model (shrunk to the population).

    The posterior mean is exact, E[(alpha + c) / (alpha + beta + n)] over the grid; the bounds come
    from seeded draws (alpha, beta from the grid, then p from Beta(alpha + c, beta + n - c)).

    Returns:
        ``{"mean", "low", "high"}``, one value per distinct pair.
    """
    mean = post.weight @ ((post.alpha[:, None] + pairs.c) / (post.alpha[:, None] + post.beta[:, None] + pairs.n))
    rng = np.random.default_rng(seed)
    index = rng.choice(post.weight.size, size=draws, p=post.weight)
    p = rng.beta(post.alpha[index][:, None] + pairs.c, post.beta[index][:, None] + (pairs.n - pairs.c))
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(p, [tail, 1.0 - tail], axis=0)
    return {"mean": np.asarray(mean), "low": np.asarray(low), "high": np.asarray(high)}
