"""Tests of agentic_core.columnar.item_counts: the number of distinct judge items, counted from columns,
equals the count over Python items (the runner's), whatever the texts share."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.columnar.columns import columns_of
from agentic_core.columnar.item_counts import _rows, _text_parts, count_distinct_items
from agentic_core.evaluate import judge_items
from agentic_core.io.loader import load_records
from agentic_core.judges.base import item_key

# Texts that defeat a cheap fingerprint: equal lengths, equal first and last 8 bytes, a
# different middle; empty and one-character texts; non-ASCII (several bytes per character).
_TEXTS = st.sampled_from(
    ["", "x", "é", "ab", "The sum of 1 and 2 is 3.", "The sum of 1 and 9 is 3.", "The sum of 1 and 22 is 3.",
     "prefix--AAAA--suffix", "prefix--BBBB--suffix", "12345678AA87654321", "12345678BB87654321",
     "12345678", "12345678x", "x12345678", "日本語のテキスト"]
)
_SCORES = st.sampled_from([None, 0.0, -0.0, 0.5, 1.0, 0.1 + 0.2])


def _count_from_items(records: list[dict]) -> int:
    items = judge_items(load_records(records).conversations)
    return len({item_key(i) for i in items})


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_TEXTS, _TEXTS, _TEXTS, _SCORES), min_size=1, max_size=30))
def test_the_count_from_columns_is_the_count_over_items(rows: list[tuple[str, str, str, float | None]]) -> None:
    records = [
        {
            "session_id": f"s{k}",
            "assistant_id": "a",
            "conversation": [
                {"qa_id": "q", "query": q, "assistant": a, "ground_truth_assistant": g}
                | ({} if s is None else {"score": s})
            ],
        }
        for k, (q, a, g, s) in enumerate(rows)
    ]
    columns = columns_of(load_records(records).conversations)
    assert count_distinct_items(columns) == _count_from_items(records)


def test_rows_that_differ_only_in_the_middle_are_told_apart() -> None:
    texts = [f"12345678{m}87654321" for m in ("aaaa", "bbbb", "aaaa", "cccc")]  # the same ends, lengths
    records = [
        {"session_id": f"s{k}", "assistant_id": "a",
         "conversation": [{"qa_id": "q", "query": "Q", "assistant": t, "ground_truth_assistant": "G", "score": 1.0}]}
        for k, t in enumerate(texts)
    ]  # fmt: skip
    assert count_distinct_items(columns_of(load_records(records).conversations)) == 3 == _count_from_items(records)


def _expected_parts(text: str) -> tuple[int, int, int]:
    raw = text.encode()
    return len(raw), int.from_bytes(raw[:8], "little"), int.from_bytes(raw[-8:] if len(raw) >= 8 else raw, "little")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.text(max_size=20), max_size=6), min_size=1, max_size=4), st.integers(0, 3))
def test_the_fingerprint_reads_each_texts_length_and_end_bytes(chunks: list[list[str]], cut: int) -> None:
    # Several chunks, each read in place; a sliced chunk (an offset into its buffers); texts
    # ending in a buffer's last bytes, where an 8-byte read would run past the end.
    arrays = [pa.array(texts, type=pa.large_string()) for texts in chunks]
    arrays[0] = arrays[0].slice(min(cut, len(arrays[0])))
    column = pa.chunked_array(arrays, type=pa.large_string())
    got = list(zip(*(part.tolist() for part in _text_parts(column)), strict=True))
    assert got == [_expected_parts(t) for t in column.to_pylist()]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.text(max_size=5), max_size=6), min_size=1, max_size=5), st.data())
def test_rows_are_read_chunk_by_chunk_as_a_take_would_read_them(chunks: list[list[str]], data: st.DataObject) -> None:
    column = pa.chunked_array([pa.array(texts, type=pa.large_string()) for texts in chunks], type=pa.large_string())
    rows = sorted(data.draw(st.sets(st.integers(0, max(len(column) - 1, 0)), max_size=len(column))))
    rows = [r for r in rows if r < len(column)]
    assert _rows(column, np.array(rows, dtype=np.int64)) == column.take(pa.array(rows, type=pa.int64())).to_pylist()
