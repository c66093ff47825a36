"""KPI cards: a number with its interval underneath, the way every results page shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ui.format import ci_text, pct


def kpi(container: Any, label: str, value: float | None, ci: Sequence[float] | None = None, help: str = "") -> None:
    """A metric card: ``value`` as a percentage, its interval (if any) as the grey line below.

    Args:
        container: Where to draw (``st``, a column, the sidebar).
        label: The card's title.
        value: A proportion, or ``None`` (shown as n/a).
        ci: ``(low, high)``, or ``None`` for no interval line.
        help: The tooltip.
    """
    container.metric(
        label,
        pct(value),
        delta=ci_text(ci) or None,
        delta_color="off",
        delta_arrow="off",
        help=help or None,
    )
