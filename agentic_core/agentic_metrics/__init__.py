"""Seed 004's agentic metrics: tool call accuracy (Ragas' definition), topic adherence, agent goal accuracy.

Computing them: :mod:`agentic_core.agentic_metrics.compute` (``evaluate(metrics=...)`` calls it); aggregating:
:mod:`agentic_core.analysis.agentic_summary`. Only the pure definitions and the result types are imported here,
so importing the package stays light (and :mod:`agentic_core.result` can use the types).
"""

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
    "METRIC_NAMES",
    "TOOL_CALL_ORDERS",
    "TOPIC_MODES",
    "TOPIC_VARIANTS",
    "AgenticMetrics",
    "AgenticView",
    "MetricName",
    "ToolCallAccuracy",
    "ToolCallOrder",
    "TopicCounts",
    "TopicMode",
    "TopicVariant",
    "conversation_tool_call_accuracy",
    "ragas_tool_call_accuracy",
    "topic_adherence",
]
