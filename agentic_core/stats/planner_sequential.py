"""Stopping an expensive comparison early: a group-sequential rule over paired tasks.

The planned T tasks are judged in ``looks`` equal batches. After each batch the paired z statistic
of the tasks so far, z = mean(d) / (sd(d) / sqrt(m)) with d_i the per-task difference of the two
agents' unbiased pass@k / pass^k estimates, is compared with that look's boundary; the comparison
stops as soon as |z| crosses it. The boundaries keep the overall two-sided error rate at 1 - level
although the data are looked at several times (Jennison and Turnbull, *Group Sequential Methods with
Applications to Clinical Trials*, 2000, chapter 2):

- ``obrien-fleming``: c sqrt(looks / j) at look j: very strict early, close to the fixed test at the end
  (the default: the last look loses almost no power);
- ``pocock``: the same c at every look: stops earlier when the difference is large, at a higher final bar.

c is found for the exact joint law of the looks' z statistics (a Brownian motion observed at
information fractions j / looks) by bisection on a seeded Monte Carlo of that law, so the same
arguments always give the same boundaries. The error rate of the whole rule on simulated agents is
checked in ``benchmarks/bench_planner.py``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

import numpy as np

from agentic_core.errors import SettingsError
from agentic_core.settings.rules import check_level

Boundary = Literal["obrien-fleming", "pocock"]
_PATHS = 400_000
_SEED = 20261127
MAX_LOOKS = 20


@lru_cache(maxsize=64)
def sequential_bounds(looks: int, level: float = 0.95, kind: Boundary = "obrien-fleming") -> tuple[float, ...]:
    """The |z| boundary of each look, keeping the overall two-sided error rate at ``1 - level``.

    Args:
        looks: Number of looks (1 to :data:`MAX_LOOKS`); 1 is the fixed test.
        level: 0.95 for a 5% two-sided error rate.
        kind: ``obrien-fleming`` or ``pocock``.

    Raises:
        SettingsError: looks or kind out of range.
    """
    lvl = check_level(level)
    if isinstance(looks, bool) or not isinstance(looks, int) or not 1 <= looks <= MAX_LOOKS:
        raise SettingsError("looks", f"must be a whole number from 1 to {MAX_LOOKS}", looks, "give e.g. 3")
    if kind not in ("obrien-fleming", "pocock"):
        raise SettingsError("boundary", "must be 'obrien-fleming' or 'pocock'", kind, "give obrien-fleming")
    rng = np.random.default_rng([_SEED, looks])
    # z at look j is the sum of j independent N(0, 1) increments over sqrt(j): the exact joint law.
    z = np.cumsum(rng.standard_normal((_PATHS, looks)), axis=1) / np.sqrt(np.arange(1, looks + 1))
    shape = np.sqrt(looks / np.arange(1, looks + 1)) if kind == "obrien-fleming" else np.ones(looks)
    # The statistic each path is judged by: its largest |z| relative to the boundary's shape.
    worst = np.max(np.abs(z) / shape, axis=1)
    c = float(np.quantile(worst, lvl))
    return tuple(float(x) for x in c * shape)


def sequential_decision(
    differences: np.ndarray, look: int, looks: int, level: float = 0.95, kind: Boundary = "obrien-fleming"
) -> Literal["B better", "A better", "continue", "no difference shown"]:
    """What the rule says after ``look`` of ``looks`` batches, from the per-task differences so far.

    Args:
        differences: B - A per task judged so far (unbiased per-task estimates of the metric).
        look: This look, 1-based.
        looks: Planned looks.
        level: 0.95 for a 5% two-sided error rate.
        kind: The boundary.

    Returns:
        ``B better`` / ``A better`` (stop), ``continue``, or at the last look ``no difference shown``.

    Raises:
        SettingsError: a look out of range, or fewer than two tasks.
    """
    bounds = sequential_bounds(looks, level, kind)
    if isinstance(look, bool) or not isinstance(look, int) or not 1 <= look <= looks:
        raise SettingsError("look", f"must be a whole number from 1 to {looks}", look, "count the looks from 1")
    d = np.asarray(differences, dtype=np.float64)
    if d.size < 2:
        raise SettingsError("differences", "needs at least two tasks", int(d.size), "judge a batch of tasks first")
    sd = float(d.std(ddof=1))
    mean = float(d.mean())
    z = math.copysign(math.inf, mean) if sd == 0.0 and mean else (0.0 if sd == 0.0 else mean / (sd / math.sqrt(d.size)))
    if abs(z) >= bounds[look - 1]:
        return "B better" if z > 0 else "A better"
    return "continue" if look < looks else "no difference shown"
