"""Topic adherence from its four counts: ours and Ragas' variant, values worked out by hand beside each case."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.agentic_metrics.topic_adherence import TopicCounts, topic_adherence


def test_seed_004_example_in_ragas_variant() -> None:
    # Seed 004: two relativity queries answered (science: on topic), a chocolate-cake query answered (off topic).
    counts = TopicCounts.of(answered=[True, True, True], on_topic=[True, True, False])
    assert counts == TopicCounts(tp=2, fp=1)
    assert topic_adherence(counts, "precision", "ragas") == pytest.approx(2 / 3)
    assert topic_adherence(counts, "recall", "ragas") == pytest.approx(1.0)
    assert topic_adherence(counts, "f1", "ragas") == pytest.approx(0.8)  # 2 * 2/3 * 1 / (2/3 + 1)


def test_rightly_refusing_everything_off_topic_is_perfect_here_and_zero_in_ragas() -> None:
    counts = TopicCounts(tn=4)
    for mode in ("precision", "recall", "f1"):
        assert topic_adherence(counts, mode) == 1.0  # type: ignore[arg-type]
        assert topic_adherence(counts, mode, "ragas") == 0.0  # type: ignore[arg-type]


def test_workbench_values_by_hand() -> None:
    counts = TopicCounts(tp=3, fp=1, fn=2, tn=2)
    # right = 5; precision 5 / 6, recall 5 / 7, F1 = 2 * (5/6) * (5/7) / (5/6 + 5/7) = 10/13
    assert topic_adherence(counts, "precision") == pytest.approx(5 / 6)
    assert topic_adherence(counts, "recall") == pytest.approx(5 / 7)
    assert topic_adherence(counts, "f1") == pytest.approx(10 / 13)


def test_nothing_to_count_is_undefined_never_zero() -> None:
    assert topic_adherence(TopicCounts()) is None
    assert topic_adherence(TopicCounts(), "precision") is None
    # Only leaving the domain: precision 0, recall undefined (nothing on topic), F1 0.
    assert topic_adherence(TopicCounts(fp=2), "precision") == 0.0
    assert topic_adherence(TopicCounts(fp=2), "recall") is None
    assert topic_adherence(TopicCounts(fp=2), "f1") == 0.0


def test_counts_add_and_lists_must_match() -> None:
    assert TopicCounts(tp=1, tn=2) + TopicCounts(fp=1, fn=1) == TopicCounts(tp=1, fp=1, fn=1, tn=2)
    with pytest.raises(ValueError, match="2 answered flags for 1 topic flags"):
        TopicCounts.of([True, False], [True])


counts = st.builds(TopicCounts, tp=st.integers(0, 9), fp=st.integers(0, 9), fn=st.integers(0, 9), tn=st.integers(0, 9))


@given(counts)
def test_bounded_and_equal_to_ragas_without_true_negatives(c: TopicCounts) -> None:
    for mode in ("precision", "recall", "f1"):
        ours = topic_adherence(c, mode)  # type: ignore[arg-type]
        assert ours is None or 0.0 <= ours <= 1.0
        if c.tn == 0 and c.tp > 0:
            assert ours == pytest.approx(topic_adherence(c, mode, "ragas"), abs=1e-8)  # type: ignore[arg-type]
