"""Large OpenTelemetry files: spans spooled to the disk, JSON lines of spans read a line at a time.

Each way of holding less must give the same conversations and the same issues (places, lines) as the
ordinary way; a disk or file that fails half-way is an issue or a fallback, never an exception.
"""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.io import otel_spool, span_lines
from agentic_core.io.loader import load_bytes, load_paths
from agentic_core.io.otel_spans import read_span
from agentic_core.io.otel_spool import SpanSpool
from agentic_core.io.parse import has_big_integer
from agentic_core.io.parsed import UNPARSABLE
from agentic_core.io.span_lines import is_span_lines, span_lines_file
from tests.io.otel_agent import otlp_json, run_agent, sdk_json_lines

DATA = Path(__file__).parent / "data" / "otel"


def _conversations(report: Any) -> list[dict[str, Any]]:
    return [c.model_dump(exclude_none=True) for c in report.conversations]


def _issues(report: Any) -> list[tuple[str, int | None]]:
    return [(i.message(), i.line) for i in report.issues]


def _several_conversations() -> bytes:
    """One OTLP document: the SDK agent loop three times (two conversation ids and one trace without any) plus
    the hand-written files' spans (events, OpenInference, a second resource)."""
    chunks = [otlp_json(run_agent("current", f"conv-{n}"))["resourceSpans"][0] for n in range(2)]
    chunks.append(otlp_json(run_agent("v1.36", "conv-old"))["resourceSpans"][0])
    chunks += [json.loads((DATA / n).read_text())["resourceSpans"][0] for n in ("current.json", "openinference.json")]
    return json.dumps({"resourceSpans": chunks}).encode()


def _span_lines() -> bytes:
    """JSON lines of OTLP spans (one per line, its resource beside it), with a blank line and CRLF ends."""
    lines = []
    for chunk in json.loads(_several_conversations())["resourceSpans"]:
        for scope in chunk["scopeSpans"]:
            lines += [json.dumps(span) for span in scope["spans"]]
    lines.insert(3, "")
    return "\r\n".join(lines).encode() + b"\n"


def _spill_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(otel_spool, "SPILL_FROM", 0)


@pytest.mark.parametrize("writing", ["otlp", "span lines", "sdk lines"])
def test_spans_spooled_to_the_disk_map_to_the_same_conversations_and_issues(
    writing: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"otlp": _several_conversations, "span lines": _span_lines,
            "sdk lines": lambda: sdk_json_lines(run_agent("current")).encode()}[writing]()
    held = load_bytes("traces.json", data, workers=1)
    written: list[int] = []
    real_write = os.write
    monkeypatch.setattr(otel_spool.os, "write", lambda fd, b: written.append(len(b)) or real_write(fd, b))
    _spill_everything(monkeypatch)
    spooled = load_bytes("traces.json", data, workers=1)
    assert written, "nothing went to the disk"
    assert _conversations(spooled) == _conversations(held) and len(held.conversations) >= 1
    assert _issues(spooled) == _issues(held)


def test_a_spool_reads_back_every_span_as_it_was_and_groups_by_conversation_else_trace() -> None:
    raws = [
        {"traceId": "AA", "spanId": "01", "name": "chat", "startTimeUnixNano": "5",
         "attributes": [{"key": "gen_ai.conversation.id", "value": {"stringValue": "c1"}},
                        {"key": "n", "value": {"arrayValue": {"values": [{"intValue": "3"}, {"doubleValue": 0.5}]}}}],
         "events": [{"name": "gen_ai.user.message", "timeUnixNano": "4",
                     "attributes": [{"key": "content", "value": {"stringValue": "hi"}}]}]},
        {"traceId": "bb", "spanId": "02", "parentSpanId": "01", "name": "tool", "startTimeUnixNano": "6"},
        {"traceId": "aa", "spanId": "03", "name": "later", "startTimeUnixNano": "7"},
    ]
    resource = {"service.name": "bot"}
    spans = [read_span(raw, 0, ("resourceSpans[0].scopeSpans[0].spans", k), resource, k) for k, raw in enumerate(raws)]
    with SpanSpool(spill_from=0) as spool:
        for span in spans:
            spool.append(span)
        assert spool.spilled
        groups = spool.groups()
        assert groups == {"c1": [0, 2], "bb": [1]}
        back = spool.spans(groups["c1"]) + spool.spans(groups["bb"])
    assert back == [spans[0], spans[2], spans[1]]
    assert back[0].events[0].attrs == {"content": "hi"} and back[0].path.endswith("spans[0]")


def test_a_small_file_never_touches_the_disk() -> None:
    with SpanSpool() as spool:
        spool.append(read_span({"traceId": "a", "spanId": "1"}, 0, "", {}, 0))
        assert not spool.spilled and spool.spans(spool.groups()["a"])[0].span_id == "1"


@pytest.mark.parametrize("failure", ["no temporary file", "disk full"])
def test_a_disk_that_refuses_keeps_the_spans_in_memory_with_the_same_result(
    failure: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _several_conversations()
    held = load_bytes("traces.json", data, workers=1)
    _spill_everything(monkeypatch)

    def refuse(*_a: Any, **_k: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device")

    if failure == "no temporary file":
        monkeypatch.setattr(otel_spool.tempfile, "TemporaryFile", refuse)
    else:
        monkeypatch.setattr(otel_spool.os, "write", refuse)
    report = load_bytes("traces.json", data, workers=1)
    assert _conversations(report) == _conversations(held) and _issues(report) == _issues(held)


# -- JSON lines of spans, a line at a time ------------------------------------------------------------


def _large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)  # what qualifies a file by path
    monkeypatch.setattr("agentic_core.io.loader.STREAM_FROM", 0)  # and an upload


def _large_span_lines_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file of JSON lines of spans, taken as large (read a line at a time)."""
    path = tmp_path / "spans.jsonl"
    path.write_bytes(_span_lines())
    _large(monkeypatch)
    return path


def test_json_lines_of_spans_read_a_line_at_a_time_match_the_lines_split_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _span_lines()
    bad = data.replace(b"\r\n", b"\r\n{not json\r\n", 1)  # a broken line: an error at its own line number
    path = tmp_path / "spans.jsonl"
    path.write_bytes(bad)
    split = load_paths([path], workers=1)
    assert span_lines_file(path, 4096) is None  # below STREAM_FROM: split up front as before
    _large(monkeypatch)
    parsed = span_lines_file(path, 4096)
    assert parsed is not None and parsed.lines is None
    by_path = load_paths([path], workers=1)
    uploaded = load_bytes(str(path), bad, workers=1)
    assert _conversations(by_path) == _conversations(split) == _conversations(uploaded)
    assert _issues(by_path) == _issues(split) == _issues(uploaded)
    assert any(line == 2 and "not valid JSON" in message for message, line in _issues(split))


_LONG_SPAN = json.dumps({"traceId": "a", "spanId": "b", "attributes": [
    {"key": "gen_ai.input.messages", "value": {"stringValue": "x" * 200_000}}]}).encode()


@pytest.mark.parametrize(("head", "expected"), [
    (b'{"traceId": "a", "spanId": "b", "name": "chat"}\n{', True),
    (b'\n  \r\n{"traceId": "a", "spanId": "b"}\n', True),  # blank lines first
    (_LONG_SPAN + b"\n", True),  # a chat span carrying a long history: longer than any first read
    (b'{"resourceSpans": [{"scopeSpans": []}]}\n', True),
    (b'{"resourceSpans": [' + b" " * 100, True),  # a document per line, longer than the head
    (b'\xef\xbb\xbf{"traceId": "a", "spanId": "b"}\n', False),  # the usual reader drops the mark
    (b'{"traceId": "a", "spanId": "b"}\r{"traceId": "a", "spanId": "c"}', False),  # CR-only line ends
    (b'{"session_id": "s1", "conversation": [{"span_id": 1}]}\n', False),
    # A seed record holding the ids in a tool's parameters is not a span (its file loads in pieces, as always).
    (b'{"session_id": "s1", "tools_used": [{"parameters": {"trace_id": "t", "span_id": "s"}}]}\n', False),
    (b'[{"traceId": "a", "spanId": "b"}]\n', False),
    (b'{"traceId": "a", "spanId": \n', False),  # not JSON
])
def test_only_json_lines_of_spans_or_documents_are_read_a_line_at_a_time(head: bytes, expected: bool) -> None:
    assert is_span_lines(io.BytesIO(head)) is expected


def test_a_large_seed_file_with_span_ids_in_its_parameters_loads_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Reviewer's case: routed to the span reader, a later line needing the exact parser (an integer past 64 bits)
    # raised out of the load. It is a seed file: read as one.
    def record(n: int, value: Any) -> str:
        return json.dumps({"session_id": f"s{n}", "assistant_id": "bot", "conversation": [{
            "qa_id": f"q{n}", "query": "q", "assistant": "a", "ground_truth_assistant": "a", "agentic": {
                "tools_used": [{"tool_name": "t", "parameters": {"trace_id": "t", "span_id": "s", "n": value}}]}}]})

    lines = [record(n, n) for n in range(100)] + [record(100, 2**70)]
    path = tmp_path / "seed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    before = load_paths([path], workers=1)
    _large(monkeypatch)
    assert span_lines_file(path, 4096) is None
    after = load_paths([path], workers=1)
    uploaded = load_bytes(str(path), path.read_bytes(), workers=1)
    assert len(after.conversations) == len(uploaded.conversations) == len(before.conversations) == 101
    big = after.conversations[100].conversation[0].agentic.tools_used[0].parameters["n"]
    assert big == 2**70 and isinstance(big, int)


def test_a_spool_keeps_one_copy_of_each_resource_even_with_list_values() -> None:
    # The SDK's to_json writes the resource in every span; the process detector adds a list value.
    with SpanSpool(spill_from=0) as spool:
        for k in range(50):
            resource = {"service.name": "bot", "process.command_args": ["python", "agent.py"], "n": 1}
            spool.append(read_span({"traceId": "a", "spanId": f"{k:02x}"}, 0, "", resource, k))
        spool.append(read_span({"traceId": "a", "spanId": "ff"}, 0, "", {"service.name": "bot", "n": True}, 50))
        assert len(spool._resources) == 2  # what the spool holds per span is the point
        back = spool.spans(spool.groups()["a"])
    assert back[0].resource["process.command_args"] == ["python", "agent.py"] and back[-1].resource["n"] is True


def test_a_load_that_fails_half_way_closes_its_spool_and_file_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _large_span_lines_file(tmp_path, monkeypatch)
    _spill_everything(monkeypatch)
    closed: list[str] = []
    real_close = SpanSpool.close
    monkeypatch.setattr(SpanSpool, "close", lambda self: closed.append("spool") or real_close(self))
    sources: list[Any] = []
    real_lines = span_lines.span_lines
    monkeypatch.setattr(span_lines, "span_lines", lambda *a: sources.append(real_lines(*a)) or sources[-1])

    def fail(*_a: Any, **_k: Any) -> bool:
        raise RuntimeError("a step failed half-way")

    monkeypatch.setattr("agentic_core.io.loader._Loader._unique", fail)
    with pytest.raises(RuntimeError):
        load_paths([path], workers=1)
    assert closed and sources and sources[0].closers == []  # released at once, not at a later collection


def test_a_spool_that_cannot_be_read_back_is_one_error_after_the_conversations_read(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _several_conversations()
    _spill_everything(monkeypatch)
    conversations_read = [0]
    real = otel_spool.read_at
    real_spans = SpanSpool.spans

    def counted(self: SpanSpool, positions: list[int]) -> Any:
        conversations_read[0] += 1
        return real_spans(self, positions)

    def failing(*args: Any) -> bytes:
        if conversations_read[0] > 2:  # the third conversation's spans cannot be read back
            raise OSError(errno.EIO, "Input/output error")
        return real(*args)

    monkeypatch.setattr(SpanSpool, "spans", counted)
    monkeypatch.setattr(otel_spool, "read_at", failing)
    report = load_bytes("traces.json", data, workers=1)  # never an exception
    errors = [i.message() for i in report.issues if i.severity == "error"]
    assert len(errors) == 1 and "cannot be read back from the temporary file" in errors[0]
    assert "Input/output error" in errors[0] and "record 2:" in errors[0] and len(report.conversations) == 2


def test_a_file_that_fails_mid_read_is_one_issue_after_the_lines_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _large_span_lines_file(tmp_path, monkeypatch)
    parsed = span_lines_file(path, 4096)
    assert parsed is not None
    calls = [0]
    real = os.pread

    def failing(fd: int, n: int, at: int) -> bytes:
        calls[0] += 1
        if calls[0] > 5:
            raise OSError(errno.EIO, "Input/output error")
        return real(fd, n, at)

    monkeypatch.setattr("agentic_core.io.bounded_read.os.pread", failing)
    parsed.parse_until(len(parsed.records))
    assert all(r is not UNPARSABLE for r in parsed.records[:5]) and parsed.records[5:] == [UNPARSABLE] * (
        len(parsed.records) - 5)
    assert list(parsed.record_errors) == [5]
    assert "cannot be read from here on (Input/output error)" in parsed.record_errors[5].message()


# -- which texts need the exact (slower) parser ---------------------------------------------------------


@pytest.mark.parametrize(("text", "big"), [
    (b"12345678901234567890", True),
    (b'{"a": 12345678901234567890}', True),
    (b"[1,\n -12345678901234567890]", True),
    (b'{"a": [ 99999999999999999999 ]}', True),
    (b'{"m": "x\\": 12345678901234567890"}', True),  # JSON quoted in a string: only slower, never wrong
    (b'{"a": "12345678901234567890"}', False),  # digits inside a string
    (b'{"startTimeUnixNano": "1700000000000000000", "traceId": "00000000000000000000000000000000"}', False),
    (b'{"a": 1.12345678901234567890}', False),  # a fraction: a float either way
    (b'{"a": 123456789012345678}', False),
])
def test_only_an_integer_of_19_digits_or_more_outside_strings_needs_the_exact_parser(text: bytes, big: bool) -> None:
    assert has_big_integer(text) is big
    assert has_big_integer(text.decode()) is big


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.text(alphabet="0123456789:[, -\"", max_size=40) | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@given(_JSON, st.sampled_from([None, 2]))
def test_a_text_orjson_would_read_differently_always_goes_to_the_exact_parser(value: Any, indent: int | None) -> None:
    # Soundness: never a text whose integers orjson would change (read as floats) without the exact parser.
    text = json.dumps(value, indent=indent).encode()
    if orjson.loads(text) != json.loads(text) or repr(orjson.loads(text)) != repr(json.loads(text)):
        assert has_big_integer(text)


def test_conversations_mapped_chunk_by_chunk_give_the_same_records_note_and_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The loader asks for the mapped conversations a chunk at a time and lets each chunk go once validated: the
    # note's counts, the missing-reference warning and the reference file's join must still cover every one.
    from agentic_core.io.otel_load import load_otel

    traces = tmp_path / "traces.json"
    traces.write_bytes(_several_conversations())
    refs = tmp_path / "golden.jsonl"
    refs.write_text(json.dumps({"session_id": "conv-1", "reference": ["first", "second"], "extra": 1}) + "\n"
                    + json.dumps({"session_id": "nowhere", "reference": "x"}) + "\n")
    whole = load_otel([traces], refs, workers=1)
    monkeypatch.setattr("agentic_core.io.record_stream.CHUNK", 1)
    _spill_everything(monkeypatch)
    chunked = load_otel([traces], refs, workers=1)
    assert _conversations(chunked) == _conversations(whole) and len(whole.conversations) > 2
    assert _issues(chunked) == _issues(whole)
    # The counts said are those of what was loaded (not of a chunk, not of the records still held).
    convs = _conversations(chunked)
    turns = [t for c in convs for t in c["conversation"]]
    missing = sum(1 for t in turns if not t.get("ground_truth_assistant") and t.get("score") is None)
    messages = [m for m, _ in _issues(chunked)]
    assert messages[0] == (f"{traces}: read as OpenTelemetry GenAI traces (detected from the content): "
                           f"{len(convs)} conversations, {len(turns)} interactions")
    assert sum(f"{missing} of {len(turns)} interactions have no reference answer and no score" in m
               for m in messages) == 1 and 0 < missing < len(turns)
    assert any("matches no loaded conversation" in m for m in messages)
    assert any(c["conversation"][0]["ground_truth_assistant"] == "first" for c in convs)


def test_a_span_marshal_cannot_write_stays_in_memory() -> None:
    # Only JSON values reach a span today; a value of another kind must not break the load.
    odd = read_span({"traceId": "a", "spanId": "1"}, 0, "", {"odd": object()}, 0)
    odd.attrs["when"] = object()
    with SpanSpool(spill_from=0) as spool:
        spool.append(read_span({"traceId": "a", "spanId": "0f"}, 0, "", {}, 0))
        spool.append(odd)
        back = spool.spans(spool.groups()["a"])
    assert back[1] is odd and back[0].span_id == "0f"


def test_a_large_uploaded_otlp_document_is_streamed_with_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    # The loader tells one document from JSON lines with one scan and streams the document itself.
    from agentic_core.io import loader

    data = _several_conversations()
    whole = load_bytes("traces.json", data, workers=1)
    streamed: list[int] = []
    real = loader.streamed_otlp
    monkeypatch.setattr(loader, "streamed_otlp", lambda d: streamed.append(len(d)) or real(d))
    _large(monkeypatch)
    large = load_bytes("traces.json", data, workers=1)
    assert streamed == [len(data)]
    assert _conversations(large) == _conversations(whole) and _issues(large) == _issues(whole)
