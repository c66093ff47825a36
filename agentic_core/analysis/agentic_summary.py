"""Aggregate the agentic metrics: per-conversation values and run-level figures with intervals.

Every selector (tool call order, topic mode and variant, interval level) is applied here, from what
:func:`~agentic_core.agentic_metrics.compute.compute_agentic_metrics` stored, without calling a judge.

* Tool call accuracy and topic adherence: the mean of the per-conversation values (bounded in [0, 1])
  with a Student-t interval clipped to [0, 1]; unscored conversations are left out and counted.
  Topic adherence also reports the four counts summed over the run and the value of those pooled
  counts (micro average).
* Agent goal accuracy: the share of scored conversations whose goal was achieved, with a Wilson
  interval; the graded score's mean with a Student-t interval.
"""

from __future__ import annotations

from typing import TypedDict, Unpack, get_args

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agentic_core.agentic_metrics.results import AgenticMetrics, AgenticView, ConversationMetrics
from agentic_core.agentic_metrics.tool_call_accuracy import ToolCallOrder
from agentic_core.agentic_metrics.topic_adherence import TopicCounts, TopicMode, TopicVariant, topic_adherence
from agentic_core.analysis.tool_summary import DimensionStat, mean_with_t_interval
from agentic_core.common.frame_columns import AgenticCols
from agentic_core.errors import SettingsError
from agentic_core.stats.intervals import wilson_interval
from agentic_core.stats.methods import IntervalMethod


class ProportionStat(BaseModel):
    """A share of conversations with its interval.

    Attributes:
        rate: The share, or ``None`` with nothing scored.
        ci: The Wilson interval, or ``None``.
        n: Conversations scored.
        successes: Of those, the ones counted.
        interval_method: ``wilson`` when there is an interval.
    """

    model_config = ConfigDict(frozen=True)

    rate: float | None
    ci: tuple[float, float] | None
    n: int
    successes: int
    interval_method: IntervalMethod | None = None


class AgenticSummary(AgenticView):
    """The agentic metrics of a run under the chosen order, mode, variant and level.

    The selectors it was read under are its :class:`AgenticView` fields (first in its JSON, as they always were).

    Attributes:
        order: Tool call order applied.
        mode: Topic adherence mode applied.
        variant: Topic adherence variant applied.
        level: Interval level.
        metrics: The metrics that were computed.
        tool_call_accuracy: Mean over conversations with reference calls (``None`` if not computed).
        topic_adherence: Mean over conversations with a value.
        topic_counts: The four counts summed over the run.
        topic_pooled: Topic adherence of the summed counts.
        topic_approximate: Whether the topics were classified offline.
        goal_accuracy: The share of scored conversations whose goal was achieved.
        goal_graded: The graded goal score's mean.
        unscored: Per metric, conversations left out and the most common reason.
    """

    level: float
    metrics: tuple[str, ...]
    tool_call_accuracy: DimensionStat | None = None
    topic_adherence: DimensionStat | None = None
    topic_counts: TopicCounts | None = None
    topic_pooled: float | None = None
    topic_approximate: bool = False
    goal_accuracy: ProportionStat | None = None
    goal_graded: DimensionStat | None = None
    unscored: dict[str, tuple[int, str]] = Field(default_factory=dict)


class AgenticSelectors(TypedDict, total=False):
    """:class:`AgenticView`'s selectors given one by one (``summarise_agentic(..., order="flexible")``)."""

    order: ToolCallOrder
    mode: TopicMode
    variant: TopicVariant


def _view(view: AgenticView | None, given: AgenticSelectors) -> AgenticView:
    """The selectors in force: ``view`` (default ``AgenticView()``), the ones given as keywords replacing its own."""
    chosen = view or AgenticView()
    for name, value in given.items():
        if name not in AgenticView.model_fields:
            raise SettingsError(name, "is not a selector of the agentic metrics", value, "give order, mode or variant")
    if given:
        try:
            chosen = AgenticView.model_validate({**chosen.model_dump(), **given})
        except ValidationError as err:
            error = err.errors()[0]
            name = str(error["loc"][0])
            choices = get_args(AgenticView.model_fields[name].annotation)  # the selector's Literal
            raise SettingsError(name, f"must be one of {', '.join(choices)}", error.get("input"),
                                f"give {name}= one of {', '.join(choices)}") from None
    return chosen


def agentic_table(
    metrics: AgenticMetrics,
    session_ids: list[str],
    view: AgenticView | None = None,
    **selectors: Unpack[AgenticSelectors],
) -> pd.DataFrame:
    """One row per conversation: each metric's value (NaN = unscored), the topic counts and the evidence.

    Columns: ``conv``, ``session_id``, ``tool_call_accuracy``, ``tool_call_notes``, ``topic_adherence``,
    ``topic_tp``, ``topic_fp``, ``topic_fn``, ``topic_tn``, ``topic_approximate``, ``goal_accuracy``
    (1/0), ``goal_graded``, ``goal_with_reference``, ``goal_evidence``, ``unscored_reason``.

    Args:
        metrics: The stored metrics.
        session_ids: One per conversation, in the run's order.
        view: The selectors (tool call order, topic mode and variant); ``None``: their defaults
            (``AgenticView()``; a run's stored choice is ``metrics.view``).
        **selectors: ``order``, ``mode`` or ``variant`` one by one, replacing the view's.
    """
    chosen = _view(view, selectors)
    order, mode, variant = chosen.order, chosen.mode, chosen.variant
    convs = metrics.conversations
    if len(session_ids) != len(convs):
        raise ValueError(f"{len(session_ids)} session ids for {len(convs)} conversations")
    calls = [m.tool_call(order) for m in convs]
    counts = [m.topic.counts if m.topic is not None else None for m in convs]
    keys = [None if c is None else (c.tp, c.fp, c.fn, c.tn) for c in counts]
    values: dict[tuple[int, int, int, int], float | None] = {}  # few distinct counts: each computed once
    for key, c in zip(keys, counts, strict=True):
        if key is not None and c is not None and key not in values:
            values[key] = topic_adherence(c, mode, variant)
    goals = [m.goal for m in convs]

    def reasons(m: ConversationMetrics) -> str:
        found = (m.topic.unscored_reason if m.topic is not None else None,
                 m.goal.unscored_reason if m.goal is not None else None)
        return "; ".join(r for r in found if r)

    def count_column(name: str) -> pd.Series:
        return pd.Series([None if c is None else getattr(c, name) for c in counts], dtype="Int64")

    def number(x: float | None) -> float:
        return np.nan if x is None else x

    col = AgenticCols
    return pd.DataFrame({
        col.CONV: np.arange(len(convs)),
        col.SESSION_ID: list(session_ids),
        col.TOOL_CALL_ACCURACY: [np.nan if c is None else c.value for c in calls],
        col.TOOL_CALL_NOTES: ["" if c is None else "; ".join(c.notes) for c in calls],
        col.TOPIC_ADHERENCE: [np.nan if k is None else number(values[k]) for k in keys],
        **{column: count_column(name) for name, column in col.TOPIC_COUNTS.items()},
        col.TOPIC_APPROXIMATE: [bool(m.topic is not None and m.topic.approximate) for m in convs],
        col.GOAL_ACCURACY: [np.nan if g is None or g.achieved is None else float(g.achieved) for g in goals],
        col.GOAL_GRADED: [np.nan if g is None else number(g.score) for g in goals],
        col.GOAL_WITH_REFERENCE: [None if g is None else g.with_reference for g in goals],
        col.GOAL_EVIDENCE: ["" if g is None else g.evidence for g in goals],
        col.UNSCORED_REASON: [reasons(m) for m in convs],
    })


def _unscored(values: pd.Series, reasons: list[str | None]) -> tuple[int, str]:
    missing = int(values.isna().sum())
    common = pd.Series([r for r in reasons if r], dtype="object").value_counts()
    return missing, (str(common.index[0]) if len(common) else "")


def summarise_agentic(
    metrics: AgenticMetrics,
    session_ids: list[str],
    view: AgenticView | None = None,
    *,
    level: float = 0.95,
    **selectors: Unpack[AgenticSelectors],
) -> AgenticSummary:
    """The run-level figures (see the module docstring); never calls a judge.

    Args:
        metrics: The stored metrics.
        session_ids: One per conversation, in the run's order.
        view: The selectors, as for :func:`agentic_table`.
        level: The intervals' level.
        **selectors: ``order``, ``mode`` or ``variant`` one by one, replacing the view's.
    """
    chosen = _view(view, selectors)
    table = agentic_table(metrics, session_ids, chosen)
    out: dict[str, object] = {}
    unscored: dict[str, tuple[int, str]] = {}
    col = AgenticCols
    if col.TOOL_CALL_ACCURACY in metrics.metrics:
        accuracy = table[col.TOOL_CALL_ACCURACY]
        out["tool_call_accuracy"] = mean_with_t_interval(accuracy.to_numpy(float), level)
        unscored["tool_call_accuracy"] = (int(accuracy.isna().sum()), "no reference tool calls")
    if col.TOPIC_ADHERENCE in metrics.metrics:
        out["topic_adherence"] = mean_with_t_interval(table[col.TOPIC_ADHERENCE].to_numpy(float), level)
        scored = table[col.TOPIC_TP].notna()
        total = TopicCounts(**{k: int(table[c][scored].sum()) for k, c in col.TOPIC_COUNTS.items()}) \
            if scored.any() else None
        out["topic_counts"] = total
        out["topic_pooled"] = topic_adherence(total, chosen.mode, chosen.variant) if total is not None else None
        out["topic_approximate"] = any(m.topic is not None and m.topic.approximate for m in metrics.conversations)
        unscored["topic_adherence"] = _unscored(
            table[col.TOPIC_ADHERENCE], [m.topic.unscored_reason if m.topic else None for m in metrics.conversations]
        )
    if col.GOAL_ACCURACY in metrics.metrics:
        achieved = table[col.GOAL_ACCURACY].dropna()
        n, c = len(achieved), int(achieved.sum())
        ci = wilson_interval(n, c, level) if n else None
        out["goal_accuracy"] = ProportionStat(rate=c / n if n else None, ci=ci, n=n, successes=c,
                                              interval_method="wilson" if n else None)
        out["goal_graded"] = mean_with_t_interval(table[col.GOAL_GRADED].to_numpy(float), level)
        unscored["goal_accuracy"] = _unscored(
            table[col.GOAL_ACCURACY], [m.goal.unscored_reason if m.goal else None for m in metrics.conversations]
        )
    return AgenticSummary(**chosen.model_dump(), level=level, metrics=metrics.metrics,
                          unscored=unscored, **out)


def conversations_below(table: pd.DataFrame, metric: str, below: float) -> np.ndarray:
    """Per conversation of :func:`agentic_table`, whether ``metric`` is scored and below ``below`` (Explorer filter).

    Args:
        table: One row per conversation, in the run's order.
        metric: A value column: ``tool_call_accuracy``, ``topic_adherence``, ``goal_accuracy`` or ``goal_graded``.
        below: Keep values strictly below this.
    """
    values = table[metric].to_numpy(dtype=float)
    return np.nan_to_num(values, nan=np.inf) < below
