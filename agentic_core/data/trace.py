"""The whole trace of an imported conversation: every message in order, for reading it as a thread.

An importer maps a chat log to interactions (a user query, the agent's final reply, the calls in
between) and keeps the log itself as ``Conversation.trace``: one :class:`TraceStep` per message
(system prompt, user message, assistant message with its tool calls and their arguments, tool
result), each naming the interaction it belongs to, so a viewer can show the whole exchange and
highlight the judged one. Our addition to the seed format; optional, never read by the judges or
the aggregates.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TraceRole = Literal["system", "user", "assistant", "tool"]


class TraceCall(BaseModel):
    """A tool call an assistant message made."""

    model_config = ConfigDict(extra="allow")

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    id: str | None = None


class TraceStep(BaseModel):
    """One message of the trace.

    Attributes:
        role: ``system``, ``user``, ``assistant`` or ``tool`` (a tool's result).
        content: The message's text (a tool result as written: text or JSON).
        tool_calls: An assistant message's tool calls, with their arguments.
        tool_call_id: A tool result's call id (when the format has ids).
        name: A tool result's tool name (when it could be linked to its call).
        interaction: The index in ``conversation`` of the interaction the message belongs to
            (``None``: before the first user message, or a last message the agent never answered).
        source: Where the message is in the original record (``traj[4]``).
    """

    model_config = ConfigDict(extra="allow")

    role: TraceRole
    content: str = ""
    tool_calls: list[TraceCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    interaction: int | None = None
    source: str | None = None
