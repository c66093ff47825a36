"""Settings written as text, the way people write them in a shared link or a query string.

A URL carries ``ci=0.9`` as readily as ``ci=90%``, and ``unit=task`` as readily as the menu's
words ``unit=task (attempts per task)``: :func:`setting_from_text` accepts the raw value and
the label a page shows, case-insensitively, and says what it accepts when it refuses.
"""

from __future__ import annotations

import math
from typing import Any

from agentic_core.errors import SettingsError
from agentic_core.settings.choices import DIMENSIONS, PRIORS
from agentic_core.settings.rules import BAND_FIX, check_band, check_fraction, check_level, check_prior_value, parse_k
from agentic_core.settings.specs import SETTINGS

_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")
FRACTIONS = ("threshold", "tool_threshold")
CHOICES = ("unit", "estimator", "mode", "target")
SWITCHES = ("unscored_as_incorrect", "require_tool_correctness", "ignore_extra_tools")
WEIGHTS = tuple(f"tool_weights.{name}" for name in DIMENSIONS)
FITTED = "fitted"
"""The abstention band written as text when it is the judge's own (the setting unset)."""


def _number(text: str, place: str, fix: str) -> float:
    """A finite number, written plainly (``0.9``) or as a percentage (``90%``)."""
    cleaned = text.strip()
    percent = cleaned.endswith("%")
    try:
        value = float(cleaned.rstrip("%").strip())
    except ValueError:
        raise SettingsError(place, "must be a number", text, fix) from None
    if not math.isfinite(value):
        raise SettingsError(place, "must be a finite number", text, fix)
    return value / 100 if percent else value


def choice_from_text(name: str, text: str) -> str:
    """One of a setting's choices, given as the choice or as the label a menu shows.

    Raises:
        SettingsError: no choice matches.
    """
    spec = SETTINGS[name]
    wanted = text.strip().lower()
    for choice in spec.choices:
        if wanted in (choice.lower(), spec.choice_labels.get(choice, choice).lower()):
            return choice
    raise SettingsError(
        name, f"must be one of {', '.join(spec.choices)}", text, f"write e.g. {name}={spec.choices[0]}"
    )


def switch_from_text(name: str, text: str) -> bool:
    """An on/off setting: ``true``/``false``, ``1``/``0``, ``yes``/``no``, ``on``/``off``.

    Raises:
        SettingsError: anything else.
    """
    wanted = text.strip().lower()
    if wanted in _TRUE:
        return True
    if wanted in _FALSE:
        return False
    raise SettingsError(name, "must be true or false", text, "write true or false (1/0, yes/no, on/off also work)")


def band_from_text(text: str, place: str = "abstain_band") -> tuple[float, float] | None:
    """An abstention band written as ``LOW,HIGH`` (each a number or a percentage), or ``fitted`` (the judge's own).

    Raises:
        SettingsError: naming ``place``: not two numbers, outside [0, 1], or LOW above HIGH.
    """
    if text.strip().lower() == FITTED:
        return None
    parts = text.split(",")
    if len(parts) != 2:
        raise SettingsError(place, f"must be LOW,HIGH or {FITTED}", text, BAND_FIX)
    return check_band(tuple(_number(p, place, BAND_FIX) for p in parts), place)


def setting_from_text(name: str, text: str) -> Any:
    """The value of one setting written as text.

    Args:
        name: An :class:`~agentic_core.settings.AggregateSettings` field, ``prior`` (a named prior or
            ``A,B``), ``abstain_band`` (``LOW,HIGH`` or ``fitted``), or ``tool_weights.<dimension>``.
        text: The text: a raw value (``0.9``, ``task``, ``true``), a percentage where a fraction
            is meant (``90%``), or the label a page shows (``task (attempts per task)``).

    Returns:
        The value in the type :func:`~agentic_core.settings.make_settings` takes (``prior`` gives
        ``(a, b)``).

    Raises:
        SettingsError: naming the setting, the rule and what is accepted.
    """
    if name in FRACTIONS:
        fix = f"write e.g. {name}=0.7 or {name}=70%"
        return check_fraction(_number(text, name, fix), name, fix)
    if name == "ci_level":
        return check_level(_number(text, name, "write e.g. 0.95 or 95%"), name)
    if name == "k":
        return parse_k(text, name)
    if name in CHOICES:
        return choice_from_text(name, text)
    if name in SWITCHES:
        return switch_from_text(name, text)
    if name in ("prior_a", "prior_b"):
        return check_prior_value(_number(text, name, "write a number above 0, e.g. 1"), name)
    if name == "prior":
        named = PRIORS.get(text.strip().lower())
        if named is not None:
            return named
        parts = text.split(",")
        fix = f"write one of {', '.join(PRIORS)}, or two numbers above 0 such as 2,8"
        if len(parts) != 2:
            raise SettingsError(name, f"must be {' or '.join(PRIORS)} or A,B", text, fix)
        return tuple(check_prior_value(_number(p, name, fix), name) for p in parts)
    if name == "abstain_band":
        return band_from_text(text, name)
    if name in WEIGHTS:
        value = _number(text, name, "write a number >= 0, e.g. 0.25")
        if value < 0:
            raise SettingsError(name, "must be a number >= 0", text, "write a number >= 0, e.g. 0.25")
        return value
    raise SettingsError(name, "is not a setting", text, f"use one of {', '.join(sorted(SETTINGS))}")
