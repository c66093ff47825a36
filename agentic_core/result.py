"""What :func:`~agentic_core.evaluate.evaluate` produces: everything judged and scored once.

Kept apart from the code that makes it (``evaluate``) and the code that reads it (``aggregate``,
``report``), so both can import it without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from agentic_core.agentic_metrics.results import AgenticMetrics
from agentic_core.columnar.columns import InteractionColumns
from agentic_core.data.labels import HumanLabel
from agentic_core.data.overrides import Override
from agentic_core.data.schemas import Conversation, Interaction
from agentic_core.io.load_report import LoadReport
from agentic_core.judges.base import JudgeIdentity
from agentic_core.judges.runner import JudgeRun
from agentic_core.tools import ToolComponents


@dataclass
class EvaluationResult:
    """Everything judged and scored once; input to any number of aggregations.

    Attributes:
        conversations: The evaluated conversations, in input order (loaded data: a read-only
            :class:`~agentic_core.io.conversation_store.ConversationStore` that validates a record
            when it is read; prefer :attr:`interactions` and the arrays for whole-run work).
        interactions: One row per interaction, its columns declared by
            :class:`~agentic_core.common.frame_columns.ResultCols`: ``conv`` (conversation index), ``position``,
            ``session_id``, ``assistant_id``, ``task_key``, ``qa_id``, ``query``, ``answer``,
            ``ground_truth``, ``score`` (NaN = unscored: a judge failure, or an abstention),
            ``judge_status`` (``ok``, ``cached``, ``failed`` or ``uncertain``: the judge abstained),
            ``judge_reasoning``, ``judge_error`` (for an abstention it starts with ``uncertain``),
            ``judge_probability`` (the judge's calibrated P(correct), float, NaN when the judge gives
            none; an abstention keeps it while its score stays NaN), ``tool_applicable`` and the
            tool component columns.
        tool_components: Per interaction, the weight-independent tool components (or None); a
            read-only sequence (:class:`~agentic_core.columnar.component_list.ComponentList` after a load:
            what load workers sent is read back only when asked for).
        judge_run: The judge run (identity, per-status counts, cache hits, tokens, timing).
        recommended_threshold: The judge's recommended answer threshold.
        load_report: The load report when the input was loaded here (skipped records, warnings).
        elapsed_s: Wall time of the whole evaluation.
        conv_index: Per interaction, its conversation's row (sorted).
        task_codes: Per conversation, the index of its task key in ``task_keys``.
        task_keys: The distinct task keys, sorted.
        session_ids: Per conversation, its session id.
        tool_arrays: The tool component columns (see :func:`agentic_core.tools.components_matrix`).
        overrides: Human overrides by interaction row (see :mod:`agentic_core.data.overrides`); every
            aggregate uses them in place of the judge's verdict.
        agentic: Seed 004's agentic metrics when they were computed (``evaluate(metrics=...)``), else ``None``.
        columns: What evaluation read of the conversations, per interaction
            (:class:`~agentic_core.columnar.columns.InteractionColumns`): whole-run tables read these
            instead of validating every conversation again.
        labels: Human labels given beside the data (review queue, labels file, endpoint request; the data's
            own ``human_label`` values are read from :attr:`columns`): what the corrected estimates use
            (:mod:`agentic_core.analysis.corrected_reading`). Adding one re-aggregates, never re-judges.
    """

    conversations: Sequence[Conversation]
    interactions: pd.DataFrame
    tool_components: Sequence[ToolComponents | None]
    judge_run: JudgeRun
    recommended_threshold: float
    load_report: LoadReport | None = None
    elapsed_s: float = 0.0
    # Arrays derived once for fast aggregation.
    conv_index: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    task_codes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    task_keys: list[str] = field(default_factory=list)
    session_ids: list[str] = field(default_factory=list)
    tool_arrays: dict[str, np.ndarray] = field(default_factory=dict)
    overrides: dict[int, Override] = field(default_factory=dict)
    agentic: AgenticMetrics | None = None
    columns: InteractionColumns | None = None
    labels: list[HumanLabel] = field(default_factory=list)

    @property
    def judge_identity(self) -> JudgeIdentity:
        """The identity of the judge that produced the scores."""
        return self.judge_run.identity

    @property
    def n_conversations(self) -> int:
        """Number of conversations evaluated."""
        return len(self.conversations)

    @property
    def n_interactions(self) -> int:
        """Number of interactions evaluated."""
        return len(self.interactions)

    @property
    def n_tool_interactions(self) -> int:
        """Interactions where tool correctness applies (tools expected or used)."""
        applicable = self.tool_arrays.get("applicable")
        return 0 if applicable is None else int(applicable.sum())

    def assistant_ids(self) -> list[str]:
        """Per conversation, its assistant id."""
        if self.columns is not None:
            return list(self.columns.assistant_ids)
        return [c.assistant_id for c in self.conversations]

    def human_values(self) -> tuple[list[int | None], list[float | None]]:
        """Per interaction (row order), its ``human_label`` and ``human_score`` (``None`` when absent)."""
        if self.columns is not None:
            return self.columns.human_values()
        flat = self.flat_interactions()
        return [i.human_label for i in flat], [i.human_score for i in flat]

    def tool_call_names(self) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
        """Per interaction (row order), the tool names of its expected calls and of its used calls, in order."""
        if self.columns is not None:
            return self.columns.expected_names, self.columns.used_names
        flat = self.flat_interactions()
        expected = [
            tuple(t.tool_name for t in i.ground_truth_agentic.expected_tools) if i.ground_truth_agentic else ()
            for i in flat
        ]
        return expected, [tuple(t.tool_name for t in i.agentic.tools_used) if i.agentic else () for i in flat]

    def task_key_per_conversation(self) -> np.ndarray:
        """Per conversation, its task key (object array)."""
        if not self.task_keys:
            return np.asarray([], dtype=object)
        return np.asarray(self.task_keys, dtype=object)[self.task_codes]

    def conversation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """First and one-past-last interaction row of every conversation (``conv_index`` is sorted)."""
        starts = np.searchsorted(self.conv_index, np.arange(self.n_conversations)).astype(np.int64)
        ends = np.append(starts[1:], len(self.conv_index)).astype(np.int64)
        return starts, ends

    def flat_interactions(self) -> list[Interaction]:
        """Every interaction, in row order (the order of :attr:`interactions`)."""
        return [i for c in self.conversations for i in c.conversation]
