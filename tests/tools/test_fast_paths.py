"""The fast path of tool scoring (fully correct calls, shared components) against the general path,
over every dataset the tests and samples ship, and on the leaf comparisons it short-cuts."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.data.schemas import Agentic, GroundTruthAgentic, Interaction
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.tools import score_tools
from agentic_core.tools.dimensions import _score_general, _score_perfect
from tests.datasets import conv, convs


def _interactions() -> list[Interaction]:
    found = [i for name in SAMPLES for c in load_sample(name).conversations for i in c.conversation]
    found += [
        i
        for c in convs([conv("a", [1.0, 0.5], tools=True), conv("b", [0.2], tools=True, used_b=3)])
        for i in c.conversation
    ]
    return [i for i in found if i.ground_truth_agentic is not None]


def test_every_shipped_interaction_scores_as_the_general_path_says() -> None:
    interactions = _interactions()
    assert len(interactions) > 100
    fast_answers = 0
    for i in interactions:
        used = list(i.agentic.tools_used) if i.agentic is not None else []
        assert i.ground_truth_agentic is not None
        general = _score_general(i.agentic, i.ground_truth_agentic, used, i.assistant)
        assert score_tools(i.agentic, i.ground_truth_agentic, i.assistant) == general
        flag = i.agentic.final_answer_uses_tools if i.agentic is not None else None
        if _score_perfect(used, i.ground_truth_agentic, flag) is not None:
            fast_answers += 1
    assert fast_answers > 0


def _case(expected: Any, used: Any, order: bool = False) -> tuple[Agentic, GroundTruthAgentic]:
    agentic = Agentic.model_validate(
        {"tools_used": [{"tool_name": "t", "parameters": {"p": used}, "step": 1}], "final_answer_uses_tools": True}
    )
    truth = GroundTruthAgentic.model_validate(
        {
            "expected_tools": [{"tool_name": "t", "parameters": {"p": expected}, "step": 1}],
            "tool_sequence_matters": order,
        }
    )
    return agentic, truth


@pytest.mark.parametrize(
    ("expected", "used"),
    [
        (1, 1),
        (1, 2),
        (1, 1.0),
        (0.0, -0.0),
        (float("nan"), float("nan")),
        (True, 1),
        (True, True),
        (False, True),
        ("a", "a"),
        ("a", "A"),
        ("1", 1),
        (None, None),
        ([1, 2], [1, 2]),
        ({"a": 1}, {"a": 1.0}),
        ({"a": [1]}, {"a": [2]}),
        (2**70, 2**70),
    ],
)
def test_leaf_short_cut_agrees_with_the_general_path(expected: Any, used: Any) -> None:
    agentic, truth = _case(expected, used)
    assert score_tools(agentic, truth, "x") == _score_general(agentic, truth, list(agentic.tools_used), "x")


def test_fully_correct_interactions_of_one_shape_share_one_components_object() -> None:
    first = score_tools(*_case(1, 1), "x")
    second = score_tools(*_case("b", "b"), "y")
    assert first is second
    assert score_tools(*_case(1, 1, order=True), "x") is not first  # another shape, another object
