"""Tests of agentic_core.io.line_numbers: record line numbers in pretty-printed arrays, in
hand-edited layouts (the tokenizer fallback) and in a request's ``datasets``."""

from __future__ import annotations

from agentic_core.io.loader import load_bytes
from tests.io.conftest import (
    as_json,
    conversation,
    interaction,
    only_error,
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
