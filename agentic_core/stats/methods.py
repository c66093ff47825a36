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
    "paired-bca-bootstrap",
    "paired-t",
    "hierarchical-copula",
    "beta-draws",
    "mover",
]
"""How an interval was obtained (shown on screen so the user knows what the bars mean).

``wilson``: Wilson score interval for p, transformed (one frequentist group).
``bca-bootstrap``: BCa bootstrap over groups with a small-sample expansion, widened to hold the
hierarchical Beta-Binomial interval where that is wider (frequentist, population; issue 30).
``within-task-bootstrap``: the attempts within each group resampled (frequentist, these tasks).
``hierarchical-grid``: the hierarchical Beta-Binomial posterior, exact on a grid (Bayesian, population);
a curve's interval is widened to hold the Bayesian bootstrap over tasks where that is wider (issue 30).
``beta-quantiles``: exact Beta posterior quantiles, transformed (one Bayesian group).
``monte-carlo``: seeded Monte Carlo of the posterior of the mean over these groups, with
exact Beta draws for every group, or for the groups that keep the total from being near normal.
``cornish-fisher``: the same, with the whole total drawn from its exact cumulants (normal draws
with the Cornish-Fisher skewness / kurtosis correction); used only with many groups and when the
cumulants show that is accurate at the level asked.
``t``: Student-t interval for a mean of bounded scores (the tool dimensions).
``paired-bca-bootstrap``: BCa bootstrap of the per-task differences (or of each agent's mean), the same
resampled tasks for every side, with the small-sample expansion (frequentist comparisons).
``paired-t``: Student-t interval of the mean per-task difference between two sides (frequentist comparisons).
``hierarchical-copula``: each side's hierarchical Beta-Binomial posterior, drawn jointly through a Gaussian
copula with the correlation of the paired per-task results (Bayesian comparisons).
``beta-draws``: each side's exact Beta posterior on the one paired task, drawn independently.
``mover``: the two sides' intervals combined by MOVER (Zou & Donner 2008), where every task has the same
difference and resampling tasks has no spread.
"""

ProbabilityMethod = Literal["bootstrap-share", "posterior-share", "t-distribution", "mover-normal", "no-difference"]
"""How a probability that one side is ahead (P(B > A), the probability of each rank) was obtained.

``bootstrap-share``: the share of paired bootstrap replicates, ties counted half (a bootstrap probability).
``posterior-share``: the share of joint posterior draws, ties counted half.
``t-distribution``: the Student-t distribution of the mean per-task difference (a confidence probability).
``mover-normal``: a normal matched to the MOVER interval.
``no-difference``: none is given: the difference is 0 on every paired task (or in every joint draw), so
neither side is ahead and a probability of 1/2 would suggest a coin toss that was never made.
"""

METHOD_TEXT: dict[str, str] = {
    "wilson": "Wilson score interval for the success probability, pushed through the pass@k / pass^k formulas",
    "bca-bootstrap": "a seeded BCa bootstrap over tasks with Hesterberg's small-sample expansion, widened to hold "
    "the hierarchical Beta-Binomial interval (the bootstrap alone misses the truth too often when most tasks "
    "are hard, or most are easy)",
    "within-task-bootstrap": "a seeded bootstrap of the attempts within each task",
    "hierarchical-grid": "the hierarchical Beta-Binomial posterior over tasks (BDA3 5.3), exact on a grid, "
    "widened to hold the Bayesian bootstrap over tasks (which assumes no shape for task difficulty)",
    "beta-quantiles": "exact Beta posterior quantiles (a single group, no Monte Carlo)",
    "monte-carlo": "a seeded Monte Carlo of the posterior of the mean over these tasks (exact Beta draws)",
    "cornish-fisher": "the exact cumulants of the posterior of the mean over these tasks with a Cornish-Fisher "
    "correction (many tasks)",
    "t": "Student-t interval of the mean",
    "paired-bca-bootstrap": "a seeded BCa bootstrap over tasks, the same resampled tasks for every side so the "
    "pairing is used, with Hesterberg's small-sample expansion",
    "paired-t": "a Student-t interval of the mean per-task difference (the tasks paired)",
    "hierarchical-copula": "each side's hierarchical Beta-Binomial posterior over tasks (BDA3 5.3), drawn jointly "
    "through a Gaussian copula with the correlation of the paired per-task results",
    "beta-draws": "each side's exact Beta posterior on the one paired task, drawn independently",
    "mover": "the two sides' intervals combined by MOVER (Zou & Donner 2008): every task has the same "
    "difference, so resampling tasks has no spread",
    # How a probability of being ahead (P(B > A), a rank's probability) was obtained.
    "bootstrap-share": "the share of paired bootstrap replicates in which it holds, ties counted half (a bootstrap "
    "probability, not a posterior one)",
    "posterior-share": "the share of joint posterior draws in which it holds, ties counted half",
    "t-distribution": "the Student-t distribution of the mean per-task difference (a confidence probability, not a "
    "posterior one)",
    "mover-normal": "a normal distribution matched to the MOVER interval",
    "no-difference": "not given: the difference is 0 on every paired task, so neither side is ahead",
}


def describe_method(method: str | None) -> str:
    """The method in words, for captions and exports (``"no interval"`` when there is none).

    Args:
        method: An :data:`IntervalMethod`, or ``None``.
    """
    if method is None:
        return "no interval"
    return METHOD_TEXT.get(method, method)


FEW_GROUPS = 5
"""At or below this many tasks, a frequentist population interval is said to be uninformative (issue 36)."""


def few_groups_note(groups: int, reliable: int, mode: str, full: int, intervals: int) -> str:
    """The note on a population interval from fewer than ``reliable`` groups, in words.

    With :data:`FEW_GROUPS` or fewer tasks the frequentist interval (a bootstrap over the tasks widened to
    hold the hierarchical interval) has almost nothing to resample: it is often exactly [0, 1], and from 4
    tasks on its bounds can move with the seed. "It may cover less often" undersold that; the note says
    what it is and points to Bayesian mode, whose population interval is narrower there, never [0, 1] and
    steady across seeds (``benchmarks/bench_few_tasks.py``; the figures are in ``benchmarks/RESULTS.md``).

    Args:
        groups: The groups (tasks) the interval is over, more than 1.
        reliable: From this many groups on, no note is needed.
        mode: ``frequentist`` or ``bayesian``.
        full: How many of the curve's intervals are exactly [0, 1].
        intervals: How many intervals the curve has.
    """
    if groups <= FEW_GROUPS and mode == "frequentist":
        here = f" (here {full} of its {intervals} intervals)" if full else ""
        return (
            f"only {groups} groups: with {FEW_GROUPS} or fewer tasks the task population is not pinned down, so the "
            f"frequentist interval for it is unreliable and says little: it is often [0, 1]{here}, and from 4 "
            "tasks on its bounds can move with the seed. Bayesian mode's population interval is narrower here, "
            "never [0, 1] and steady across seeds, and in simulation covered nearly as often (Statistics: few tasks)"
        )
    if groups <= FEW_GROUPS:
        return (
            f"only {groups} groups: a population interval from {FEW_GROUPS} or fewer tasks is unreliable: it leans "
            "on the model of task difficulty, and in simulation covered a little less often than its level in the "
            "worst cases (Statistics: few tasks)"
        )
    return (
        f"only {groups} groups: an interval for the population from fewer than {reliable} tasks is unreliable "
        "(it may cover the truth much less often than its level says)"
    )
