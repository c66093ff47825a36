"""The Data page's preview of loaded conversations (before any judging).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from agentic_core.columnar.columns import columns_of, has_columns
from agentic_core.data.schemas import Conversation

_PREVIEW_COLUMNS = [
    "session_id", "assistant_id", "task_key", "interactions", "tool_calls", "expected_tool_calls", "scored"
]


def conversations_preview(conversations: Sequence[Conversation]) -> pd.DataFrame:
    """One row per loaded conversation, for the Data page's preview (before any judging).

    Columns: ``session_id``, ``assistant_id``, ``task_key`` (see
    :meth:`~agentic_core.data.schemas.Conversation.task_key`), ``interactions``, ``tool_calls`` (calls
    the agent made), ``expected_tool_calls`` (calls the ground truth expects) and ``scored``
    (interactions carrying their own ``score``, which the ``dataset`` judge needs).
    """
    if has_columns(conversations):  # a loaded file: read its columns, validate nothing again
        cols = columns_of(conversations)
        starts = np.cumsum(cols.sizes) - cols.sizes

        def per_conversation(values: np.ndarray) -> list[int]:
            return np.add.reduceat(values, starts).tolist() if len(starts) else []

        used_calls = np.fromiter(map(len, cols.used_names), dtype=np.int64, count=cols.n_interactions)
        expected_calls = np.fromiter(map(len, cols.expected_names), dtype=np.int64, count=cols.n_interactions)
        with_score = (~np.isnan(cols.score)).astype(np.int64)
        rows = list(
            zip(
                cols.session_ids,
                cols.assistant_ids,
                cols.task_keys,
                cols.sizes.tolist(),
                per_conversation(used_calls),
                per_conversation(expected_calls),
                per_conversation(with_score),
                strict=True,
            )
        )
        return pd.DataFrame.from_records(rows, columns=_PREVIEW_COLUMNS)
    rows = []
    for c in conversations:
        used = expected = scored = 0
        for i in c.conversation:
            used += len(i.agentic.tools_used) if i.agentic else 0
            expected += len(i.ground_truth_agentic.expected_tools) if i.ground_truth_agentic else 0
            scored += i.score is not None
        rows.append((c.session_id, c.assistant_id, c.task_key(), len(c.conversation), used, expected, scored))
    return pd.DataFrame.from_records(rows, columns=_PREVIEW_COLUMNS)


VIEW_MAX_CHARS = 4_000
"""Longest string the record viewer shows in full: a 10 MB answer must not travel to the browser."""
VIEW_MAX_DEPTH = 40
"""Deepest nesting the record viewer draws: deeper values are summarised (the browser's JSON view
recursed without a limit)."""


def record_view(conversation: Conversation, max_chars: int = VIEW_MAX_CHARS, max_depth: int = VIEW_MAX_DEPTH) -> object:
    """One conversation as JSON-ready data for display: long strings cut, deep nesting summarised.

    Args:
        conversation: The record.
        max_chars: Strings longer than this are cut, saying how much was left out.
        max_depth: Containers deeper than this are replaced by a short description.

    Returns:
        Plain JSON data (the record as loaded, fields left unset omitted), safe to render.
    """
    data = conversation.model_dump(mode="json", exclude_unset=True)

    def shorten(value: object, depth: int) -> object:
        # Iteration would be safer still, but the loader already refuses records nested deeper
        # than agentic_core.io.record_checks.MAX_TOOL_NESTING, so recursion depth stays small.
        if isinstance(value, str):
            if len(value) > max_chars:
                return f"{value[:max_chars]}… [{len(value) - max_chars:,} more characters not shown]"
            return value
        if isinstance(value, dict | list):
            if depth >= max_depth:
                kind = "object" if isinstance(value, dict) else "list"
                return f"[{kind} of {len(value)} item(s) nested deeper than {max_depth} levels, not shown]"
            if isinstance(value, dict):
                return {k: shorten(v, depth + 1) for k, v in value.items()}
            return [shorten(v, depth + 1) for v in value]
        return value

    return shorten(data, 0)
