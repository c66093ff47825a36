"""View models of the pages: what each page shows, decided without Streamlit, so it can be tested alone.

A page reads its widgets, calls one of these functions and renders what it returns.
"""

from ui.views.run_view import (
    MetricCard,
    RunSummary,
    cache_of,
    key_caption,
    llm_settings,
    metric_calls,
    plan_note,
    run_summary,
    uncertain_count,
)
from ui.views.tools_view import (
    FAILING_COLUMNS,
    TOOL_SCORING_FIELDS,
    Card,
    FailingPage,
    dimensions_caption,
    failing_page,
    failing_signature,
    tool_cards,
    weights_caption,
)
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
    "FAILING_COLUMNS",
    "RANK_COLORS",
    "RANK_LABELS",
    "TOOL_SCORING_FIELDS",
    "Card",
    "FailingPage",
    "MetricCard",
    "PosteriorPanel",
    "RunSummary",
    "TaskPlot",
    "cache_of",
    "dimensions_caption",
    "failing_page",
    "failing_signature",
    "has_shrinkage",
    "key_caption",
    "llm_settings",
    "metric_calls",
    "plan_note",
    "posterior_panels",
    "rank_label",
    "run_summary",
    "target_sentence",
    "task_plot",
    "task_table",
    "tool_cards",
    "uncertain_count",
    "uses_the_prior",
    "weights_caption",
]
