"""pass@k and pass^k estimators, frequentist and Bayesian (docs/statistics.md): pure functions.

Vocabulary: a *group* is one unit of trial (a task, the whole set of conversations, or one
conversation's interactions) with ``n`` attempts of which ``c`` are correct.

Per group:

- ``unbiased`` (Chen et al. 2021): pass@k = 1 - C(n-c, k) / C(n, k), pass^k = C(c, k) / C(n, k),
  defined only for k <= n, computed as products of ratios (never huge binomials).
- ``plug-in`` (seed 003): p = c/n, pass@k = 1 - (1-p)^k, pass^k = p^k, any k.
- Bayesian: p ~ Beta(a + c, b + n - c); posterior means of p^k and 1 - (1-p)^k are exact products,
  credible bounds are Beta quantiles pushed through the (increasing) transforms.

Over a dataset the value is the mean over groups of the per-group value. Its interval is a
bootstrap over groups (frequentist) or a seeded Monte Carlo of the posterior of the mean
(Bayesian; exact Beta draws for few groups, the total's exact cumulants with a Cornish-Fisher
correction for many). Both work on the *distinct* (n, c) pairs with their multiplicities, in
sorted order, and seed from the data's content, so shuffling or renaming the groups never changes
a number and the cost grows with the number of distinct pairs, not of groups.

Undefined is never 0 or 1: scalar functions raise :class:`UndefinedEstimateError`; vectorised
functions return NaN with a ``defined`` mask; dataset functions exclude such groups and count them.

Modules: :mod:`~agentic_core.stats.estimators` (point estimates), :mod:`~agentic_core.stats.intervals`
(one group, per-group tables), :mod:`~agentic_core.stats.curve` (the dataset curve),
:mod:`~agentic_core.stats.posterior` (Bayesian draws), :mod:`~agentic_core.stats.bootstrap`,
:mod:`~agentic_core.stats.cumulants`, :mod:`~agentic_core.stats.methods` (how an interval was made,
in words), :mod:`~agentic_core.stats.interpretation` (seed 001's labels), :mod:`~agentic_core.stats.compare`
(two agents on paired tasks: deltas, intervals, P(B > A)), :mod:`~agentic_core.stats.joint` (several agents'
joint draws), :mod:`~agentic_core.stats.leaderboard` (ranks) and :mod:`~agentic_core.stats.planner` (how many
attempts an evaluation needs). Corrected for the judge's errors with human labels (issue 37):
:mod:`~agentic_core.stats.ppi` (the PPI++ mean), :mod:`~agentic_core.stats.corrected` (the corrected curve),
:mod:`~agentic_core.stats.corrected_compare` (the corrected paired difference of two runs) and
:mod:`~agentic_core.stats.label_plan` (how many labels). Pure functions throughout; this face is what callers
outside use (eager).
"""

from agentic_core.stats.compare import MetricComparison
from agentic_core.stats.corrected import corrected_curve
from agentic_core.stats.corrected_compare import CorrectedDifference, corrected_difference
from agentic_core.stats.corrected_models import CorrectedCurve, CorrectedPoint, JudgeAgreement
from agentic_core.stats.curve import RELIABLE_GROUPS, CurvePoint, dataset_curve, included_groups, needs_k_attempts
from agentic_core.stats.estimators import pass_at_k, pass_at_k_array, pass_pow_k, pass_pow_k_array
from agentic_core.stats.interpretation import Label, explain_label, interpret
from agentic_core.stats.intervals import (
    Estimate,
    Metric,
    group_table,
    posterior_estimate,
    wilson_interval,
)
from agentic_core.stats.label_plan import LabelPlan, labels_needed
from agentic_core.stats.leaderboard import Leaderboard
from agentic_core.stats.methods import IntervalMethod, describe_method
from agentic_core.stats.planner import DEFAULT_ATTEMPTS, Plan, PlanMetric, Requirement, plan_evaluation
from agentic_core.stats.planner_bounds import MAX_UNSCORED, spread_limits
from agentic_core.stats.planner_variance import TaskPopulation, pilot_population, rates_population
from agentic_core.stats.posterior import PosteriorSamples, posterior_samples, prob_pass_pow_exceeds
from agentic_core.stats.ppi import PPIMean, ppi_mean

__all__ = [
    "DEFAULT_ATTEMPTS", "MAX_UNSCORED", "RELIABLE_GROUPS", "CorrectedCurve", "CorrectedDifference", "CorrectedPoint",
    "CurvePoint", "Estimate", "IntervalMethod", "JudgeAgreement", "Label", "LabelPlan", "Leaderboard", "Metric",
    "MetricComparison", "PPIMean", "Plan", "PlanMetric", "PosteriorSamples", "Requirement", "TaskPopulation",
    "corrected_curve", "corrected_difference", "dataset_curve", "describe_method", "explain_label", "group_table",
    "included_groups", "interpret", "labels_needed", "needs_k_attempts", "pass_at_k", "pass_at_k_array",
    "pass_pow_k", "pass_pow_k_array", "pilot_population", "plan_evaluation", "posterior_estimate",
    "posterior_samples", "ppi_mean", "prob_pass_pow_exceeds", "rates_population", "spread_limits", "wilson_interval",
]  # fmt: skip
