"""How many human labels a corrected estimate needs: the label planner (docs/statistics.md, "Correcting
for the judge").

Model. Task success probabilities p follow a task population (a Beta mixture, as in the planner);
each of a task's n attempts is correct with probability p. The judge gives each attempt a value v:
with probability 1 - a (a: its abstention rate) a verdict, 1 with probability ``sensitivity`` on a
correct attempt and 1 - ``specificity`` on a wrong one; with probability a a probability q, by default
uninformative (the population's mean success rate), or drawn from a Beta law per truth when given.

Exact task-level moments. Given c correct attempts, the attempts' judge values are independent, so

    E[e_k(v) | c]   = coefficient of s^k in (1 + m1 s)^c (1 + m0 s)^(n-c)
    E[e_k(v)^2 | c] = coefficient of s^k t^k in (1 + m1 (s + t) + m1' s t)^c (1 + m0 (s + t) + m0' s t)^(n-c)

with m1 = E[v | correct], m1' = E[v^2 | correct] (m0, m0' for wrong attempts); pass^k's judge value is
e_k(v) / C(n, k), pass@k's 1 - e_k(1 - v) / C(n, k), and the human value Y is the unbiased estimator of
c. Summing over c's Beta-Binomial law gives Var(Y), Var(Yhat) and Cov(Y, Yhat) exactly.

Variance of the corrected estimate with n labelled tasks of T (task design, uniform sample), with
PPI++'s optimal lambda = Cov / ((1 + n/N) Var(Yhat)), N = T - n:

    population:   lambda^2 Var(Yhat) / N + Var(Y - lambda Yhat) / n
    these tasks:  (1 - n / T) Var(Y - lambda Yhat) / n,  lambda = Cov / Var(Yhat)

Attempt design (the success rate only: pass@k and pass^k need k labelled attempts of one task, which
a sample of attempts rarely gives), m of the M = T n attempts labelled, pi = m / M:
Var(Z) = Var(c / n) + (1 - pi) / (pi n) E[(Y - lambda v)^2] per task (population; these tasks keep the
second term only), lambda = E[Y v] / E[v^2].

The half-width is t_{n-1} sqrt(variance) (the interval's own quantile for small n); the planned
number is the fewest labels reaching the target, from :data:`MIN_LABELLED` up. The benchmark
(benchmarks/bench_ppi_coverage.py) draws runs with the planned number and reports the half-width
achieved.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict
from scipy.special import betaln, gammaln, stdtrit

from agentic_core.errors import SettingsError
from agentic_core.settings import Target, check_target
from agentic_core.settings.rules import check_fraction, check_level
from agentic_core.stats.corrected_intervals import MIN_LABELLED
from agentic_core.stats.corrected_models import Design
from agentic_core.stats.counts import FloatArray
from agentic_core.stats.planner_variance import TaskPopulation, rates_population
from agentic_core.stats.symmetric import binomial, bivariate, elementary

LabelMetric = Literal["success rate", "pass@k", "pass^k"]


class LabelPlan(BaseModel):
    """How many labels reach a half-width, and what the alternatives give.

    Attributes:
        labels: Labels needed (tasks for the task design, attempts for the attempt design), or None
            when even labelling everything does not reach the target.
        unit: ``tasks`` or ``attempts``: what ``labels`` counts.
        half_width: The expected half-width with ``labels`` labels (or with every item labelled).
        half_width_labels_only: The same number of labels without the judge (lambda = 0).
        half_width_all_labelled: Every task labelled (the best these tasks can give).
        judge_bias: E[Yhat] - E[Y]: how far the judge alone is off on average (its interval ignores it).
        lam: The lambda the plan assumes.
        tasks: T.
        attempts: Attempts per task n.
        metric: The metric.
        k: The k.
        design: The design.
        target: The target.
        level: The interval level.
        notes: What to know.
    """

    model_config = ConfigDict(frozen=True)

    labels: int | None
    unit: Literal["tasks", "attempts"]
    half_width: float
    half_width_labels_only: float
    half_width_all_labelled: float
    judge_bias: float
    lam: float
    tasks: int
    attempts: int
    metric: LabelMetric
    k: int
    design: Design
    target: Target
    level: float
    notes: tuple[str, ...] = ()


def _beta_binomial(pop: TaskPopulation, n: int) -> FloatArray:
    """P(c) for c = 0..n under the population (mixture over its cells)."""
    c = np.arange(n + 1, dtype=np.float64)
    log_choose = gammaln(n + 1.0) - gammaln(c + 1.0) - gammaln(n - c + 1.0)
    a, b = pop.alpha[:, None], pop.beta[:, None]
    return np.asarray(pop.weight @ np.exp(log_choose + betaln(a + c, b + n - c) - betaln(a, b)))


def _judge_moments(
    sens: float,
    spec: float,
    abstain: float,
    q_laws: tuple[tuple[float, float], tuple[float, float]] | None,
    mean: float,
) -> tuple[float, float, float, float]:
    """E[v], E[v^2] for a correct attempt, then for a wrong one."""
    if q_laws is None:
        q1, q1_sq, q0, q0_sq = mean, mean * mean, mean, mean * mean
    else:
        (a1, b1), (a0, b0) = q_laws
        q1, q0 = a1 / (a1 + b1), a0 / (a0 + b0)
        q1_sq = q1 * (a1 + 1.0) / (a1 + b1 + 1.0)
        q0_sq = q0 * (a0 + 1.0) / (a0 + b0 + 1.0)
    m1 = (1 - abstain) * sens + abstain * q1
    m1_sq = (1 - abstain) * sens + abstain * q1_sq
    m0 = (1 - abstain) * (1 - spec) + abstain * q0
    m0_sq = (1 - abstain) * (1 - spec) + abstain * q0_sq
    return m1, m1_sq, m0, m0_sq


def task_moments(
    pop: TaskPopulation, n: int, metric: LabelMetric, k: int, judge: tuple[float, float, float, float]
) -> tuple[float, float, float, float, float]:
    """E[Y], Var(Y), E[Yhat], Var(Yhat), Cov(Y, Yhat) of one task's human and judge values (exact).

    Args:
        pop: The task population.
        n: Attempts per task.
        metric: ``success rate``, ``pass@k`` or ``pass^k``.
        k: The k (1 for the success rate).
        judge: (m1, m1', m0, m0'): E[v] and E[v^2] for a correct attempt, then for a wrong one.
    """
    m1, m1_sq, m0, m0_sq = judge
    kk = 1 if metric == "success rate" else k
    if metric == "pass@k":
        # Work with 1 - v: E[1 - v] = 1 - m, E[(1 - v)^2] = 1 - 2 m + m'.
        m1, m1_sq, m0, m0_sq = 1 - m1, 1 - 2 * m1 + m1_sq, 1 - m0, 1 - 2 * m0 + m0_sq
    c = np.arange(n + 1)
    correct = c[:, None] > np.arange(n)[None, :]  # row c: the first c attempts correct
    mean_v = np.where(correct, m1, m0).astype(np.float64)
    sq_v = np.where(correct, m1_sq, m0_sq).astype(np.float64)
    first = elementary(mean_v, kk)[:, kk] / binomial(n, kk)
    second = bivariate(mean_v, mean_v, sq_v, kk)[:, kk] / binomial(n, kk) ** 2
    y = np.array([binomial(int(ci), kk) for ci in c]) / binomial(n, kk)
    if metric == "pass@k":
        y = 1.0 - np.array([binomial(n - int(ci), kk) for ci in c]) / binomial(n, kk)
        second = 1.0 - 2.0 * first + second
        first = 1.0 - first
    prob = _beta_binomial(pop, n)
    e_y, e_y2 = float(prob @ y), float(prob @ (y * y))
    e_h, e_h2 = float(prob @ first), float(prob @ second)
    e_yh = float(prob @ (y * first))
    return e_y, max(e_y2 - e_y**2, 0.0), e_h, max(e_h2 - e_h**2, 0.0), e_yh - e_y * e_h


def _task_design(
    var_y: float, var_h: float, cov: float, tasks: int, target: Target, level: float
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Half-widths for n = MIN..T labelled tasks, corrected and labels-only, and the lambdas."""
    n = np.arange(MIN_LABELLED, tasks + 1, dtype=np.float64)
    big_n = tasks - n
    with np.errstate(divide="ignore", invalid="ignore"):
        if target == "population":
            lam = np.where((big_n > 0) & (var_h > 0), cov / ((1.0 + n / np.maximum(big_n, 1)) * var_h), 0.0)
        else:
            lam = np.full(n.size, cov / var_h if var_h > 0 else 0.0)
    lam = np.clip(lam, 0.0, 1.0)
    rect = var_y - 2 * lam * cov + lam * lam * var_h
    if target == "population":
        var = np.where(big_n > 0, lam * lam * var_h / np.maximum(big_n, 1), 0.0) + rect / n
        var0 = var_y / n
    else:
        var = (1.0 - n / tasks) * rect / n
        var0 = (1.0 - n / tasks) * var_y / n
    q = stdtrit(n - 1, 0.5 + level / 2.0)
    return n, q * np.sqrt(np.maximum(var, 0.0)), q * np.sqrt(var0), lam


def _attempt_design(
    var_task: float,
    e_y: float,
    judge: tuple[float, float, float, float],
    tasks: int,
    attempts: int,
    target: Target,
    level: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    m1, m1_sq, _, m0_sq = judge
    e_yv, e_v2 = e_y * m1, e_y * m1_sq + (1 - e_y) * m0_sq
    lam = min(max(e_yv / e_v2, 0.0), 1.0) if e_v2 > 0 else 0.0
    big_m = tasks * attempts
    m = np.arange(1, big_m + 1, dtype=np.float64)
    pi = m / big_m
    # Tasks with at least one labelled attempt (the minimum counts them).
    units = tasks * (1.0 - (1.0 - pi) ** attempts)
    keep = units >= MIN_LABELLED
    m, pi, units = m[keep], pi[keep], units[keep]
    noise = (1.0 - pi) / (pi * attempts)
    between = var_task if target == "population" else 0.0
    var = (between + noise * (e_y - 2 * lam * e_yv + lam * lam * e_v2)) / tasks
    var0 = (between + noise * e_y) / tasks
    q = stdtrit(np.maximum(units - 1, 1), 0.5 + level / 2.0)
    return m, q * np.sqrt(var), q * np.sqrt(var0), np.full(m.size, lam)


def labels_needed(
    *,
    sensitivity: float,
    specificity: float,
    tasks: int,
    half_width: float,
    abstention_rate: float = 0.0,
    population: TaskPopulation | None = None,
    success_rate: float | None = None,
    spread: float | None = None,
    attempts: int = 1,
    metric: LabelMetric = "success rate",
    k: int = 1,
    design: Design = "tasks",
    target: Target = "population",
    level: float = 0.95,
    abstention_probabilities: tuple[tuple[float, float], tuple[float, float]] | None = None,
) -> LabelPlan:
    """The fewest human labels that give the corrected estimate a target half-width.

    Args:
        sensitivity: The judge's P(says correct | correct), measured (``CorrectedCurve.agreement``) or stated.
        specificity: The judge's P(says wrong | wrong).
        tasks: Tasks T in the run.
        half_width: The target half-width of the interval.
        abstention_rate: Share of attempts the judge gives a probability for instead of a verdict.
        population: The task population (a pilot's or assumed); or give ``success_rate`` (and ``spread``).
        success_rate: The expected mean success rate (enough alone with one attempt per task).
        spread: The standard deviation of task success rates (needed with several attempts).
        attempts: Attempts per task n.
        metric: ``success rate``, ``pass@k`` or ``pass^k``.
        k: The k of pass@k / pass^k (<= attempts).
        design: ``tasks`` (labels count tasks) or ``attempts`` (labels count attempts; success rate only).
        target: ``population`` or ``these-tasks``.
        level: Interval level.
        abstention_probabilities: Beta laws (a, b) of the judge's probability on a correct and on a wrong
            attempt it abstains on; None: uninformative (always the mean success rate).

    Returns:
        The :class:`LabelPlan`.

    Raises:
        SettingsError: a value outside its range, or a combination the model does not cover.
    """
    sens = check_fraction(sensitivity, "sensitivity")
    spec = check_fraction(specificity, "specificity")
    abstain = check_fraction(abstention_rate, "abstention_rate")
    lvl = check_level(level, "level")
    target_ = check_target(target)
    for name, value, low in (("tasks", tasks, MIN_LABELLED), ("attempts", attempts, 1), ("k", k, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise SettingsError(name, f"must be a whole number >= {low}", value, f"give {name} >= {low}")
    if not isinstance(half_width, (int, float)) or not 0.0 < half_width < 1.0:
        raise SettingsError("half_width", "must be a number in (0, 1)", half_width, "give e.g. 0.05")
    if metric not in ("success rate", "pass@k", "pass^k"):
        raise SettingsError("metric", "must be 'success rate', 'pass@k' or 'pass^k'", metric, "pick one")
    k_ = 1 if metric == "success rate" else k
    if k_ > attempts:
        raise SettingsError("k", f"must be at most the attempts per task ({attempts})", k, "lower k or add attempts")
    if design not in ("tasks", "attempts"):
        raise SettingsError("design", "must be 'tasks' or 'attempts'", design, "pick one")
    if design == "attempts" and k_ > 1:
        raise SettingsError(
            "design",
            "'attempts' plans the success rate only",
            f"{metric} with k = {k}",
            "plan pass@k and pass^k with design='tasks': a sample of attempts rarely labels k attempts of one task",
        )
    pop = _plan_population(population, success_rate, spread, attempts)
    judge = _judge_moments(sens, spec, abstain, abstention_probabilities, pop.mean())
    e_y, var_y, e_h, var_h, cov = task_moments(pop, attempts, metric, k_, judge)
    if design == "tasks":
        counts, half, half0, lam = _task_design(var_y, var_h, cov, tasks, target_, lvl)
    else:
        counts, half, half0, lam = _attempt_design(var_y, e_y, judge, tasks, attempts, target_, lvl)
    notes: list[str] = []
    reach = np.flatnonzero(half <= half_width)
    i = int(reach[0]) if reach.size else half.size - 1
    if not reach.size:
        notes.append(
            f"even {int(counts[-1])} labelled {design} give +-{half[-1]:.3f}: more tasks are needed for +-{half_width}"
        )
    if abs(e_h - e_y) > 0:
        notes.append(f"the judge alone would be off by {e_h - e_y:+.3f} on average: labels correct that bias")
    return LabelPlan(
        labels=int(counts[i]) if reach.size else None,
        unit=design,
        half_width=float(half[i]),
        half_width_labels_only=float(half0[i]),
        half_width_all_labelled=float(half0[-1]),
        judge_bias=e_h - e_y,
        lam=float(lam[i]),
        tasks=tasks,
        attempts=attempts,
        metric=metric,
        k=k_,
        design=design,
        target=target_,
        level=lvl,
        notes=tuple(notes),
    )


def _plan_population(
    population: TaskPopulation | None, success_rate: float | None, spread: float | None, attempts: int
) -> TaskPopulation:
    if population is not None:
        return population
    if success_rate is None:
        raise SettingsError("population", "is needed (or success_rate)", None, "give the expected success rate")
    if spread is None:
        if attempts > 1:
            raise SettingsError(
                "spread",
                "is needed with several attempts per task (how much tasks differ)",
                None,
                "give the standard deviation of task success rates, e.g. 0.25",
            )
        # One attempt: only the mean matters; any Beta with this mean gives the same Bernoulli tasks.
        spread = math.sqrt(success_rate * (1.0 - success_rate)) / 2.0
    return rates_population(success_rate, spread)
