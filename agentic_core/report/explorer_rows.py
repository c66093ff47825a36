"""The Explorer's row arithmetic: a conversation's facts, its interactions' rows, the verdict proposed to a person.

A conversation is a row of the aggregate; its interactions are rows of the run (conversation order,
then position), the rows a person's verdict (:class:`~agentic_core.data.overrides.Override`) names.
Turning one into the other, and choosing what to propose when a person overrides a verdict, are
rules about the run, not about a page: they live here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.common.frame_columns import CORRECT, INCORRECT, STATUSES, ConversationCols, StatCols
from agentic_core.data.overrides import Override
from agentic_core.errors import DataError
from agentic_core.report.explorer import InteractionDetail
from agentic_core.result import EvaluationResult


@dataclass(frozen=True)
class ConversationFacts:
    """What the drill-down's heading says of one conversation under the current settings.

    Attributes:
        row: The conversation's row.
        session_id: Its session id (can repeat across attempts).
        assistant_id: Its assistant.
        status: ``correct``, ``incorrect`` or ``unscored``.
        task_key: Its task (task_id, or the ordered qa_ids).
        correct: Interactions counted correct.
        total: Its interactions.
        pass_at_k: Its per-conversation pass@K over its interactions, ``None`` where undefined.
        k: The K.
        context: Its context text ("" when none).
        language: Its language ("" when none).
    """

    row: int
    session_id: str
    assistant_id: str
    status: str
    task_key: str
    correct: int
    total: int
    pass_at_k: float | None
    k: int
    context: str
    language: str


def conversation_facts(result: EvaluationResult, agg: Aggregate, row: int) -> ConversationFacts:
    """The facts of conversation ``row``.

    Raises:
        DataError: ``row`` is not a conversation of the run.
    """
    n = result.n_conversations
    if not 0 <= row < n:
        raise DataError("conversation", f"must be a row between 0 and {n - 1}", row, "pick one from the list")
    conv = agg.conversations.iloc[row]
    conversation = result.conversations[row]
    raw = conv.get(StatCols.PASS_AT_K)
    at_k = None if raw is None or math.isnan(float(raw)) else float(raw)
    return ConversationFacts(
        row=row,
        session_id=conversation.session_id,
        assistant_id=conversation.assistant_id,
        status=str(conv[ConversationCols.STATUS]),
        task_key=str(conv[ConversationCols.TASK_KEY]),
        correct=int(conv[ConversationCols.CORRECT_INTERACTIONS]),
        total=int(conv[ConversationCols.TOTAL_INTERACTIONS]),
        pass_at_k=at_k,
        k=agg.k,
        context=conversation.context or "",
        language=conversation.language or "",
    )


def interaction_rows(
    result: EvaluationResult, row: int, details: Sequence[InteractionDetail]
) -> dict[int, InteractionDetail]:
    """Each interaction of conversation ``row`` by its row in the run (the row an override names).

    Args:
        result: The run.
        row: The conversation's row.
        details: Its interactions in order (:func:`~agentic_core.report.explorer.conversation_detail`).
    """
    start = int(result.conversation_bounds()[0][row])
    return {start + k: detail for k, detail in enumerate(details)}


def proposed_verdict(current: Override | None, status: str) -> bool | None:
    """The verdict a person's form starts on: correct (``True``), incorrect (``False``) or none (``None``).

    Their own verdict when they gave one; otherwise the one that counts now (correct or incorrect),
    and none for an unscored interaction. Never the opposite of what counts: with the opposite
    preselected, one click on "Save" recorded a disagreement the person never stated (issue 36).
    """
    if current is not None:
        return current.correct
    return {CORRECT: True, INCORRECT: False}.get(status)


def conversations_by_status(agg: Aggregate) -> dict[str, int]:
    """Conversations of the run per status, in the Explorer's order (failing first), zeros included."""
    counts: Mapping[str, int] = agg.conversations[ConversationCols.STATUS].value_counts().to_dict()
    return {status: int(counts.get(status, 0)) for status in STATUSES}


def position_of(rows: Sequence[int], row: int | None) -> int | None:
    """Where conversation ``row`` stands in the listed ``rows`` (``None`` when absent or not asked for)."""
    if row is None:
        return None
    try:
        return list(rows).index(row)
    except ValueError:
        return None
