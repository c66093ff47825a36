"""What the agentic metrics read from a conversation: its user queries, replies, outcome and transcript.

Pure functions of a :class:`~agentic_core.data.schemas.Conversation`; the texts sent to a judge are cut at
:data:`MAX_METRIC_CHARS` (with a marker the judge can see), like answer judging cuts its texts.
"""

from __future__ import annotations

import json

from agentic_core.data.schemas import Conversation

MAX_METRIC_CHARS = 20_000
"""A judge reads at most this many characters of a transcript, outcome or reference."""


def clip_for_judge(text: str) -> str:
    """``text`` cut at :data:`MAX_METRIC_CHARS`, saying so inside the text when it was cut."""
    if len(text) <= MAX_METRIC_CHARS:
        return text
    cut = f" [... cut: {len(text):,} characters, the judge read the first {MAX_METRIC_CHARS:,}]"
    return text[:MAX_METRIC_CHARS] + cut


def outcome_text(conversation: Conversation) -> str:
    """The conversation's outcome: its last non-blank assistant answer (``""`` when every answer is blank)."""
    for turn in reversed(conversation.conversation):
        if turn.assistant.strip():
            return turn.assistant
    return ""


def user_turns_text(conversation: Conversation) -> str:
    """The user's turns, one per line, numbered (what the goal is inferred from)."""
    return "\n".join(f"USER {n}: {turn.query}" for n, turn in enumerate(conversation.conversation, start=1))


def transcript_text(conversation: Conversation) -> str:
    """The whole conversation as text: each user turn, the tool calls made and their results, the reply."""
    lines: list[str] = []
    for n, turn in enumerate(conversation.conversation, start=1):
        lines.append(f"USER {n}: {turn.query}")
        if turn.agentic is not None:
            for call in turn.agentic.tools_used:
                args = json.dumps(call.parameters, ensure_ascii=False, sort_keys=True, default=str)
                lines.append(f"TOOL CALL {n}: {call.tool_name}({args})")
                if call.result is not None:
                    lines.append(f"TOOL RESULT {n}: {json.dumps(call.result, ensure_ascii=False, default=str)}")
        lines.append(f"AGENT {n}: {turn.assistant}")
    return "\n".join(lines)
