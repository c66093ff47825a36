"""Cost of correctness: tokens and latency per conversation, and tokens per fully correct conversation.

Traced data (the OpenTelemetry importer, :mod:`agentic_core.io.otel_import`) carries each
interaction's ``telemetry``: its input and output tokens and its latency. A conversation's tokens
are the sum over its interactions, its latency likewise (the agent's time, turn by turn). Every
token spent counts toward the cost of correctness, whether its conversation was correct or not:
``tokens_per_correct`` is all tokens over the number of fully correct conversations, what one
correct outcome costs. Unscored conversations are spent, never counted correct (a judge failure is
not a 0, and not a success either); the summary says how many there were.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from agentic_core.data.schemas import Conversation


@dataclass(frozen=True)
class TelemetryCost:
    """Token usage and latency of a run's conversations.

    Attributes:
        conversations: Conversations in the run.
        with_tokens: Conversations where at least one interaction reports tokens.
        with_latency: Conversations where at least one interaction reports a latency.
        input_tokens: Input tokens, summed over every conversation.
        output_tokens: Output tokens, likewise.
        correct_conversations: Fully correct conversations.
        unscored_conversations: Conversations the judge could not score.
        tokens_per_conversation: Mean tokens (input + output) over the conversations with tokens.
        tokens_per_correct: All tokens over the fully correct conversations (``None`` when none is
            correct, or no conversation reports tokens).
        latency_ms_per_conversation: Mean latency over the conversations with a latency (``None``
            when none has one).
    """

    conversations: int
    with_tokens: int
    with_latency: int
    input_tokens: int
    output_tokens: int
    correct_conversations: int
    unscored_conversations: int
    tokens_per_conversation: float | None
    tokens_per_correct: float | None
    latency_ms_per_conversation: float | None

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


def telemetry_cost(conversations: Iterable[Conversation], status: Sequence[str]) -> TelemetryCost | None:
    """Tokens and latency per conversation, and tokens per correct conversation.

    Args:
        conversations: The run's conversations, in order (``EvaluationResult.conversations``).
        status: Each conversation's status, in the same order: ``correct``, ``incorrect`` or
            ``unscored`` (``AggregateResult.conversations["status"]``).

    Returns:
        The summary, or ``None`` when no interaction reports tokens or latency (untraced data).

    Raises:
        ValueError: ``status`` does not have one entry per conversation.
    """
    n = with_tokens = with_latency = input_tokens = output_tokens = 0
    latency_total = 0.0
    for conv in conversations:
        n += 1
        tokens_seen = latency_seen = False
        for turn in conv.conversation:
            tel = turn.telemetry
            if tel is None:
                continue
            if tel.input_tokens is not None or tel.output_tokens is not None:
                tokens_seen = True
                input_tokens += tel.input_tokens or 0
                output_tokens += tel.output_tokens or 0
            if tel.latency_ms is not None:
                latency_seen = True
                latency_total += tel.latency_ms
        with_tokens += tokens_seen
        with_latency += latency_seen
    if n != len(status):
        raise ValueError(f"status has {len(status)} entries for {n} conversations; give one per conversation")
    if not with_tokens and not with_latency:
        return None
    correct = sum(1 for s in status if s == "correct")
    total = input_tokens + output_tokens
    return TelemetryCost(
        conversations=n,
        with_tokens=with_tokens,
        with_latency=with_latency,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        correct_conversations=correct,
        unscored_conversations=sum(1 for s in status if s == "unscored"),
        tokens_per_conversation=total / with_tokens if with_tokens else None,
        tokens_per_correct=total / correct if with_tokens and correct else None,
        latency_ms_per_conversation=latency_total / with_latency if with_latency else None,
    )
