"""Tests of the streamed load (issue 14): JSON Lines parsed chunk by chunk give the same report as
one pass over the whole file, whatever the chunk size: same issues and messages (places, lines),
same skipped records, same conversations."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from agentic_core.io import loader, record_stream
from agentic_core.io.loader import load_bytes
from agentic_core.io.parse import parse
from agentic_core.io.parsed import UNPARSABLE
from tests.io.conftest import conversation, interaction, with_tools


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"x": value}
    return value


def _lines() -> bytes:
    """A JSON Lines file with a bit of everything that can go wrong, in between valid records."""
    good = [conversation(f"s{i}", with_tools(), interaction(score=0.5)) for i in range(7)]
    deep = conversation("deep", with_tools())
    deep["conversation"][0]["agentic"]["tools_used"][0]["parameters"] = {"p": _deep(70)}
    unknown = conversation("unknown")
    unknown["colour"] = "blue"
    rows = [
        orjson.dumps(good[0]),
        b"{not json",
        orjson.dumps(good[1]),
        b"",  # blank lines are skipped
        orjson.dumps(deep),
        orjson.dumps(good[2]),
        b'{"session_id": "nan", "assistant_id": "a", "conversation": [{"qa_id": "q", "query": "q", '
        b'"assistant": "a", "ground_truth_assistant": "g", "score": NaN}]}',
        orjson.dumps(good[3]),
        json.dumps(conversation("surrogate", interaction(query="bad \ud800 text"))).encode(),
        orjson.dumps(good[4]),
        orjson.dumps(unknown),
        b'{"session_id": "big", "assistant_id": "a", "conversation": [{"qa_id": "q", "query": "q", '
        b'"assistant": "a", "ground_truth_assistant": "g", "agentic": {"tools_used": [{"tool_name": "t", '
        b'"parameters": {"n": 123456789012345678901234567890}}]}}]}',
        orjson.dumps(good[1]),  # a duplicate
        orjson.dumps({"session_id": 5, "conversation": "x"}),
        orjson.dumps(good[5]),
        orjson.dumps(good[6]),
    ]
    return b"\n".join(rows) + b"\n"


def _summary(report: Any) -> tuple[Any, ...]:
    return (
        [(i.severity, i.record, i.line, i.column, i.path, i.message()) for i in report.issues],
        list(report.skipped),
        [c.model_dump() for c in report.conversations],
        report.n_records,
        report.n_interactions,
    )


def _eager(name: str, data: bytes, *, lazy: bool = False) -> Any:
    return parse(name, data)  # the whole file parsed at once, as before streaming


def test_the_file_exercises_every_kind_of_issue() -> None:
    report = load_bytes("data.jsonl", _lines())
    rules = " | ".join(i.rule for i in report.issues)
    assert "not valid JSON" in rules and "nested more than" in rules and "duplicate" in rules
    assert "surrogate" in rules and "unknown" in rules.lower()
    assert [c.session_id for c in report.conversations] == [
        "s0",
        "s1",
        "s2",
        "s3",
        "surrogate",
        "s4",
        "unknown",
        "big",
        "s5",
        "s6",
    ]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1024])
def test_streamed_report_is_the_same_for_every_chunk_size(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    data = _lines()
    with monkeypatch.context() as m:
        m.setattr(loader, "parse", _eager)
        before = _summary(load_bytes("data.jsonl", data))
    monkeypatch.setattr(record_stream, "CHUNK", chunk)
    assert _summary(load_bytes("data.jsonl", data)) == before


def test_lazy_parse_gives_the_records_and_errors_of_an_eager_one() -> None:
    data = _lines()
    eager = parse("f.jsonl", data)
    lazy = parse("f.jsonl", data, lazy=True)
    assert lazy.records[0] is None and lazy.lines is not None  # nothing parsed yet
    lazy.parse_until(3)
    assert lazy.records[:3] == eager.records[:3] and lazy.records[3] is None
    lazy.parse_until(len(lazy.records))
    assert lazy.more is None
    assert lazy.records == eager.records and UNPARSABLE in lazy.records
    assert {i: e.message() for i, e in lazy.record_errors.items()} == {
        i: e.message() for i, e in eager.record_errors.items()
    }
    assert lazy.stdlib and eager.stdlib
    assert [lazy.line_of(i) for i in range(len(lazy.records))] == [eager.line_of(i) for i in range(len(eager.records))]
    # Lines orjson could not read are not kept as the records' text.
    assert lazy.lines[1] is None and lazy.lines[0] is not None


def test_parse_first_reads_just_enough_for_detection() -> None:
    data = b"\n".join(orjson.dumps(conversation(f"s{i}")) for i in range(500))
    lazy = parse("f.jsonl", data, lazy=True)
    lazy.parse_first(5)
    parsed = [r for r in lazy.records if r is not None]
    assert 5 <= len(parsed) < 500


def test_other_formats_in_json_lines_are_still_imported() -> None:
    traces = [{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}] * 3
    data = b"\n".join(orjson.dumps(t) for t in traces)
    report = load_bytes("traces.jsonl", data)
    assert len(report.conversations) == 3
    assert report.conversations[2].conversation[0].assistant == "hello"
