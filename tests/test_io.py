"""Tests of agentic_core.io: formats, every error kind with its place / rule / fix, partial files,
duplicates, unknown keys, line numbers, NaN, BOM, secrets, and a property test on corruption."""

from __future__ import annotations

import copy
import gc
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentic_core.errors import DataError
from agentic_core.io.load_report import Issue
from agentic_core.io.loader import LoadReport, load_bytes, load_many, load_paths, load_records

DATA = Path(__file__).parent / "data"
SECRET = "gsk_live_DO_NOT_LEAK_0123456789"


def interaction(qa_id: str = "q1", **extra: Any) -> dict[str, Any]:
    return {
        "qa_id": qa_id,
        "query": "What is 5 + 3?",
        "assistant": "The result is 8.",
        "ground_truth_assistant": "8",
        **extra,
    }


def conversation(session_id: str = "s1", *turns: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "assistant_id": "agent_v1",
        "conversation": list(turns) or [interaction()],
        **extra,
    }


def with_tools(**agentic_extra: Any) -> dict[str, Any]:
    return interaction(
        agentic={
            "tools_used": [
                {"tool_name": "calculator", "parameters": {"a": 5, "b": 3}, "result": 8, "step": 1}
            ],
            "final_answer_uses_tools": True,
            **agentic_extra,
        },
        ground_truth_agentic={
            "expected_tools": [{"tool_name": "calculator", "parameters": {"a": 5, "b": 3}, "step": 1}],
            "tool_sequence_matters": False,
        },
    )


def as_json(records: Any, indent: int | None = None) -> bytes:
    return json.dumps(records, indent=indent).encode()


def as_jsonl(records: list[Any]) -> bytes:
    return b"\n".join(json.dumps(r).encode() for r in records) + b"\n"


def only_error(report: LoadReport) -> Issue:
    assert len(report.errors) == 1, [i.message() for i in report.errors]
    return report.errors[0]


def load_one_bad(record: dict[str, Any]) -> Issue:
    """Load [good, bad]: the good record must survive; return the bad record's single error."""
    report = load_bytes("data.json", as_json([conversation("good"), record]))
    assert [c.session_id for c in report.conversations] == ["good"]
    assert [s.record for s in report.skipped] == [1]
    issue = only_error(report)
    assert issue.file == "data.json"
    assert issue.record == 1
    return issue


# -- formats ---------------------------------------------------------------------------------


def test_json_array_loads_in_order_and_unaltered() -> None:
    records = [conversation("a", with_tools()), conversation("b", interaction(score=0.25), task_id="t1")]
    report = load_bytes("data.json", as_json(records))
    assert report.ok and not report.issues
    assert [c.session_id for c in report.conversations] == ["a", "b"]
    # Nothing added, dropped or converted: dumping what was given gives back the input.
    assert [c.model_dump(exclude_unset=True) for c in report.conversations] == records
    assert report.n_records == 2 and report.n_interactions == 2
    assert report.files == ["data.json"]


def test_single_object_file_is_one_conversation() -> None:
    report = load_bytes("one.json", as_json(conversation("only"), indent=2))
    assert [c.session_id for c in report.conversations] == ["only"]
    assert report.n_records == 1 and report.ok


def test_jsonl_skips_blank_lines_and_format_is_detected_by_content() -> None:
    data = (
        b"\n"
        + json.dumps(conversation("a")).encode()
        + b"\n\n  \r\n"
        + json.dumps(conversation("b")).encode()
    )
    # A .json name does not matter: the content is JSON Lines.
    report = load_bytes("misnamed.json", data)
    assert [c.session_id for c in report.conversations] == ["a", "b"]
    assert report.n_records == 2 and report.ok


def test_request_object_takes_datasets_and_notes_other_keys() -> None:
    request = {"datasets": [conversation("a"), conversation("b")], "config": {"k": 3}, "connector": {}}
    report = load_bytes("request.json", as_json(request))
    assert [c.session_id for c in report.conversations] == ["a", "b"]
    assert report.ok and not report.warnings
    (note,) = report.notes
    assert note.severity == "info"
    assert "'config', 'connector'" in note.rule and "only 'datasets' is loaded" in note.rule


def test_request_without_datasets_list_is_an_error() -> None:
    report = load_bytes("request.json", as_json({"datasets": {"a": 1}, "config": {}}))
    issue = only_error(report)
    assert issue.path == "datasets"
    assert "must be a list (JSON array) of conversations, not an object" in issue.rule
    assert not report.conversations


def test_seed_000_example_loads() -> None:
    report = load_paths([DATA / "seed_000_example.json"])
    assert report.ok and not report.issues
    (conv,) = report.conversations
    inter = conv.conversation[0]
    assert conv.session_id == "agentic_eval_session"
    assert inter.agentic is not None and inter.agentic.tools_used[0].parameters == {
        "operation": "add",
        "a": 15,
        "b": 27,
    }
    assert (
        inter.ground_truth_agentic is not None and inter.ground_truth_agentic.tool_sequence_matters is False
    )


def test_seed_001_request_loads_and_warns_about_its_api_key() -> None:
    report = load_paths([DATA / "seed_001_request.json"])
    assert [c.session_id for c in report.conversations] == ["conversation_001", "conversation_002"]
    assert report.n_interactions == 3
    assert report.ok
    (warning,) = report.warnings
    assert warning.path == "connector.params.api_key"
    assert "contains a credential" in warning.rule and "revoke" in warning.fix
    assert "your-groq-api-key" not in warning.message()


def test_api_key_never_appears_in_any_message() -> None:
    request = json.loads((DATA / "seed_001_request.json").read_text())
    request["connector"]["params"]["api_key"] = SECRET
    request["connector"]["token"] = SECRET
    request["datasets"].append({"session_id": "bad", "assistant_id": {"api_key": SECRET}, "conversation": []})
    request["datasets"].append("not an object " + "x" * 10)
    report = load_bytes("request.json", as_json(request, indent=2))
    assert report.errors, "the bad records must be reported"
    texts = [i.message() for i in report.issues] + [s.message for s in report.skipped]
    texts += [report.summary(), report.to_frame().to_string(), repr(report.issues)]
    assert not any(SECRET in t for t in texts)
    # The record whose own field holds a key is still explained (the value is masked).
    assistant = next(i for i in report.errors if i.path == "assistant_id")
    assert "'***'" in (assistant.value or "")


# -- syntax, encoding, empty -------------------------------------------------------------------


def test_syntax_error_reports_line_column_and_fix() -> None:
    data = b'[\n  {"session_id": "a"}\n  {"session_id": "b"}\n]'
    report = load_bytes("broken.json", data)
    issue = only_error(report)
    assert (issue.line, issue.column, issue.record) == (3, 3, None)
    assert issue.rule == "is not valid JSON: Expecting ',' delimiter"
    assert "comma is missing" in issue.fix
    assert issue.message().startswith("broken.json line 3, column 3: is not valid JSON")
    assert "1 file error (see issues)" in report.summary()


def test_trailing_comma_fix_mentions_it() -> None:
    issue = only_error(load_bytes("x.json", b'[{"session_id": "a",}]'))
    assert (issue.line, issue.column) == (1, 21)
    assert "trailing comma" in issue.fix


def test_jsonl_bad_line_is_one_skipped_record_with_line_and_column() -> None:
    lines = [json.dumps(conversation("a")), "", '{"session_id": "b", oops}', json.dumps(conversation("c"))]
    report = load_bytes("data.jsonl", "\n".join(lines).encode())
    assert [c.session_id for c in report.conversations] == ["a", "c"]
    issue = only_error(report)
    assert (issue.record, issue.line, issue.column) == (1, 3, 21)
    assert issue.message().startswith("data.jsonl record 1 (line 3, column 21): is not valid JSON")
    assert [(s.record, s.line) for s in report.skipped] == [(1, 3)]
    assert report.n_records == 3


def test_jsonl_validation_errors_carry_the_line_number() -> None:
    lines = [json.dumps(conversation("a")), "", "", json.dumps(conversation("b", interaction(score=1.5)))]
    issue = only_error(load_bytes("data.jsonl", "\n".join(lines).encode()))
    assert (issue.record, issue.line) == (1, 4)
    assert issue.message().startswith(
        "data.jsonl record 1 (line 4), conversation[0].score: must be a number in [0, 1]"
    )


def test_pretty_printed_array_records_get_line_numbers() -> None:
    data = as_json([conversation("a"), conversation("b"), conversation("c", interaction(score=2))], indent=2)
    record_starts = [n for n, text in enumerate(data.decode().splitlines(), start=1) if text == "  {"]
    issue = only_error(load_bytes("pretty.json", data))
    assert issue.record == 2 and issue.line == record_starts[2]


def test_irregular_layout_line_numbers_come_from_the_tokenizer() -> None:
    # The first record shares the "[" line and the indentation varies, as in hand-edited files;
    # the brackets inside the string must not count.
    data = (
        b'[{"session_id": "a ] [ {", "assistant_id": "x", "conversation": [{"qa_id": "q", "query": "?",\n'
        b'  "assistant": "!", "ground_truth_assistant": "!"}]},\n'
        b' "oops",\n'
        b"\n"
        b'      {"session_id": ""}]'
    )
    report = load_bytes("hand.json", data)
    assert [c.session_id for c in report.conversations] == ["a ] [ {"]
    assert [(s.record, s.line) for s in report.skipped] == [(1, 3), (2, 5)]


def test_request_records_get_line_numbers() -> None:
    request = {"config": {"k": [1, 2]}, "datasets": [conversation("a"), conversation("", interaction())]}
    data = as_json(request, indent=2)
    record_starts = [n for n, text in enumerate(data.decode().splitlines(), start=1) if text == "    {"]
    issue = only_error(load_bytes("request.json", data))
    assert issue.record == 1 and issue.line == record_starts[1]


def test_concatenated_pretty_objects_load_like_jq_output() -> None:
    records = [conversation("a"), conversation("b", interaction(score=-1)), conversation("c")]
    data = "\n".join(json.dumps(r, indent=2) for r in records).encode()
    report = load_bytes("jq.json", data)
    assert [c.session_id for c in report.conversations] == ["a", "c"]
    issue = only_error(report)
    assert issue.record == 1 and issue.line == data.decode().splitlines().index("{", 1) + 1
    broken = load_bytes(
        "jq.json", data + b"\n{\n  'session_id': 1\n}\n" + json.dumps(conversation("d")).encode()
    )
    assert len(broken.conversations) == 2
    syntax = next(i for i in broken.errors if i.record is None)
    assert "the rest of the file was not read" in syntax.rule and syntax.line == data.count(b"\n") + 3


def test_utf8_bom_is_tolerated() -> None:
    report = load_bytes("bom.json", b"\xef\xbb\xbf" + as_json([conversation("a")]))
    assert [c.session_id for c in report.conversations] == ["a"] and report.ok
    jsonl = load_bytes("bom.jsonl", b"\xef\xbb\xbf" + as_jsonl([conversation("a"), conversation("b")]))
    assert len(jsonl.conversations) == 2 and jsonl.ok


def test_invalid_utf8_and_utf16_are_reported_not_raised() -> None:
    bad = only_error(load_bytes("latin1.json", b'[{"session_id": "caf\xe9"}]'))
    assert "not valid UTF-8" in bad.rule and (bad.line, bad.column) == (1, 21)
    assert "UTF-8" in bad.fix
    utf16 = only_error(load_bytes("utf16.json", json.dumps([conversation()]).encode("utf-16")))
    assert "UTF-16" in utf16.rule


@pytest.mark.parametrize("data", [b"", b"  \n\n", b"[]", b"\xef\xbb\xbf[]"])
def test_empty_file_or_array_is_reported(data: bytes) -> None:
    report = load_bytes("empty.json", data)
    (issue,) = report.issues
    assert issue.rule == "the file holds no conversations"
    assert issue.severity == "warning" and "right file" in issue.fix
    with pytest.raises(DataError) as info:
        report.raise_if_empty()
    assert "no valid conversation" in str(info.value) and "the files hold no conversations" in str(info.value)
    assert "Fix:" in str(info.value)


def test_top_level_scalar_is_an_error() -> None:
    issue = only_error(load_bytes("x.json", b'"hello"'))
    assert "it holds a string" in issue.rule and issue.record is None


# -- validation errors: place, rule, fix --------------------------------------------------------


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


def test_nan_score_gets_a_validation_error_through_the_stdlib_fallback() -> None:
    text = as_json([conversation("ok"), conversation("nan", interaction(score=0.5))]).replace(b"0.5", b"NaN")
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(text)  # the fast parser refuses NaN: the fallback is what is under test
    report = load_bytes("nan.json", text)
    assert [c.session_id for c in report.conversations] == ["ok"]
    issue = only_error(report)
    assert issue.path == "conversation[0].score" and issue.value == "nan"
    assert "NaN and Infinity are not scores" in issue.rule
    assert "null" in issue.fix


def test_infinite_score_in_jsonl() -> None:
    line = json.dumps(conversation("inf", interaction(score=0.5))).replace("0.5", "Infinity")
    issue = only_error(
        load_bytes("inf.jsonl", line.encode() + b"\n" + json.dumps(conversation("ok")).encode())
    )
    assert (issue.record, issue.line, issue.value) == (0, 1, "inf")


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


def test_every_error_of_a_record_is_reported_and_the_first_is_in_skipped() -> None:
    record = {"session_id": 5, "assistant_id": None, "conversation": "x"}
    report = load_bytes("data.json", as_json([record]))
    assert [i.path for i in report.errors] == ["session_id", "assistant_id", "conversation"]
    (skipped,) = report.skipped
    assert skipped.session_id is None and skipped.record == 0
    assert skipped.message.startswith("session_id: must be a string")


# -- partial files, duplicates --------------------------------------------------------------------


def test_partial_file_keeps_valid_records_and_lists_skipped_ones() -> None:
    records = [
        conversation("a"),
        conversation("b", interaction(score=7)),
        conversation("c"),
        "garbage",
        conversation("d"),
    ]
    report = load_bytes("part.jsonl", as_jsonl(records))
    assert [c.session_id for c in report.conversations] == ["a", "c", "d"]
    assert [(s.record, s.line, s.session_id) for s in report.skipped] == [(1, 2, "b"), (3, 4, None)]
    assert "conversation[0].score: must be a number in [0, 1] (got 7)" in report.skipped[0].message
    assert report.summary() == "1 file, 5 records: 3 loaded, 2 skipped (see issues), 0 warnings"
    assert not report.ok


def test_duplicate_session_id_within_a_file_names_the_first_occurrence() -> None:
    report = load_bytes("dup.jsonl", as_jsonl([conversation("x"), conversation("y"), conversation("x")]))
    assert [c.session_id for c in report.conversations] == ["x", "y"]
    issue = only_error(report)
    assert (issue.record, issue.line, issue.path) == (2, 3, "session_id")
    assert issue.rule == (
        "duplicate session_id and assistant_id; the first occurrence is dup.jsonl record 0 (line 1)"
    )
    assert "task_id" in issue.fix


def test_duplicates_across_files(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    second = tmp_path / "second.jsonl"
    first.write_bytes(as_json([conversation("a"), conversation("b")]))
    second.write_bytes(as_jsonl([conversation("c"), conversation("b")]))
    for report in (
        load_paths([first, second]),
        load_many([(str(first), first.read_bytes()), (str(second), second.read_bytes())]),
    ):
        assert [c.session_id for c in report.conversations] == ["a", "b", "c"]
        issue = only_error(report)
        assert issue.file == str(second) and issue.record == 1
        assert f"the first occurrence is {first} record 1" in issue.rule
        assert report.summary() == "2 files, 4 records: 3 loaded, 1 skipped (see issues), 0 warnings"


def test_repeated_attempts_sharing_a_session_id() -> None:
    # The seed-000 notebook data gives K attempts the same session_id and different assistant_ids.
    attempts = [
        dict(conversation("agentic_eval_session"), assistant_id=f"agent_response_{k}") for k in (1, 2, 3)
    ]
    # The default identity is (session_id, assistant_id), so the seed's own data loads whole.
    default = load_bytes("k3.json", as_json(attempts))
    assert len(default.conversations) == 3 and default.ok
    strict = load_bytes("k3.json", as_json(attempts), duplicate_key="session_id")
    assert len(strict.conversations) == 1 and len(strict.skipped) == 2
    assert "differ in assistant_id" in strict.errors[0].fix and "task_id" in strict.errors[0].fix
    assert [c.assistant_id for c in default.conversations] == [
        "agent_response_1",
        "agent_response_2",
        "agent_response_3",
    ]
    twice = load_many(
        [("k3.json", as_json(attempts)), ("k3 copy.json", as_json(attempts))],
        duplicate_key="session_id+assistant_id",
    )
    assert len(twice.conversations) == 3 and len(twice.skipped) == 3


# -- unknown keys -----------------------------------------------------------------------------------


def test_unknown_keys_everywhere_are_warnings_with_suggestions() -> None:
    turn = with_tools(tools_usde=[])
    turn["ground_truth_agentic"]["tool_sequense_matters"] = True
    turn["agentic"]["tools_used"][0]["parmeters"] = {}
    turn["ground_truth_agentic"]["expected_tools"][0]["optinal"] = True
    turn["qa_idd"] = "x"
    record = conversation("u", turn, metadata="hello")
    report = load_bytes("keys.json", as_json([record]))
    assert report.ok and len(report.conversations) == 1
    found = {w.path: w.fix for w in report.warnings}
    assert found == {
        "metadata": (
            "remove it if it is a mistake (the keys here are assistant_id, context, conversation, language, "
            "session_id, task_id); if it is intended, ignore this warning"
        ),
        "conversation[0].qa_idd": "did you mean 'qa_id'? Rename it; an unknown key is kept but never used",
        "conversation[0].agentic.tools_usde": (
            "did you mean 'tools_used'? Rename it; an unknown key is kept but never used"
        ),
        "conversation[0].agentic.tools_used[0].parmeters": (
            "did you mean 'parameters'? Rename it; an unknown key is kept but never used"
        ),
        "conversation[0].ground_truth_agentic.tool_sequense_matters": (
            "did you mean 'tool_sequence_matters'? Rename it; an unknown key is kept but never used"
        ),
        "conversation[0].ground_truth_agentic.expected_tools[0].optinal": (
            "did you mean 'optional'? Rename it; an unknown key is kept but never used"
        ),
    }
    warning = next(w for w in report.warnings if w.path.endswith("tool_sequense_matters"))
    assert warning.rule == "unknown key 'tool_sequense_matters' (kept, but not used)"
    assert warning.session_id == "u"
    # Kept, not dropped: the loaded model still holds the unknown key.
    assert report.conversations[0].model_extra == {"metadata": "hello"}
    assert report.summary() == "1 file, 1 record: 1 loaded, 0 skipped, 6 warnings"


def test_a_key_in_the_wrong_place_says_where_it_belongs() -> None:
    turn = interaction(tools_used=[], agentic={"expected_tools": []})
    report = load_bytes("x.json", as_json([conversation("p", turn)]))
    fixes = {w.path: w.fix for w in report.warnings}
    assert fixes["conversation[0].tools_used"].startswith("'tools_used' belongs in 'agentic'")
    assert fixes["conversation[0].agentic.expected_tools"].startswith(
        "'expected_tools' belongs in 'ground_truth_agentic'"
    )


# -- report helpers ---------------------------------------------------------------------------------


def test_summary_frame_and_raise_if_empty() -> None:
    report = load_bytes("all_bad.json", as_json([conversation(""), "x"]))
    assert report.summary() == "1 file, 2 records: 0 loaded, 2 skipped (see issues), 0 warnings"
    frame = report.to_frame()
    assert list(frame.columns) == [
        "severity",
        "file",
        "record",
        "line",
        "column",
        "session_id",
        "path",
        "rule",
        "value",
        "fix",
        "message",
    ]
    assert frame["record"].tolist() == [0, 1] and str(frame["record"].dtype) == "Int64"
    with pytest.raises(DataError) as info:
        report.raise_if_empty()
    text = str(info.value)
    assert (
        "all 2 records were skipped; first problem: all_bad.json record 0, session_id: must not be empty"
        in text
    )
    assert "Fix: fix the listed errors" in text
    assert load_bytes("ok.json", as_json([conversation()])).raise_if_empty().conversations
    assert load_records([conversation()]).to_frame().empty


def test_missing_files_are_errors_not_exceptions(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(as_json([conversation("a")]))
    report = load_paths([tmp_path / "nope.json", good, tmp_path])
    assert [c.session_id for c in report.conversations] == ["a"]
    assert [i.rule for i in report.errors] == ["file not found", "is a directory, not a file"]
    with pytest.raises(DataError, match="no file could be read"):
        load_paths([tmp_path / "nope.json"]).raise_if_empty()
    with pytest.raises(DataError, match="no file was given"):
        load_paths([]).raise_if_empty()


def test_load_records_does_not_modify_its_input_and_accepts_models() -> None:
    records = [conversation("a"), conversation("b", interaction(score=3))]
    before = copy.deepcopy(records)
    report = load_records(records, source="api")
    assert records == before
    assert [c.session_id for c in report.conversations] == ["a"]
    assert report.errors[0].file == "api"
    again = load_records(report.conversations)
    assert again.ok and again.conversations == report.conversations


def test_garbage_collector_state_is_restored() -> None:
    assert gc.isenabled()
    load_records([conversation()])
    assert gc.isenabled()
    gc.disable()
    try:
        load_records([conversation()])
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- property: corrupting any subset skips exactly that subset ---------------------------------------

CORRUPTIONS = [
    lambda r: r.pop("session_id"),
    lambda r: r.update(conversation=[]),
    lambda r: r["conversation"][0].update(score=1.5),
    lambda r: r["conversation"][0].update(score="high"),
    lambda r: r["conversation"][0].update(agentic={"final_answer_uses_tools": "true"}),
    lambda r: r["conversation"][0].pop("query"),
    lambda r: r.update(assistant_id=3),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=1, max_value=40).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, len(CORRUPTIONS) - 1)), max_size=n),
            st.sampled_from(["json", "jsonl", "request"]),
        )
    )
)
def test_corrupted_subset_is_skipped_and_the_rest_loads_in_order(
    case: tuple[int, list[tuple[int, int]], str],
) -> None:
    n, corruptions, fmt = case
    records = [conversation(f"s{i}", interaction(f"q{i}", score=i / 100)) for i in range(n)]
    bad = set()
    for index, kind in corruptions:
        if index not in bad:
            CORRUPTIONS[kind](records[index])
            bad.add(index)
    if fmt == "json":
        data = as_json(records)
    elif fmt == "jsonl":
        data = as_jsonl(records)
    else:
        data = as_json({"datasets": records, "config": {}})
    report = load_bytes(f"data.{fmt}", data)
    good = [i for i in range(n) if i not in bad]
    assert [c.session_id for c in report.conversations] == [f"s{i}" for i in good]
    assert [s.record for s in report.skipped] == sorted(bad)
    assert {i.record for i in report.errors} == bad
    assert report.n_records == n
