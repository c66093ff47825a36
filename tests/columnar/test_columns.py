"""Tests of agentic_core.columnar.columns: the per-interaction columns evaluation reads."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agentic_core.columnar.columns import ColumnBuilder, columns_of, count_cut, has_columns
from agentic_core.io.samples import load_sample
from agentic_core.tools import score_interaction


def test_columns_hold_every_interaction_in_order() -> None:
    report = load_sample("travel")
    convs = list(report.conversations)
    cols = columns_of(convs)
    flat = [i for c in convs for i in c.conversation]
    assert cols.n_interactions == len(flat) == int(cols.sizes.sum())
    assert cols.sizes.tolist() == [len(c.conversation) for c in convs]
    assert cols.session_ids == [c.session_id for c in convs]
    assert cols.assistant_ids == [c.assistant_id for c in convs]
    assert cols.task_keys == [c.task_key() for c in convs]
    assert cols.text("qa_id") == [i.qa_id for i in flat]
    assert cols.text("query") == [i.query for i in flat]
    assert cols.text("answer") == [i.assistant for i in flat]
    assert cols.text("ground_truth") == [i.ground_truth_assistant for i in flat]
    assert cols.scores() == [i.score for i in flat]
    assert cols.tool_components == [score_interaction(i) for i in flat]
    assert cols.max_text_length.tolist() == [
        max(len(i.query), len(i.assistant), len(i.ground_truth_assistant)) for i in flat
    ]
    # A loaded report carries them already; a list builds them.
    assert has_columns(report.conversations) and not has_columns(convs)
    assert columns_of(report.conversations) is report.conversations.columns


def test_missing_scores_are_nan_in_the_array_and_none_in_python() -> None:
    from tests.datasets import conv, convs

    record = conv("a", scores=[0.5, 0.5])
    del record["conversation"][1]["score"]
    cols = columns_of(convs([record]))
    assert cols.score[0] == 0.5 and math.isnan(cols.score[1])
    assert cols.scores() == [0.5, None]


def test_texts_flush_to_arrow_in_chunks_and_count_cut_counts_long_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.datasets import conv, convs

    monkeypatch.setattr(ColumnBuilder, "_FLUSH", 2)
    conversations = convs([conv(f"s{i}", scores=[0.5, 0.7]) for i in range(5)])
    cols = columns_of(conversations)
    assert cols.texts["query"].num_chunks >= 2
    assert cols.text("query") == [i.query for c in conversations for i in c.conversation]
    assert count_cut(cols, 10_000) == 0
    assert count_cut(cols, -1) == cols.n_interactions
    assert isinstance(cols.sizes, np.ndarray)
