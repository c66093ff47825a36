"""The planner's limits: every number it takes is checked here before anything is computed or allocated.

The planner's sums run over the n + 1 outcomes of a task's attempts for each population cell, so its time and
memory grow with the attempts asked for (``--attempts 1000000000000`` asked numpy for 7 TiB); a Beta parameter
of 1e308 overflows its sums into NaN. The limits are far above any real evaluation and keep each plan within
seconds and megabytes (docs/statistics.md, "Planning a run").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from agentic_core.errors import SettingsError

MAX_TASKS = 10**9
"""The most tasks in the table; a requirement above it is reported as unreachable (``None``)."""
MAX_ATTEMPTS = 1000
"""The most attempts per task (planned, or in a pilot's counts) and the largest k (``check_k``'s maximum)."""
MAX_CHOICES = 200
"""The most values in the table's list of task counts, and in its list of attempts."""
MIN_BETA = 1e-3
"""The smallest Beta parameter of a task population or a prior (below: every task all-or-nothing)."""
MAX_BETA = 1e4
"""The largest Beta parameter of a task population or a prior (above: every task the same)."""
MAX_INTERACTIONS = 10_000
"""The most judge calls one attempt can cost."""
MAX_UNSCORED = 0.95
"""The largest share of judge calls that may come back unscored (above it, nearly nothing is measured)."""


def _finite_real(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def whole_numbers(values: Sequence[int], place: str, top: int) -> list[int]:
    """Distinct whole numbers from 1 to ``top``, sorted; at most :data:`MAX_CHOICES` of them.

    Raises:
        SettingsError: not whole numbers (2.5 and "3" are refused, not rounded), out of range, or too many.
    """
    items = list(values)
    if len(items) > MAX_CHOICES:
        raise SettingsError(
            place, f"must hold at most {MAX_CHOICES} values", f"{len(items)} values", "give fewer, e.g. 1,2,4,8"
        )
    # Numpy integers are whole numbers too (they have __index__); bools are not counts.
    if not items or not all(hasattr(v, "__index__") and not isinstance(v, bool) and v >= 1 for v in items):
        raise SettingsError(place, "must be whole numbers >= 1", items, "give e.g. 1,2,4,8")
    too_big = [int(v) for v in items if v > top]
    if too_big:
        raise SettingsError(place, f"must be at most {top:,}", too_big[0], f"give values from 1 to {top:,}")
    return sorted({int(v) for v in items})


def check_between(
    value: object, place: str, rule: str, low: float, high: float, fix: str, *, closed: bool = False
) -> float:
    """A finite number strictly between ``low`` and ``high`` (from ``low`` to ``high`` when ``closed``).

    Raises:
        SettingsError: naming ``place`` with ``rule``.
    """
    inside = _finite_real(value) and (
        low <= float(value) <= high if closed else low < float(value) < high  # type: ignore[arg-type]
    )
    if not inside:
        raise SettingsError(place, rule, value, fix)
    return float(value)  # type: ignore[arg-type]


def check_beta_parameter(value: object, place: str, fix: str) -> float:
    """A Beta parameter (of a task population or a prior): a finite number from :data:`MIN_BETA` to :data:`MAX_BETA`.

    Raises:
        SettingsError: naming ``place``.
    """
    if not _finite_real(value) or not MIN_BETA <= float(value) <= MAX_BETA:  # type: ignore[arg-type]
        raise SettingsError(place, f"must be a number from {MIN_BETA:g} to {MAX_BETA:g}", value, fix)
    return float(value)  # type: ignore[arg-type]


def check_prior_bounded(prior: object) -> tuple[float, float]:
    """The per-task Beta prior (a, b) of a plan, each within the Beta parameter limits.

    Raises:
        SettingsError: naming ``prior``, ``prior_a`` or ``prior_b``.
    """
    if not isinstance(prior, (tuple, list)) or len(prior) != 2:
        raise SettingsError("prior", "must be a pair (a, b)", prior, "give e.g. (1, 1)")
    fix = "give e.g. 1 (the uniform prior is (1, 1); Jeffreys is (0.5, 0.5))"
    return check_beta_parameter(prior[0], "prior_a", fix), check_beta_parameter(prior[1], "prior_b", fix)


def check_interactions(value: object) -> float:
    """Judge calls per attempt: a finite number above 0 and at most :data:`MAX_INTERACTIONS`.

    Raises:
        SettingsError: naming ``interactions per attempt``.
    """
    if not _finite_real(value) or not 0.0 < float(value) <= MAX_INTERACTIONS:  # type: ignore[arg-type]
        raise SettingsError(
            "interactions per attempt",
            f"must be a positive number, at most {MAX_INTERACTIONS:,}",
            value,
            "give e.g. 1 (judge calls one attempt costs)",
        )
    return float(value)  # type: ignore[arg-type]


def check_unscored_share(value: object) -> float:
    """The expected share of judge calls left unscored: a number from 0 to :data:`MAX_UNSCORED`.

    Raises:
        SettingsError: naming ``unscored share``.
    """
    if not _finite_real(value) or not 0.0 <= float(value) <= MAX_UNSCORED:  # type: ignore[arg-type]
        raise SettingsError(
            "unscored share",
            f"must be a number from 0 to {MAX_UNSCORED:g} (a share of judge calls)",
            value,
            "give e.g. 0.2 for a judge that abstains on one call in five, or 0 for a judge that always answers",
        )
    return float(value)  # type: ignore[arg-type]


def spread_limits(mean: float) -> tuple[float, float]:
    """The spreads of task difficulty a population with this mean success rate may have.

    The Beta with mean m and standard deviation s has a + b = m (1 - m) / s^2 - 1: its parameters stay within
    :data:`MIN_BETA` and :data:`MAX_BETA` for s in the returned range (always below sqrt(m (1 - m))).

    Args:
        mean: Mean success rate, strictly between 0 and 1.
    """
    var = mean * (1.0 - mean)
    low = math.sqrt(var / (1.0 + MAX_BETA / max(mean, 1.0 - mean)))
    high = math.sqrt(var / (1.0 + MIN_BETA / min(mean, 1.0 - mean)))
    return low, high
