"""The OpenTelemetry importer on spans from the real SDK (both GenAI conventions) and on hand-written OTLP JSON."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.io import otel_stream
from agentic_core.io.importers.detect import record_format
from agentic_core.io.loader import load_bytes, load_paths
from agentic_core.io.otel_load import load_otel
from agentic_core.io.otel_stream import StreamedSpans, streamed_otlp_file
from agentic_core.io.parse import parse
from tests.io.otel_agent import TURNS, otlp_json, run_agent, sdk_json_lines

DATA = Path(__file__).parent / "data" / "otel"


def _sdk_file(convention: str, writing: str, **kw: Any) -> tuple[bytes, list[Any]]:
    spans = run_agent(convention, **kw)
    text = sdk_json_lines(spans) if writing == "sdk-jsonl" else json.dumps(otlp_json(spans))
    return text.encode(), spans


@pytest.mark.parametrize("writing", ["sdk-jsonl", "otlp-json"])
@pytest.mark.parametrize("convention", ["current", "v1.36"])
def test_the_sdk_agent_loop_becomes_one_conversation_with_its_turns_and_tools(convention: str, writing: str) -> None:
    data, spans = _sdk_file(convention, writing)
    report = load_bytes("traces.json", data, workers=1)
    assert not report.errors and not report.skipped
    assert "read as OpenTelemetry GenAI traces (detected from the content): 1 conversation, 2 interactions" in \
        report.issues[0].message()
    (conv,) = list(report.conversations)
    assert conv.session_id == "conv-1" and conv.assistant_id == "support-bot"
    assert conv.context == "You are a retail support agent."
    assert [(i.query, i.assistant) for i in conv.conversation] == [(q, a) for q, _, _, a in TURNS]
    first, second = conv.conversation
    assert first.agentic is not None
    (call,) = first.agentic.tools_used
    assert (call.tool_name, call.parameters, call.result, call.step) == ("lookup_order", TURNS[0][1], TURNS[0][2], 1)
    assert second.agentic is None
    # Tokens: the sum over each turn's chat spans, as the SDK recorded them.
    for turn in (first, second):
        assert turn.telemetry is not None
        trace = turn.telemetry.trace_id
        chats = [s for s in spans if s.name.startswith("chat") and f"{s.context.trace_id:032x}" == trace]
        assert turn.telemetry.input_tokens == sum(s.attributes["gen_ai.usage.input_tokens"] for s in chats)
        assert turn.telemetry.output_tokens == sum(s.attributes["gen_ai.usage.output_tokens"] for s in chats)
        assert turn.telemetry.model == "gpt-4o-2024-08-06" and turn.telemetry.agent_name == "support-bot"
        assert turn.telemetry.latency_ms is not None and turn.telemetry.latency_ms > 0


def test_without_token_counts_the_telemetry_leaves_them_out() -> None:
    data, _ = _sdk_file("current", "otlp-json", tokens=False)
    (conv,) = list(load_bytes("t.json", data, workers=1).conversations)
    telemetry = conv.conversation[0].telemetry
    assert telemetry is not None and telemetry.input_tokens is None and telemetry.output_tokens is None


def test_unread_attributes_are_reported_once_at_their_first_place() -> None:
    data, _ = _sdk_file("current", "otlp-json")
    notes = [i.message() for i in load_bytes("t.json", data, workers=1).issues if "not used" in i.rule]
    assert len(notes) == 1 and "gen_ai.request.temperature (3 spans: request settings" in notes[0]


def test_openinference_spans_map_to_a_turn_with_its_tool_call() -> None:
    report = load_paths([DATA / "openinference.json"], workers=1)
    (conv,) = list(report.conversations)
    assert conv.session_id == "weather-42" and conv.assistant_id == "gpt-4o-mini"
    assert conv.context == "You answer weather questions."
    (turn,) = conv.conversation
    assert (turn.query, turn.assistant) == ("How warm is it in Paris?", "It is 18 degrees in Paris.")
    assert turn.agentic is not None
    assert [(c.tool_name, c.parameters, c.result) for c in turn.agentic.tools_used] == [
        ("get_weather", {"city": "Paris"}, {"temp_c": 18})]
    assert turn.telemetry is not None
    assert (turn.telemetry.input_tokens, turn.telemetry.output_tokens) == (52 + 70, 9 + 8)
    messages = [i.message() for i in report.issues]
    unknown = [m for m in messages if "app.tenant" in m]
    assert unknown and "resourceSpans[0].scopeSpans[0].spans[3].attributes.app.tenant" in unknown[0]
    assert any("llm.invocation_parameters (1 span" in m for m in messages)


def test_hand_written_otlp_groups_by_conversation_id_else_trace_and_orders_by_time() -> None:
    report = load_paths([DATA / "current.json"], workers=1)
    convs = {c.session_id: c for c in report.conversations}
    assert set(convs) == {"trip-9", "cccc0000000000000000000000000003"}
    trip = convs["trip-9"]
    # The trace written second started first: its turn comes first.
    assert [i.query for i in trip.conversation] == ["Book the 9:00 train to Lyon.", "Tomorrow."]
    assert [i.assistant for i in trip.conversation] == ["Which day?", "Booked: seat 42 on the 9:00 to Lyon."]
    assert trip.assistant_id == "travel-desk"
    assert [i.telemetry.input_tokens for i in trip.conversation if i.telemetry] == [200, 400]
    booked = trip.conversation[1].agentic
    assert booked is not None
    (call,) = booked.tools_used
    assert call.tool_name == "book_train" and call.result == {"seat": 42}
    assert call.parameters == {"_raw": '{"to": "Lyon", "time": "09:00"'}
    messages = [i.message() for i in report.issues]
    bad = [m for m in messages if "is not valid JSON" in m]
    assert bad and "spans[1].attributes.gen_ai.tool.call.arguments" in bad[0]
    assert any("spans[1].attributes.gen_ai.tool.temperature_unit: is an attribute the OpenTelemetry importer does "
               "not read" in m for m in messages)
    # The trace without a conversation id is a conversation named by its trace id; agent: the model.
    assert convs["cccc0000000000000000000000000003"].assistant_id == "gpt-4.1"


def test_spans_without_any_user_message_are_an_error_not_a_silent_drop() -> None:
    span = {"traceId": "ab" * 16, "spanId": "cd" * 8, "name": "chat", "startTimeUnixNano": "1",
            "endTimeUnixNano": "2", "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}}]}
    report = load_bytes("spans.jsonl", (json.dumps(span) + "\n").encode(), workers=1)
    assert not report.conversations and len(report.skipped) == 1
    assert "hold no user message answered by the agent" in report.errors[0].message()


def test_a_forced_other_format_names_the_otel_format() -> None:
    data, _ = _sdk_file("current", "sdk-jsonl")
    report = load_bytes("t.jsonl", data, workers=1, format="openai")
    assert not report.conversations and "'otel' format" in report.errors[0].message()


def _write(tmp: Path, name: str, records: list[dict[str, Any]]) -> Path:
    path = tmp / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_references_join_by_conversation_and_by_task(tmp_path: Path) -> None:
    traces = tmp_path / "traces.jsonl"
    traces.write_bytes(_sdk_file("current", "sdk-jsonl")[0] + _sdk_file("current", "sdk-jsonl",
                                                                         conversation_id="conv-2")[0])
    refs = _write(tmp_path, "golden.jsonl", [
        {"session_id": "conv-1", "task_id": "order-7", "reference": [a for *_, a in TURNS],
         "expected_tool_calls": [{"name": "lookup_order", "arguments": {"order_id": 7}}]},
        {"session_id": "conv-2", "task_id": "order-7", "reference": ["Shipped.", "No."]},
        {"session_id": "conv-404", "reference": "x"},
    ])
    report = load_otel([traces], references=refs, workers=1)
    convs = {c.session_id: c for c in report.conversations}
    one = convs["conv-1"]
    assert one.task_id == "order-7" and convs["conv-2"].task_id == "order-7"
    assert [i.ground_truth_assistant for i in one.conversation] == [a for *_, a in TURNS]
    expected = one.conversation[0].ground_truth_agentic
    assert expected is not None and [t.tool_name for t in expected.expected_tools] == ["lookup_order"]
    assert one.conversation[1].ground_truth_agentic is not None
    assert one.conversation[1].ground_truth_agentic.expected_tools == []
    messages = [i.message() for i in report.issues]
    assert any("golden.jsonl record 2 (line 3)" in m and "matches no loaded conversation" in m for m in messages)
    assert not any("no reference answer" in m for m in messages)


def test_a_task_only_reference_applies_to_every_conversation_of_the_task(tmp_path: Path) -> None:
    spans = []
    for conv in ("a", "b"):
        for span in otlp_json(run_agent("current", conversation_id=conv))["resourceSpans"][0]["scopeSpans"][0]["spans"]:
            span["attributes"].append({"key": "task.id", "value": {"stringValue": "order-7"}})
            spans.append(span)
    traces = _write(tmp_path, "spans.jsonl", spans)
    refs = _write(tmp_path, "golden.jsonl", [{"task_id": "order-7", "reference": "No."}])
    report = load_otel([traces], references=refs, workers=1)
    assert sorted(c.task_id or "" for c in report.conversations) == ["order-7", "order-7"]
    assert all(c.conversation[-1].ground_truth_assistant == "No." for c in report.conversations)


@pytest.mark.parametrize(
    ("record", "key"),
    [
        ({"resourceSpans": []}, "resourceSpans"),
        ({"traceId": "ab", "spanId": "cd", "name": "chat"}, "spanId"),
        ({"context": {"trace_id": "0xab", "span_id": "0xcd"}, "name": "chat"}, "context"),
    ],
)
def test_each_writing_of_spans_is_detected_with_its_key(record: dict[str, Any], key: str) -> None:
    assert record_format(record) == ("otel", key)


def _conversations(report: Any) -> list[dict[str, Any]]:
    return [c.model_dump(exclude_none=True) for c in report.conversations]


def _two_resources() -> bytes:
    chunks = [json.loads((DATA / n).read_text())["resourceSpans"][0] for n in ("current.json", "openinference.json")]
    return json.dumps({"resourceSpans": chunks}).encode()


@pytest.mark.parametrize("name", ["current.json", "openinference.json", "sdk", "two-resources"])
def test_a_large_otlp_document_is_streamed_span_by_span_with_the_same_result(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if name == "sdk":
        data = json.dumps(otlp_json(run_agent("v1.36"))).encode()
    else:
        data = _two_resources() if name == "two-resources" else (DATA / name).read_bytes()
    whole = load_bytes(name, data, workers=1)
    assert not isinstance(parse(name, data).records[0]["resourceSpans"], StreamedSpans)
    monkeypatch.setattr("agentic_core.io.parse.STREAM_FROM", 0)
    assert isinstance(parse(name, data).records[0]["resourceSpans"], StreamedSpans)
    streamed = load_bytes(name, data, workers=1)
    assert _conversations(streamed) == _conversations(whole) and _conversations(whole)
    assert [i.message() for i in streamed.issues] == [i.message() for i in whole.issues]


@pytest.mark.parametrize("layout", ["one-scope", "two-resources"])
def test_a_streamed_document_cut_short_keeps_the_spans_before_the_cut(layout: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agentic_core.io.parse.STREAM_FROM", 0)
    data = json.dumps(otlp_json(run_agent("current"))).encode() if layout == "one-scope" else _two_resources()
    report = load_bytes("cut.json", data[: len(data) * 3 // 4], workers=1)
    errors = [i.message() for i in report.issues if i.severity == "error"]
    assert any("is not valid JSON from here on" in m and "the spans before it were read" in m for m in errors)


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_cli_evaluates_traces_against_a_reference_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTIC_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    traces = tmp_path / "traces.json"
    traces.write_text(json.dumps(otlp_json(run_agent("current"))))
    golden = _write(tmp_path, "golden.jsonl", [{"session_id": "conv-1", "score": [1.0, 0.0]}])
    code, out, err = _cli("evaluate", str(traces), "--references", str(golden), "--judge", "dataset", "--json",
                          "--no-progress", "--no-save")
    assert code == EXIT_OK, err
    doc = json.loads(out)
    assert doc["load"]["summary"].startswith("1 file")
    assert [c["correct_interactions"] for c in doc["conversations"]] == [1]
    assert "read as OpenTelemetry GenAI traces (detected from the content)" in err
    code, out, err = _cli("evaluate", str(traces), "--references", str(tmp_path / "nope.jsonl"), "--no-progress",
                          "--no-save")
    assert code == EXIT_USER_ERROR and "reference file" in err and "nope.jsonl" in err


def test_in_json_lines_a_spans_warning_names_that_spans_line(tmp_path: Path) -> None:
    spans = json.loads((DATA / "current.json").read_text())["resourceSpans"][0]["scopeSpans"][0]["spans"]
    lines = _write(tmp_path, "spans.jsonl", [spans[3], spans[2], spans[0], spans[1]])  # the bad tool span: line 4
    report = load_paths([lines], workers=1)
    (bad,) = [i for i in report.issues if "is not valid JSON" in i.rule]
    assert (bad.line, bad.path) == (4, "attributes.gen_ai.tool.call.arguments")
    assert bad.session_id == "trip-9"


def test_openllmetry_flattened_prompt_and_completion_attributes_are_read(tmp_path: Path) -> None:
    def attrs(**values: Any) -> list[dict[str, Any]]:
        typed = [{"key": k.replace("__", "."), "value": {"intValue": str(v)} if isinstance(v, int)
                  else {"stringValue": v}} for k, v in values.items()]
        return typed

    chat = {"traceId": "ee" * 16, "spanId": "01" * 8, "name": "openai.chat", "startTimeUnixNano": "10",
            "endTimeUnixNano": "50", "attributes": attrs(
                gen_ai__system="openai", gen_ai__request__model="gpt-4o", gen_ai__prompt__0__role="user",
                gen_ai__prompt__0__content="What is 2 + 3?", gen_ai__completion__0__role="assistant",
                gen_ai__completion__0__tool_calls__0__name="add",
                gen_ai__completion__0__tool_calls__0__arguments='{"a": 2, "b": 3}',
                gen_ai__usage__prompt_tokens=12, gen_ai__usage__completion_tokens=4)}
    answer = {**chat, "spanId": "02" * 8, "startTimeUnixNano": "60", "endTimeUnixNano": "90", "attributes": attrs(
        gen_ai__request__model="gpt-4o", gen_ai__prompt__0__role="user", gen_ai__prompt__0__content="What is 2 + 3?",
        gen_ai__prompt__1__role="tool", gen_ai__prompt__1__content="5", gen_ai__completion__0__role="assistant",
        gen_ai__completion__0__content="2 + 3 = 5.", gen_ai__usage__prompt_tokens=20,
        gen_ai__usage__completion_tokens=6)}
    report = load_paths([_write(tmp_path, "spans.jsonl", [chat, answer])], workers=1)
    (conv,) = list(report.conversations)
    (turn,) = conv.conversation
    assert (turn.query, turn.assistant) == ("What is 2 + 3?", "2 + 3 = 5.")
    assert turn.agentic is not None
    assert [(c.tool_name, c.parameters) for c in turn.agentic.tools_used] == [("add", {"a": 2, "b": 3})]
    assert turn.telemetry is not None and (turn.telemetry.input_tokens, turn.telemetry.output_tokens) == (32, 10)
    assert conv.session_id == "ee" * 16


def test_the_conversation_keeps_its_thread_for_the_explorer() -> None:
    data, _ = _sdk_file("current", "otlp-json")
    (conv,) = list(load_bytes("t.json", data, workers=1).conversations)
    assert conv.trace is not None
    assert [(s.role, s.interaction) for s in conv.trace] == [
        ("system", None), ("user", 0), ("assistant", 0), ("tool", 0), ("assistant", 0), ("user", 1), ("assistant", 1)]
    call, result = conv.trace[2], conv.trace[3]
    assert [(c.name, c.arguments) for c in call.tool_calls] == [("lookup_order", TURNS[0][1])]
    assert json.loads(result.content) == TURNS[0][2] and result.name == "lookup_order"
    assert conv.trace[4].content == TURNS[0][3]
    assert conv.trace[1].source is not None and "gen_ai.input.messages" in conv.trace[1].source


class _Upload:
    """What the Data page's upload widget hands over."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self._data, self.size = name, data, len(data)

    def getvalue(self) -> bytes:
        return self._data


def test_uploaded_traces_take_an_uploaded_reference_file() -> None:
    # The Data page's reference upload: the same join as --references, from bytes.
    from agentic_core.io.uploads import load_uploads

    traces = _Upload("traces.jsonl", _sdk_file("current", "sdk-jsonl")[0])
    golden = _Upload(
        "golden.jsonl",
        (json.dumps({"session_id": "conv-1", "task_id": "order-7", "reference": [a for *_, a in TURNS]}) + "\n"
         + json.dumps({"session_id": "conv-404", "reference": "x"}) + "\n").encode(),
    )
    report, _ = load_uploads([traces], references=golden)
    (conv,) = report.conversations
    assert conv.task_id == "order-7"
    assert [i.ground_truth_assistant for i in conv.conversation] == [a for *_, a in TURNS]
    assert any("golden.jsonl record 1" in i.message() and "matches no loaded conversation" in i.message()
               for i in report.issues)
    broken, _ = load_uploads([traces], references=_Upload("golden.jsonl", b"{not json\n"))
    assert any(i.severity == "error" and "golden.jsonl" in i.message() for i in broken.issues)


@pytest.mark.parametrize("name", ["current.json", "openinference.json", "sdk", "two-resources"])
def test_a_large_otlp_file_given_by_path_is_streamed_from_the_disk_with_the_same_result(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The file's bytes are never held (the load reads it span by span): same conversations and issues
    # as the bytes read whole, and the file's own name in every issue.
    if name == "sdk":
        data = json.dumps(otlp_json(run_agent("v1.36"))).encode()
    else:
        data = _two_resources() if name == "two-resources" else (DATA / name).read_bytes()
    path = tmp_path / "export.json"
    path.write_bytes(data)
    whole = load_paths([path], workers=1)
    assert streamed_otlp_file(path, 4096) is None  # below STREAM_FROM: read whole as before
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)
    parsed = streamed_otlp_file(path, 4096)
    assert parsed is not None and isinstance(parsed.records[0]["resourceSpans"], StreamedSpans)
    streamed = load_paths([path], workers=1)
    assert _conversations(streamed) == _conversations(whole) and _conversations(whole)
    assert [i.message() for i in streamed.issues] == [i.message() for i in whole.issues]


def test_only_a_regular_otlp_file_within_the_limit_is_streamed_from_the_disk(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)
    otlp = json.dumps(otlp_json(run_agent("current"))).encode()
    cases = {"bom.json": b"\xef\xbb\xbf" + otlp, "lines.jsonl": b'{"spanId": "1"}\n', "otlp.json": otlp}
    for file, data in cases.items():
        (tmp_path / file).write_bytes(data)
    assert streamed_otlp_file(tmp_path / "otlp.json", 4096) is not None
    assert streamed_otlp_file(tmp_path / "bom.json", 4096) is None  # read whole: the parser drops the mark
    assert streamed_otlp_file(tmp_path / "lines.jsonl", 4096) is None
    assert streamed_otlp_file(tmp_path, 4096) is None and streamed_otlp_file(tmp_path / "missing.json", 4096) is None
    monkeypatch.setenv("AGENTIC_MAX_FILE_MB", "1")
    big = tmp_path / "big.json"
    big.write_bytes(otlp[:-1] + b" " * (1024 * 1024) + otlp[-1:])
    assert streamed_otlp_file(big, 1) is None  # past the limit: the loader refuses it with its own message
    report = load_paths([big], workers=1)
    assert any("limit per data file is 1 MB" in i.message() for i in report.issues)


def test_keys_are_counted_across_the_chunks_a_file_is_read_in(monkeypatch: pytest.MonkeyPatch) -> None:
    # A key cut by a chunk's end is counted once, in the chunk where it ends; never twice.
    data = b'{"resourceSpans": [{"scopeSpans": [{"spans": []}]}], "x": "\\"scopeSpans\\""}'
    expected = [data.count(key) for key, _ in otel_stream._ONE_SCOPE]
    second = data + b'\n{"resourceSpans": []}'
    for chunk in range(1, len(second) + 1):
        monkeypatch.setattr(otel_stream, "_CHUNK", chunk)
        assert otel_stream.scan_otlp(io.BytesIO(data)) == (expected, False), chunk
        assert otel_stream.scan_otlp(io.BytesIO(second))[1] is True, chunk  # a second document, found across chunks


def _layouts() -> dict[str, bytes]:
    current = json.loads((DATA / "current.json").read_text())["resourceSpans"][0]
    other = json.loads((DATA / "openinference.json").read_text())["resourceSpans"][0]
    old = json.loads(json.dumps(current).replace('"scopeSpans"', '"instrumentationLibrarySpans"'))
    two_scopes = {"resource": current.get("resource", {}), "scopeSpans": current["scopeSpans"] + other["scopeSpans"]}
    return {
        "instrumentationLibrarySpans": json.dumps({"resourceSpans": [old]}).encode(),
        "one resource, two scopes": json.dumps({"resourceSpans": [two_scopes]}).encode(),
    }


@pytest.mark.parametrize("layout", ["instrumentationLibrarySpans", "one resource, two scopes"])
def test_every_layout_streamed_from_a_file_reads_as_the_whole_file(layout: str, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # The OTLP <= 0.9 scope key, and one resource with two tracers' scopes (spans numbered per scope): same
    # conversations, same issues at the same places as the file read whole.
    path = tmp_path / "export.json"
    path.write_bytes(_layouts()[layout])
    whole = load_paths([path], workers=1)
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)
    assert streamed_otlp_file(path, 4096) is not None
    streamed = load_paths([path], workers=1)
    assert _conversations(streamed) == _conversations(whole) and _conversations(whole)
    assert [i.message() for i in streamed.issues] == [i.message() for i in whole.issues]


def test_json_lines_of_otlp_documents_are_read_line_by_line_never_streamed_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Collector's file exporter writes one document per line: every line is read, as below STREAM_FROM.
    names = ("current.json", "openinference.json")
    docs = [json.dumps(json.loads((DATA / name).read_text())).encode() for name in names]
    lines = b"\n".join(docs) + b"\n"
    each = sum(len(load_bytes("one.json", doc, workers=1).conversations) for doc in docs)
    path = tmp_path / "collector.jsonl"
    path.write_bytes(lines)
    small = load_paths([path], workers=1)
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)
    monkeypatch.setattr("agentic_core.io.parse.STREAM_FROM", 0)
    assert streamed_otlp_file(path, 4096) is None
    assert not isinstance(parse("collector.jsonl", lines).records[0]["resourceSpans"], StreamedSpans)
    large = load_paths([path], workers=1)
    assert len(large.conversations) == len(small.conversations) == each > 1
    assert not [i for i in large.issues if i.severity == "error"]


def test_a_file_that_goes_while_it_streams_is_an_issue_not_an_exception(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "export.json"
    path.write_bytes(json.dumps(otlp_json(run_agent("current"))).encode())
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)
    parsed = streamed_otlp_file(path, 4096)
    assert parsed is not None
    path.unlink()  # rotated by the exporter after it was chosen
    spans = list(parsed.records[0]["resourceSpans"])
    assert len(spans) == 1 and "cannot be read from here on" in spans[0][1]


def test_a_span_nested_too_deeply_is_an_issue_when_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(otlp_json(run_agent("current")))
    deep = '{"stringValue": "x"}'
    for _ in range(5000):
        deep = '{"arrayValue": {"values": [' + deep + "]}}"
    at = text.index('"attributes": [') + len('"attributes": [')
    path = tmp_path / "deep.json"
    path.write_text(text[:at] + '{"key": "custom.deep", "value": ' + deep + "}, " + text[at:])
    monkeypatch.setattr("agentic_core.io.otel_stream.STREAM_FROM", 0)
    report = load_paths([path], workers=1)  # never a RecursionError
    assert any("nested too deeply" in i.message() for i in report.issues)
