"""Attempts that are not attempts: conversations grouped as one task although their references differ.

Repeated attempts at a task share its key (``task_id``, else every ``qa_id`` joined). Three
conversations with the same ``qa_id`` but three different ground truths are then scored as three
attempts at one task, which is rarely what was meant: the load report warns, naming the task.
The check works on the columns (Arrow dictionary codes), so it costs no Python object per row.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from agentic_core.columnar.columns import InteractionColumns
from agentic_core.errors import show_value
from agentic_core.io.load_report import Issue

_SHOWN = 3  # tasks named in the warning; the count says how many more


def _codes(column: pa.ChunkedArray) -> np.ndarray:
    """Per row, the index of its distinct value (equal strings, equal codes)."""
    encoded = pc.dictionary_encode(column.combine_chunks())
    return np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.uint64)


def _per_conversation(codes: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """A fingerprint per conversation of its rows' codes, in order (equal sequences, equal prints)."""
    starts = np.cumsum(sizes) - sizes
    positions = np.arange(len(codes), dtype=np.int64) - np.repeat(starts, sizes)
    # Odd multipliers per position (fixed seed): reordered or different codes give another sum.
    weights = np.random.default_rng(23).integers(1, 2**63, size=int(sizes.max()), dtype=np.uint64) * 2 + 1
    with np.errstate(over="ignore"):
        terms = (codes + np.uint64(1)) * weights[positions]
        return np.add.reduceat(terms, starts.astype(np.int64)) if len(terms) else np.zeros(0, np.uint64)


def _key_is_given(columns: InteractionColumns, conversation: int, start: int) -> bool:
    """Whether the conversation's task key is a ``task_id`` of the data, not its qa_ids joined.

    ``start`` is the conversation's first row.
    """
    qa_ids = columns.texts["qa_id"].slice(start, int(columns.sizes[conversation])).to_pylist()
    return columns.task_keys[conversation] != "|".join(qa_ids)


def ground_truth_conflicts(columns: InteractionColumns, place: str) -> Issue | None:
    """A warning when conversations with the same task key and questions have different ground truths.

    Args:
        columns: The loaded conversations' columns.
        place: Where the conversations come from (the file name, or "the loaded files").

    Returns:
        The warning (naming up to three tasks and the number of different ground truths), or ``None``.
    """
    sizes = columns.sizes
    if len(sizes) < 2 or not (sizes > 0).all():
        return None
    tasks = _codes(pa.chunked_array([pa.array(columns.task_keys, type=pa.large_string())]))
    # The first conversation of each task code, and each conversation's first row: found once, so
    # naming many conflicting tasks stays linear.
    _, first_of_task = np.unique(tasks, return_index=True)
    row_starts = np.cumsum(sizes) - sizes
    questions = _per_conversation(_codes(columns.texts["qa_id"]), sizes)
    truths = _per_conversation(_codes(columns.texts["ground_truth"]), sizes)
    with np.errstate(over="ignore"):
        groups = tasks * np.uint64(0x9E3779B97F4A7C15) + questions  # (task, questions) fingerprint
    order = np.lexsort((truths, groups))
    groups, truths, tasks = groups[order], truths[order], tasks[order]
    new_group = np.r_[True, groups[1:] != groups[:-1]]
    new_truth = new_group | np.r_[True, truths[1:] != truths[:-1]]
    starts = np.flatnonzero(new_group)
    distinct = np.add.reduceat(new_truth.astype(np.int64), starts)
    conflicting = starts[distinct > 1]
    if not len(conflicting):
        return None
    counts = distinct[distinct > 1]
    conflicts = []
    for i, n in zip(conflicting, counts, strict=True):
        first = int(first_of_task[int(tasks[i])])
        # A task_id the data sets says on purpose that these are attempts at one task (later turns may
        # differ from attempt to attempt); only a key made of the qa_ids groups them by accident.
        if _key_is_given(columns, first, int(row_starts[first])):
            continue
        conflicts.append((columns.task_keys[first], int(n)))
    if not conflicts:
        return None
    named = ", ".join(f"{show_value(task)} ({n} different ground truths)" for task, n in conflicts[:_SHOWN])
    more = f" and {len(conflicts) - _SHOWN} more" if len(conflicts) > _SHOWN else ""
    return Issue(
        "warning",
        place,
        None,
        "",
        f"conversations with the same task key and qa_id(s) but different ground truths are scored as "
        f"attempts at one task: {named}{more}",
        None,
        "give each different question its own qa_id, or a task_id per task (conversations sharing a task_id "
        "are attempts at one task, whatever their ground truths)",
    )
