"""How an interval was obtained, and the words that say so (the one place pages read them from).

Every interval the statistics return carries its method; pages and exports print
:func:`describe_method` of it, never a guess from the number of groups (the method is chosen per k).
"""

from __future__ import annotations

from typing import Literal

IntervalMethod = Literal["wilson", "bootstrap", "beta-quantiles", "monte-carlo", "cornish-fisher", "t"]
"""How an interval was obtained (shown on screen so the user knows what the bars mean).

``wilson``: Wilson score interval for p, transformed (one frequentist group).
``bootstrap``: percentile bootstrap over groups (several frequentist groups).
``beta-quantiles``: exact Beta posterior quantiles, transformed (one Bayesian group).
``monte-carlo``: seeded Monte Carlo of the posterior of the mean (several Bayesian groups) with
exact Beta draws for every group, or for the groups that keep the total from being near normal.
``cornish-fisher``: the same, with the whole total drawn from its exact cumulants (normal draws
with the Cornish-Fisher skewness / kurtosis correction); used only with many groups and when the
cumulants show that is accurate at the level asked.
``t``: Student-t interval for a mean of bounded scores (the tool dimensions).
"""

METHOD_TEXT: dict[str, str] = {
    "wilson": "Wilson score interval for the success probability, pushed through the pass@k / pass^k formulas",
    "bootstrap": "seeded percentile bootstrap over groups",
    "beta-quantiles": "exact Beta posterior quantiles (a single group, no Monte Carlo)",
    "monte-carlo": "seeded Monte Carlo of the posterior of the mean (exact Beta draws per group)",
    "cornish-fisher": "the exact cumulants of the posterior of the mean with a Cornish-Fisher correction "
    "(many groups)",
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
