"""What produced the numbers, in words: mode, target, estimator, prior, interval method and level.

Every number the workbench shows (pages, the command line's text, the JSON and the exports) carries
this description, so a reader never has to guess whether a figure is a posterior mean for the task
population or an unbiased estimate for these tasks.
"""

from __future__ import annotations

from typing import TypedDict

from pydantic import BaseModel, ConfigDict

from agentic_core.settings import TARGET_DESCRIPTIONS, AggregateSettings, Estimator, Mode, Target
from agentic_core.stats import CurvePoint, IntervalMethod, describe_method


class TableOptions(TypedDict):
    """The settings a per-group table takes (:func:`agentic_core.stats.group_table`), by keyword."""

    mode: Mode
    estimator: Estimator
    prior: tuple[float, float]
    level: float


class StatisticsOptions(TableOptions):
    """The settings that say how the numbers were made (:class:`StatisticsUsed` holds them), by keyword."""

    target: Target


class CurveOptions(StatisticsOptions):
    """The settings the curve takes (:func:`agentic_core.stats.dataset_curve`), by keyword."""

    seed: int
    n_samples: int


def table_options(settings: AggregateSettings) -> TableOptions:
    """The settings a per-group table takes, by keyword (``ci_level`` is its ``level``)."""
    return TableOptions(mode=settings.mode, estimator=settings.estimator, prior=settings.prior, level=settings.ci_level)


def statistics_options(settings: AggregateSettings) -> StatisticsOptions:
    """The settings that say how the numbers were made, by keyword: the table's and the ``target``."""
    return StatisticsOptions(**table_options(settings), target=settings.target)


def curve_options(settings: AggregateSettings) -> CurveOptions:
    """The settings the curve takes, by keyword: the statistics' and the resampling's ``seed`` and ``n_samples``."""
    return CurveOptions(**statistics_options(settings), seed=settings.seed, n_samples=settings.n_samples)


class StatisticsUsed(BaseModel):
    """The statistics behind an aggregate's numbers.

    Attributes:
        mode: ``frequentist`` or ``bayesian``.
        target: ``population`` or ``these-tasks`` (with one group they coincide).
        estimator: The frequentist point estimator (ignored in Bayesian mode).
        prior: The Beta prior of each task, ``(a, b)`` (Bayesian mode; not used by the population model).
        level: The interval level.
        interval_method: How the intervals were computed.
        description: All of it in one sentence.
    """

    model_config = ConfigDict(frozen=True)

    mode: Mode
    target: Target
    estimator: Estimator
    prior: tuple[float, float]
    level: float
    interval_method: IntervalMethod | None
    description: str


def describe_statistics(settings: AggregateSettings, headline: CurvePoint) -> StatisticsUsed:
    """The statistics an aggregate used, with a sentence saying so.

    Args:
        settings: The aggregate's settings.
        headline: Its headline curve point (for the method actually used and the number of groups).
    """
    one_group = headline.n_groups == 1
    target = "one group, so the task population and these tasks coincide" if one_group else (
        TARGET_DESCRIPTIONS[settings.target]
    )
    if settings.mode == "frequentist":
        what = f"Frequentist: {settings.estimator} point estimates"
    elif settings.target == "population" and not one_group:
        what = "Bayesian: posterior means under the hierarchical Beta-Binomial model of the tasks"
    else:
        what = f"Bayesian: posterior means with a Beta({settings.prior_a:g}, {settings.prior_b:g}) prior per task"
    interval = "credible" if settings.mode == "bayesian" else "confidence"
    description = (
        f"{what}; target: {target}; {settings.ci_level:.0%} {interval} intervals from "
        f"{describe_method(headline.interval_method)}."
    )
    method = headline.interval_method
    return StatisticsUsed(**statistics_options(settings), interval_method=method, description=description)


def per_group_statistics(settings: AggregateSettings) -> str:
    """How the per-group numbers (tasks.csv, conversations.csv, per-task tables) were made, in words."""
    level = f"{settings.ci_level:.0%}"
    if settings.mode == "frequentist":
        return (
            f"frequentist, {settings.estimator} estimator, {level} interval per group: "
            f"{describe_method('wilson')} (widened to contain the point)"
        )
    return (
        f"Bayesian, Beta({settings.prior_a:g}, {settings.prior_b:g}) prior per group, posterior means with "
        f"{level} equal-tailed credible intervals (widened to contain the mean)"
    )
