"""The Data page's preview of loaded conversations (before any judging).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from agentic_core.schemas import Conversation


def conversations_preview(conversations: Sequence[Conversation]) -> pd.DataFrame:
    """One row per loaded conversation, for the Data page's preview (before any judging).

    Columns: ``session_id``, ``assistant_id``, ``task_key`` (see
    :meth:`~agentic_core.schemas.Conversation.task_key`), ``interactions``, ``tool_calls`` (calls
    the agent made), ``expected_tool_calls`` (calls the ground truth expects) and ``scored``
    (interactions carrying their own ``score``, which the ``dataset`` judge needs).
    """
    rows = []
    for c in conversations:
        used = expected = scored = 0
        for i in c.conversation:
            used += len(i.agentic.tools_used) if i.agentic else 0
            expected += len(i.ground_truth_agentic.expected_tools) if i.ground_truth_agentic else 0
            scored += i.score is not None
        rows.append((c.session_id, c.assistant_id, c.task_key(), len(c.conversation), used, expected, scored))
    columns = ["session_id", "assistant_id", "task_key", "interactions", "tool_calls", "expected_tool_calls", "scored"]
    return pd.DataFrame.from_records(rows, columns=columns)
