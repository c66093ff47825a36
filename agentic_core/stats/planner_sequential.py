"""Stopping an expensive comparison early: a group-sequential rule over paired tasks.

The planned T tasks are judged in ``looks`` equal batches of ``batch`` tasks. After each batch the paired t
statistic of the m tasks so far, t = mean(d) / (sd(d) / sqrt(m)) with d_i the per-task difference of the two
agents' unbiased pass@k / pass^k estimates, is compared with that look's boundary; the comparison stops at the
first look where |t| crosses it and the sign-flip test below agrees. The boundaries keep the overall two-sided
error rate at 1 - level although the data are looked at several times (Jennison and Turnbull, *Group
Sequential Methods with Applications to Clinical Trials*, 2000, chapters 2 and 3.8):

- ``obrien-fleming``: c sqrt(looks / j) at look j on the normal scale: very strict early, close to the fixed
  test at the end (the default: the last look loses almost no power);
- ``pocock``: the same c at every look: stops earlier when the difference is large, at a higher final bar.

With an estimated sd the statistic is a t on m - 1 degrees of freedom, not a z: compared with the normal
boundaries it rejects a true null far more often than 1 - level when the batches are small (the first look's
t has a few degrees of freedom and heavy tails). So each look's boundary is on the t scale of its own degrees
of freedom, at the nominal significance the normal shape gives that look (the "significance level approach" of
Jennison and Turnbull, section 3.8), and c is chosen for the exact joint law of the looks' t statistics for
normal differences in equal batches: a seeded Monte Carlo of the batch sums and within-batch sums of squares, so
the same arguments always give the same boundaries. Without ``batch``, :func:`sequential_bounds` gives the
large-sample (normal) boundaries, the published constants.

Each look needs at least :data:`MIN_BATCH` tasks: below it the rule is refused. The t boundaries are exact
for normal differences; per-task differences of pass@k / pass^k estimates take few values (0 and +-1 for
pass^1 with one attempt), and on them the t alone crosses its bar more often than its normal model says. So a
look also asks the exact sign-flip test (:func:`~agentic_core.stats.sign_flip.sign_flip_p`: with no difference
between the agents each task's difference is as likely positive as negative) for a P at most the look's nominal
significance, and decides only when both agree. A look whose differences are all equal has sd 0 and no t; a
batch of identical differences is not proof by itself: the sign-flip test alone judges it (m equal non-zero
differences have P = 2^(1 - m)). The error rate of the whole rule is simulated over batch sizes 2 to 60 in
``benchmarks/bench_sequential.py``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr, stdtr, stdtrit

from agentic_core.errors import SettingsError
from agentic_core.settings.rules import check_level
from agentic_core.stats.sign_flip import sign_flip_p

Boundary = Literal["obrien-fleming", "pocock"]
Decision = Literal["B better", "A better", "continue", "no difference shown"]
_PATHS = 400_000
_SEED = 20261127
MAX_LOOKS = 20
MIN_BATCH = 2
"""The fewest tasks per look: one task leaves the first look's t without a degree of freedom."""
MAX_BATCH = 10**7
"""Above this many tasks per look the t boundaries are the normal ones to three decimals; checking stops here."""


def _check(looks: object, kind: object, batch: object) -> None:
    if isinstance(looks, bool) or not isinstance(looks, int) or not 1 <= looks <= MAX_LOOKS:
        raise SettingsError("looks", f"must be a whole number from 1 to {MAX_LOOKS}", looks, "give e.g. 3")
    if kind not in ("obrien-fleming", "pocock"):
        raise SettingsError("boundary", "must be 'obrien-fleming' or 'pocock'", kind, "give obrien-fleming")
    if batch is not None and (
        isinstance(batch, bool) or not isinstance(batch, int) or not MIN_BATCH <= batch <= MAX_BATCH
    ):
        raise SettingsError(
            "tasks per look",
            f"must be a whole number from {MIN_BATCH} to {MAX_BATCH:,}: a look needs {MIN_BATCH} tasks for a t "
            "statistic",
            batch,
            f"judge at least {MIN_BATCH} tasks per look, or plan fewer looks",
        )


def _shape(looks: int, kind: Boundary) -> NDArray[np.float64]:
    return np.sqrt(looks / np.arange(1, looks + 1)) if kind == "obrien-fleming" else np.ones(looks)


def _t_paths(rng: np.random.Generator, looks: int, batch: int) -> NDArray[np.float64]:
    """|t| of each look for normal differences with mean 0, one row per simulated comparison.

    Exact and linear in looks: per batch its sum ~ N(0, batch) and its sum of squares about its own mean
    ~ chi-square(batch - 1), independent; the sums of squares about the running mean follow from them.
    """
    sums = rng.standard_normal((_PATHS, looks)) * math.sqrt(batch)
    squares = rng.chisquare(batch - 1, (_PATHS, looks))
    squares += sums**2 / batch
    np.cumsum(squares, axis=1, out=squares)
    tasks = batch * np.arange(1, looks + 1)
    np.cumsum(sums, axis=1, out=sums)  # now the running totals
    squares -= sums**2 / tasks
    np.maximum(squares, 0.0, out=squares)
    # |t| = |total / m| / (sd / sqrt(m)) = |total| / sqrt(m) / sqrt(squares / (m - 1))
    return np.asarray(np.abs(sums) / np.sqrt(tasks) / np.sqrt(squares / (tasks - 1)))


def _t_bounds(c: float, shape: NDArray[np.float64], df: NDArray[np.float64]) -> NDArray[np.float64]:
    """The |t| boundary of each look with the two-sided P of the normal boundary c x shape there."""
    # Floored: stdtrit(df, 0) is +inf, the wrong side (a boundary so far out is never reached anyway).
    return np.asarray(-stdtrit(df, np.maximum(ndtr(-c * shape), 1e-300)))


@lru_cache(maxsize=128)
def sequential_bounds(
    looks: int, level: float = 0.95, kind: Boundary = "obrien-fleming", batch: int | None = None
) -> tuple[float, ...]:
    """The boundary of each look, keeping the overall two-sided error rate at ``1 - level``.

    Args:
        looks: Number of looks (1 to :data:`MAX_LOOKS`); 1 is the fixed test.
        level: 0.95 for a 5% two-sided error rate.
        kind: ``obrien-fleming`` or ``pocock``.
        batch: Tasks per look (equal batches, at least :data:`MIN_BATCH`): the boundaries for the paired t
            statistic on these degrees of freedom. ``None``: the large-sample boundaries for a z statistic.

    Returns:
        One boundary per look, for |t| (with ``batch``) or |z|.

    Raises:
        SettingsError: looks, kind or batch out of range.
    """
    lvl = check_level(level)
    _check(looks, kind, batch)
    rng = np.random.default_rng([_SEED, looks] if batch is None else [_SEED, looks, batch])
    shape = _shape(looks, kind)
    if batch is None:
        # z at look j is the sum of j independent N(0, 1) increments over sqrt(j): the exact joint law.
        z = np.abs(np.cumsum(rng.standard_normal((_PATHS, looks)), axis=1)) / np.sqrt(np.arange(1, looks + 1))
        # The statistic each path is judged by: its largest |z| relative to the boundary's shape.
        c = float(np.quantile(np.max(z / shape, axis=1), lvl))
        return tuple(float(x) for x in c * shape)
    df = np.asarray(batch * np.arange(1, looks + 1) - 1.0, dtype=np.float64)
    t = _t_paths(rng, looks, batch)
    # The share of paths crossing falls as c rises: bisect for the c whose t boundaries give 1 - level.
    low, high = 0.0, 12.0
    for _ in range(40):
        mid = (low + high) / 2.0
        crossing = float(np.mean(np.any(t >= _t_bounds(mid, shape, df), axis=1)))
        low, high = (mid, high) if crossing > 1.0 - lvl else (low, mid)
    return tuple(float(x) for x in _t_bounds(high, shape, df))


def nominal_levels(
    looks: int, level: float = 0.95, kind: Boundary = "obrien-fleming", batch: int | None = None
) -> tuple[float, ...]:
    """Each look's nominal two-sided significance: P(|statistic| >= that look's boundary) for that look alone.

    With ``batch``, the t distribution of each look's degrees of freedom; the sign-flip test of a look whose
    differences are all equal uses these significances too.
    """
    bounds = np.array(sequential_bounds(looks, level, kind, batch))
    if batch is None:
        return tuple(float(x) for x in 2.0 * ndtr(-bounds))
    df = batch * np.arange(1, looks + 1) - 1.0
    return tuple(float(x) for x in 2.0 * stdtr(df, -bounds))


def look_verdicts(
    differences: NDArray[np.float64], look: int, looks: int, level: float, kind: Boundary, batch: int
) -> NDArray[np.int8]:
    """+1 (B better), -1 (A better) or 0 (no crossing) for each row of per-task differences at one look.

    A row crosses when its |t| reaches the look's t boundary and the exact sign-flip P of its sum is at most the
    look's nominal significance (:func:`~agentic_core.stats.sign_flip.sign_flip_p`). Differences that are all
    equal have no t: the sign-flip test alone decides them.

    Args:
        differences: One row per comparison, the first ``look x batch`` tasks' differences B - A.
        look: This look, 1-based.
        looks: Planned looks.
        level: 0.95 for a 5% two-sided error rate.
        kind: The boundary.
        batch: Tasks per look.
    """
    d = np.asarray(differences, dtype=np.float64)
    m = d.shape[1]
    t_bound = sequential_bounds(looks, level, kind, batch)[look - 1]
    mean = d.mean(axis=1)
    sd = d.std(axis=1, ddof=1)
    # Identical differences (sd 0, or a rounding residue of it): no t, so no bar from it.
    same = np.ptp(d, axis=1) <= 1e-12 * np.max(np.abs(d), axis=1)
    t = np.where(same, np.inf, np.abs(mean) / np.where(same, 1.0, sd) * math.sqrt(m))
    crossed = (t >= t_bound) & (mean != 0.0)
    nominal = nominal_levels(looks, level, kind, batch)[look - 1]
    # The t's normal model is exact for normal differences only: few distinct values (0 and +-1 for pass^1)
    # push a t past its bar more often than that. The sign-flip P is exact for any differences a tie between
    # the agents makes symmetric, so a look decides only when both agree.
    for row in np.flatnonzero(crossed):
        crossed[row] = sign_flip_p(d[row]) <= nominal
    return np.where(crossed, np.sign(mean), 0).astype(np.int8)


def sequential_decision(
    differences: NDArray[np.float64] | list[float],
    look: int,
    looks: int,
    level: float = 0.95,
    kind: Boundary = "obrien-fleming",
    batch: int | None = None,
) -> Decision:
    """What the rule says after ``look`` of ``looks`` batches, from the per-task differences so far.

    Args:
        differences: B - A per task judged so far (unbiased per-task estimates of the metric).
        look: This look, 1-based.
        looks: Planned looks.
        level: 0.95 for a 5% two-sided error rate.
        kind: The boundary.
        batch: Tasks per look (default: the tasks so far / ``look``, rounded down: a smaller batch has the
            stricter boundaries).

    Returns:
        ``B better`` / ``A better`` (stop), ``continue``, or at the last look ``no difference shown``.

    Raises:
        SettingsError: a look out of range, or fewer than :data:`MIN_BATCH` tasks per look.
    """
    _check(looks, kind, None)
    if isinstance(look, bool) or not isinstance(look, int) or not 1 <= look <= looks:
        raise SettingsError("look", f"must be a whole number from 1 to {looks}", look, "count the looks from 1")
    d = np.asarray(differences, dtype=np.float64).ravel()
    if d.size < MIN_BATCH * look:
        raise SettingsError(
            "differences",
            f"needs at least {MIN_BATCH} tasks per look ({MIN_BATCH * look} by look {look})",
            int(d.size),
            "judge a batch of tasks first",
        )
    if not np.all(np.isfinite(d)):
        raise SettingsError("differences", "must be finite numbers", d[~np.isfinite(d)][:3].tolist(), "drop them")
    verdict = int(look_verdicts(d[None, :], look, looks, level, kind, batch or d.size // look)[0])
    if verdict:
        return "B better" if verdict > 0 else "A better"
    return "continue" if look < looks else "no difference shown"
