"""The agentic metrics in the run's reports: JSON conversation records, CSV columns, the JSON summary.

Everything reads ``result.agentic`` under its :class:`~agentic_core.agentic_metrics.results.AgenticView`
(the selectors the run is reported with); a run without agentic metrics gets nothing added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from agentic_core.analysis.agentic_summary import agentic_table, summarise_agentic
from agentic_core.common.frame_columns import AgenticCols

if TYPE_CHECKING:
    from agentic_core.result import EvaluationResult


def _json_number(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def add_agentic_fields(records: list[dict[str, Any]], result: EvaluationResult) -> list[dict[str, Any]]:
    """Add each conversation's agentic metrics to its JSON record (in place; also returned).

    Fields: ``tool_call_accuracy`` (+ ``tool_call_order``, ``tool_call_notes``), ``topic_adherence`` (+
    ``topic_mode``, ``topic_variant``, ``topic_counts``, ``topic_approximate``), ``goal_accuracy`` (1, 0 or
    ``None``, + ``goal_accuracy_graded``, ``goal_evidence``, ``goal_with_reference``), and
    ``agentic_unscored_reason``; only for the metrics computed.
    """
    metrics = result.agentic
    if metrics is None:
        return records
    view = metrics.view
    table = agentic_table(metrics, result.session_ids, view)
    for record, row in zip(records, table.itertuples(index=False), strict=True):
        if "tool_call_accuracy" in metrics.metrics:
            record.update(tool_call_accuracy=_json_number(row.tool_call_accuracy), tool_call_order=view.order,
                          tool_call_notes=row.tool_call_notes)
        if "topic_adherence" in metrics.metrics:
            counts = None if pd.isna(row.topic_tp) else {
                "tp": int(row.topic_tp), "fp": int(row.topic_fp), "fn": int(row.topic_fn), "tn": int(row.topic_tn)
            }
            record.update(topic_adherence=_json_number(row.topic_adherence), topic_mode=view.mode,
                          topic_variant=view.variant, topic_counts=counts, topic_approximate=row.topic_approximate)
        if "goal_accuracy" in metrics.metrics:
            achieved = _json_number(row.goal_accuracy)
            record.update(goal_accuracy=None if achieved is None else int(achieved),
                          goal_accuracy_graded=_json_number(row.goal_graded), goal_evidence=row.goal_evidence,
                          goal_with_reference=row.goal_with_reference)
        record["agentic_unscored_reason"] = row.unscored_reason or None
    return records


def with_agentic_columns(frame: pd.DataFrame, result: EvaluationResult) -> pd.DataFrame:
    """The conversations CSV table with the agentic metrics' columns (unchanged without them)."""
    metrics = result.agentic
    if metrics is None or len(frame) != result.n_conversations:
        return frame
    view = metrics.view
    table = agentic_table(metrics, result.session_ids, view)
    by_metric = AgenticCols.BY_METRIC
    columns = [AgenticCols.UNSCORED_REASON, *(c for m, cols in by_metric.items() if m in metrics.metrics for c in cols)]
    # The export's own names where they differ from the table's (a public contract).
    extra = table[columns].rename(columns={AgenticCols.UNSCORED_REASON: "agentic_unscored_reason",
                                           AgenticCols.GOAL_GRADED: "goal_accuracy_graded"})
    extra = extra.assign(tool_call_order=view.order, topic_mode=view.mode, topic_variant=view.variant)
    return pd.concat([frame.reset_index(drop=True), extra.reset_index(drop=True)], axis=1)


def with_topic_columns(frame: pd.DataFrame, result: EvaluationResult) -> pd.DataFrame:
    """The interactions CSV table with each user query's topic classification (when computed)."""
    metrics = result.agentic
    if metrics is None or "topic_adherence" not in metrics.metrics or len(frame) != result.n_interactions:
        return frame
    answered: list[Any] = []
    on_topic: list[Any] = []
    reasoning: list[str] = []
    for conv, m in zip(result.conversations, metrics.conversations, strict=True):
        queries = m.topic.queries if m.topic is not None else ()
        for i in range(len(conv.conversation)):
            q = queries[i] if i < len(queries) else None
            answered.append(None if q is None else q.answered)
            on_topic.append(None if q is None else q.on_topic)
            reasoning.append("" if q is None else q.reasoning)
    return frame.assign(topic_answered=np.asarray(answered, dtype=object),
                        topic_on_topic=np.asarray(on_topic, dtype=object), topic_reasoning=reasoning)


def agentic_summary_dict(result: EvaluationResult, level: float) -> dict[str, Any] | None:
    """The run-level agentic metrics for the JSON summary (``None`` without them)."""
    metrics = result.agentic
    if metrics is None:
        return None
    summary = summarise_agentic(metrics, result.session_ids, metrics.view, level=level)
    out = summary.model_dump(mode="json")
    out.update(judge=metrics.judge, goal_judge=metrics.goal_judge or None, model_calls=metrics.model_calls,
               cache_hits=metrics.cache_hits,
               warnings=metrics.warnings)
    return out
