"""The seed data models: conversations, interactions, tool calls, imported traces and human overrides.

This face is what callers outside use (pydantic models only, so eager).
"""

from agentic_core.data.labels import HumanLabel
from agentic_core.data.overrides import Override
from agentic_core.data.schemas import Conversation, ExpectedTool, Interaction, Telemetry, ToolCall
from agentic_core.data.spans import TraceSpan
from agentic_core.data.trace import TraceCall, TraceStep

__all__ = [
    "Conversation", "ExpectedTool", "HumanLabel", "Interaction", "Override", "Telemetry", "ToolCall", "TraceCall",
    "TraceSpan", "TraceStep",
]  # fmt: skip
