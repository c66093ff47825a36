"""Bayesian mode of the corrected curve: the Bayesian bootstrap of the corrected estimators.

The posterior is the Bayesian bootstrap (Rubin 1981: the Dirichlet-process posterior as its prior mass
goes to 0) of the same estimator, lambda held at its tuned value:

- ``ppi`` (uniform task sample, population): the labelled tasks' differences Y - lambda Yhat and the
  unlabelled tasks' lambda Yhat are reweighted by independent Dirichlet(1, ..., 1) draws (two samples,
  two posteriors);
- ``difference`` (uniform task sample, these tasks): the Polya posterior (Ghosh and Meeden 1997, the
  finite-population Bayesian bootstrap): the unlabelled tasks' unknown differences are drawn from the
  labelled ones with Dirichlet-multinomial counts, and the mean over the T tasks follows;
- ``ht-population`` (inclusion probabilities or the attempt design): the tasks' active-inference
  terms Z_i reweighted by Dirichlet(1, ..., 1) draws;
- ``ht-these``: none (it would need a model of the unlabelled attempts); the value is None with the reason.

Its posterior mean is the frequentist estimate, so the point is the same in both modes. Its interval is
widened to hold the frequentist (t) interval: with tens of labelled tasks the bootstrap alone is too
narrow (its variance is s^2 / (n + 1) and its quantiles normal ones, where the t interval has s^2 / n
and t quantiles), and the benchmark's cells with 10-20 labelled tasks under-cover with it alone.
Strata larger than :data:`EXACT_STRATUM` get the bootstrap's exact mean and variance with a normal
shape (the Dirichlet-weighted mean of hundreds of values is normal to the eye). One set of weights
per stratum is shared by every metric and by the labels-only values, so a curve costs one draw.
"""

from __future__ import annotations

import numpy as np

from agentic_core.stats.corrected_intervals import ColumnResult
from agentic_core.stats.corrected_terms import TaskTerms
from agentic_core.stats.counts import CHUNK, BoolArray, FloatArray

BOOTSTRAP_DRAWS = 4000
"""Draws of the Bayesian bootstrap."""
EXACT_STRATUM = 500
"""Strata with more tasks than this get the bootstrap's exact mean and variance with a normal shape."""
EXACT_COUNTS = 30
"""Up to this many unlabelled tasks the Polya posterior's counts are drawn exactly (then: their normal limit)."""


def dirichlet_means(values: FloatArray, rng: np.random.Generator, draws: int = BOOTSTRAP_DRAWS) -> FloatArray:
    """Bayesian-bootstrap draws of the column means of ``values`` (rows: tasks), ``(draws, columns)``."""
    m, cols = values.shape
    if m == 0:
        return np.zeros((draws, cols))
    if m > EXACT_STRATUM:
        # The Dirichlet(1, ..., 1)-weighted mean has mean x_bar and variance sum (x - x_bar)^2 / (m (m + 1)).
        sd = np.sqrt(np.sum((values - values.mean(axis=0)) ** 2, axis=0) / (m * (m + 1.0)))
        return values.mean(axis=0) + rng.standard_normal((draws, 1)) * sd
    out = np.empty((draws, cols))
    chunk = max(1, CHUNK // m)
    for start in range(0, draws, chunk):
        rows = min(chunk, draws - start)
        weight = rng.standard_exponential(size=(rows, m))  # Gamma(1)
        out[start : start + rows] = (weight @ values) / weight.sum(axis=1, keepdims=True)
    return out


def polya_totals(values: FloatArray, others: int, rng: np.random.Generator, draws: int = BOOTSTRAP_DRAWS) -> FloatArray:
    """Polya-posterior draws of the column totals of ``others`` unseen rows given the seen ``values``."""
    n, cols = values.shape
    if others == 0 or n == 0:
        return np.zeros((draws, cols))
    if n > EXACT_STRATUM:
        # Dirichlet-multinomial counts: the total has mean N x_bar and variance N (N + n) / (n + 1) s_b^2.
        centre = values.mean(axis=0)
        s2 = np.mean((values - centre) ** 2, axis=0)
        sd = np.sqrt(others * (others + n) / (n + 1.0) * s2)
        return others * centre + rng.standard_normal((draws, 1)) * sd
    out = np.empty((draws, cols))
    chunk = max(1, CHUNK // n)
    for start in range(0, draws, chunk):
        rows = min(chunk, draws - start)
        weight = rng.standard_exponential(size=(rows, n))  # Gamma(1)
        weight /= weight.sum(axis=1, keepdims=True)
        if others <= EXACT_COUNTS:
            out[start : start + rows] = rng.multinomial(others, weight) @ values
            continue
        # Given the weights, the total of `others` draws has mean N w.x and variance N (w.x^2 - (w.x)^2):
        # normal to the eye beyond EXACT_COUNTS draws, and a multinomial per row costs 20 times more.
        mean = weight @ values
        var = np.maximum(weight @ (values * values) - mean * mean, 0.0)
        out[start : start + rows] = others * mean + np.sqrt(others * var) * rng.standard_normal((rows, 1))
    return out


def hull(freq: ColumnResult, draws: FloatArray, level: float) -> ColumnResult:
    """The frequentist result with its interval widened to hold the posterior's central interval."""
    if freq.estimate is None or freq.ci is None:
        return freq
    tail = (1.0 - level) / 2.0
    lo, hi = (float(x) for x in np.quantile(draws, [tail, 1.0 - tail]))
    wider = lo < freq.ci[0] or hi > freq.ci[1]
    ci = (min(lo, freq.ci[0]), max(hi, freq.ci[1]))
    flags = freq.flags + (("bootstrap-wider",) if wider else ())
    return ColumnResult(freq.estimate, ci, freq.lam, False, freq.floored, freq.units, flags)


def posterior_hulls(
    kind: str,
    terms: TaskTerms,
    rows: BoolArray,
    pairs: list[tuple[int, ColumnResult]],
    level: float,
    rng: np.random.Generator,
) -> list[ColumnResult]:
    """Bayesian results for columns that share their tasks (``rows``): one draw of the weights for all.

    Args:
        kind: ``ppi``, ``difference`` or ``ht-population``.
        terms: The task terms.
        rows: The tasks the columns use.
        pairs: (column, frequentist result) per value wanted (a column may appear twice: corrected and
            labels-only, with their lambdas).
        level: Interval level.
        rng: The random stream (seeded from the data's content).

    Returns:
        One result per pair, in order (a result without a value is returned as it was).
    """
    live = [(i, col, res) for i, (col, res) in enumerate(pairs) if res.lam is not None and res.estimate is not None]
    out = [res for _, res in pairs]
    if not live:
        return out
    cols = np.array([col for _, col, _ in live])
    lam = np.array([res.lam for _, _, res in live], dtype=np.float64)
    yh = terms.judge[np.ix_(rows, cols)]
    if kind == "ht-population":
        assert terms.ht_a is not None and terms.ht_b is not None
        z = terms.ht_a[np.ix_(rows, cols)] + lam * (yh - terms.ht_b[np.ix_(rows, cols)])
        draws = dirichlet_means(z, rng)
    else:
        lab = terms.labelled[rows]
        y = terms.human[np.ix_(rows, cols)][lab]
        d = y - lam * yh[lab]
        if kind == "ppi":
            draws = dirichlet_means(d, rng) + dirichlet_means(lam * yh[~lab], rng)
        else:
            big_t = int(rows.sum())
            known = y.sum(axis=0) + lam * (yh.sum(axis=0) - yh[lab].sum(axis=0))
            draws = (known + polya_totals(d, big_t - int(lab.sum()), rng)) / big_t
    for j, (i, _, res) in enumerate(live):
        out[i] = hull(res, draws[:, j], level)
    return out
