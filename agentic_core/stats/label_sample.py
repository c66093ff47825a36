"""Which tasks to label: the review queue's draws, chosen so the corrected estimate stays unbiased.

Two designs (docs/when-the-judge-is-wrong.md):

- **random tasks** (the default): a seeded random permutation of the tasks; the queue is its first ``size``
  tasks. Any prefix of a random permutation is a uniform random sample of tasks, so stopping early keeps the
  estimate unbiased, and a larger queue (more labels asked for) only appends tasks.
- **uncertain first**: Poisson sampling (each task drawn on its own, with probability pi_t) with pi_t
  proportional to a weight that favours tasks holding items the judge could not decide, capped at 1 and scaled
  so that the pi_t sum to ``size`` (Sarndal, Swensson and Wretman, *Model Assisted Survey Sampling*, 1992,
  section 3.6). Every task keeps pi_t > 0 (the weights have a floor), and each label carries its task's pi_t,
  so the corrected estimate weights it by 1 / pi_t (Horvitz-Thompson; active inference, Zrnic and Candes,
  ICML 2024) and stays unbiased. The probabilities hold for the whole drawn sample: the estimate is unbiased
  once every drawn task is labelled.

Both draws depend only on the number of tasks, the weights and the seed: the same queue on every reload.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict

from agentic_core.errors import SettingsError
from agentic_core.stats.counts import FloatArray, seed_entropy

# Random-stream tag of the review queue's draws (distinct from the other modules' tags).
TAG_QUEUE = 3701


class TaskDraw(BaseModel):
    """The tasks drawn for labelling, in the order the queue shows them.

    Attributes:
        tasks: Task indices (0..T-1), in queue order.
        inclusion: Per task index (length T), its probability of being drawn (``size / T`` for random tasks).
        weighted: Whether the inclusion probabilities differ between tasks (uncertain first).
    """

    model_config = ConfigDict(frozen=True)

    tasks: tuple[int, ...]
    inclusion: tuple[float, ...]
    weighted: bool


def _rng(seed: int, n_tasks: int, weighted: bool) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([TAG_QUEUE, seed_entropy(seed), n_tasks, int(weighted)]))


def capped_inclusion(weights: ArrayLike, size: float) -> FloatArray:
    """Inclusion probabilities proportional to ``weights``, capped at 1, summing to ``size``.

    Tasks whose share would exceed 1 are taken with certainty and the rest rescaled, until none exceeds 1.

    Args:
        weights: Positive weights, one per task.
        size: The expected number of tasks drawn, in (0, T].

    Raises:
        SettingsError: a weight that is not positive and finite, or a size outside (0, T].
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 1 or not w.size or not np.all(np.isfinite(w) & (w > 0.0)):
        raise SettingsError("weights", "must be positive finite numbers, one per task", w.size, "give weights > 0")
    if not 0.0 < size <= w.size:
        raise SettingsError("size", f"must be in (0, {w.size}]", size, "ask for at most every task")
    certain = np.zeros(w.size, dtype=bool)
    while not certain.all():
        rest = size - certain.sum()
        pi = np.where(certain, 1.0, rest * w / w[~certain].sum())
        over = ~certain & (pi >= 1.0)
        if not over.any():
            return np.minimum(pi, 1.0)
        certain |= over
    return np.ones(w.size)


def draw_tasks(n_tasks: int, size: int, seed: int, weights: ArrayLike | None = None) -> TaskDraw:
    """Draw the tasks to label: a seeded random sample (``weights`` None) or a weighted Poisson sample.

    Args:
        n_tasks: Tasks T.
        size: Tasks asked for (the expected number for the weighted draw), 1..T.
        seed: The random seed (the same seed gives the same queue).
        weights: Per task, a positive weight (uncertain first); None for a uniform sample.

    Returns:
        The :class:`TaskDraw`: for the weighted draw, the drawn tasks in increasing ``U / pi`` (the order a
        task would enter a growing sample), each with its inclusion probability.

    Raises:
        SettingsError: T < 1, a size outside 1..T, or bad weights.
    """
    if not isinstance(n_tasks, int) or n_tasks < 1:
        raise SettingsError("tasks", "must be a whole number >= 1", n_tasks, "draw from a run with tasks")
    if not isinstance(size, (int, np.integer)) or not 1 <= size <= n_tasks:
        raise SettingsError("size", f"must be a whole number in 1..{n_tasks}", size, "ask for at most every task")
    rng = _rng(seed, n_tasks, weights is not None)
    if weights is None:
        order = rng.permutation(n_tasks)
        return TaskDraw(
            tasks=tuple(int(t) for t in order[: int(size)]),
            inclusion=tuple([size / n_tasks] * n_tasks),
            weighted=False,
        )
    pi = capped_inclusion(weights, float(size))
    if pi.size != n_tasks:
        raise SettingsError("weights", f"must have one weight per task ({n_tasks})", pi.size, "align the arrays")
    u = rng.random(n_tasks)
    drawn = np.flatnonzero(u < pi)
    order = drawn[np.argsort(u[drawn] / pi[drawn], kind="stable")]
    return TaskDraw(tasks=tuple(int(t) for t in order), inclusion=tuple(float(p) for p in pi), weighted=True)
