"""The dataset-level summary of tool correctness: each dimension's mean with an interval, and counts."""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict
from scipy.special import stdtrit

from agentic_core.result import EvaluationResult
from agentic_core.settings import DIMENSIONS, AggregateSettings
from agentic_core.stats import IntervalMethod


class DimensionStat(BaseModel):
    """The mean of one tool dimension (or the overall score) over the interactions where it applies.

    Attributes:
        mean: The mean, or ``None`` when no interaction has a value.
        ci: A Student-t interval clipped to [0, 1], or ``None`` with fewer than two values.
        n: Interactions with a value.
        interval_method: ``t`` when there is an interval.
    """

    model_config = ConfigDict(frozen=True)

    mean: float | None
    ci: tuple[float, float] | None
    n: int
    interval_method: IntervalMethod | None = None


class ToolSummary(BaseModel):
    """Tool correctness over the run under the current weights and threshold.

    Attributes:
        dimensions: ``selection``, ``parameters``, ``sequence``, ``utilization`` -> their stat.
        overall: The weighted overall score's stat.
        scored_interactions: Interactions where tool correctness applies.
        correct_interactions: Of those, the ones whose tool use reaches the tool threshold.
        tool_threshold: The threshold applied.
        weights: The raw weights (normalised before use).
        ignore_extra_tools: Whether extra calls were ignored in selection.
    """

    model_config = ConfigDict(frozen=True)

    dimensions: dict[str, DimensionStat]
    overall: DimensionStat
    scored_interactions: int
    correct_interactions: int
    tool_threshold: float
    weights: dict[str, float]
    ignore_extra_tools: bool


def mean_with_t_interval(x: np.ndarray, level: float) -> DimensionStat:
    """Mean with a Student-t interval (a normal-theory interval for a bounded mean), NaN ignored."""
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return DimensionStat(mean=None, ci=None, n=0)
    mean = float(x.mean())
    if len(x) < 2:
        return DimensionStat(mean=mean, ci=None, n=1)
    sem = float(x.std(ddof=1)) / np.sqrt(len(x))
    if sem == 0:
        return DimensionStat(mean=mean, ci=(mean, mean), n=len(x), interval_method="t")
    half = float(stdtrit(len(x) - 1, 0.5 + level / 2)) * sem
    return DimensionStat(
        mean=mean, ci=(max(0.0, mean - half), min(1.0, mean + half)), n=len(x), interval_method="t"
    )


def tool_summary(
    result: EvaluationResult, overall: np.ndarray, tool_correct: np.ndarray, settings: AggregateSettings
) -> ToolSummary:
    """Mean of each tool dimension and of the overall score, with intervals and counts.

    Args:
        result: The evaluated run.
        overall: Overall tool score per interaction (NaN where it does not apply).
        tool_correct: Per interaction, whether tool use reaches the tool threshold.
        settings: The settings applied.
    """
    arrays = result.tool_arrays
    applicable = arrays["applicable"]
    columns = {
        "selection": arrays["selection_ignore_extra" if settings.ignore_extra_tools else "selection"],
        "parameters": arrays["parameters"],
        "sequence": arrays["sequence"],
        "utilization": arrays["utilization"],
    }
    dims = {
        name: mean_with_t_interval(np.where(applicable, columns[name], np.nan), settings.ci_level)
        for name in DIMENSIONS
    }
    overall_stat = mean_with_t_interval(overall, settings.ci_level)
    return ToolSummary(
        dimensions=dims,
        overall=overall_stat.model_copy(update={"n": int(applicable.sum())}),
        scored_interactions=int(applicable.sum()),
        correct_interactions=int((applicable & tool_correct).sum()),
        tool_threshold=settings.tool_threshold,
        weights=dict(zip(DIMENSIONS, settings.tool_weights.as_tuple(), strict=True)),
        ignore_extra_tools=settings.ignore_extra_tools,
    )
