"""Tests of agentic_core.io.parse: format detection by content, JSON / JSON Lines / stream parsing,
syntax and encoding errors with their place and fix, empty files, the BOM, and the stdlib
fallback that lets NaN / Infinity reach validation."""

from __future__ import annotations

import json

import orjson
import pytest

from agentic_core.errors import DataError
from agentic_core.io.loader import load_bytes
from tests.io.conftest import (
    as_json,
    as_jsonl,
    conversation,
    interaction,
    only_error,
)

# -- formats ------------------------------------------------------------------------------------


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


# -- syntax, encoding, empty --------------------------------------------------------------------


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


# -- NaN and Infinity: the standard library parser decides --------------------------------------


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
