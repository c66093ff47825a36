"""The validation rules of the settings, one function each (the settings model and the statistics both call them).
"""

from __future__ import annotations

import math
from typing import cast

from agentic_core.errors import SettingsError
from agentic_core.settings.choices import N_SAMPLES_RANGE, Estimator, Mode, Target
from agentic_core.settings.specs import SETTINGS

_PRIOR_FIX = "give two positive numbers: (1, 1) uniform or (0.5, 0.5) Jeffreys"


def _numpy_kind(value: object) -> str | None:
    """The dtype kind of a numpy scalar (``"i"``, ``"f"``, ...), ``None`` for anything else."""
    if getattr(value, "ndim", None) != 0:
        return None
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return kind if isinstance(kind, str) else None


def _is_real(value: object) -> bool:
    # bool is an int subclass: True must not silently mean 1.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    return _numpy_kind(value) in ("i", "u", "f")


def _is_whole(value: object) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return True
    return _numpy_kind(value) in ("i", "u")


def check_k(k: object, place: str = "k", maximum: int | None = None) -> int:
    """k is a genuine whole number >= 1 (``True``, ``2.5``, ``3.0`` and ``"3"`` are rejected, not rounded).

    Args:
        k: The candidate.
        place: The setting or argument named in the error.
        maximum: An upper bound, if any (the settings cap K at :data:`K_MAX`).

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_whole(k) or int(k) < 1:  # type: ignore[call-overload]
        raise SettingsError(place, "must be a whole number >= 1", k, "give a whole number k >= 1, e.g. 3")
    if maximum is not None and int(k) > maximum:  # type: ignore[call-overload]
        raise SettingsError(place, f"must be at most {maximum}", k, f"give a k between 1 and {maximum}")
    return int(k)  # type: ignore[call-overload]


def parse_k(text: str, place: str = "k") -> int | str:
    """``"auto"`` or a whole number written as text (a command line's or a URL's K), validated.

    Raises:
        SettingsError: anything else.
    """
    cleaned = text.strip().lower()
    if cleaned == "auto":
        return "auto"
    try:
        value = int(cleaned)
    except ValueError:
        raise SettingsError(
            place,
            "must be a whole number >= 1 or 'auto'",
            text,
            "give e.g. 5, or auto for the largest k most tasks support",
        ) from None
    return check_k(value, place)


def check_fraction(value: object, place: str, fix: str = "give a number between 0 and 1, e.g. 0.7") -> float:
    """A finite number in [0, 1] (thresholds, targets, probabilities).

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_real(value) or not 0.0 <= float(value) <= 1.0:  # type: ignore[arg-type]
        raise SettingsError(place, "must be a number between 0 and 1", value, fix)
    return float(value)  # type: ignore[arg-type]


def check_level(level: object, place: str = "ci_level") -> float:
    """An interval level strictly between 0 and 1.

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_real(level) or not 0.0 < float(level) < 1.0:  # type: ignore[arg-type]
        raise SettingsError(
            place, "must be a number strictly between 0 and 1", level, "give a level such as 0.95"
        )
    return float(level)  # type: ignore[arg-type]


def check_prior_value(value: object, place: str) -> float:
    """One Beta prior parameter: a finite number > 0.

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_real(value) or not math.isfinite(float(value)) or float(value) <= 0:  # type: ignore[arg-type]
        raise SettingsError(place, "must be a finite number > 0", value, _PRIOR_FIX)
    return float(value)  # type: ignore[arg-type]


def check_prior(prior: object) -> tuple[float, float]:
    """A Beta prior (a, b) of two finite numbers > 0.

    Raises:
        SettingsError: naming ``prior``, ``prior_a`` or ``prior_b``.
    """
    if not isinstance(prior, (tuple, list)) or len(prior) != 2:
        raise SettingsError("prior", "must be a pair (a, b)", prior, _PRIOR_FIX)
    return check_prior_value(prior[0], "prior_a"), check_prior_value(prior[1], "prior_b")


def check_weight_total(weights: dict[str, float], place: str = "tool_weights") -> float:
    """The sum of finite weights >= 0 is itself finite (the weights are normalised by it).

    Two weights of 1e308 are each valid, but their sum overflows to infinity and every score
    divided by it becomes NaN: the overall tool score would silently be null.

    Args:
        weights: The weights by name (each already finite and >= 0).
        place: The setting named in the error.

    Returns:
        The sum (0 when every weight is 0: tool use is then not scored).

    Raises:
        SettingsError: naming ``place``, the weights and the fix.
    """
    total = sum(weights.values(), 0.0)
    if not math.isfinite(total):
        raise SettingsError(
            place,
            "must be finite numbers >= 0 whose sum is finite (their sum overflows to infinity)",
            weights,
            "scale them down: only their ratios matter, e.g. selection=1,parameters=1,sequence=1,utilization=1",
        )
    return total


def check_seed(seed: object, place: str = "seed") -> int:
    """A whole-number seed (any sign or size).

    Raises:
        SettingsError: naming ``place``.
    """
    if not _is_whole(seed):
        raise SettingsError(place, "must be a whole number", seed, "give an integer such as 0")
    return int(seed)  # type: ignore[call-overload]


def check_n_samples(n_samples: object, place: str = "n_samples") -> int:
    """Bootstrap replicates / Monte Carlo draws: a whole number in :data:`N_SAMPLES_RANGE`.

    Raises:
        SettingsError: naming ``place``.
    """
    low, high = N_SAMPLES_RANGE
    if not _is_whole(n_samples) or not low <= int(n_samples) <= high:  # type: ignore[call-overload]
        raise SettingsError(
            place, f"must be a whole number between {low} and {high}", n_samples, "give e.g. 4000"
        )
    return int(n_samples)  # type: ignore[call-overload]


def check_choice(value: object, place: str) -> str:
    """``value`` is one of the choices of setting ``place`` (see :data:`SETTINGS`).

    Raises:
        SettingsError: naming ``place`` and listing the choices.
    """
    choices = SETTINGS[place].choices
    if value not in choices:
        raise SettingsError(place, f"must be one of {', '.join(choices)}", value, f"choose one of {', '.join(choices)}")
    return str(value)


def check_estimator(value: object) -> Estimator:
    """One of the estimators (see :data:`SETTINGS`)."""
    return cast(Estimator, check_choice(value, "estimator"))


def check_mode(value: object) -> Mode:
    """One of the statistical modes (see :data:`SETTINGS`)."""
    return cast(Mode, check_choice(value, "mode"))


def check_target(value: object) -> Target:
    """One of the targets (see :data:`SETTINGS`)."""
    return cast(Target, check_choice(value, "target"))


BAND_FIX = (
    "give LOW,HIGH with 0 <= LOW <= HIGH <= 1, e.g. 0.2,0.8 (LOW = HIGH, e.g. 0.5,0.5, never abstains; "
    "leave it unset for the judge's fitted band)"
)


def check_band(band: object, place: str = "abstain_band") -> tuple[float, float] | None:
    """An abstention band: ``None`` (the judge's fitted band) or a pair ``(low, high)``, ``0 <= low <= high <= 1``.

    Raises:
        SettingsError: naming ``place``: not a pair of numbers, outside [0, 1], or ``low > high``.
    """
    if band is None:
        return None
    if not isinstance(band, (tuple, list)) or len(band) != 2 or not all(_is_real(v) for v in band):
        raise SettingsError(place, "must be a pair of numbers (LOW, HIGH)", band, BAND_FIX)
    low, high = float(band[0]), float(band[1])
    if not (0.0 <= low <= 1.0 and 0.0 <= high <= 1.0):
        raise SettingsError(place, "must have both edges between 0 and 1", band, BAND_FIX)
    if low > high:
        raise SettingsError(place, "must have LOW <= HIGH", band, BAND_FIX)
    return (low, high)
