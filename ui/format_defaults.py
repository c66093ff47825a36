"""The defaults the active data's format needs (tau-bench: dataset judge, extra calls ignored, unit task), preselected.

The format states them (:func:`agentic_core.io.importers.defaults.format_defaults`); here they are
applied to the session's settings when data becomes active, and undone when the next data states
nothing and the user has not changed them since: a choice the user made is never overwritten.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agentic_core.io import FormatDefaults, LoadReport, format_defaults
from ui.memo import load_token, session_memo
from ui.settings_store import DEFAULTS, KEYS, set_value, value

_KEY_OF = {name: key for key, name in KEYS.items()}
"""Each setting's widget key, by setting name."""
APPLIED_KEY = "_format_defaults_applied"
"""The setting values the last format applied, by widget key (to undo them while unchanged)."""


def defaults_of(report: LoadReport) -> FormatDefaults | None:
    """``report``'s format defaults, computed once per load."""
    found: FormatDefaults | None = session_memo("_format_defaults", load_token(report), lambda: format_defaults(report))
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
    if found is not None:  # the settings it states (extra calls, unit); the judge is the Run page's
        now = {_KEY_OF[name]: set_to for name, set_to in found.stated().items() if name in _KEY_OF}
    for key, set_to in now.items():
        set_value(key, set_to)
    st.session_state[APPLIED_KEY] = now
    return found


def applied_here(key: str) -> bool:
    """Whether setting ``key`` holds the value the active data's format preselected."""
    applied: dict[str, Any] = st.session_state.get(APPLIED_KEY, {})
    return key in applied and value(key) == applied[key]


JUDGE_FOR_KEY = "_format_judge_for"
"""The load report the Run page's judge choice was last preselected for."""
JUDGE_APPLIED_KEY = "_format_judge_applied"
"""The judge the last format preselected (to undo it for the next data while untouched)."""


def preselect_judge(report: LoadReport, key: str, names: list[str], default: str) -> FormatDefaults | None:
    """Preselect the judge ``report``'s format needs, once per loaded data; a choice made since stays.

    The previous data's preselected judge goes back to ``default`` when the next data states none and
    the user left it as it was.

    Args:
        report: The active data's load report.
        key: The judge radio's widget key (set before the widget is drawn).
        names: The judges on offer.
        default: The workbench's default judge.

    Returns:
        The format's defaults when they name an offered judge (the page says why), else ``None``.
    """
    found = defaults_of(report)
    stated = found if found is not None and found.judge in names else None
    if st.session_state.get(JUDGE_FOR_KEY) != load_token(report):
        st.session_state[JUDGE_FOR_KEY] = load_token(report)
        previous = st.session_state.get(JUDGE_APPLIED_KEY)
        if stated is not None:
            st.session_state[key] = stated.judge
            st.session_state[JUDGE_APPLIED_KEY] = stated.judge
        elif previous is not None:
            if st.session_state.get(key) == previous:
                st.session_state[key] = default
            st.session_state[JUDGE_APPLIED_KEY] = None
    return stated
