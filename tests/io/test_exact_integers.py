"""Issue 23: integers past 2^53 (and past 64 bits) stay exact from the file to the comparison."""

from __future__ import annotations

import pytest

from agentic_core.io.loader import load_bytes
from agentic_core.io.parse import has_big_integer
from agentic_core.tools import score_tools
from tests.io.conftest import as_json, as_jsonl, conversation, interaction

BIG = 12345678901234567890123456789890  # past 64 bits: orjson alone reads it as a float


def _record(expected_id: int, used_id: int, step: int = 1) -> dict[str, object]:
    return conversation(
        "s1",
        interaction(
            agentic={
                "tools_used": [{"tool_name": "order", "parameters": {"id": used_id}, "step": step}],
                "final_answer_uses_tools": True,
            },
            ground_truth_agentic={
                "expected_tools": [{"tool_name": "order", "parameters": {"id": expected_id}, "step": step}],
                "tool_sequence_matters": False,
            },
        ),
    )


@pytest.mark.parametrize("encode", [as_json, as_jsonl], ids=["json", "jsonl"])
def test_ids_past_64_bits_that_differ_by_one_do_not_match(encode) -> None:  # type: ignore[no-untyped-def]
    report = load_bytes("orders.json", encode([_record(BIG, BIG + 1)]))
    assert report.ok, report.issues
    turn = report.conversations[0].conversation[0]
    params = turn.agentic.tools_used[0].parameters  # type: ignore[union-attr]
    assert params["id"] == BIG + 1 and isinstance(params["id"], int)
    components = score_tools(turn.agentic, turn.ground_truth_agentic, "")
    assert components is not None and components.parameters == 0.0


def test_a_step_past_64_bits_is_read_as_the_integer_written() -> None:
    step = 2**64 + 1
    report = load_bytes("orders.jsonl", as_jsonl([_record(7, 7, step=step)]))
    assert report.ok, report.issues
    assert report.conversations[0].conversation[0].agentic.tools_used[0].step == step  # type: ignore[union-attr]


def test_big_integer_detection() -> None:
    assert has_big_integer(b'{"id": 1234567890123456789}')
    assert not has_big_integer(b'{"id": 123456789012345678, "score": 0.5}')
