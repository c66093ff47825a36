"""KPI cards: a number with its interval underneath, the way every results page shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from ui.format import ci_text, pct

KPI_WIDTH = 210
"""Card width in pixels: wide enough for "100.0%" and "[99.1%, 100.0%]" at every window size, so
cards wrap onto another row on a narrow window instead of cutting their values (columns shrank
five cards to 90 px at an 800 px window with the sidebar open)."""


def kpi_row() -> Any:
    """A row of KPI cards that wraps onto more rows when the window is narrow."""
    return st.container(horizontal=True, horizontal_alignment="distribute", gap="small")


def card(container: Any, label: str, value: str, help: str = "", delta: str | None = None) -> None:
    """A plain metric card (a count, a probability text) the width of the KPI cards."""
    container.metric(
        label, value, delta=delta, delta_color="off", delta_arrow="off", help=help or None, width=KPI_WIDTH
    )


def kpi(
    container: Any,
    label: str,
    value: float | None,
    ci: Sequence[float] | None = None,
    help: str = "",
    note: str = "",
) -> None:
    """A metric card: ``value`` as a percentage, its interval (if any) as the grey line below.

    Args:
        container: Where to draw (``st``, a column, the sidebar).
        label: The card's title.
        value: A proportion, or ``None`` (shown as n/a).
        ci: ``(low, high)``, or ``None`` for no interval line.
        help: The tooltip.
        note: A caption under the card (what the number is computed on), or ``""``. A caption wraps where a
            label is cut short with an ellipsis at the card's width.
    """
    if note:
        container = container.container(width=KPI_WIDTH, gap=None)
    container.metric(
        label,
        pct(value),
        delta=ci_text(ci) or None,
        delta_color="off",
        delta_arrow="off",
        help=help or None,
        width=KPI_WIDTH,
    )
    if note:
        container.caption(note)
