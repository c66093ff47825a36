"""Running the right importer: seed files untouched, other formats mapped with a note, forced formats checked."""

from __future__ import annotations

import json
from typing import Any

from agentic_core.io.importers import import_parsed
from agentic_core.io.loader import load_bytes
from agentic_core.io.parse import parse
from agentic_core.io.parsed import UNPARSABLE

SEED = {
    "session_id": "s1",
    "assistant_id": "a",
    "conversation": [
        {"qa_id": "q", "query": "Capital of France?", "assistant": "Paris.", "ground_truth_assistant": "Paris"}
    ],
}
TRACE = {
    "id": "t",
    "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}],
    "reference": ["Hello"],
}


def jsonl(*records: Any) -> bytes:
    return "\n".join(json.dumps(r) for r in records).encode()


def test_a_seed_file_comes_back_as_the_same_object() -> None:
    parsed = parse("seed.jsonl", jsonl(SEED))
    assert import_parsed("seed.jsonl", parsed, "auto") is parsed
    assert import_parsed("seed.jsonl", parsed, "seed") is parsed


def test_another_format_is_mapped_with_a_note_and_origins() -> None:
    out = import_parsed("t.jsonl", parse("t.jsonl", jsonl(TRACE, TRACE)), "auto")
    assert out.issues[0].severity == "info"
    assert out.issues[0].rule == "read as OpenAI chat traces (detected from the content): 2 traces, 2 interactions"
    assert out.records[0]["conversation"][0]["query"] == "Hi"
    assert out.origins is not None and ("conversation[0].query", "messages[0].content") in out.origins[0]


def test_a_forced_format_says_so_in_the_note() -> None:
    out = import_parsed("t.jsonl", parse("t.jsonl", jsonl(TRACE)), "openai")
    assert "(the format chosen)" in out.issues[0].rule


def test_unreadable_files_are_passed_through() -> None:
    parsed = parse("empty.jsonl", b"")
    assert import_parsed("empty.jsonl", parsed, "openai") is parsed


def test_a_forced_format_that_does_not_fit_reads_nothing_and_says_which_format_it_is() -> None:
    out = import_parsed("seed.jsonl", parse("seed.jsonl", jsonl(SEED)), "openai")
    assert out.kind == "invalid" and not out.records
    (error,) = out.issues
    assert error.severity == "error" and error.record is None
    assert "'seed' format" in error.rule and "'conversation'" in error.rule
    assert "--format seed" in error.fix


def test_skipped_traces_are_counted_in_the_note_and_each_has_its_error() -> None:
    report = load_bytes("t.jsonl", jsonl(TRACE, {"messages": []}, TRACE | {"id": "t2"}))
    assert "1 trace could not be mapped" in report.notes[0].rule
    assert [s.record for s in report.skipped] == [1]
    assert len(report.conversations) == 2


def test_a_line_that_is_not_json_stays_a_located_error() -> None:
    parsed = parse("t.jsonl", jsonl(TRACE) + b"\n{oops\n")
    out = import_parsed("t.jsonl", parsed, "auto")
    assert out.records[1] is UNPARSABLE and out.record_errors[1].line == 2
