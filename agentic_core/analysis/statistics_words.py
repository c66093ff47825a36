"""What produced the numbers, in words: mode, target, estimator, prior, interval method and level.

Every number the workbench shows (pages, the command line's text, the JSON and the exports) carries
this description, so a reader never has to guess whether a figure is a posterior mean for the task
population or an unbiased estimate for these tasks.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from agentic_core.settings import TARGET_DESCRIPTIONS, AggregateSettings, Estimator, Mode, Target
from agentic_core.stats import CurvePoint, IntervalMethod, describe_method


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
    return StatisticsUsed(
        mode=settings.mode,
        target=settings.target,
        estimator=settings.estimator,
        prior=settings.prior,
        level=settings.ci_level,
        interval_method=headline.interval_method,
        description=description,
    )


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
