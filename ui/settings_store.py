"""The session's settings: one store of every setting's value, by widget key, and their defaults.

A leaf of the dashboard's ui/ package (it imports no other ui/ module), so that modules below the
widgets (:mod:`ui.format_defaults`, which :mod:`ui.state` calls when data becomes active) can read
and set values without importing :mod:`ui.controls`, which draws the widgets and reads the state.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agentic_core.settings import DIMENSIONS, PRIORS, ToolWeights, default_of

# Widget key -> the setting it edits (keys are URL parameters: do not rename).
KEYS: dict[str, str] = {
    "threshold": "threshold",
    "k": "k",
    "unit": "unit",
    "target": "target",
    "mode": "mode",
    "estimator": "estimator",
    "ci": "ci_level",
    "unscored_incorrect": "unscored_as_incorrect",
    "require_tools": "require_tool_correctness",
    "tool_threshold": "tool_threshold",
    "ignore_extra": "ignore_extra_tools",
    "prior_a": "prior_a",
    "prior_b": "prior_b",
    "band": "abstain_band",
}
WEIGHT_KEYS = {name: f"w_{name}" for name in DIMENSIONS}
PRIOR_KEY = "prior"

_DEFAULT_WEIGHTS = ToolWeights()
DEFAULTS: dict[str, Any] = {
    **{key: default_of(name) for key, name in KEYS.items()},
    PRIOR_KEY: next(name for name, ab in PRIORS.items() if ab == (default_of("prior_a"), default_of("prior_b"))),
    **{key: getattr(_DEFAULT_WEIGHTS, name) for name, key in WEIGHT_KEYS.items()},
}
STORE_KEY = "_settings"


def session_store() -> dict[str, Any]:
    """Every setting's value this session, by widget key (created empty on first use)."""
    store: dict[str, Any] = st.session_state.setdefault(STORE_KEY, {})
    return store


def value(key: str, default: Any = None) -> Any:
    """The current value of a setting (``default``, else its default, when never set)."""
    return session_store().get(key, DEFAULTS.get(key) if default is None else default)


def set_value(key: str, new: Any) -> None:
    """Set a setting for the whole session (its widget shows it when next drawn)."""
    session_store()[key] = new
