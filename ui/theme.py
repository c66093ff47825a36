"""The one way pages draw a Plotly chart: in the page's own theme.

Streamlit cannot switch the page's theme while it runs (it follows the operating system or the app
menu's Settings). A sidebar choice of light or dark charts once themed the charts alone, which left
black boxes on a white page; so charts now always follow the page (Streamlit's chart theme), and
the app menu's Settings switch both together.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st


def show_chart(fig: go.Figure, key: str, where: Any = None, **kwargs: Any) -> Any:
    """``st.plotly_chart`` in the page's theme (``where``: a container or column; default ``st``)."""
    target = st if where is None else where
    return target.plotly_chart(fig, key=key, theme="streamlit", **kwargs)
