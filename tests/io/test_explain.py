"""Tests of agentic_core.io.explain: every validation error kind with its place (JSON path),
rule, value and fix."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.io.loader import load_bytes
from tests.io.conftest import (
    as_json,
    conversation,
    interaction,
    load_one_bad,
    only_error,
    with_tools,
)


@pytest.mark.parametrize("value", ["oops", 42, None, [1, 2], True])
def test_records_that_are_not_objects(value: Any) -> None:
    issue = load_one_bad(value)
    assert issue.path == ""
    assert issue.rule.startswith("each record must be a JSON object (one conversation), not ")
    assert '"session_id"' in issue.fix


def test_missing_field_names_the_field_and_what_it_holds() -> None:
    record = conversation("m")
    del record["assistant_id"]
    issue = load_one_bad(record)
    assert issue.path == "assistant_id"
    assert issue.rule == (
        "required field 'assistant_id' is missing "
        "(it holds the id of the agent that produced the conversation, a string)"
    )
    assert issue.value is None and '"assistant_id"' in issue.fix


def test_missing_field_with_a_typo_suggests_the_rename() -> None:
    turn = interaction()
    turn["ground_truth"] = turn.pop("ground_truth_assistant")
    report = load_bytes("data.json", as_json([conversation("t", turn)]))
    error = only_error(report)
    assert error.path == "conversation[0].ground_truth_assistant"
    assert "expected (reference) answer" in error.rule
    assert error.fix == "rename 'ground_truth' to 'ground_truth_assistant'"
    (warning,) = report.warnings
    assert warning.path == "conversation[0].ground_truth"


def test_string_false_is_not_a_boolean() -> None:
    issue = load_one_bad(conversation("b", with_tools(final_answer_uses_tools="false")))
    assert issue.path == "conversation[0].agentic.final_answer_uses_tools"
    assert issue.rule == "must be true or false (JSON boolean), not a string"
    assert issue.value == "'false'"
    assert issue.fix == "write false without quotes"
    assert issue.message(with_place=False) == (
        "conversation[0].agentic.final_answer_uses_tools: must be true or false (JSON boolean), not a string "
        "(got 'false'). Fix: write false without quotes"
    )


def test_score_outside_unit_interval() -> None:
    issue = load_one_bad(conversation("s", interaction(), interaction("q2", score=1.5)))
    assert issue.message() == (
        "data.json record 1, conversation[1].score: must be a number in [0, 1] (got 1.5). "
        "Fix: rescale scores to [0, 1] (for example divide a 0-10 grade by 10, a percentage by 100)"
    )


def test_score_given_as_a_string() -> None:
    issue = load_one_bad(conversation("s", interaction(score="0.9")))
    assert issue.rule == "must be a number in [0, 1], not a string"
    assert issue.fix == "write 0.9 without quotes"


def test_empty_conversation_list() -> None:
    issue = load_one_bad({"session_id": "e", "assistant_id": "a", "conversation": []})
    assert issue.path == "conversation"
    assert issue.rule == "a conversation needs at least one interaction"
    assert "add the conversation's interactions" in issue.fix


def test_empty_and_blank_session_ids() -> None:
    empty = load_one_bad(conversation(""))
    assert (empty.path, empty.rule) == ("session_id", "must not be empty")
    assert "unique, non-empty session_id" in empty.fix
    blank = load_one_bad(conversation("   "))
    assert (blank.path, blank.rule, blank.value) == ("session_id", "must not be blank", "'   '")


def test_wrong_types_elsewhere() -> None:
    qa = load_one_bad(conversation("w", interaction(qa_id=7)))  # type: ignore[arg-type]
    assert (qa.path, qa.rule, qa.fix) == (
        "conversation[0].qa_id",
        "must be a string (text in quotes), not a number",
        'write "7" in quotes',
    )
    turn = with_tools()
    turn["agentic"]["tools_used"][0]["step"] = 1.0
    step = load_one_bad(conversation("w", turn))
    assert step.path == "conversation[0].agentic.tools_used[0].step"
    assert step.rule.startswith("must be a whole number") and step.fix == "write 1 instead of 1.0"
    turn = with_tools()
    turn["agentic"]["tools_used"] = turn["agentic"]["tools_used"][0]
    listed = load_one_bad(conversation("w", turn))
    assert listed.rule == "must be a list (JSON array), not an object"
    assert "wrap the object in [ ]" in listed.fix
    turn = with_tools()
    turn["ground_truth_agentic"]["tool_sequence_matters"] = "yes"
    seq = load_one_bad(conversation("w", turn))
    assert seq.path == "conversation[0].ground_truth_agentic.tool_sequence_matters"
    assert seq.fix == "write true or false without quotes"


def expected_with_rules(rules: Any) -> dict[str, Any]:
    turn = with_tools()
    turn["ground_truth_agentic"]["expected_tools"][0]["parameter_rules"] = rules
    return conversation("r", turn)


def test_invalid_parameter_rules() -> None:
    prefix = "conversation[0].ground_truth_agentic.expected_tools[0].parameter_rules"
    kind = load_one_bad(expected_with_rules({"a": {"rule": "tolerence", "abs_tol": 0.1}}))
    assert kind.path == f"{prefix}.a.rule"
    assert kind.rule.startswith("must be one of 'exact', 'ignore', 'any_of'")
    assert kind.fix == "did you mean 'tolerance'?"
    any_of = load_one_bad(expected_with_rules({"a": {"rule": "any_of"}}))
    assert any_of.path == f"{prefix}.a"
    assert any_of.rule == "invalid parameter rule: rule 'any_of' needs a non-empty 'values' list"
    assert '"values"' in any_of.fix
    extra = load_one_bad(expected_with_rules({"a": {"rule": "tolerance", "abs_tol": 0.1, "abs_tl": 1}}))
    assert extra.path == f"{prefix}.a.abs_tl"
    assert "is not a parameter-rule field" in extra.rule and extra.fix == "did you mean 'abs_tol'?"
    negative = load_one_bad(expected_with_rules({"a": {"rule": "tolerance", "abs_tol": -1}}))
    assert (negative.rule, negative.value) == ("must be a number >= 0", "-1")
    bare = load_one_bad(expected_with_rules({"a": "text"}))
    assert bare.fix == 'write {"rule": "text"}'
