"""The Explorer's row arithmetic (agentic_core.report.explorer_rows): facts, interaction rows, proposed verdicts."""

from __future__ import annotations

import pytest

from agentic_core.analysis import aggregate
from agentic_core.data import Override
from agentic_core.errors import DataError
from agentic_core.report import (
    STATUSES,
    conversation_detail,
    conversation_facts,
    conversations_by_status,
    interaction_rows,
    position_of,
    proposed_verdict,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings


def test_interaction_rows_are_the_runs_rows_of_the_conversation(travel: EvaluationResult) -> None:
    agg = aggregate(travel, make_settings())
    flat = travel.flat_interactions()
    for row in (0, 7, travel.n_conversations - 1):
        details = conversation_detail(travel, agg, row)
        turns = interaction_rows(travel, row, details)
        assert list(turns.values()) == details
        # Each key is the row an override names: the same interaction in the run's flat order.
        for r, detail in turns.items():
            assert flat[r].qa_id == detail.qa_id
            assert travel.interactions["session_id"].iat[r] == travel.conversations[row].session_id
    assert min(interaction_rows(travel, 1, conversation_detail(travel, agg, 1))) == len(
        travel.conversations[0].conversation
    )


def test_facts_read_the_aggregate_under_the_settings(travel: EvaluationResult) -> None:
    lenient, strict = (aggregate(travel, make_settings(threshold=t)) for t in (0.1, 0.99))
    row = next(r for r in range(travel.n_conversations) if lenient.conversations["status"].iat[r] == "correct")
    facts = conversation_facts(travel, lenient, row)
    conversation = travel.conversations[row]
    assert (facts.row, facts.session_id, facts.assistant_id) == (
        row,
        conversation.session_id,
        conversation.assistant_id,
    )
    assert facts.status == "correct" and facts.correct == facts.total == len(conversation.conversation)
    assert facts.k == lenient.k
    harder = conversation_facts(travel, strict, row)
    assert harder.correct <= facts.correct


def test_facts_of_a_missing_conversation_name_the_range(travel: EvaluationResult) -> None:
    agg = aggregate(travel, make_settings())
    with pytest.raises(DataError) as err:
        conversation_facts(travel, agg, travel.n_conversations)
    assert f"between 0 and {travel.n_conversations - 1}" in str(err.value)


@pytest.mark.parametrize(
    ("current", "status", "proposed"),
    [
        # Issue 36: what counts now, never its opposite (one click on Save recorded a disagreement) ...
        (None, "correct", True),
        (None, "incorrect", False),
        (None, "unscored", None),  # ... and nothing where nothing counts: the person picks
        (Override(row=3, correct=False), "correct", False),  # their own verdict stays proposed
        (Override(row=3, correct=True), "incorrect", True),
    ],
)
def test_the_proposed_verdict(current: Override | None, status: str, proposed: bool | None) -> None:
    assert proposed_verdict(current, status) is proposed


def test_status_counts_cover_every_status_in_order(travel: EvaluationResult) -> None:
    agg = aggregate(travel, make_settings(threshold=0.7))
    counts = conversations_by_status(agg)
    assert list(counts) == list(STATUSES)
    assert sum(counts.values()) == travel.n_conversations
    assert counts["correct"] == 19  # sample README: 19 of 40 fully correct
    assert counts["unscored"] == 0  # zeros are listed too


def test_position_of_a_listed_row() -> None:
    assert position_of([9, 4, 7], 7) == 2
    assert position_of([9, 4, 7], 5) is None
    assert position_of([9, 4, 7], None) is None

