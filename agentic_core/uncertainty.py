"""The Uncertainty page's numbers: Bayesian posteriors of the dataset-level values and per task.

Computed from an aggregate whatever its mode (a frequentist view can still show the posterior
next to its bootstrap), with the aggregate's prior, level, seed and number of draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from agentic_core import stats
from agentic_core.aggregate import Aggregate


@dataclass
class PosteriorView:
    """Posterior draws and exact Bayesian summaries at K for one aggregate.

    Attributes:
        samples: Draws of the mean success rate, pass@k and pass^k for k in {1, K}.
        point: The Bayesian curve point at K (posterior means, credible intervals, method).
        tasks: Per-task Bayesian table (unit ``task`` only), else ``None``.
        k: The K.
    """

    samples: stats.PosteriorSamples
    point: stats.CurvePoint
    tasks: pd.DataFrame | None
    k: int
    _agg: Aggregate
    _probs: dict[float, float] = field(default_factory=dict)

    def prob_pass_pow_exceeds(self, target: float) -> float:
        """P(pass^K > target) under the posterior (exact for one group; memoised per target)."""
        if target not in self._probs:
            s = self._agg.settings
            self._probs[target] = stats.prob_pass_pow_exceeds(
                self._agg.groups["n"].to_numpy(dtype=np.int64),
                self._agg.groups["c"].to_numpy(dtype=np.int64),
                s.k,
                target,
                s.prior_a,
                s.prior_b,
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
    groups = agg.groups
    n = groups["n"].to_numpy(dtype=np.int64)
    c = groups["c"].to_numpy(dtype=np.int64)
    samples = stats.posterior_samples(
        n, c, sorted({1, s.k}), prior=s.prior, seed=s.seed, n_samples=s.n_samples, level=s.ci_level
    )
    point = stats.dataset_curve(
        n, c, [s.k], mode="bayesian", prior=s.prior, level=s.ci_level, seed=s.seed, n_samples=s.n_samples
    )[0]
    tasks = None
    if agg.unit == "task":
        if s.mode == "bayesian":
            tasks = groups
        else:
            tasks = stats.group_table(n, c, s.k, mode="bayesian", prior=s.prior, level=s.ci_level)
            tasks.insert(0, "group", groups["group"].to_numpy())
    return PosteriorView(samples=samples, point=point, tasks=tasks, k=s.k, _agg=agg)
