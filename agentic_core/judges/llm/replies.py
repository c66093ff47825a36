"""Reading a chat model's reply: its message, its token usage, and the judgement it holds.

Kept apart from :mod:`agentic_core.judges.llm.judge` (which imports it) so the judge's call loop reads
without the details of the two reply shapes: an ``AIMessage`` on the text path, and the
``{"raw": ..., "parsed": ..., "parsing_error": ...}`` dict of ``with_structured_output(...,
include_raw=True)``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from pydantic import BaseModel

from agentic_core.judges.llm.errors import EMPTY_RESPONSE
from agentic_core.judges.llm.prompt import (
    JudgementParseError,
    JudgeReply,
    message_text,
    parse_judgement,
    validate_judgement,
)


class EmptyReplyError(JudgementParseError):
    """The provider answered, but with nothing to read: no text and no tool call.

    Its message is the plain :data:`~agentic_core.judges.llm.errors.EMPTY_RESPONSE` sentence,
    not "unparseable judge output": there was nothing to parse, and a content filter or a server
    fault is the usual cause, not the model's wording.
    """

    def __init__(self, detail: str) -> None:
        super().__init__(f"{EMPTY_RESPONSE} ({detail})", "")

    def __str__(self) -> str:
        return self.reason


def message_of(output: Any) -> AIMessage | None:
    """The model's message inside a reply (the structured dict keeps it under ``raw``)."""
    if isinstance(output, dict) and "raw" in output:
        output = output["raw"]
    return output if isinstance(output, AIMessage) else None


def usage_of(*replies: AIMessage | None) -> tuple[int | None, int | None]:
    """Input and output tokens reported by the provider over ``replies``, when it reported any."""
    totals: list[int | None] = [None, None]
    for message in replies:
        usage = getattr(message, "usage_metadata", None) if message is not None else None
        for index, key in enumerate(("input_tokens", "output_tokens")):
            value = usage.get(key) if usage else None
            if isinstance(value, int):
                totals[index] = (totals[index] or 0) + value
    return totals[0], totals[1]


def _empty_reply(message: AIMessage | None) -> EmptyReplyError | None:
    """The error for a reply without text or tool calls, naming the finish reason if sent."""
    if message is None or getattr(message, "tool_calls", None) or getattr(message, "invalid_tool_calls", None):
        return None
    metadata = getattr(message, "response_metadata", None) or {}
    # OpenAI and Groq say finish_reason ("content_filter"), Anthropic stop_reason, Gemini both.
    reason = metadata.get("finish_reason") or metadata.get("stop_reason")
    return EmptyReplyError(f"no content, finish reason {reason!r}" if reason else "no content")


def read_judgement(output: Any, message: AIMessage | None) -> JudgeReply:
    """Read a model reply (an ``AIMessage``, or the structured dict) as a judgement.

    Args:
        output: What the model's runnable returned.
        message: :func:`message_of` ``output``.

    Raises:
        AmbiguousJudgementError: the reply held several different verdicts.
        EmptyReplyError: the provider sent neither text nor a tool call.
        JudgementParseError: anything else unreadable; the raw reply is kept.
    """
    if isinstance(output, dict) and "raw" in output:
        return _structured_judgement(output, message)
    text = message_text(message.content) if message is not None else message_text(output)
    if not text.strip():
        empty = _empty_reply(message)
        if empty is not None:
            raise empty
    return parse_judgement(text)


def _structured_judgement(output: dict[str, Any], message: AIMessage | None) -> JudgeReply:
    parsed = output.get("parsed")
    raw_text = message_text(message.content) if message is not None else ""
    if parsed is not None:
        shown = parsed.model_dump_json() if isinstance(parsed, BaseModel) else repr(parsed)
        return validate_judgement(parsed, shown)
    # The model answered in text instead of the schema: its text may still hold the JSON.
    if raw_text.strip():
        return parse_judgement(raw_text)
    empty = _empty_reply(message)
    if empty is not None:
        raise empty
    calls = getattr(message, "tool_calls", None) if message is not None else None
    detail = output.get("parsing_error")
    raise JudgementParseError(f"structured output not parseable: {detail}", repr(calls or raw_text))



def cut_at_budget(message: AIMessage | None) -> bool:
    """Whether the provider says the reply stopped at the reply budget (``max_tokens``).

    OpenAI-style servers say ``finish_reason: "length"``, Anthropic ``stop_reason: "max_tokens"``,
    Ollama ``done_reason: "length"``, Gemini ``MAX_TOKENS``.
    """
    metadata = (getattr(message, "response_metadata", None) or {}) if message is not None else {}
    reasons = (metadata.get(key) for key in ("finish_reason", "stop_reason", "done_reason"))
    return any(str(reason).lower() in ("length", "max_tokens") for reason in reasons if reason)
