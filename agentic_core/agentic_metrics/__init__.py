"""Seed 004's agentic metrics: tool call accuracy (Ragas' definition), topic adherence, agent goal accuracy.

Computing them: :mod:`agentic_core.agentic_metrics.compute` (``evaluate(metrics=...)`` calls it); aggregating:
:mod:`agentic_core.analysis.agentic_summary`. This face is what callers outside use; it loads eagerly (the LLM
judges behind the metrics import their packages only when one is built).
"""

from agentic_core.agentic_metrics.compute import compute_agentic_metrics, judge_for_run, llm_judges_metrics
from agentic_core.agentic_metrics.results import METRIC_NAMES, AgenticMetrics, AgenticView, MetricName
from agentic_core.agentic_metrics.tool_call_accuracy import (
    TOOL_CALL_ORDERS,
    ToolCallAccuracy,
    ToolCallOrder,
    conversation_tool_call_accuracy,
    ragas_tool_call_accuracy,
)
from agentic_core.agentic_metrics.topic_adherence import (
    TOPIC_MODES,
    TOPIC_VARIANTS,
    TopicCounts,
    TopicMode,
    TopicVariant,
    topic_adherence,
)

__all__ = [
    "METRIC_NAMES", "TOOL_CALL_ORDERS", "TOPIC_MODES", "TOPIC_VARIANTS", "AgenticMetrics", "AgenticView", "MetricName",
    "ToolCallAccuracy", "ToolCallOrder", "TopicCounts", "TopicMode", "TopicVariant", "compute_agentic_metrics",
    "conversation_tool_call_accuracy", "judge_for_run", "llm_judges_metrics", "ragas_tool_call_accuracy",
    "topic_adherence",
]  # fmt: skip
