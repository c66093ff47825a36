"""The defaults the active data's format needs (tau-bench: dataset judge, extra calls ignored), preselected.

The format states them (:func:`agentic_core.io.importers.defaults.format_defaults`); here they are
applied to the session's settings when data becomes active, and undone when the next data states
nothing and the user has not changed them since: a choice the user made is never overwritten.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agentic_core.io.importers.defaults import FormatDefaults, format_defaults
from agentic_core.io.load_report import LoadReport
from ui.controls import DEFAULTS, set_value, value
from ui.memo import session_memo

APPLIED_KEY = "_format_defaults_applied"
"""The setting values the last format applied, by widget key (to undo them while unchanged)."""


def defaults_of(report: LoadReport) -> FormatDefaults | None:
    """``report``'s format defaults, computed once per load."""
    found: FormatDefaults | None = session_memo("_format_defaults", id(report), lambda: format_defaults(report))
    return found


def apply_format_defaults(report: LoadReport) -> FormatDefaults | None:
    """Preselect the settings ``report``'s format needs; undo the previous format's if still untouched.

    Returns:
        The defaults applied (``None`` when the format states none).
    """
    applied: dict[str, Any] = st.session_state.get(APPLIED_KEY, {})
    for key, set_to in applied.items():
        if value(key) == set_to:  # unchanged since: back to the workbench's default
            set_value(key, DEFAULTS[key])
    found = defaults_of(report)
    now: dict[str, Any] = {}
    if found is not None and found.ignore_extra_tools is not None:
        now["ignore_extra"] = found.ignore_extra_tools
    for key, set_to in now.items():
        set_value(key, set_to)
    st.session_state[APPLIED_KEY] = now
    return found


def applied_here(key: str) -> bool:
    """Whether setting ``key`` holds the value the active data's format preselected."""
    applied: dict[str, Any] = st.session_state.get(APPLIED_KEY, {})
    return key in applied and value(key) == applied[key]
