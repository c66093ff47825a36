"""How an interval was obtained, and the words that say so (the one place pages read them from).

Every interval the statistics return carries its method; pages and exports print
:func:`describe_method` of it, never a guess from the number of groups (the method is chosen per k).
"""

from __future__ import annotations

from typing import Literal

IntervalMethod = Literal[
    "wilson",
    "bca-bootstrap",
    "within-task-bootstrap",
    "beta-quantiles",
    "hierarchical-grid",
    "monte-carlo",
    "cornish-fisher",
    "t",
]
"""How an interval was obtained (shown on screen so the user knows what the bars mean).

``wilson``: Wilson score interval for p, transformed (one frequentist group).
``bca-bootstrap``: BCa bootstrap over groups with a small-sample expansion (frequentist, population).
``within-task-bootstrap``: the attempts within each group resampled (frequentist, these tasks).
``hierarchical-grid``: the hierarchical Beta-Binomial posterior, exact on a grid (Bayesian, population).
``beta-quantiles``: exact Beta posterior quantiles, transformed (one Bayesian group).
``monte-carlo``: seeded Monte Carlo of the posterior of the mean over these groups, with
exact Beta draws for every group, or for the groups that keep the total from being near normal.
``cornish-fisher``: the same, with the whole total drawn from its exact cumulants (normal draws
with the Cornish-Fisher skewness / kurtosis correction); used only with many groups and when the
cumulants show that is accurate at the level asked.
``t``: Student-t interval for a mean of bounded scores (the tool dimensions).
"""

METHOD_TEXT: dict[str, str] = {
    "wilson": "Wilson score interval for the success probability, pushed through the pass@k / pass^k formulas",
    "bca-bootstrap": "a seeded BCa bootstrap over tasks with Hesterberg's small-sample expansion",
    "within-task-bootstrap": "a seeded bootstrap of the attempts within each task",
    "hierarchical-grid": "the hierarchical Beta-Binomial posterior over tasks (BDA3 5.3), exact on a grid",
    "beta-quantiles": "exact Beta posterior quantiles (a single group, no Monte Carlo)",
    "monte-carlo": "a seeded Monte Carlo of the posterior of the mean over these tasks (exact Beta draws)",
    "cornish-fisher": "the exact cumulants of the posterior of the mean over these tasks with a Cornish-Fisher "
    "correction (many tasks)",
    "t": "Student-t interval of the mean",
}


def describe_method(method: str | None) -> str:
    """The method in words, for captions and exports (``"no interval"`` when there is none).

    Args:
        method: An :data:`IntervalMethod`, or ``None``.
    """
    if method is None:
        return "no interval"
    return METHOD_TEXT.get(method, method)
