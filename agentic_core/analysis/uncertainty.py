"""The Uncertainty page's numbers: Bayesian posteriors for the task population and per task, and shrinkage.

Computed from an aggregate whatever its mode (a frequentist view can still show the posterior next
to its bootstrap), with the aggregate's target, prior, level, seed and number of draws:

- the dataset-level posterior: the population values under the hierarchical model (target
  ``population``) or the mean over these tasks (target ``these-tasks``);
- per task: each task's own Beta posterior (its prior, its attempts only) and, with two or more
  tasks, its posterior under the hierarchical model, shrunk towards the population: a task with few
  attempts moves most.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from agentic_core import stats
from agentic_core.analysis.aggregate import Aggregate
from agentic_core.analysis.k_evidence import withheld
from agentic_core.common.frame_columns import GroupCols, ShrinkageCols
from agentic_core.stats.counts import content_seed, distinct_pairs, seed_entropy
from agentic_core.stats.hierarchical import hyper_posterior, shrunk_tasks

TAG_SHRINKAGE = 6


@dataclass
class PosteriorView:
    """Posterior draws and exact Bayesian summaries at K for one aggregate.

    Attributes:
        samples: Draws of the success rate, pass@k and pass^k for k in {1, K}.
        point: The Bayesian curve point at K for the aggregate's target (posterior means,
            credible intervals, method, notes); pass@K / pass^K ``None`` when the data does not measure
            them (:attr:`~agentic_core.analysis.aggregate.Aggregate.k_evidence`).
        tasks: Per task (unit ``task`` only), its own Beta posterior (``success_rate`` etc., as in
            :func:`agentic_core.stats.group_table`) and, with two or more tasks, ``shrunk_p`` with
            ``shrunk_p_low`` / ``shrunk_p_high``: its success probability under the hierarchical
            model. ``None`` for other units.
        k: The K.
        population: Whether the dataset-level numbers are for the task population (else these tasks).
    """

    samples: stats.PosteriorSamples
    point: stats.CurvePoint
    tasks: pd.DataFrame | None
    k: int
    population: bool
    _agg: Aggregate
    _probs: dict[float, float] = field(default_factory=dict)

    def prob_pass_pow_exceeds(self, target: float) -> float:
        """P(pass^K > target) under the posterior (exact for one group or the population; memoised)."""
        if target not in self._probs:
            s = self._agg.settings
            self._probs[target] = stats.prob_pass_pow_exceeds(
                self._agg.groups[GroupCols.N].to_numpy(dtype=np.int64),
                self._agg.groups[GroupCols.C].to_numpy(dtype=np.int64),
                self.k,
                target,
                s.prior_a,
                s.prior_b,
                population=self.population,
                seed=s.seed,
                n_samples=s.n_samples,
            )
        return self._probs[target]


def posterior_view(agg: Aggregate) -> PosteriorView:
    """The Bayesian posteriors of ``agg``'s groups at its K, whatever the aggregate's mode.

    Raises:
        UndefinedEstimateError: no group has a scored attempt.
    """
    s = agg.settings
    k = agg.k
    groups = agg.groups
    n = groups[GroupCols.N].to_numpy(dtype=np.int64)
    c = groups[GroupCols.C].to_numpy(dtype=np.int64)
    options = {"prior": s.prior, "level": s.ci_level, "seed": s.seed, "n_samples": s.n_samples}
    samples = stats.posterior_samples(n, c, sorted({1, k}), target=s.target, **options)  # type: ignore[arg-type]
    point = stats.dataset_curve(n, c, [k], mode="bayesian", target=s.target, **options)[0]  # type: ignore[arg-type]
    point = withheld(point, agg.k_evidence)  # one attempt per task: no posterior pass@K to show as measured
    tasks = None
    if agg.unit == "task":
        tasks = stats.group_table(n, c, k, mode="bayesian", prior=s.prior, level=s.ci_level)
        tasks.insert(0, GroupCols.GROUP, groups[GroupCols.GROUP].to_numpy())
        scored = n > 0
        if int(scored.sum()) >= 2:
            tasks = _with_shrinkage(tasks, n, c, scored, k, s.ci_level, s.seed, s.n_samples)
    return PosteriorView(
        samples=samples,
        point=point,
        tasks=tasks,
        k=k,
        population=s.target == "population" and point.n_groups > 1,
        _agg=agg,
    )


def _with_shrinkage(
    tasks: pd.DataFrame, n: np.ndarray, c: np.ndarray, scored: np.ndarray, k: int, level: float, seed: int, draws: int
) -> pd.DataFrame:
    """Add each task's success probability under the hierarchical model (NaN for unscored tasks)."""
    pairs = distinct_pairs(n[scored], c[scored])
    post = hyper_posterior(pairs, np.array(sorted({1, k}), dtype=np.int64), level)
    sd = seed_entropy(seed)
    shrunk = shrunk_tasks(post, pairs, level, draws, content_seed(TAG_SHRINKAGE, sd, pairs.n, pairs.c, pairs.m))
    out = tasks.copy()
    # ShrinkageCols.ALL in order, each from its column of the shrunk estimates.
    for name, column in zip(ShrinkageCols.ALL, ("mean", "low", "high"), strict=True):
        values = np.full(len(out), np.nan)
        values[scored] = shrunk[column][pairs.inverse]
        out[name] = values
    return out
