"""How many tasks and attempts a decision needs: the planner (docs/statistics.md, "Planning a run").

From a task population (a pilot run's per-task counts, or assumed rates: mean success and spread
of task difficulty) and the per-task variance of :mod:`~agentic_core.stats.planner_variance`:

- the half-width of the interval of pass@k / pass^k over T tasks with n attempts each,
  ``z * sqrt(variance(n) / T)`` (normal approximation; z from the interval level);
- the fewest tasks reaching a target half-width, for each n: ``ceil((z sigma(n) / h)^2)``;
- the fewest tasks giving a paired comparison of two agents (same tasks) the power to detect a
  difference d with a two-sided test at 1 - level: ``ceil((z_{1-alpha/2} + z_power)^2 v_d / d^2)``,
  with v_d = v_A + v_B - 2 rho sqrt(between_A between_B) per task, rho the correlation of the two
  agents' true per-task values (attempt noise is independent between agents; only task difficulty
  is shared). With n = 1 and k = 1 this is the normal-approximation sample size of McNemar's test
  for paired proportions (Connor 1987);
- the cost of each choice in judge calls: T x n x interactions per attempt (x 2 agents when comparing).

Two things a plan states rather than hides. The second agent: described by its own population, or by default
modelled as the first one shifted by the difference (:func:`~agentic_core.stats.planner_variance.shifted_population`);
its task spread then follows from that model, not from the first agent's. Abstentions: a judge call that comes back
unscored leaves its attempt unscored; each attempt is scored with probability (1 - unscored share) ^ interactions
per attempt, and the variances are the exact mixtures over the scored attempts a task gets
(:func:`~agentic_core.stats.planner_variance.task_variance`), so the tasks and attempts a goal needs count them.
Every argument is bounded (:mod:`~agentic_core.stats.planner_bounds`) before anything is computed.

The simulation in ``benchmarks/bench_planner.py`` checks the promised half-widths and powers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict
from scipy.special import ndtr, ndtri

from agentic_core.errors import SettingsError
from agentic_core.settings import Estimator, Mode, Target
from agentic_core.settings.rules import (
    check_estimator,
    check_fraction,
    check_k,
    check_level,
    check_mode,
    check_target,
)
from agentic_core.stats.planner_bounds import (
    MAX_ATTEMPTS,
    MAX_TASKS,
    MAX_UNSCORED,
    check_between,
    check_interactions,
    check_prior_bounded,
    check_unscored_share,
    whole_numbers,
)
from agentic_core.stats.planner_variance import (
    TaskPopulation,
    pilot_population,
    shifted_population,
    task_variance,
    value_and_between,
)

PlanMetric = Literal["pass@k", "pass^k"]
DEFAULT_TASKS = (25, 50, 100, 200, 400, 800)
DEFAULT_ATTEMPTS = (1, 2, 3, 4, 5, 6, 8, 10, 16)


class PlanCell(BaseModel):
    """One (tasks, attempts) choice: the half-width it gives and what it costs.

    Attributes:
        tasks: Tasks T.
        attempts: Attempts per task n.
        half_width: Expected interval half-width; ``None`` when the estimate is undefined at this n
            (the unbiased estimator needs n >= k) or never narrows (Bayesian, n = 1 and k > 1).
        power: Power to detect the difference (``None`` when no difference was asked).
        judge_calls: T x n x interactions per attempt (one agent; unscored calls are made and paid for too).
    """

    model_config = ConfigDict(frozen=True)

    tasks: int
    attempts: int
    half_width: float | None
    power: float | None
    judge_calls: int


class Requirement(BaseModel):
    """The fewest tasks at one number of attempts that meets a goal.

    Attributes:
        attempts: Attempts per task n.
        tasks: Tasks needed (``None``: unreachable at this n).
        judge_calls: Judge calls of the whole plan (both agents for a comparison); ``None`` with ``tasks``.
        per_task_sd: The standard deviation one task run adds (of the value, or of the paired difference),
            unscored attempts counted.
        scored_attempts: Attempts per task the judge is expected to score, of ``attempts`` run.
    """

    model_config = ConfigDict(frozen=True)

    attempts: int
    tasks: int | None
    judge_calls: int | None
    per_task_sd: float | None
    scored_attempts: float = 0.0


class Plan(BaseModel):
    """The planner's answer (:func:`plan_evaluation`).

    Attributes:
        metric: ``pass@k`` or ``pass^k``.
        k: The k.
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks``.
        estimator: The frequentist estimator.
        level: Interval level (the comparison's test is two-sided at 1 - level).
        population: Where the task population came from, in words.
        mean_success: Mean success probability of the population.
        spread: Standard deviation of task success probabilities.
        value: The population's pass@k / pass^k.
        between_variance: Variance of the per-task value between tasks (does not shrink with n).
        interactions_per_attempt: Judge calls per attempt.
        cells: The table: every (tasks, attempts) pair asked.
        half_width: The target half-width (``None``: not asked).
        for_half_width: Per n, the tasks needed for ``half_width``.
        difference: The difference to detect (``None``: not asked).
        power: The power asked for.
        correlation: Correlation of the two agents' per-task values.
        for_difference: Per n, the tasks needed for the comparison.
        cheapest_for_half_width: The requirement with the fewest judge calls (ties: fewer attempts).
        cheapest_for_difference: Likewise for the comparison.
        notes: Caveats, in words.
        agent_b: How the second agent's tasks are modelled, in words (``None`` without a difference).
        population_b: Where the second agent's population came from (``None`` without a difference).
        mean_success_b: Its mean success probability (``None`` without a difference).
        spread_b: Its standard deviation of task success probabilities (``None`` without a difference).
        value_b: Its pass@k / pass^k (``None`` without a difference).
        unscored_share: The share of judge calls expected to come back unscored (the judge abstains or fails).
        unscored_source: Where that share came from, in words.
        scored_attempt_share: The chance that an attempt is scored: (1 - unscored share) ^ interactions per attempt
            (an attempt with an unscored interaction is unscored).
    """

    model_config = ConfigDict(frozen=True)

    metric: PlanMetric
    k: int
    mode: Mode
    target: Target
    estimator: Estimator
    level: float
    population: str
    mean_success: float
    spread: float
    value: float
    between_variance: float
    interactions_per_attempt: float
    cells: list[PlanCell]
    half_width: float | None
    for_half_width: list[Requirement] | None
    difference: float | None
    power: float
    correlation: float
    for_difference: list[Requirement] | None
    cheapest_for_half_width: Requirement | None
    cheapest_for_difference: Requirement | None
    notes: list[str]
    agent_b: str | None = None
    population_b: str | None = None
    mean_success_b: float | None = None
    spread_b: float | None = None
    value_b: float | None = None
    unscored_share: float = 0.0
    unscored_source: str = "not given: every judge call assumed scored"
    scored_attempt_share: float = 1.0


def paired_power(difference: float, sd_difference: float, tasks: int, level: float) -> float:
    """Power of the two-sided paired z-test at 1 - ``level`` to detect ``difference`` with ``tasks`` tasks.

    Args:
        difference: The true difference of the two agents' values.
        sd_difference: Standard deviation of one task's difference.
        tasks: Tasks T (>= 1).
        level: Interval level (0.95: a test at 5%).
    """
    if sd_difference == 0.0:
        return 1.0 if difference else 1.0 - level
    z = float(ndtri(0.5 + level / 2.0))
    shift = abs(difference) / (sd_difference / math.sqrt(tasks))
    return float(ndtr(shift - z) + ndtr(-shift - z))


def tasks_for_power(difference: float, sd_difference: float, level: float, power: float) -> int | None:
    """The fewest tasks with :func:`paired_power` at least ``power`` (``None`` above :data:`MAX_TASKS`)."""
    z = float(ndtri(0.5 + level / 2.0)) + float(ndtri(power))
    tasks = max(1, math.ceil((z * sd_difference / abs(difference)) ** 2))
    # The closed form ignores the far tail; a step or two up makes the exact power reach the goal.
    while tasks <= MAX_TASKS and paired_power(difference, sd_difference, tasks, level) < power:
        tasks += 1
    return tasks if tasks <= MAX_TASKS else None


def tasks_for_half_width(sd: float, half_width: float, level: float) -> int | None:
    """The fewest tasks whose interval half-width ``z sd / sqrt(T)`` is at most ``half_width``."""
    if not math.isfinite(sd):
        return None
    z = float(ndtri(0.5 + level / 2.0))
    tasks = max(1, math.ceil((z * sd / half_width) ** 2 - 1e-9))
    return tasks if tasks <= MAX_TASKS else None


def _cheapest(reqs: list[Requirement]) -> Requirement | None:
    reachable = [r for r in reqs if r.judge_calls is not None]
    return min(reachable, key=lambda r: (r.judge_calls, r.attempts)) if reachable else None


def as_population(source: object) -> tuple[TaskPopulation, float | None]:
    """A task population from a :class:`TaskPopulation` or a pilot run's aggregate, with judge calls per attempt.

    Args:
        source: A :class:`TaskPopulation`, or an :class:`~agentic_core.analysis.aggregate.Aggregate` of a pilot
            run (its per-task ``n`` and ``c``, and its interactions per conversation).

    Raises:
        SettingsError: neither.
    """
    if isinstance(source, TaskPopulation):
        return source, None
    groups, counts = getattr(source, "groups", None), getattr(source, "counts", None)
    if groups is None or counts is None or "n" not in groups or "c" not in groups:
        raise SettingsError(
            "population",
            "must be a task population or a pilot run's aggregate",
            type(source).__name__,
            "pass aggregate(evaluate(...)) of a pilot run, or rates_population(mean, spread)",
        )
    pop = pilot_population(groups["n"].to_numpy(), groups["c"].to_numpy(), "pilot run")
    per_attempt = counts.interactions / counts.conversations if counts.conversations else None
    return pop, per_attempt


def pilot_unscored_share(source: object) -> float | None:
    """The share of a pilot run's judge calls that came back unscored (``None`` when ``source`` is no pilot run)."""
    counts = getattr(source, "counts", None)
    interactions = getattr(counts, "interactions", 0)
    return getattr(counts, "unscored_interactions", 0) / interactions if interactions else None


def plan_evaluation(
    population: TaskPopulation | object,
    *,
    metric: PlanMetric = "pass^k",
    k: int = 1,
    mode: Mode = "frequentist",
    target: Target = "population",
    estimator: Estimator = "unbiased",
    prior: tuple[float, float] = (1.0, 1.0),
    level: float = 0.95,
    tasks: Sequence[int] = DEFAULT_TASKS,
    attempts: Sequence[int] = DEFAULT_ATTEMPTS,
    half_width: float | None = None,
    difference: float | None = None,
    power: float = 0.8,
    correlation: float = 0.5,
    population_b: TaskPopulation | object | None = None,
    interactions_per_attempt: float | None = None,
    unscored_share: float | None = None,
    unscored_source: str | None = None,
) -> Plan:
    """Plan an evaluation: half-widths over tasks x attempts, and the tasks a goal needs.

    Args:
        population: The task population (:func:`~agentic_core.stats.planner_variance.pilot_population`,
            ``rates_population`` or ``beta_population``), or a pilot run's aggregate.
        metric: ``pass@k`` or ``pass^k``.
        k: The k (1 to 1,000).
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks``.
        estimator: ``unbiased`` (needs n >= k) or ``plug-in`` (frequentist).
        prior: The per-task Beta prior (Bayesian, these tasks), each from 0.001 to 10,000.
        level: Interval level; the comparison tests at 1 - level, two-sided.
        tasks: Task counts of the table (at most 200 values, each at most 10^9).
        attempts: Attempts per task run, of the table and the requirements (at most 200 values, each at most 1,000).
        half_width: Target half-width (e.g. 0.05 for +-5 points).
        difference: Difference between two agents to detect (e.g. 0.05).
        power: Power of the comparison (0.8 by default).
        correlation: Correlation in [-1, 1] of the two agents' true per-task values (how far the
            same tasks are hard for both; pairing gains only through it).
        population_b: The second agent's task population. Default: the first one shifted by ``difference``
            (:func:`~agentic_core.stats.planner_variance.shifted_population`), stated in ``Plan.agent_b``.
        interactions_per_attempt: Judge calls one attempt costs (default: the pilot's interactions per
            conversation, else 1; at most 10,000).
        unscored_share: The share of judge calls expected back unscored, from 0 to 0.95 (default: a pilot run's
            own share, else 0 with a note; :func:`agentic_core.judges.expected_unscored_share` gives a judge's).
        unscored_source: Where ``unscored_share`` came from, in words, for the plan's output (default: "given").

    Returns:
        The :class:`Plan`.

    Raises:
        SettingsError: an argument outside its range, named with its limit and fix (before anything is computed).
    """
    md, tg, est, lvl = check_mode(mode), check_target(target), check_estimator(estimator), check_level(level)
    if metric not in ("pass@k", "pass^k"):
        raise SettingsError("metric", "must be 'pass@k' or 'pass^k'", metric, "give pass@k or pass^k")
    k = check_k(k, "k", MAX_ATTEMPTS)
    t_list, n_list = whole_numbers(tasks, "tasks", MAX_TASKS), whole_numbers(attempts, "attempts", MAX_ATTEMPTS)
    prior = check_prior_bounded(prior)
    if half_width is not None:
        rule = "must be a number strictly between 0 and 1"
        half_width = check_between(half_width, "half-width", rule, 0.0, 1.0, "give e.g. 0.05")
    if difference is not None:
        rule = "must be a non-zero number between -1 and 1"
        difference = check_between(difference, "difference", rule, -1.0, 1.0, "give e.g. 0.05")
        if difference == 0.0:
            raise SettingsError("difference", rule, difference, "give e.g. 0.05")
    pw = check_fraction(power, "power", "give a number between 0 and 1, e.g. 0.8")
    if not 1.0 - lvl < pw < 1.0:
        raise SettingsError("power", f"must be above the test's size {1 - lvl:g} and below 1", power, "give e.g. 0.8")
    rule = "must be in [-1, 1]"
    correlation = check_between(correlation, "correlation", rule, -1.0, 1.0, "give e.g. 0.5", closed=True)
    if interactions_per_attempt is not None:
        interactions_per_attempt = check_interactions(interactions_per_attempt)
    if unscored_share is not None:
        unscored_share = check_unscored_share(unscored_share)
    measured = pilot_unscored_share(population)
    population, pilot_calls = as_population(population)
    ipa = interactions_per_attempt or check_interactions(pilot_calls or 1.0)
    value, between = value_and_between(population, metric, k)
    pop_b = None
    if difference is not None:
        pop_b = (
            shifted_population(population, metric, k, difference)
            if population_b is None
            else as_population(population_b)[0]
        )
    if unscored_share is not None:
        share, share_source = unscored_share, unscored_source or "given"
    elif measured is not None:
        share = check_unscored_share(min(measured, MAX_UNSCORED))
        share_source = f"measured on the pilot run ({measured:.1%} of its judge calls)"
    else:
        share, share_source = 0.0, "not given: every judge call assumed scored"
    scored = (1.0 - share) ** ipa
    notes: list[str] = []
    sd: dict[int, float | None] = {}
    sd_diff: dict[int, float | None] = {}
    between_b = value_and_between(pop_b, metric, k)[1] if pop_b is not None else between
    options = {"mode": md, "target": tg, "estimator": est, "prior": prior, "scored": scored}
    for n in n_list:
        tv_a = task_variance(population, metric, k, n, **options)
        sd[n] = math.sqrt(tv_a.per_task_run) if math.isfinite(tv_a.per_task_run) else None
        if pop_b is None:
            continue
        tv_b = task_variance(pop_b, metric, k, n, **options)
        shared = correlation * math.sqrt(between * between_b) if tg == "population" else 0.0
        # A pair counts when both agents' tasks have an estimate (their abstentions are independent).
        pair = (tv_a.variance + tv_b.variance - 2.0 * shared) / (tv_a.kept * tv_b.kept) if tv_a.kept * tv_b.kept else 0
        ok = math.isfinite(tv_a.variance) and math.isfinite(tv_b.variance) and tv_a.kept * tv_b.kept > 0
        sd_diff[n] = math.sqrt(max(pair, 0.0)) if ok else None
    undefined = [n for n in n_list if sd[n] is None]
    if undefined:
        why = (
            f"the unbiased estimator needs n >= k = {k}"
            if md == "frequentist"
            else f"with fewer than k = {k} attempts per task the model extrapolates "
            f"{metric.replace('k', str(k))} and its interval is much wider than planned"
        )
        notes.append(f"no half-width at n = {', '.join(map(str, undefined))}: {why}")
    z = float(ndtri(0.5 + lvl / 2.0))
    cells = []
    for n in n_list:
        s, sdd = sd[n], sd_diff.get(n)
        for t in t_list:
            cells.append(
                PlanCell(
                    tasks=t,
                    attempts=n,
                    half_width=None if s is None else z * s / math.sqrt(t),
                    power=None if difference is None or sdd is None else paired_power(difference, sdd, t, lvl),
                    judge_calls=math.ceil(t * n * ipa),
                )
            )

    def requirement(n: int, needed: int | None, s: float | None, agents: int) -> Requirement:
        calls = None if needed is None else math.ceil(agents * needed * n * ipa)
        return Requirement(attempts=n, tasks=needed, judge_calls=calls, per_task_sd=s, scored_attempts=n * scored)

    for_hw = None
    if half_width is not None:
        for_hw = []
        for n in n_list:
            s = sd[n]
            for_hw.append(requirement(n, None if s is None else tasks_for_half_width(s, half_width, lvl), s, 1))
    for_diff = None
    if difference is not None:
        for_diff = []
        for n in n_list:
            s = sd_diff[n]
            needed = None if s is None else tasks_for_power(difference, s, lvl, pw)
            for_diff.append(requirement(n, needed, s, 2))
    if tg == "population" and n_list and sd[n_list[-1]] is not None:
        floor = z * math.sqrt(between)
        notes.append(
            f"more attempts never narrow the interval below {floor:.3g} / sqrt(T): that part is how tasks differ"
        )
    if len(population.weight) > 1:
        notes.append("variances are averaged over what the pilot leaves uncertain about the task population")
    name = metric.replace("k", str(k))
    value_b = None if pop_b is None else value_and_between(pop_b, metric, k)[0]
    agent_b = None
    if pop_b is not None and value_b is not None:
        if population_b is None:
            agent_b = (
                f"agent B is modelled as agent A with its {name} shifted by {difference:+g} ({value:.3f} -> "
                f"{value_b:.3f}): each task's difficulty keeps A's concentration, so B's spread of task success "
                f"follows ({pop_b.spread():.3f} against A's {population.spread():.3f}); describe B's tasks when "
                "they differ"
            )
        else:
            agent_b = f"agent B's tasks as described: {pop_b.source} ({name} {value_b:.3f}, A's {value:.3f})"
            if difference is not None and abs(value_b - value - difference) > 0.005:
                notes.append(
                    f"B's described population is {value_b - value:+.3f} from A's {name}, not the {difference:+g} "
                    "to detect: the plan uses B's spread and detects the difference asked"
                )
    if share > 0.0:
        notes.append(
            f"{share:.0%} of judge calls expected unscored ({share_source}): an attempt of {ipa:g} judge "
            f"call{'' if ipa == 1 else 's'} is scored with probability {scored:.2f}, so n attempts run give "
            f"{scored:.2f} n scored on average; the tasks and judge calls above count the attempts lost "
            "(abstentions assumed independent of the answer)"
        )
    elif measured is None and unscored_share is None:
        notes.append(
            "every judge call assumed scored: a judge that abstains (the default learned judge does) leaves "
            "attempts unscored; give the unscored share to count them"
        )
    return Plan(
        metric=metric,
        k=k,
        mode=md,
        target=tg,
        estimator=est,
        level=lvl,
        population=population.source,
        mean_success=population.mean(),
        spread=population.spread(),
        value=value,
        between_variance=between,
        interactions_per_attempt=float(ipa),
        cells=cells,
        half_width=half_width,
        for_half_width=for_hw,
        difference=difference,
        power=pw,
        correlation=float(correlation),
        for_difference=for_diff,
        cheapest_for_half_width=None if for_hw is None else _cheapest(for_hw),
        cheapest_for_difference=None if for_diff is None else _cheapest(for_diff),
        notes=notes,
        agent_b=agent_b,
        population_b=None if pop_b is None else pop_b.source,
        mean_success_b=None if pop_b is None else pop_b.mean(),
        spread_b=None if pop_b is None else pop_b.spread(),
        value_b=value_b,
        unscored_share=share,
        unscored_source=share_source,
        scored_attempt_share=scored,
    )
