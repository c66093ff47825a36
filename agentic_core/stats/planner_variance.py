"""The planner's statistics: a task population and the variance one task adds to a dataset value.

Model (the one :mod:`~agentic_core.stats.hierarchical` fits): each task's success probability
p ~ Beta(alpha, beta), and its n attempts give c ~ Binomial(n, p), so c is Beta-Binomial. A
:class:`TaskPopulation` is a weighted set of (alpha, beta) cells: one cell for assumed rates, the
hierarchical posterior's grid for a pilot run (planning then averages the variance over what the
pilot leaves uncertain about the population, rather than trusting one fitted Beta).

The dataset value is the mean over T tasks of a per-task value, so its variance is
``per_task_variance / T``. Per task, for each mode and target:

- frequentist, population: Var(g_hat) = between + within, where between = Var_p(g(p)) (how
  tasks differ: exact Beta moments) and within = E_p[Var(g_hat | p)] (attempt noise). Var(g_hat)
  is exact: a sum over c = 0..n of the Beta-Binomial probabilities of the estimator's values.
- frequentist, these tasks: within only (the tasks are fixed; only attempts vary).
- Bayesian, population: the delta method on the hierarchical model, grad(f)' I^-1 grad(f), with I
  the Beta-Binomial Fisher information of one task in (alpha, beta) (exact sum over c) and f the
  population pass@k / pass^k (Bernstein-von Mises: the posterior sd approaches this with T). Only
  for n >= k: with fewer attempts the model extrapolates and its posterior is far from normal.
- Bayesian, these tasks: E_c[Var(g(p) | c)] with each task's Beta(prior + c, prior + n - c)
  posterior (exact Beta moments, exact sum over c).

Attempts the judge leaves unscored (:func:`task_variance`): each of the n attempts run is scored with some
probability, so a task's scored attempts m are Binomial; every quantity above is mixed over m, and a task whose
m leaves no estimate is left out (its share is ``kept``). A second agent with no population of its own is the
first one shifted by the difference (:func:`shifted_population`).

Every sum is over n + 1 values of c per cell (and, with abstentions, over the few sqrt(n) likely values of m):
time and memory grow with n and with the cells, both bounded (:mod:`~agentic_core.stats.planner_bounds`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import betaln, digamma, expit, gammaln

from agentic_core.errors import SettingsError
from agentic_core.settings import Estimator, Mode, Target
from agentic_core.stats.counts import FloatArray, IntArray, check_count_arrays, distinct_pairs
from agentic_core.stats.hierarchical import hyper_posterior
from agentic_core.stats.kernels import estimates
from agentic_core.stats.planner_bounds import MAX_ATTEMPTS, check_beta_parameter, spread_limits

MAX_CELLS = 400
"""A pilot's hierarchical posterior is cut to its heaviest cells, at most this many (renormalised)."""
_KEPT_MASS = 1.0 - 1e-6
# Fisher information eigenvalues below this share of the largest are treated as zero (unidentified).
_RANK_TOLERANCE = 1e-10


@dataclass(frozen=True)
class TaskPopulation:
    """Task difficulties as a weighted mixture of Beta(alpha, beta) cells.

    Attributes:
        alpha: alpha of each cell.
        beta: beta of each cell.
        weight: Normalised weight of each cell.
        source: Where it came from, in words (``"assumed Beta(2, 3)"``, ``"pilot of 40 tasks"``).
    """

    alpha: FloatArray
    beta: FloatArray
    weight: FloatArray
    source: str

    def mean(self) -> float:
        """The mean success probability over tasks."""
        return float(self.weight @ (self.alpha / (self.alpha + self.beta)))

    def spread(self) -> float:
        """The standard deviation of task success probabilities (between tasks; pooled over cells)."""
        m1 = self.alpha / (self.alpha + self.beta)
        m2 = m1 * (self.alpha + 1.0) / (self.alpha + self.beta + 1.0)
        return math.sqrt(max(float(self.weight @ m2) - self.mean() ** 2, 0.0))


def beta_population(a: float, b: float) -> TaskPopulation:
    """A population of task difficulties Beta(a, b) (a, b < 1: U-shaped; a != b: skewed).

    Raises:
        SettingsError: a or b not a finite number from ``MIN_BETA`` to ``MAX_BETA`` (0.001 to 10,000).
    """
    for name, value in (("a", a), ("b", b)):
        check_beta_parameter(value, f"task population Beta({name})", "give e.g. Beta(0.5, 0.5)")
    one = np.ones(1)
    return TaskPopulation(float(a) * one, float(b) * one, one, f"assumed Beta({a:g}, {b:g})")


def rates_population(mean: float, spread: float) -> TaskPopulation:
    """The Beta population with this mean success rate and this standard deviation between tasks.

    Args:
        mean: Mean success probability over tasks, in (0, 1).
        spread: Standard deviation of the tasks' success probabilities, within
            :func:`~agentic_core.stats.planner_bounds.spread_limits` (below sqrt(mean (1 - mean))): near its
            low end every task is alike; near the top tasks are all-or-nothing.

    Raises:
        SettingsError: a value outside its range.
    """
    if isinstance(mean, bool) or not isinstance(mean, (int, float)) or not 0.0 < mean < 1.0:
        raise SettingsError("mean success rate", "must be a number strictly between 0 and 1", mean, "give e.g. 0.6")
    low, high = spread_limits(float(mean))
    if isinstance(spread, float) and (high < spread <= high * (1 + 1e-12) or low * (1 - 1e-12) <= spread < low):
        # A spread computed from the limits (low + 1.0 * (high - low)) may land an ulp outside them: it is the limit.
        spread = min(max(spread, low), high)
    if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not low <= spread <= high:
        # Four significant digits, rounded inwards: every spread the message offers is accepted.
        digits = [4 - math.floor(math.log10(x)) - 1 for x in (low, high)]
        shown = math.ceil(low * 10 ** digits[0]) / 10 ** digits[0], math.floor(high * 10 ** digits[1]) / 10 ** digits[1]
        raise SettingsError(
            "spread of task difficulty",
            f"must be a standard deviation from {shown[0]:g} to {shown[1]:g} at mean {mean:g} (below sqrt(mean "
            f"(1 - mean)) = {math.sqrt(mean * (1 - mean)):.4f})",
            spread,
            "give e.g. 0.2 (small: tasks alike; near the top: each task nearly always passes or always fails)",
        )
    total = mean * (1.0 - mean) / spread**2 - 1.0
    one = np.ones(1)
    return TaskPopulation(
        mean * total * one, (1.0 - mean) * total * one, one, f"assumed mean {mean:g}, spread {spread:g}"
    )


def pilot_population(n: object, c: object, place: str = "pilot") -> TaskPopulation:
    """The task population a pilot run's per-task counts support (the hierarchical posterior).

    Args:
        n: Attempts per task.
        c: Correct attempts per task.
        place: How the pilot is named in error messages.

    Raises:
        SettingsError: fewer than two tasks with an attempt, or counts that are not counts.
    """
    n_arr, c_arr = check_count_arrays(n, c)  # type: ignore[arg-type]
    if n_arr.size and int(n_arr.max()) > MAX_ATTEMPTS:
        raise SettingsError(
            place,
            f"must have at most {MAX_ATTEMPTS:,} attempts per task (the planner's sums grow with them)",
            int(n_arr.max()),
            "check the counts (n is attempts per task), or plan from assumed rates (mean and spread)",
        )
    keep = n_arr > 0
    if int(keep.sum()) < 2:
        raise SettingsError(
            place,
            "needs at least two tasks with an attempt to tell tasks apart",
            int(keep.sum()),
            "run a pilot on more tasks, or plan from assumed rates (mean and spread)",
        )
    pairs = distinct_pairs(n_arr[keep], c_arr[keep])
    post = hyper_posterior(pairs, np.array([1], dtype=np.int64), 0.95)
    order = np.argsort(post.weight)[::-1]
    cut = int(np.searchsorted(np.cumsum(post.weight[order]), _KEPT_MASS)) + 1
    top = order[: min(cut, MAX_CELLS)]
    weight = post.weight[top] / post.weight[top].sum()
    note = ", every task all-or-nothing" if post.truncated else ""
    return TaskPopulation(post.alpha[top], post.beta[top], weight, f"pilot of {int(keep.sum())} tasks{note}")


def _log_moment(alpha: FloatArray, beta: FloatArray, j: int) -> FloatArray:
    """log E[p^j] under Beta(alpha, beta), per cell."""
    return np.asarray(gammaln(alpha + j) - gammaln(alpha) - gammaln(alpha + beta + j) + gammaln(alpha + beta))


def value_and_between(pop: TaskPopulation, metric: str, k: int) -> tuple[float, float]:
    """The population's pass@k or pass^k and the between-task variance of the per-task value.

    Args:
        pop: The task population.
        metric: ``pass@k`` or ``pass^k``.
        k: k >= 1.

    Returns:
        (value, between): weighted over cells (between is the within-cell variance Var_p(g(p))).
    """
    # pass@k = 1 - E[(1-p)^k]: the moments of 1 - p are those of Beta(beta, alpha).
    a, b = (pop.alpha, pop.beta) if metric == "pass^k" else (pop.beta, pop.alpha)
    m1 = np.exp(_log_moment(a, b, k))
    m2 = np.exp(_log_moment(a, b, 2 * k))
    value = m1 if metric == "pass^k" else 1.0 - m1
    return float(pop.weight @ value), float(pop.weight @ np.maximum(m2 - m1**2, 0.0))


def _pmf(pop: TaskPopulation, n: int) -> FloatArray:
    """Beta-Binomial probabilities of c = 0..n per cell, shape (cells, n + 1)."""
    c = np.arange(n + 1, dtype=np.float64)
    log_choose = gammaln(n + 1.0) - gammaln(c + 1.0) - gammaln(n - c + 1.0)
    a, b = pop.alpha[:, None], pop.beta[:, None]
    return np.asarray(np.exp(log_choose + betaln(a + c, b + n - c) - betaln(a, b)))


def _estimator_values(n: int, k: int, metric: str, estimator: Estimator) -> FloatArray:
    c = np.arange(n + 1, dtype=np.int64)
    at_k, pow_k = estimates(np.full(n + 1, n, dtype=np.int64), c, np.array([k], dtype=np.int64), estimator)
    return np.asarray((pow_k if metric == "pass^k" else at_k)[:, 0], dtype=np.float64)


def _fisher_info(pop: TaskPopulation, n: int) -> FloatArray:
    """Per cell, the Beta-Binomial Fisher information of one task with n attempts: rows I_aa, I_ab, I_bb."""
    pmf = _pmf(pop, n)
    c = np.arange(n + 1, dtype=np.float64)
    a, b = pop.alpha[:, None], pop.beta[:, None]
    common = digamma(a + b) - digamma(a + b + n)
    s_a = digamma(a + c) - digamma(a) + common
    s_b = digamma(b + n - c) - digamma(b) + common
    return np.stack([(pmf * x * y).sum(axis=1) for x, y in ((s_a, s_a), (s_a, s_b), (s_b, s_b))])


def _fisher_delta(pop: TaskPopulation, fisher: FloatArray, k: int, metric: str) -> FloatArray:
    """Per cell, grad(f)' I^-1 grad(f): the asymptotic variance of the population value per task."""
    i_aa, i_ab, i_bb = fisher
    steps = np.arange(k, dtype=np.float64)
    alpha, beta = pop.alpha, pop.beta
    inv_total = (1.0 / (alpha[:, None] + beta[:, None] + steps)).sum(axis=1)
    if metric == "pass^k":
        f = np.exp(_log_moment(alpha, beta, k))
        g_a = f * ((1.0 / (alpha[:, None] + steps)).sum(axis=1) - inv_total)
        g_b = -f * inv_total
    else:
        h = np.exp(_log_moment(beta, alpha, k))  # E[(1-p)^k]; pass@k = 1 - h
        g_a = h * inv_total
        g_b = -h * ((1.0 / (beta[:, None] + steps)).sum(axis=1) - inv_total)
    out = np.empty(alpha.size)
    for i in range(alpha.size):
        info = np.array([[i_aa[i], i_ab[i]], [i_ab[i], i_bb[i]]])
        vals, vecs = np.linalg.eigh(info)
        grad = np.array([g_a[i], g_b[i]])
        proj = vecs.T @ grad
        small = vals <= _RANK_TOLERANCE * max(float(vals[-1]), 0.0)
        # A gradient with weight along an unidentified direction: no number of tasks pins f down.
        if np.any(small & (np.abs(proj) > 1e-9 * (np.abs(grad).max() + 1e-300))):
            out[i] = np.inf
        else:
            out[i] = float(np.sum(np.where(small, 0.0, proj**2 / np.where(small, 1.0, vals))))
    return out


def scored_counts(n: int, scored: float) -> tuple[IntArray, FloatArray]:
    """How many of n attempts are scored when each is with probability ``scored``: the counts and their chances.

    Binomial(n, scored), its tails below 1e-12 of the mode left out (at most a few sqrt(n) counts remain).
    """
    if scored >= 1.0:
        return np.array([n], dtype=np.int64), np.ones(1)
    from scipy.stats import binom  # here: scipy.stats takes half a second to import, and most runs never plan

    m = np.arange(n + 1, dtype=np.int64)
    chance = binom.pmf(m, n, scored)
    keep = chance > 1e-12 * chance.max()
    return m[keep], np.asarray(chance[keep], dtype=np.float64)


@dataclass(frozen=True)
class TaskVariance:
    """What one task adds to the variance of a dataset value, when the judge may leave attempts unscored.

    Attributes:
        variance: Per task with an estimate (``variance / (kept T)`` is the variance over T tasks run); ``inf``
            when no number of tasks makes it finite; NaN where no plan is offered.
        between: Between tasks (how tasks differ; does not shrink with attempts).
        within: Within a task (attempt noise), averaged over the tasks with an estimate.
        kept: The share of tasks with an estimate: enough scored attempts (1 when every attempt is scored).
    """

    variance: float
    between: float
    within: float
    kept: float

    @property
    def per_task_run(self) -> float:
        """The variance per task run: ``per_task_run / T`` is the variance of the value over T tasks run."""
        return self.variance / self.kept if self.kept > 0 else float("nan")


def task_variance(
    pop: TaskPopulation,
    metric: str,
    k: int,
    n: int,
    *,
    mode: Mode,
    target: Target,
    estimator: Estimator = "unbiased",
    prior: tuple[float, float] = (1.0, 1.0),
    scored: float = 1.0,
) -> TaskVariance:
    """The variance one task adds with n attempts run, each scored by the judge with probability ``scored``.

    A task's scored attempts m are Binomial(n, scored) (abstentions independent of the answer): the variance is
    the mixture over m of the exact sums at m attempts. A task whose m leaves no estimate (m < k for the unbiased
    estimator, m = 0 otherwise) is left out, as the aggregate leaves it out: ``kept`` is the share left.

    Args:
        pop: The task population.
        metric: ``pass@k`` or ``pass^k``.
        k: k >= 1.
        n: Attempts run per task (>= 1).
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks``.
        estimator: The frequentist estimator.
        prior: The per-task Beta prior (Bayesian, these tasks).
        scored: The chance that an attempt is scored, in (0, 1].

    Returns:
        The :class:`TaskVariance`; NaN where no plan is offered (k > n: the unbiased estimator is undefined, the
        Bayesian population model extrapolates).
    """
    if n < 1 or k < 1:
        raise SettingsError("attempts per task", "must be at least 1", n, "give n >= 1 and k >= 1")
    _, between = value_and_between(pop, metric, k)
    nan = float("nan")
    counts, chance = scored_counts(n, scored)
    if mode == "frequentist":
        if estimator == "unbiased" and k > n:
            return TaskVariance(nan, between, nan, 1.0)
        keep = counts >= (k if estimator == "unbiased" else 1)
        kept = float(chance[keep].sum())
        if kept <= 0.0:
            return TaskVariance(nan, between, nan, 0.0)
        first, second = np.zeros(pop.alpha.size), np.zeros(pop.alpha.size)
        for m, w in zip(counts[keep], chance[keep], strict=True):
            pmf, g = _pmf(pop, int(m)), _estimator_values(int(m), k, metric, estimator)
            first += w * (pmf @ g)
            second += w * (pmf @ (g * g))
        first, second = first / kept, second / kept
        variance = float(pop.weight @ np.maximum(second - first**2, 0.0))
        within = max(variance - between, 0.0)
        return TaskVariance(within if target == "these-tasks" else variance, between, within, kept)
    keep = counts >= 1
    kept = float(chance[keep].sum())
    if kept <= 0.0:
        return TaskVariance(nan, between, nan, 0.0)
    within = 0.0
    for m, w in zip(counts[keep], chance[keep], strict=True):
        c = np.arange(m + 1, dtype=np.float64)
        a, b = prior[0] + c, prior[1] + (m - c)
        a, b = (a, b) if metric == "pass^k" else (b, a)
        m1 = np.exp(_log_moment(a, b, k))
        post_var = np.maximum(np.exp(_log_moment(a, b, 2 * k)) - m1**2, 0.0)
        within += w * float(pop.weight @ (_pmf(pop, int(m)) @ post_var))
    within /= kept
    if target == "these-tasks":
        return TaskVariance(within, between, within, kept)
    if k > n:
        # The model would extrapolate pass^k from fewer than k attempts; its posterior there rests on
        # the hyperprior and is far wider than the normal approximation (benchmarks/bench_planner.py).
        return TaskVariance(nan, between, within, kept)
    # Information adds over the mixture of scored counts (a task with none scored carries none).
    fisher = sum(w * _fisher_info(pop, int(m)) for m, w in zip(counts, chance, strict=True))
    delta = _fisher_delta(pop, np.asarray(fisher), k, metric)
    finite = np.isfinite(delta)
    if not np.all(finite[pop.weight > 0]):
        return TaskVariance(float("inf"), between, within, kept)
    # delta is per task run; per task kept it is kept x delta (the tasks kept carry all the information).
    return TaskVariance(kept * float(pop.weight @ np.where(finite, delta, 0.0)), between, within, kept)


def per_task_variance(
    pop: TaskPopulation,
    metric: str,
    k: int,
    n: int,
    *,
    mode: Mode,
    target: Target,
    estimator: Estimator = "unbiased",
    prior: tuple[float, float] = (1.0, 1.0),
) -> tuple[float, float, float]:
    """The variance one task adds when every attempt is scored, and its split into between and within tasks.

    Args:
        pop: The task population.
        metric: ``pass@k`` or ``pass^k``.
        k: k >= 1.
        n: Attempts per task (>= 1).
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks``.
        estimator: The frequentist estimator.
        prior: The per-task Beta prior (Bayesian, these tasks).

    Returns:
        (variance, between, within): ``variance / T`` is the variance of the dataset value over T
        tasks; ``inf`` when no number of tasks makes it finite; NaN where no plan is offered
        (k > n: the unbiased estimator is undefined, the Bayesian population model extrapolates).
        :func:`task_variance` does the same with attempts the judge leaves unscored.
    """
    tv = task_variance(pop, metric, k, n, mode=mode, target=target, estimator=estimator, prior=prior)
    return tv.variance, tv.between, tv.within


def shifted_population(pop: TaskPopulation, metric: str, k: int, difference: float) -> TaskPopulation:
    """A second agent modelled as ``pop`` with its pass@k / pass^k shifted by ``difference``.

    Each cell keeps its concentration a + b (how alike tasks are, relative to their mean), and every cell's
    mean success moves by one common step on the logit scale, the step that shifts the population value by
    ``difference``. With one cell: the Beta of the same concentration whose value is shifted.

    Raises:
        SettingsError: the shifted value is not strictly between 0 and 1.
    """
    value, _ = value_and_between(pop, metric, k)
    goal = value + difference
    if not 0.0 < goal < 1.0:
        raise SettingsError(
            "difference",
            f"must leave the second agent's {metric} between 0 and 1 (the first agent's is {value:.3f})",
            difference,
            f"give a difference between {-value:.3f} and {1 - value:.3f}",
        )
    total, logit = pop.alpha + pop.beta, np.log(pop.alpha) - np.log(pop.beta)
    source = f"{pop.source}, {metric.replace('k', str(k))} shifted by {difference:+g}"

    def moved(step: float) -> TaskPopulation:
        # expit on both sides: neither parameter loses its digits when the mean nears 0 or 1.
        return TaskPopulation(total * expit(logit + step), total * expit(-logit - step), pop.weight, source)

    from scipy.optimize import brentq  # here, like scipy.stats above: only a shifted population needs it

    step = brentq(lambda x: value_and_between(moved(x), metric, k)[0] - goal, -60.0, 60.0, xtol=1e-12)
    return moved(float(step))
