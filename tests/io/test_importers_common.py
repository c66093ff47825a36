"""What the importers share: record places, tool arguments and results, spreading expected calls, key tallies."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.io.importers.common import (
    KeyTally,
    RecordMap,
    content_text,
    decode_result,
    file_stem,
    map_records,
    relocate,
    source_path,
    spread_expected,
    text_id,
    tool_arguments,
    under,
)
from agentic_core.io.load_report import Issue, SkippedRecord
from agentic_core.io.parsed import UNPARSABLE, Parsed


def record(base: str = "") -> RecordMap:
    return RecordMap("f.json", 3, lambda i: i + 10, base)


def test_paths_inside_a_base() -> None:
    assert under("", "messages[0]") == "messages[0]"
    assert under("samples[2]", "messages[0]") == "samples[2].messages[0]"
    assert under("samples[2]", "[1]") == "samples[2][1]"
    assert under("samples[2]", "") == "samples[2]"


def test_issues_carry_file_record_line_path_and_session() -> None:
    rec = record("samples[3]")
    rec.session_id = "s-1"
    rec.warn("id", "is odd", 5, "change it")
    rec.error("epoch", "is missing")
    warning, error = rec.warnings[0], rec.errors[0]
    assert (
        warning.file,
        warning.record,
        warning.line,
        warning.path,
        warning.value,
        warning.fix,
        warning.session_id,
    ) == (
        "f.json",
        3,
        13,
        "samples[3].id",
        "5",
        "change it",
        "s-1",
    )
    assert error.value is None  # None is not shown as a value


@pytest.mark.parametrize(
    ("raw", "parameters", "warned"),
    [
        ({"a": 1}, {"a": 1}, False),
        ('{"a": 1}', {"a": 1}, False),
        (None, {}, False),
        ("  ", {}, False),
        ('{"a": ', {"_raw": '{"a": '}, True),
        ("[1, 2]", {"_raw": "[1, 2]"}, True),
        (7, {"_raw": 7}, True),
    ],
)
def test_tool_arguments(raw: Any, parameters: dict[str, Any], warned: bool) -> None:
    rec = record()
    assert tool_arguments(raw, "args", rec) == parameters
    assert bool(rec.warnings) is warned


def test_tool_results_and_texts() -> None:
    assert decode_result('{"t": 1}') == {"t": 1}
    assert decode_result("plain") == "plain"
    assert decode_result(None) is None
    rec = record()
    assert (
        content_text([{"type": "text", "text": "a"}, "b", {"type": "output_text", "text": "c"}], "c", rec) == "a\nb\nc"
    )
    assert content_text(5, "c", rec) is None and rec.warnings[0].path == "c"


def test_ids_and_stems() -> None:
    assert (text_id(7), text_id("x"), text_id(" "), text_id(True), text_id(1.5)) == ("7", "x", None, None, None)
    assert file_stem("runs/gpt-4o.json") == "gpt-4o"


@pytest.mark.parametrize(
    ("used", "expected", "turns"),
    [
        ([["a"], ["b"]], ["a", "b"], [0, 1]),  # each to the turn that made it
        ([["a"], ["b"]], ["b", "a"], [0, 0]),  # out of order: one matches (a), b goes to the next match
        ([["a"], ["c"]], ["x", "c"], [1, 1]),  # unmatched: the turn of the next matched call
        ([["a"], ["b"]], ["a", "z"], [0, 0]),  # ... else of the previous one
        ([[], []], ["z"], [1]),  # ... else the last turn
        ([["a"]], ["a", "b"], [0, 0]),  # one turn: everything there
    ],
)
def test_spreading_expected_calls_over_turns(used: list[list[str]], expected: list[str], turns: list[int]) -> None:
    assert spread_expected(used, expected) == turns


def test_map_records_never_drops_a_record_silently() -> None:
    def one(rec: RecordMap, raw: dict[str, Any]) -> dict[str, Any] | None:
        if raw.get("skip"):
            return None  # an importer that forgets to say why
        rec.origin("session_id", "id")
        return {"session_id": raw["id"]}

    parsed = Parsed("jsonl", records=[{"id": "a"}, {"skip": True}, "text", UNPARSABLE], line_of=lambda i: i + 1)
    out = map_records("f.jsonl", parsed, one)
    assert out.records[0] == {"session_id": "a"} and out.records[1:] == [UNPARSABLE] * 3
    assert out.record_errors[1].rule == "could not be mapped"
    assert "must be a JSON object" in out.record_errors[2].rule
    assert out.origins == {0: [("session_id", "id")]}


def test_relocating_issues_to_the_original_place() -> None:
    pairs = [
        ("conversation[0]", "messages[1]"),
        ("conversation[0].agentic.tools_used[0].parameters", "messages[2].tool_calls[0].function.arguments"),
    ]
    assert source_path("conversation[0].agentic.tools_used[0].parameters.city", pairs) == (
        "messages[2].tool_calls[0].function.arguments.city"
    )
    assert source_path("conversation[0].query", pairs) == "messages[1].query"
    assert source_path("conversation[01]", pairs) == "conversation[01]"  # a prefix only at a path boundary
    issue = Issue("error", "f", 0, "conversation[0].score", "must be a number", None, "fix it", 1)
    skipped = SkippedRecord("f", 0, 1, None, issue.message(with_place=False))
    issues, moved = relocate([issue], [skipped], {0: [("conversation[0].score", "score")]})
    assert issues[0].path == "score" and moved[0].message.startswith("score: must be a number")


def test_key_tally_warns_per_unknown_key_and_notes_unused_keys_once() -> None:
    tally = KeyTally("a thing", frozenset({"name", "value"}), {"meta": "not evaluated", "tags": "not evaluated"})
    for index in range(3):
        rec = RecordMap("f", index, lambda i: i + 1)
        tally.see(rec, {"name": 1, "nmae": 2, "meta": 3, "tags": 4} if index else {"name": 1})
    warning, note = tally.issues("f")
    assert (warning.severity, warning.path, warning.record, warning.line) == ("warning", "nmae", 1, 2)
    assert "in 2 records" in warning.rule and "did you mean 'name'?" in warning.fix
    assert note.severity == "info" and note.record == 1
    assert (
        note.rule
        == "2 keys of a thing not used: meta (in 2 records: not evaluated); tags (in 2 records: not evaluated)"
    )
