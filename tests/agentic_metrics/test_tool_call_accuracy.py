"""Ragas' tool call accuracy on hand-made cases; each expected value is worked out from Ragas' definition
(ragas/metrics/_tool_call_accuracy.py, ragas 0.3: zip pairing, ExactMatch of str(value), sequence factor),
written beside the case."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.agentic_metrics import conversation_tool_call_accuracy, ragas_tool_call_accuracy
from agentic_core.agentic_metrics.tool_call_accuracy import argument_agreement
from agentic_core.data.schemas import Conversation

W = ("weather", {"city": "Paris"})
C = ("convert", {"celsius": 20, "to": "F"})


@pytest.mark.parametrize(
    ("made", "reference", "order", "expected"),
    [
        # exact: both calls, both args agree -> (1 + 1) / 2 * aligned 1
        ([W, C], [W, C], "strict", 1.0),
        # reordered: strict names differ -> aligned 0
        ([C, W], [W, C], "strict", 0.0),
        # reordered, flexible: sorted both ways -> 1.0
        ([C, W], [W, C], "flexible", 1.0),
        # missing call: names [W] != [W, C] -> 0 (the coverage penalty never survives the alignment factor)
        ([W], [W, C], "strict", 0.0),
        # extra call: names differ -> 0
        ([W, C, W], [W, C], "strict", 0.0),
        # duplicate expected twice and made twice -> 1.0
        ([W, W], [W, W], "strict", 1.0),
        # a retry: a failed call then the same call again, reference once -> names differ -> 0
        ([("weather", {"city": "Pari"}), W], [W], "strict", 0.0),
        # numeric: 20 vs 20.0 are different text ("20" != "20.0"): convert's args score 1/2 -> (1 + 0.5) / 2
        ([W, ("convert", {"celsius": 20.0, "to": "F"})], [W, C], "strict", 0.75),
        # string case matters: "paris" != "Paris" -> (0 + 1) / 2
        ([("weather", {"city": "paris"}), C], [W, C], "strict", 0.5),
        # boolean: True vs "True" agree as text -> 1.0
        ([("notify", {"urgent": True})], [("notify", {"urgent": "True"})], "strict", 1.0),
        # nested object with another key order: str() differs -> 0 for that argument
        ([("book", {"who": {"b": 1, "a": 2}})], [("book", {"who": {"a": 2, "b": 1}})], "strict", 0.0),
        # nested list in the same order -> 1.0
        ([("book", {"ids": [1, 2]})], [("book", {"ids": [1, 2]})], "strict", 1.0),
        # extra argument in the made call is ignored; a missing one counts 0 -> 1/2
        ([("s", {"a": 1, "z": 9})], [("s", {"a": 1, "b": 2})], "strict", 0.5),
        # empty lists: both empty 1.0; nothing made 0.0; nothing referenced 0.0
        ([], [], "strict", 1.0),
        ([], [W], "strict", 0.0),
        ([W], [], "strict", 0.0),
        # no arguments on either side: 1.0; reference without arguments but made with some: 0.0
        ([("ping", {})], [("ping", {})], "strict", 1.0),
        ([("ping", {"x": 1})], [("ping", {})], "strict", 0.0),
    ],
)
def test_hand_made_cases(made: list[Any], reference: list[Any], order: str, expected: float) -> None:
    result = ragas_tool_call_accuracy(made, reference, order=order)  # type: ignore[arg-type]
    assert result.value == pytest.approx(expected)
    assert (result.value == 1.0) == (not result.notes or result.notes == ("no call made and none referenced",))


def test_notes_name_each_deduction() -> None:
    result = ragas_tool_call_accuracy([("weather", {"city": "paris"}), C], [W, C])
    assert result.notes == ("call 1 (weather): arguments agree 0.00 (exact text of each value)",)
    misordered = ragas_tool_call_accuracy([C, W], [W, C])
    assert not misordered.aligned and any("sequence" in n for n in misordered.notes)


def test_argument_agreement_counts_reference_arguments() -> None:
    assert argument_agreement({"a": 1, "b": 3}, {"a": 1, "b": 2, "c": 3}) == pytest.approx(1 / 3)


calls = st.lists(
    st.tuples(st.sampled_from("abc"), st.dictionaries(st.sampled_from("xyz"), st.integers(0, 2), max_size=2)),
    max_size=4,
)


@given(calls, calls)
def test_bounded_and_flexible_never_below_strict_when_aligned(made: list[Any], reference: list[Any]) -> None:
    strict = ragas_tool_call_accuracy(made, reference, order="strict")
    flexible = ragas_tool_call_accuracy(made, reference, order="flexible")
    assert 0.0 <= strict.value <= 1.0 and 0.0 <= flexible.value <= 1.0
    if strict.aligned:
        assert flexible.aligned  # equal sequences are equal as multisets
    # Order never matters to flexible mode.
    assert ragas_tool_call_accuracy(made[::-1], reference[::-1], order="flexible").value == pytest.approx(
        flexible.value
    )


def test_per_conversation_from_the_seed_format() -> None:
    def turn(qa: str, used: list[dict[str, Any]], expected: list[dict[str, Any]] | None) -> dict[str, Any]:
        out: dict[str, Any] = {"qa_id": qa, "query": "q", "assistant": "a", "ground_truth_assistant": "a",
                               "agentic": {"tools_used": used}}
        if expected is not None:
            out["ground_truth_agentic"] = {"expected_tools": expected}
        return out

    w = {"tool_name": "weather", "parameters": {"city": "Paris"}}
    c = {"tool_name": "convert", "parameters": {"celsius": 20}}
    with_ref = Conversation.model_validate(
        {"session_id": "s1", "assistant_id": "x", "conversation": [turn("1", [w], [w]), turn("2", [c], [c])]}
    )
    no_ref = Conversation.model_validate(
        {"session_id": "s2", "assistant_id": "x", "conversation": [turn("1", [w], None)]}
    )
    first, second = conversation_tool_call_accuracy([with_ref, no_ref])
    assert first is not None and first.value == 1.0 and first.made == first.referenced == 2
    assert second is None  # no reference: no score, never 0 or 1
