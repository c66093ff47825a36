"""The Tools page's view model: its cards, captions and the failing-calls page, decided without Streamlit.

Which settings the failing-calls table depends on is derived from the models, not listed by the
page: the tool scores read exactly the settings the aggregate's :class:`ToolSummary` records as
applied, so a setting added to that record also renews the memoised table.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from agentic_core.analysis import ToolSummary
from agentic_core.report import FAILING_PAGE_ROWS, table_page
from agentic_core.settings import AggregateSettings
from ui.format import pct

FAILING_COLUMNS = [
    "session_id",
    "qa_id",
    "position",
    "tool_overall",
    "tools",
    "missing",
    "extra",
    "parameter_errors",
    "reasoning",
]
"""The failing-calls table's columns, in the order the page shows (and sends) them."""


def _recorded_as(field: str, recorded: set[str]) -> bool:
    # The summary names the weights without the settings' "tool_" prefix (it is all about tools).
    return field in recorded or field.removeprefix("tool_") in recorded


TOOL_SCORING_FIELDS: tuple[str, ...] = tuple(
    name for name in AggregateSettings.model_fields if _recorded_as(name, set(ToolSummary.model_fields))
)
"""The settings the tool scores depend on: those :class:`ToolSummary` records as applied."""


def failing_signature(settings: AggregateSettings) -> str:
    """What the failing-calls table depends on besides the run: the tool-scoring settings, as JSON."""
    return settings.model_dump_json(include=set(TOOL_SCORING_FIELDS))


@dataclass(frozen=True)
class Card:
    """One card of a KPI row: a proportion with its interval (``kpi``), or a text with a delta (``card``)."""

    label: str
    help: str
    proportion: float | None = None
    ci: tuple[float, float] | None = None
    text: str | None = None
    delta: str | None = None


def weights_caption(settings: AggregateSettings) -> str:
    """The normalised weights in use, and what happens where utilization cannot be assessed."""
    used = settings.tool_weights.normalised()
    return (
        "Weights used (normalised to sum to 1): "
        + " · ".join(f"{name} **{w:.2f}**" for name, w in used.items())
        + ". Where utilization cannot be assessed, the other three are renormalised for that interaction."
    )


def tool_cards(summary: ToolSummary, settings: AggregateSettings) -> list[Card]:
    """The overall score with its interval, how many interactions use tools correctly, how many fail."""
    scored, correct, level = summary.scored_interactions, summary.correct_interactions, settings.ci_level
    return [
        Card(
            "Overall tool score",
            f"Mean weighted overall score over the {scored:,} scored interactions, with a {level:.0%} t interval.",
            proportion=summary.overall.mean,
            ci=summary.overall.ci,
        ),
        Card(
            "Tool use correct",
            f"Interactions whose overall score reaches the tool threshold {settings.tool_threshold:g}.",
            text=f"{correct:,} / {scored:,}",
            delta=pct(correct / scored) if scored else None,
        ),
        Card(
            "Failing tool calls",
            "Scored interactions below the tool threshold (listed below, worst first).",
            text=f"{scored - correct:,}",
        ),
    ]


def dimensions_caption(settings: AggregateSettings) -> str:
    """What the dimension bars show; without weights there is no overall bar."""
    level = f"{settings.ci_level:.0%}"
    if not settings.tool_weights.scores_tools:
        return (
            f"Bars: mean score per dimension over the interactions where it applies; error bars: {level} t "
            "intervals. Without weights there is no overall score."
        )
    return (
        "Bars: mean score per dimension (and the weighted overall) over the interactions where it applies; "
        f"error bars: {level} t intervals. The four dimensions do not depend on the weights; selection depends "
        "on *Ignore extra calls*."
    )


@dataclass(frozen=True)
class FailingPage:
    """The rows of the failing-calls table sent to the browser, and the caption saying which they are."""

    rows: pd.DataFrame
    caption: str


def failing_page(
    view: pd.DataFrame, n_failing: int, threshold: float, wanted: int = 1, size: int = FAILING_PAGE_ROWS
) -> FailingPage:
    """Page ``wanted`` of the filtered failing calls, ``size`` rows a page (all of them when they fit on one).

    Args:
        view: The failing calls left by the filters, worst first.
        n_failing: All failing calls, before the filters.
        threshold: The tool threshold they fall below.
        wanted: The page asked for (1-based; clamped into range).
        size: Rows a page (the browser never receives more).
    """
    more = ""
    rows = view
    if len(view) > size:
        rows, page, pages = table_page(view, wanted, size)
        first = (page - 1) * size + 1
        more = f" Page {page:,} of {pages:,}: rows {first:,}–{first + len(rows) - 1:,}."
    return FailingPage(
        rows=rows,
        caption=f"Showing {len(view):,} of {n_failing:,} failing interactions (overall tool score below the tool "
        f"threshold {threshold:g}), worst first.{more}",
    )
