"""The sidebar's light / dark chart theme and the one way pages draw a Plotly chart.

Streamlit has no API to switch the app's own theme while it runs (the page chrome follows the
operating system or the app menu's Settings), so the toggle themes the charts: "auto" (the default)
draws them with Streamlit's theme, which follows the app; "light" / "dark" give them that Plotly
template (:func:`ui.charts.apply_chart_theme`).
"""

from __future__ import annotations

from typing import Any, cast

import plotly.graph_objects as go
import streamlit as st

from ui.charts import CHART_THEMES, ChartTheme, apply_chart_theme

THEME_KEY = "theme_toggle"
THEME_LABELS = {"auto": "System", "light": "Light", "dark": "Dark"}
THEME_HELP = (
    "Light or dark charts. 'System' (the default) draws them in the app's own theme, which follows your operating "
    "system (or the app menu's Settings). Streamlit cannot switch the rest of the page while it runs, so "
    "this applies to the charts."
)


def theme_toggle() -> None:
    """Draw the chart theme choice in the sidebar (kept for the session, on every page)."""
    st.sidebar.radio(
        "Chart theme",
        CHART_THEMES,
        format_func=THEME_LABELS.__getitem__,
        horizontal=True,
        help=THEME_HELP,
        key=THEME_KEY,
    )


def chart_theme() -> ChartTheme:
    """The chart theme the reader chose (``auto`` until they choose)."""
    chosen = st.session_state.get(THEME_KEY, "auto")
    return cast(ChartTheme, chosen if chosen in CHART_THEMES else "auto")


def show_chart(fig: go.Figure, key: str, where: Any = None, **kwargs: Any) -> Any:
    """``st.plotly_chart`` in the chosen chart theme (``where``: a container or column; default ``st``)."""
    theme = chart_theme()
    target = st if where is None else where
    return target.plotly_chart(
        apply_chart_theme(fig, theme), key=key, theme="streamlit" if theme == "auto" else None, **kwargs
    )
