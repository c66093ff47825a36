"""A leaderboard of three or more agents on the same tasks: values, intervals and each rank's probability.

Every agent's value and interval are the curve's on the tasks all agents can use (so the numbers agree
with a comparison of any two of them). The probability that an agent holds rank r comes from the same
joint draws the paired comparison uses (:func:`~agentic_core.stats.joint.joint_sample`): in each paired
bootstrap replicate (frequentist) or joint posterior draw (Bayesian) the agents are ranked, best first,
and agents tied in a draw share the ranks they span equally. Each row of probabilities sums to 1, and so
does each rank's column.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict

from agentic_core.common.keywords import keywords_from
from agentic_core.errors import SettingsError
from agentic_core.stats.counts import FloatArray, check_ks
from agentic_core.stats.joint import JointOptions, count_matrix, joint_sample
from agentic_core.stats.methods import IntervalMethod, ProbabilityMethod

LEADERBOARD_METRICS = ("success_rate", "pass_at_k", "pass_pow_k")
"""The metrics a leaderboard can rank by."""


class LeaderboardRow(BaseModel):
    """One agent on the leaderboard.

    Attributes:
        agent: Its name (an ``assistant_id`` or a run's name).
        value: The metric on the shared tasks (the curve's value), or ``None`` when no task can be used.
        ci: Its interval (the curve's), or ``None``.
        rank: 1 for the highest value (ties share the better rank).
        expected_rank: The mean rank over the draws.
        rank_probabilities: P(rank = 1), P(rank = 2), ... (one per agent).
    """

    model_config = ConfigDict(frozen=True)

    agent: str
    value: float | None
    ci: tuple[float, float] | None
    rank: int | None
    expected_rank: float | None
    rank_probabilities: tuple[float, ...]


class Leaderboard(BaseModel):
    """Agents ranked by one metric over the tasks all of them can use.

    Attributes:
        metric: ``success_rate``, ``pass_at_k`` or ``pass_pow_k``.
        k: The k of pass@k / pass^k (``None`` for the success rate).
        rows: Best first.
        n_tasks: Shared tasks used.
        n_excluded: Shared tasks left out.
        excluded_reason: Why, or ``None``.
        interval_method: How the intervals' joint draws were made.
        p_method: How the rank probabilities were read from them.
        notes: The agents' curve notes.
    """

    model_config = ConfigDict(frozen=True)

    metric: str
    k: int | None
    rows: tuple[LeaderboardRow, ...]
    n_tasks: int
    n_excluded: int
    excluded_reason: str | None
    interval_method: IntervalMethod | None
    p_method: ProbabilityMethod | None
    notes: tuple[str, ...] = ()


def rank_probabilities(draws: FloatArray) -> FloatArray:
    """P(agent j holds rank r), best (highest) first, from draws of shape ``(draws, agents)``.

    In a draw where t + 1 agents tie, each of them holds each of the t + 1 ranks they span with
    probability 1 / (t + 1).

    Returns:
        Shape ``(agents, agents)``: row j, column r = P(agent j has rank r + 1).
    """
    x = np.asarray(draws, dtype=np.float64)
    above = (x[:, None, :] > x[:, :, None]).sum(axis=2)  # (draws, agents): others strictly ahead
    ties = (x[:, None, :] == x[:, :, None]).sum(axis=2) - 1
    ranks = np.arange(x.shape[1])[None, None, :]
    inside = (ranks >= above[:, :, None]) & (ranks <= (above + ties)[:, :, None])
    return np.asarray((inside / (ties + 1)[:, :, None]).mean(axis=0), dtype=np.float64)


def leaderboard(
    n: Sequence[ArrayLike],
    c: Sequence[ArrayLike],
    names: Sequence[str],
    *,
    metric: str = "success_rate",
    k: int = 1,
    **options: Unpack[JointOptions],
) -> Leaderboard:
    """Rank agents on the same tasks, with each agent's interval and probability of each rank.

    Args:
        n: Per agent, attempts per task (task i of every agent is the same task).
        c: Per agent, fully correct attempts per task.
        names: The agents' names, distinct.
        metric: ``success_rate``, ``pass_at_k`` or ``pass_pow_k``.
        k: The k of pass@k / pass^k (ignored for the success rate).
        **options: ``mode``, ``estimator``, ``prior``, ``level``, ``seed``, ``n_samples``, each optional
            (:class:`~agentic_core.stats.joint.JointOptions`).

    Returns:
        The leaderboard, best first; with no usable task every value is ``None`` and the agents keep
        their given order.

    Raises:
        SettingsError: an unknown metric, fewer than two agents, repeated names or counts of different lengths.
    """
    if metric not in LEADERBOARD_METRICS:
        raise SettingsError("metric", f"must be one of {', '.join(LEADERBOARD_METRICS)}", metric, "pick one of them")
    if len(names) < 2 or len(set(names)) != len(names):
        raise SettingsError("names", "must name two or more different agents", list(names), "pass distinct names")
    counts_n, counts_c = count_matrix(n, c, names)
    k_arr = check_ks(k if metric != "success_rate" else 1)
    sample = joint_sample(counts_n, counts_c, names, k_arr, options)
    column = {"success_rate": 0, "pass_at_k": 1, "pass_pow_k": 2}[metric]
    k_out = None if metric == "success_rate" else int(k_arr[0])
    if sample.n_tasks == 0:
        rows = tuple(
            LeaderboardRow(agent=name, value=None, ci=None, rank=None, expected_rank=None, rank_probabilities=())
            for name in names
        )
        return Leaderboard(
            metric=metric, k=k_out, rows=rows, n_tasks=0, n_excluded=sample.n_excluded,
            excluded_reason=sample.excluded_reason, interval_method=None, p_method=None,
        )  # fmt: skip
    values = sample.point[:, column]
    probabilities = rank_probabilities(sample.draws[:, :, column])
    expected = probabilities @ np.arange(1, len(names) + 1)
    # Rank 1 + the number of agents strictly ahead; order by value, then expected rank, then name.
    ranks = 1 + (values[None, :] > values[:, None]).sum(axis=1)
    order = sorted(range(len(names)), key=lambda j: (-values[j], expected[j], names[j]))
    rows = tuple(
        LeaderboardRow(
            agent=names[j],
            value=float(values[j]),
            ci=(float(sample.low[j, column]), float(sample.high[j, column])),
            rank=int(ranks[j]),
            expected_rank=float(expected[j]),
            rank_probabilities=tuple(float(p) for p in probabilities[j]),
        )
        for j in order
    )
    counts = keywords_from(sample, "n_tasks", "n_excluded", "excluded_reason", "interval_method", "p_method", "notes")
    return Leaderboard(metric=metric, k=k_out, rows=rows, **counts)
