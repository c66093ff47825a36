"""The Explorer's tables: conversations failing first, search, and the drill-down into one conversation.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd

from agentic_core.analysis.aggregate import Aggregate
from agentic_core.common.frame_columns import (
    CORRECT,
    INCORRECT,
    STATUSES,
    UNSCORED,
    ExplorerCols,
    InteractionCols,
    ResultCols,
)
from agentic_core.errors import DataError
from agentic_core.report.explorer_filters import severity_order
from agentic_core.report.tool_tables import tool_diff
from agentic_core.result import EvaluationResult
from agentic_core.tools import ToolCorrectnessScore, combine

STATUS_ORDER: dict[str, int] = {status: rank for rank, status in enumerate(STATUSES)}
"""Order of conversation statuses in the explorer: failing first."""


def conversation_index(result: EvaluationResult) -> pd.DataFrame:
    """Weight-independent identity of every conversation, built once per run.

    ``session_id`` alone is not unique (seed-000 data reuses it across attempts), so the
    conversation is identified by ``row`` (its position in the run) and shown with its
    ``assistant_id``.

    Returns:
        Columns ``row``, ``session_id``, ``assistant_id``, ``task_key``, ``first_query``.
    """
    n = result.n_conversations
    starts, _ = result.conversation_bounds()
    queries = result.interactions[ResultCols.QUERY].to_numpy(dtype=object)
    task_keys = np.asarray(result.task_keys, dtype=object)[result.task_codes] if n else []
    return pd.DataFrame(
        {
            ExplorerCols.ROW: np.arange(n, dtype=np.int64),
            ExplorerCols.SESSION_ID: pd.Series(result.session_ids, dtype=object),
            ExplorerCols.ASSISTANT_ID: pd.Series(result.assistant_ids(), dtype=object),
            ExplorerCols.TASK_KEY: pd.Series(task_keys, dtype=object),
            ExplorerCols.FIRST_QUERY: pd.Series(queries[starts] if n else [], dtype=object),
        }
    )


class SearchIndex:
    """Lower-cased text to search conversations in, built once per run (vectorised search).

    Args:
        result: The evaluated run.
    """

    def __init__(self, result: EvaluationResult) -> None:
        inter = result.interactions
        self.n_conversations = result.n_conversations
        self.conv_index = result.conv_index
        texts = inter[ResultCols.QUERY].astype(str) + "\n" + inter[ResultCols.ANSWER].astype(str)
        self.interaction_text = texts.str.lower()
        ids = pd.Series(result.session_ids, dtype=object).astype(str)
        assistants = pd.Series(result.assistant_ids(), dtype=object).astype(str)
        self.id_text = (ids + "\n" + assistants).str.lower()

    def search(self, term: str) -> np.ndarray:
        """Conversations whose session id, assistant id, queries or answers contain ``term``.

        Case-insensitive, literal (not a regular expression); an empty term matches everything.

        Returns:
            Boolean mask, one entry per conversation.
        """
        needle = term.strip().lower()
        if not needle:
            return np.ones(self.n_conversations, dtype=bool)
        mask = self.id_text.str.contains(needle, regex=False).fillna(False).to_numpy(dtype=bool)
        hits = self.interaction_text.str.contains(needle, regex=False).fillna(False).to_numpy(dtype=bool)
        mask = mask.copy()
        mask[self.conv_index[hits]] = True
        return mask


def explorer_table(
    agg: Aggregate,
    index: pd.DataFrame,
    *,
    mask: np.ndarray | None = None,
    statuses: Collection[str] | None = None,
) -> pd.DataFrame:
    """Conversations under the current settings, failing first (incorrect, unscored, correct).

    Args:
        agg: The aggregate (current settings).
        index: From :func:`conversation_index` for the same run.
        mask: Optional boolean mask per conversation (e.g. :meth:`SearchIndex.search`).
        statuses: Keep only these statuses (``None`` keeps all).

    Returns:
        One row per kept conversation, failing first (:data:`~agentic_core.report.explorer_filters.SEVERITY_KEY`).
    """
    conv = agg.conversations
    sources = {name: index[name] for name in ExplorerCols.INDEX}
    sources.update({name: conv[there] for name, there in ExplorerCols.FROM_CONVERSATIONS.items()})
    frame = pd.DataFrame({name: sources[name].to_numpy() for name in ExplorerCols.ALL})
    keep = np.ones(len(frame), dtype=bool)
    if mask is not None:
        keep &= np.asarray(mask, dtype=bool)
    if statuses is not None:
        keep &= frame[ExplorerCols.STATUS].isin(list(statuses)).to_numpy()
    return severity_order(frame[keep])



@dataclass(frozen=True)
class InteractionDetail:
    """One interaction of a conversation under the current settings (for the drill-down).

    ``status`` is ``correct`` / ``incorrect`` / ``unscored`` as counted by the aggregate (it
    includes the tool requirement when that option is on); ``verdict`` says why in words.
    ``tool`` is ``None`` when tool correctness does not apply (no tools expected nor used).
    """

    row: int
    position: int
    qa_id: str
    query: str
    answer: str
    ground_truth: str
    judge_score: float | None
    judge_status: str
    judge_reasoning: str | None
    judge_error: str | None
    status: str
    verdict: str
    tool: ToolCorrectnessScore | None
    tool_diff: pd.DataFrame | None


def conversation_detail(result: EvaluationResult, agg: Aggregate, row: int) -> list[InteractionDetail]:
    """The interactions of conversation ``row`` with judge, verdict, tool score and diff.

    Only this conversation's interactions are combined, so it is cheap on any dataset size.

    Raises:
        DataError: ``row`` is not a conversation of the run.
    """
    n = result.n_conversations
    if not (isinstance(row, (int, np.integer)) and 0 <= int(row) < n):
        raise DataError("conversation", f"must be a row between 0 and {n - 1}", row, "pick one from the list")
    row = int(row)
    starts, ends = result.conversation_bounds()
    lo, hi = int(starts[row]), int(ends[row])
    s = agg.settings
    base = result.interactions
    inter = agg.interactions
    out: list[InteractionDetail] = []
    for j, interaction in enumerate(result.conversations[row].conversation):
        i = lo + j
        if i >= hi:  # defensive: the conversation list and the frame disagree
            break
        raw = float(inter[InteractionCols.SCORE].iat[i])  # under the settings' abstention band
        score = None if math.isnan(raw) else raw
        abstained = bool(inter[InteractionCols.UNCERTAIN].iat[i])
        judged_uncertain = base[ResultCols.JUDGE_STATUS].iat[i] == "uncertain"
        comp = result.tool_components[i]
        tool = None if comp is None else combine(comp, s.tool_weights, s.tool_threshold, s.ignore_extra_tools)
        error = base[ResultCols.JUDGE_ERROR].iat[i]
        if score is None:
            status = UNSCORED
            how = "abstained" if abstained or judged_uncertain else "failed"
            if abstained and not judged_uncertain:  # the judge decided it; the band set abstains
                p = float(inter[InteractionCols.JUDGE_PROBABILITY].iat[i])
                error = f"uncertain under the abstention band set: P(correct) {p:.3f}"
            verdict = f"Unscored: the judge {how} ({error or 'no score'})"
            verdict += (
                "; counted as incorrect by option." if s.unscored_as_incorrect else "; its conversation is excluded."
            )
        else:
            correct = bool(inter[InteractionCols.CORRECT].iat[i])
            status = CORRECT if correct else INCORRECT
            passes = bool(inter[InteractionCols.PASSES_THRESHOLD].iat[i])
            verdict = (
                f"Judge score {score:.2f} {'≥' if passes else '<'} answer threshold {s.threshold:.2f}"
            )
            if judged_uncertain:  # the judge abstained; the band set decides it by its probability
                verdict += " (the judge abstained; the abstention band set decides it)"
            if s.require_tool_correctness and tool is not None:
                verdict += (
                    f"; tool use {'meets' if tool.is_correct else 'is below'} the tool threshold "
                    f"{s.tool_threshold:g} (required)"
                )
            verdict += f": {status}."
        reasoning = base[ResultCols.JUDGE_REASONING].iat[i]
        out.append(
            InteractionDetail(
                row=row,
                position=int(base[ResultCols.POSITION].iat[i]),
                qa_id=str(base[ResultCols.QA_ID].iat[i]),
                query=str(base[ResultCols.QUERY].iat[i]),
                answer=str(base[ResultCols.ANSWER].iat[i]),
                ground_truth=str(base[ResultCols.GROUND_TRUTH].iat[i]),
                judge_score=score,
                judge_status=str(base[ResultCols.JUDGE_STATUS].iat[i]),
                judge_reasoning=None if reasoning is None or reasoning != reasoning else str(reasoning),
                judge_error=None if error is None or error != error else str(error),
                status=status,
                verdict=verdict,
                tool=tool,
                tool_diff=None if comp is None else tool_diff(interaction, comp),
            )
        )
    return out
