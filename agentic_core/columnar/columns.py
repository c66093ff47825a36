"""What :func:`~agentic_core.evaluate.evaluate` reads of the conversations, kept in columns.

One row per interaction (texts in Arrow string arrays, the dataset score in a float array, the
weight-independent tool components) and one per conversation (ids, task key, size). The loader
builds them while it streams a file (:class:`~agentic_core.io.conversation_store.ConversationStore`),
so the validated models need not be kept; :func:`columns_of` builds them from any sequence of
conversations (a list built in code) with the same code, hence the same values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import numpy as np
import pyarrow as pa

from agentic_core.columnar.component_list import ComponentList
from agentic_core.common.time_limit import checkpoint
from agentic_core.data.schemas import Conversation
from agentic_core.tools import ToolComponents, score_tools
from agentic_core.tools.combine import TABLE_COLUMNS, components_table, table_arrays

__all__ = ["ColumnBuilder", "InteractionColumns", "columns_of", "count_cut", "has_columns"]

_TEXT_FIELDS = ("qa_id", "query", "answer", "ground_truth")
_TOOL_NAME = attrgetter("tool_name")


@dataclass
class InteractionColumns:
    """The columns of a set of conversations (see the module docstring).

    Attributes:
        sizes: Per conversation, its number of interactions.
        session_ids: Per conversation, its session id.
        assistant_ids: Per conversation, its assistant id.
        task_keys: Per conversation, its task key (:meth:`Conversation.task_key`).
        texts: ``qa_id``, ``query``, ``answer`` (the assistant's), ``ground_truth``: per interaction,
            as Arrow ``large_string`` arrays.
        score: Per interaction, the dataset's own score (NaN when absent).
        tool_components: Per interaction, :func:`~agentic_core.tools.score_tools`'s result (held
            pickled in packs until read when it crossed a process boundary; see
            :mod:`agentic_core.columnar.component_list`).
        max_text_length: Per interaction, the length of its longest text (query, answer or ground truth).
        human_label: Per interaction, ``human_label`` (0 / 1; NaN when absent).
        human_score: Per interaction, ``human_score`` (NaN when absent).
        expected_names: Per interaction, the tool names of its expected calls, in order (one shared
            tuple per distinct sequence).
        used_names: Per interaction, the tool names of its used calls, in order (shared likewise).
        tool_table: Per interaction, ``tool_components`` as numbers
            (:func:`~agentic_core.tools.combine.components_table`; built with them).
    """

    sizes: np.ndarray
    session_ids: list[str]
    assistant_ids: list[str]
    task_keys: list[str]
    texts: dict[str, pa.ChunkedArray]
    score: np.ndarray
    tool_components: ComponentList
    max_text_length: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    human_label: np.ndarray = field(default_factory=lambda: np.zeros(0))
    human_score: np.ndarray = field(default_factory=lambda: np.zeros(0))
    expected_names: list[tuple[str, ...]] = field(default_factory=list)
    used_names: list[tuple[str, ...]] = field(default_factory=list)
    tool_table: np.ndarray = field(default_factory=lambda: np.zeros((0, len(TABLE_COLUMNS))))

    @property
    def tool_arrays(self) -> dict[str, np.ndarray]:
        """The tool components as arrays (:func:`~agentic_core.tools.combine.components_matrix`)."""
        return table_arrays(self.tool_table)

    @property
    def n_interactions(self) -> int:
        """Number of interactions (rows)."""
        return len(self.score)

    def text(self, name: str) -> list[str]:
        """One text column as Python strings (``qa_id``, ``query``, ``answer`` or ``ground_truth``)."""
        return self.texts[name].to_pylist()

    def scores(self) -> list[float | None]:
        """The dataset scores as Python values (``None`` when absent)."""
        return [None if v != v else v for v in self.score.tolist()]

    def take(self, keep: Sequence[bool]) -> InteractionColumns:
        """The columns of the conversations whose ``keep`` is true, in order."""
        conv_mask = np.asarray(keep, dtype=bool)
        rows = np.repeat(conv_mask, self.sizes)
        row_list = rows.tolist()
        conv_list = conv_mask.tolist()

        def pick(values: list[Any], mask: list[bool]) -> list[Any]:
            return [v for v, k in zip(values, mask, strict=True) if k]

        arrow_rows = pa.array(rows)
        return InteractionColumns(
            sizes=self.sizes[conv_mask],
            session_ids=pick(self.session_ids, conv_list),
            assistant_ids=pick(self.assistant_ids, conv_list),
            task_keys=pick(self.task_keys, conv_list),
            texts={name: column.filter(arrow_rows) for name, column in self.texts.items()},
            score=self.score[rows],
            tool_components=self.tool_components.take(row_list),
            max_text_length=self.max_text_length[rows],
            human_label=self.human_label[rows],
            human_score=self.human_score[rows],
            expected_names=pick(self.expected_names, row_list),
            used_names=pick(self.used_names, row_list),
            tool_table=self.tool_table[rows],
        )

    def human_values(self) -> tuple[list[int | None], list[float | None]]:
        """``human_label`` and ``human_score`` of every interaction as Python values (``None`` when absent)."""
        labels = [None if v != v else int(v) for v in self.human_label.tolist()]
        return labels, [None if v != v else v for v in self.human_score.tolist()]


class ColumnBuilder:
    """Accumulates :class:`InteractionColumns` one conversation at a time (texts flushed to Arrow in chunks)."""

    _FLUSH = 8192

    def __init__(self) -> None:
        self._sizes: list[int] = []
        self._session_ids: list[str] = []
        self._assistant_ids: list[str] = []
        self._task_keys: list[str] = []
        self._pending_lists: tuple[list[str], ...] = tuple([] for _ in _TEXT_FIELDS)  # in _TEXT_FIELDS order
        self._chunks: dict[str, list[pa.Array]] = {name: [] for name in _TEXT_FIELDS}
        # Numbers wait in lists (one row per interaction: score, longest text, human label and
        # score) and go to arrays at every flush, so no Python float per row is kept.
        self._numbers: list[tuple[float, int, float, float]] = []
        self._number_chunks: list[np.ndarray] = []
        self._expected_names: list[tuple[str, ...]] = []
        self._used_names: list[tuple[str, ...]] = []
        self._tools: list[ToolComponents | None] = []  # added since the last flush
        self._components = ComponentList()  # flushed
        self._tool_chunks: list[np.ndarray] = []
        self._shared: dict[tuple[str, ...], tuple[str, ...]] = {}

    def add(self, conv: Conversation) -> None:
        """Append one validated conversation's rows (its tool use scored now).

        Raises:
            TimeLimitPassed: a time limit set around the load has passed (see
                :mod:`agentic_core.common.time_limit`).
        """
        checkpoint()  # scoring is the long part of loading: a request's deadline stops it between conversations
        turns = conv.conversation
        self._sizes.append(len(turns))
        self._session_ids.append(conv.session_id)
        self._assistant_ids.append(conv.assistant_id)
        self._task_keys.append(conv.task_key())
        qa_id, query, answer, truth = self._pending_lists
        tools, numbers, expected_names, used_names = self._tools, self._numbers, self._expected_names, self._used_names
        shared = self._shared
        nan = math.nan
        for i in turns:
            q, a, g = i.query, i.assistant, i.ground_truth_assistant
            qa_id.append(i.qa_id)
            query.append(q)
            answer.append(a)
            truth.append(g)
            agentic, expected = i.agentic, i.ground_truth_agentic
            tools.append(score_tools(agentic, expected, a))
            score, label, grade = i.score, i.human_label, i.human_score
            numbers.append(
                (
                    nan if score is None else score,
                    max(len(q), len(a), len(g)),
                    nan if label is None else label,
                    nan if grade is None else grade,
                )
            )
            # One tuple per distinct name sequence, shared by every row that has it.
            # (map with attrgetter: no comprehension frame per row)
            e_names = tuple(map(_TOOL_NAME, expected.expected_tools)) if expected is not None else ()
            u_names = tuple(map(_TOOL_NAME, agentic.tools_used)) if agentic is not None else ()
            expected_names.append(shared.setdefault(e_names, e_names))
            used_names.append(shared.setdefault(u_names, u_names))
        if len(qa_id) >= self._FLUSH:
            self._flush()

    def add_columns(self, columns: InteractionColumns, keep: Sequence[bool] | None = None) -> None:
        """Append the rows of columns built elsewhere (a load worker's piece), after the ones added so far.

        Args:
            columns: The columns to append (left unchanged).
            keep: Per conversation of ``columns``, whether to append it (all when ``None``).
        """
        if keep is not None and not all(keep):
            columns = columns.take(keep)
        self._flush()
        self._sizes.extend(columns.sizes.tolist())
        self._session_ids.extend(columns.session_ids)
        self._assistant_ids.extend(columns.assistant_ids)
        self._task_keys.extend(columns.task_keys)
        for name in _TEXT_FIELDS:
            self._chunks[name].extend(columns.texts[name].chunks)
        numbers = (columns.score, columns.max_text_length, columns.human_label, columns.human_score)
        self._number_chunks.append(np.column_stack(numbers).astype(float, copy=False).reshape(-1, 4))
        self._components.extend(columns.tool_components)  # packs still pickled stay so
        self._tool_chunks.append(columns.tool_table)
        # Names come shared within a piece already (one tuple per distinct sequence survives
        # pickling); sharing them again across pieces cost a second per million rows.
        self._expected_names.extend(columns.expected_names)
        self._used_names.extend(columns.used_names)

    def _flush(self) -> None:
        if self._tools:
            self._tool_chunks.append(components_table(self._tools))
            self._components.extend(self._tools)
            self._tools = []
        if self._numbers:
            self._number_chunks.append(np.array(self._numbers, dtype=float).reshape(-1, 4))
            self._numbers = []
        for name, values in zip(_TEXT_FIELDS, self._pending_lists, strict=True):
            if values:
                self._chunks[name].append(pa.array(values, type=pa.large_string()))
                values.clear()

    def build(self) -> InteractionColumns:
        """The columns of every conversation added so far."""
        self._flush()
        numbers = np.concatenate(self._number_chunks) if self._number_chunks else np.zeros((0, 4))
        if len(self._number_chunks) > 1:
            self._number_chunks = [numbers]
        tools = (
            np.concatenate(self._tool_chunks) if self._tool_chunks else np.zeros((0, len(TABLE_COLUMNS)))
        )
        if len(self._tool_chunks) > 1:
            self._tool_chunks = [tools]
        return InteractionColumns(
            sizes=np.asarray(self._sizes, dtype=np.int64),
            session_ids=list(self._session_ids),
            assistant_ids=list(self._assistant_ids),
            task_keys=list(self._task_keys),
            texts={name: pa.chunked_array(self._chunks[name], type=pa.large_string()) for name in _TEXT_FIELDS},
            score=np.ascontiguousarray(numbers[:, 0]),
            tool_components=ComponentList(self._components),
            max_text_length=numbers[:, 1].astype(np.int64),
            human_label=np.ascontiguousarray(numbers[:, 2]),
            human_score=np.ascontiguousarray(numbers[:, 3]),
            expected_names=list(self._expected_names),
            used_names=list(self._used_names),
            tool_table=tools,
        )


def has_columns(conversations: object) -> bool:
    """Whether ``conversations`` carries its columns already (a loaded :class:`ConversationStore`)."""
    return isinstance(getattr(conversations, "columns", None), InteractionColumns)


def columns_of(conversations: Sequence[Conversation] | Iterable[Conversation]) -> InteractionColumns:
    """The columns of ``conversations``: the ones kept by a loaded store, else built now."""
    kept = getattr(conversations, "columns", None)
    if isinstance(kept, InteractionColumns):
        return kept
    builder = ColumnBuilder()
    for conv in conversations:
        builder.add(conv)
    return builder.build()


def count_cut(columns: InteractionColumns, limit: int) -> int:
    """How many interactions have a text longer than ``limit`` characters."""
    return int(np.count_nonzero(columns.max_text_length > limit))
