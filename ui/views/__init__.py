"""View models of the pages: what each page shows, decided without Streamlit, so it can be tested alone.

A page reads its widgets, calls one of these functions and renders what it returns.
"""

from ui.views.uncertainty_view import (
    RANK_COLORS,
    RANK_LABELS,
    PosteriorPanel,
    TaskPlot,
    has_shrinkage,
    posterior_panels,
    rank_label,
    target_sentence,
    task_plot,
    task_table,
    uses_the_prior,
)

__all__ = [
    "RANK_COLORS",
    "RANK_LABELS",
    "PosteriorPanel",
    "TaskPlot",
    "has_shrinkage",
    "posterior_panels",
    "rank_label",
    "target_sentence",
    "task_plot",
    "task_table",
    "uses_the_prior",
]
