"""Load messages name the real cause: a cut-off file, a missing field next to a known one (issue 25)."""

from __future__ import annotations

import json

import pytest

from agentic_core.io.loader import load_bytes

RECORD = {
    "session_id": "s1",
    "assistant_id": "a",
    "conversation": [{"qa_id": "q1", "query": "hi there", "assistant": "hello", "ground_truth_assistant": "hello"}],
}


@pytest.mark.parametrize("fraction", [0.2, 0.25, 0.5, 0.99])
def test_a_truncated_json_file_is_named_cut_off(fraction: float) -> None:
    data = json.dumps([RECORD, {**RECORD, "session_id": "s2"}])
    report = load_bytes("t.json", data[: int(len(data) * fraction)].encode())
    (issue,) = report.errors
    assert "looks cut off" in issue.rule and "get the whole file again" in issue.fix
    assert "close the string" not in issue.fix


def test_a_truncated_last_line_is_named_cut_off() -> None:
    line = json.dumps(RECORD)
    report = load_bytes("t.jsonl", f"{line}\n{line[:60]}".encode())
    (issue,) = report.errors
    assert issue.line == 2 and "the line looks cut off" in issue.rule
    assert len(report.conversations) == 1


def test_a_typo_inside_the_file_keeps_its_own_fix() -> None:
    report = load_bytes("t.json", b'[{"a": 1,}]')
    (issue,) = report.errors
    assert "cut off" not in issue.rule and "trailing comma" in issue.fix


def test_a_missing_field_is_not_a_rename_of_a_known_one() -> None:
    turn = {"qa_id": "q1", "query": "hi", "assistant": "hello", "ground_truth_agentic": {"expected_tools": []}}
    report = load_bytes("t.jsonl", json.dumps({**RECORD, "conversation": [turn]}).encode())
    (issue,) = report.errors
    assert "'ground_truth_assistant' is missing" in issue.rule
    assert "rename" not in issue.fix and 'add "ground_truth_assistant"' in issue.fix
    typo = {"qa_id": "q1", "query": "hi", "assistant": "hello", "ground_truth_asistant": "x"}
    report = load_bytes("t.jsonl", json.dumps({**RECORD, "conversation": [typo]}).encode())
    assert "rename 'ground_truth_asistant' to 'ground_truth_assistant'" in report.errors[0].fix
