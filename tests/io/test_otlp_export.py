"""OTLP/HTTP export requests read on arrival (ids checked, conversations keyed) and read back as the importer reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan

from agentic_core.io.otel_spans import read_span, spans_of
from agentic_core.io.otlp_export import TooManySpans, UndecodableExport, export_response, read_export, span_document
from tests.io.otel_agent import otlp_json, run_agent
from tests.live.otlp_docs import protobuf_body, tangled_document

ROOT = Path(__file__).resolve().parents[2]


def _kept(body: bytes, encoding: str) -> list[object]:
    batch = read_export(body, encoding, 1000)  # type: ignore[arg-type]
    resources = [json.loads(r) for r in batch.resources]
    from agentic_core.io.otel_spans import attributes

    return [read_span(span_document(batch.encoding, s.body), 0, s.place, attributes(resources[s.resource]), n)
            for n, s in enumerate(batch.spans)]


@pytest.mark.parametrize("convention", ["current", "v1.36"])
def test_protobuf_and_json_requests_read_back_as_the_file_importer_reads_the_spans(convention: str) -> None:
    spans = run_agent(convention, "conv-1")
    document = otlp_json(spans)
    from_file = [s for s in spans_of(0, document, 0)]
    assert _kept(json.dumps(document).encode(), "json") == from_file
    # The SDK exporter's own encoding of the same spans.
    assert _kept(encode_spans(spans).SerializeToString(), "protobuf") == from_file


def test_a_protobuf_span_is_written_out_as_protobuf_s_own_json_reader_would() -> None:
    # Every kind of attribute value; protobuf's MessageToDict is the independent writer (its ids are base64).
    values = [AnyValue(string_value="é"), AnyValue(int_value=-(2**62)), AnyValue(double_value=0.5),
              AnyValue(bool_value=True), AnyValue(bytes_value=b"\x00\xff")]
    nested = AnyValue()
    nested.array_value.values.extend(values)
    table = AnyValue()
    table.kvlist_value.values.extend([KeyValue(key="inner", value=nested)])
    span = ProtoSpan(trace_id=b"\x01" * 16, span_id=b"\x02" * 8, name="s", start_time_unix_nano=5,
                     end_time_unix_nano=9, attributes=[KeyValue(key=f"k{n}", value=v)
                                                        for n, v in enumerate([*values, nested, table])])
    span.events.add(name="e", time_unix_nano=7, attributes=[KeyValue(key="x", value=values[1])])
    written = span_document("protobuf", span.SerializeToString())
    reference = MessageToDict(span)
    assert written["attributes"] == reference["attributes"]
    assert written["events"] == reference["events"]
    assert (written["traceId"], written["spanId"], written["parentSpanId"]) == ("01" * 16, "02" * 8, "")
    assert (written["startTimeUnixNano"], written["endTimeUnixNano"]) == ("5", "9")


def test_spans_are_keyed_by_trace_conversation_and_root_as_the_importer_groups_them() -> None:
    document = tangled_document()
    for body, encoding in ((json.dumps(document).encode(), "json"), (protobuf_body(document), "protobuf")):
        batch = read_export(body, encoding, 1000)  # type: ignore[arg-type]
        assert [(s.conversation, s.root) for s in batch.spans] == [
            (None, True), ("c1", False), (None, False), ("c2", False), (None, False), (None, False), (None, True),
            (None, False)]
        assert batch.spans[3].place == "resourceSpans[0].scopeSpans[0].spans[3]"


def test_the_importer_s_rule_for_a_conversation_id_is_kept() -> None:
    # A blank gen_ai.conversation.id is no id (session.id then), an id given as an integer is its text.
    spans = [{"traceId": "ab" * 16, "spanId": f"{n + 1:016x}", "attributes": attrs} for n, attrs in enumerate([
        [{"key": "gen_ai.conversation.id", "value": {"stringValue": " "}},
         {"key": "session.id", "value": {"stringValue": "s-1"}}],
        [{"key": "gen_ai.conversation.id", "value": {"intValue": "42"}}],
        [{"key": "other", "value": {"stringValue": "x"}}],
    ])]
    document = {"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}
    batch = read_export(json.dumps(document).encode(), "json", 1000)
    assert [s.conversation for s in batch.spans] == ["s-1", "42", None]
    assert [s.conversation for s in read_export(protobuf_body(document), "protobuf", 1000).spans] == ["s-1", "42",
                                                                                                        None]


def test_spans_without_ids_are_counted_and_described() -> None:
    request = ExportTraceServiceRequest()
    scope = request.resource_spans.add().scope_spans.add()
    scope.spans.add(trace_id=b"\x01" * 16, span_id=b"\x02" * 8)
    scope.spans.add(trace_id=b"\x00" * 16, span_id=b"\x02" * 8)  # all zeros: no trace id
    scope.spans.add(trace_id=b"\x01" * 4, span_id=b"\x02" * 8)
    for _ in range(10):
        scope.spans.add(span_id=b"\x03" * 8)
    batch = read_export(request.SerializeToString(), "protobuf", 1000)
    assert len(batch.spans) == 1 and batch.rejected == 12
    message = batch.message()
    assert message.startswith("12 span(s) refused: resourceSpans[0].scopeSpans[0].spans[1] has no valid traceId")
    assert "and 7 more" in message and "Fix:" in message


def test_undecodable_bodies_and_too_many_spans_are_refused_whole() -> None:
    with pytest.raises(UndecodableExport, match="protobuf"):
        read_export(b"\xff\xff\xff", "protobuf", 10)
    with pytest.raises(UndecodableExport, match="resourceSpans"):
        read_export(b'{"resourceSpans": 3}', "json", 10)
    body = encode_spans(run_agent("current", "c")).SerializeToString()
    with pytest.raises(TooManySpans) as caught:
        read_export(body, "protobuf", 5)
    assert caught.value.count == 6


def test_the_response_is_in_the_request_s_encoding() -> None:
    assert export_response("json") == b"{}"
    assert json.loads(export_response("json", 2, "why")) == {"partialSuccess": {"rejectedSpans": "2",
                                                                               "errorMessage": "why"}}
    assert export_response("protobuf") == b""
    answer = ExportTraceServiceResponse.FromString(export_response("protobuf", 2, "why"))
    assert (answer.partial_success.rejected_spans, answer.partial_success.error_message) == (2, "why")


def test_reading_a_json_request_loads_no_protobuf() -> None:
    # The protos come with the first protobuf body only: a JSON-only server (and every face) stays light.
    probe = ("import json, sys\nfrom agentic_core.io.otlp_export import read_export, span_document\n"
             "doc = {'resourceSpans': [{'scopeSpans': [{'spans': [{'traceId': 'ab' * 16, 'spanId': 'cd' * 8}]}]}]}\n"
             "batch = read_export(json.dumps(doc).encode(), 'json', 10)\n"
             "span_document('json', batch.spans[0].body)\n"
             "print(sorted(m for m in sys.modules if m.startswith(('google.protobuf', 'opentelemetry'))))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
