"""How many distinct judge items a run's interactions make, counted from their columns.

A judge item is an interaction's (query, answer, ground truth, score); the runner judges each
distinct item once and counts the rest as duplicates (``JudgeRun.model_calls`` and
``duplicates``). A judge that reads only scores is run on the distinct scores instead
(:func:`~agentic_core.judges.runner.run_score_judge_sync`), and its run reports the same counts as
the runner's, so they are counted here without building a million items: a cheap fingerprint of
every row (lengths, first and last bytes of each text, the score's bits) separates almost all
items in a few numpy passes over the Arrow buffers, and only rows whose fingerprints collide are
compared exactly, as Python values. The count is exact; only its speed depends on the data.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa

from agentic_core.columnar.columns import InteractionColumns
from agentic_core.judges.base import JudgeItem, item_key, score_bits

__all__ = ["ITEM_TEXTS", "count_distinct_items"]

ITEM_TEXTS = ("query", "answer", "ground_truth")
"""The text columns of an item, in :class:`~agentic_core.judges.base.JudgeItem` order."""

_WIDTH = 8  # bytes read at each end of a text


def _mix(h: npt.NDArray[np.uint64], values: npt.NDArray[np.uint64], salt: int) -> npt.NDArray[np.uint64]:
    # A multiply-xorshift step (wrapping uint64 arithmetic): order-sensitive, cheap, well spread.
    h = (h ^ (values + np.uint64(salt))) * np.uint64(0x9E3779B97F4A7C15)
    return h ^ (h >> np.uint64(29))


def _text_parts(column: pa.ChunkedArray) -> tuple[npt.NDArray[np.uint64], ...]:
    """Per row: the text's length in bytes, its first 8 bytes and its last 8 bytes (as integers).

    Chunk by chunk, reading each chunk's Arrow buffers in place (joining the chunks first copied
    every text, twice with the padding: a third of the count's time at a million rows).
    """
    parts = [_chunk_parts(chunk) for chunk in column.chunks if len(chunk)]
    if not parts:
        return tuple(np.zeros(0, dtype=np.uint64) for _ in range(3))
    return tuple(np.concatenate(columns) for columns in zip(*parts, strict=True))


def _chunk_parts(array: pa.Array) -> tuple[npt.NDArray[np.uint64], ...]:
    """:func:`_text_parts` of one Arrow string array, through one unaligned 64-bit view.

    The view starts at every byte of the data buffer, so each row's 8 bytes are one gather with
    no per-row work in Python. A read that would run past the buffer's end starts at its last 8
    bytes instead and is shifted down to the wanted bytes; bytes past a text shorter than 8
    bytes are masked out.
    """
    n = len(array)
    offsets_buffer, data_buffer = array.buffers()[1:3]
    offsets = np.frombuffer(offsets_buffer, dtype=np.int64)[array.offset : array.offset + n + 1]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    if len(data) < _WIDTH:  # a few bytes in all: pad a copy
        data = np.concatenate([data, np.zeros(_WIDTH - len(data), dtype=np.uint8)])
    at_every_byte = np.ndarray(shape=(len(data) - _WIDTH + 1,), dtype=np.uint64, buffer=data, strides=(1,))
    last = len(data) - _WIDTH  # the last position a whole 8-byte read may start at

    def read(positions: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
        at = np.minimum(positions, last)
        # Little-endian: the byte at `positions` is (positions - at) bytes up the word read at `at`.
        # (On a big-endian machine this reads other bytes: still a fingerprint, only less spread.)
        return at_every_byte[at] >> (np.uint64(8) * (positions - at).astype(np.uint64))

    starts, ends = offsets[:-1], offsets[1:]
    lengths = ends - starts
    short = np.minimum(lengths, _WIDTH - 1).astype(np.uint64)  # (a shift by 64 bits is undefined)
    mask = np.where(lengths >= _WIDTH, ~np.uint64(0), (np.uint64(1) << (np.uint64(8) * short)) - np.uint64(1))
    head = read(starts) & mask
    tail = read(np.maximum(ends - _WIDTH, starts)) & mask
    return lengths.astype(np.uint64), head, tail


def _rows(column: pa.ChunkedArray, rows: npt.NDArray[np.int64]) -> list[Any]:
    """The values of ``column`` at ``rows`` (sorted), as Python values, taken chunk by chunk.

    (``ChunkedArray.take`` joined the chunks first: every text of a million rows copied for a few.)
    """
    values: list[Any] = []
    ends = np.cumsum([len(chunk) for chunk in column.chunks])
    chunk_of = np.searchsorted(ends, rows, side="right")
    for k in np.unique(chunk_of).tolist():
        start = int(ends[k - 1]) if k else 0
        values.extend(column.chunk(k).take(pa.array(rows[chunk_of == k] - start)).to_pylist())
    return values


def count_distinct_items(columns: InteractionColumns) -> int:
    """The number of distinct (query, answer, ground truth, score) items of ``columns``' interactions.

    Items are told apart as the runner tells them apart (:func:`~agentic_core.judges.base.item_key`). The texts are the
    ones in the columns: :func:`agentic_core.evaluate.evaluate` counts this way only when no text is
    long enough to be cut for the judge.

    Args:
        columns: The interactions' columns.

    Returns:
        How many distinct items there are (0 for no interaction).
    """
    n = len(columns.score)
    if n == 0:
        return 0
    fingerprint = _mix(np.zeros(n, dtype=np.uint64), score_bits(columns.score), 1)
    salt = 2
    for name in ITEM_TEXTS:
        for part in _text_parts(columns.texts[name]):
            fingerprint = _mix(fingerprint, part, salt)
            salt += 1
    # Rows whose fingerprint is not theirs alone (a hash table: sorting a million fingerprints
    # took three times as long).
    shared = np.flatnonzero(pd.Series(fingerprint, copy=False).duplicated(keep=False).to_numpy())
    alone = n - len(shared)
    if not len(shared):
        return alone
    texts: list[list[Any]] = [_rows(columns.texts[name], shared) for name in ITEM_TEXTS]
    scores = [None if v != v else v for v in columns.score[shared].tolist()]
    exact = {item_key(JudgeItem(q, a, g, s)) for q, a, g, s in zip(*texts, scores, strict=True)}
    return alone + len(exact)
