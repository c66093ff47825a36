"""OpenTelemetry spans whose tree or ids are broken: nothing lost silently, every case warned once (issue 36).

A trace naming two conversation ids, a parent cycle, a start that is no time, repeated span ids, and a span
that is both an OpenInference LLM span and a GenAI tool span.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.io import otel_spool
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_bytes
from agentic_core.io.otel_spans import Span
from agentic_core.io.otel_spool import SpanSpool
from agentic_core.io.otel_tree import cut_cycles, drop_copies, ordered

TRACE = "ab" * 16
T0 = 1_700_000_000_000_000_000


def _attrs(values: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else {"stringValue": v}}
            for k, v in values.items()]


def _chat(users_and_answers: list[str], answer: str, **attrs: Any) -> dict[str, Any]:
    """The attributes of a chat span: its input alternates user and assistant texts, then its answer."""
    history = [{"role": "user" if n % 2 == 0 else "assistant", "parts": [{"type": "text", "content": text}]}
               for n, text in enumerate(users_and_answers)]
    return {"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps(history),
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [{"type": "text",
                                                                                  "content": answer}]}]), **attrs}


def _span(span_id: int, parent: int | None, start: Any, attrs: dict[str, Any], trace: str = TRACE,
          name: str = "span") -> dict[str, Any]:
    return {"traceId": trace, "spanId": f"{span_id:016x}", "parentSpanId": "" if parent is None else f"{parent:016x}",
            "name": name, "startTimeUnixNano": start if isinstance(start, str) else str(T0 + start),
            "endTimeUnixNano": str(T0 + 10_000), "attributes": _attrs(attrs)}


def _load(spans: list[dict[str, Any]]) -> LoadReport:
    doc = {"resourceSpans": [{"resource": {}, "scopeSpans": [{"spans": spans}]}]}
    return load_bytes("traces.json", json.dumps(doc).encode(), workers=1)


def _warnings(report: LoadReport, words: str) -> list[str]:
    return [i.message() for i in report.issues if i.severity == "warning" and words in i.rule]


def _turns(report: LoadReport) -> dict[str, list[tuple[str, str]]]:
    return {c.session_id: [(i.query, i.assistant) for i in c.conversation] for c in report.conversations}


# -- a trace naming two conversation ids ------------------------------------------------------------------------

def _two_conversations_in_one_trace() -> list[dict[str, Any]]:
    """A workflow root without an id, two agents under it (conversations c1 and c2), each with a chat span
    that names no id, and a last span with no id under the root."""
    return [
        _span(1, None, 0, {"gen_ai.operation.name": "invoke_workflow"}, name="workflow"),
        _span(2, 1, 1, {"gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": "c1"}),
        _span(3, 2, 2, _chat(["Where is order 1?"], "Shipped.")),
        _span(4, 1, 3, {"gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": "c2"}),
        _span(5, 4, 4, _chat(["Cancel order 2."], "Cancelled.")),
        _span(6, 5, 5, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "cancel",
                        "gen_ai.tool.call.arguments": '{"order": 2}'}),
    ]


@pytest.mark.parametrize("spooled", [False, True])
def test_a_trace_naming_two_conversation_ids_keeps_both_and_says_where_each_span_went(
    spooled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if spooled:
        monkeypatch.setattr(otel_spool, "SPILL_FROM", 0)
    report = _load(_two_conversations_in_one_trace())
    assert _turns(report) == {"c1": [("Where is order 1?", "Shipped.")], "c2": [("Cancel order 2.", "Cancelled.")]}
    c2 = next(c for c in report.conversations if c.session_id == "c2")
    assert c2.conversation[0].agentic is not None
    assert [t.tool_name for t in c2.conversation[0].agentic.tools_used] == ["cancel"]  # the tool followed its chat
    (split,) = _warnings(report, "conversation ids")
    assert f"trace {TRACE} names 2 conversation ids (c1, c2)" in split and "spans[3]" in split
    (orphan,) = _warnings(report, "names no conversation id")
    assert "spans[0]" in orphan and "first conversation (c1)" in orphan and "spans placed so in this file: 1" in orphan


def test_a_temporary_file_that_fails_while_a_trace_is_split_is_an_issue_not_an_exception(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(otel_spool, "SPILL_FROM", 0)

    def fail(*_a: Any) -> bytes:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(otel_spool, "read_at", fail)
    report = _load(_two_conversations_in_one_trace())
    assert not report.conversations
    assert any("cannot be read back from the temporary file" in i.message() for i in report.errors)
    (split,) = _warnings(report, "conversation ids")  # named by its trace, its place unread
    assert split.startswith(f"traces.json: trace {TRACE} names 2 conversation ids (c1, c2)")


def test_many_split_traces_are_one_warning_with_their_count() -> None:
    spans = []
    for t in range(30):
        trace = f"{t:032x}"
        spans += [_span(1, None, 0, {**_chat([f"q{t}"], "a"), "gen_ai.conversation.id": f"x{t}"}, trace=trace),
                  _span(2, None, 1, {**_chat([f"r{t}"], "b"), "gen_ai.conversation.id": f"y{t}"}, trace=trace)]
    report = _load(spans)
    assert len(report.conversations) == 60
    (split,) = _warnings(report, "conversation ids")
    assert "30 traces of this file were split alike" in split


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-1, 9), st.sampled_from([None, "c1", "c2", "c3"])),
                min_size=1, max_size=10))
def test_a_spool_groups_every_span_once_under_its_own_id_else_an_ancestors(
    shape: list[tuple[int, int, str | None]],
) -> None:
    spans = []
    for n, (trace, parent, conv) in enumerate(shape):
        attrs = {} if conv is None else {"gen_ai.conversation.id": conv}
        spans.append(Span(f"t{trace}", f"{n + 1:x}", f"{parent + 1:x}" if parent >= 0 else "", "s", n, n, attrs,
                          (), 0, "", {}, n))
    with SpanSpool() as spool:
        for span in spans:
            spool.append(span)
        groups = spool.groups()
    where = {p: key for key, positions in groups.items() for p in positions}
    assert sorted(where) == list(range(len(spans)))  # every span once
    assert all(positions == sorted(positions) for positions in groups.values())  # file order
    ids = {(s.trace_id, s.span_id): n for n, s in enumerate(spans)}
    for n, span in enumerate(spans):
        own = span.attrs.get("gen_ai.conversation.id")
        named = [c for s in spans if s.trace_id == span.trace_id and (c := s.attrs.get("gen_ai.conversation.id"))]
        if own is not None:
            assert where[n] == own
        elif not named:
            assert where[n] == span.trace_id
        else:  # the nearest ancestor naming an id (walked independently, stopping at a repeat), else the first
            node: int | None = n
            seen: set[int] = set()
            found = None
            while node is not None and node not in seen and found is None:
                seen.add(node)
                found = spans[node].attrs.get("gen_ai.conversation.id")
                node = ids.get((span.trace_id, spans[node].parent_id))
            assert where[n] == (found if found is not None else named[0])


# -- parent cycles --------------------------------------------------------------------------------------------

def test_a_parent_cycle_is_cut_at_its_first_span_in_the_file_and_named() -> None:
    spans = [
        _span(1, 3, 0, _chat(["Hello?"], "Hi.")),
        _span(2, 1, 1, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "greet"}),
        _span(3, 2, 2, {"gen_ai.operation.name": "invoke_agent"}),
    ]
    report = _load(spans)
    assert _turns(report) == {TRACE: [("Hello?", "Hi.")]}
    (cycle,) = _warnings(report, "parent cycle")
    assert "spans[0]: is on a parent cycle of 3 spans in trace " + TRACE in cycle
    assert "(span 0000000000000001:" in cycle and "link to its parent 0000000000000003 was cut" in cycle


def _tree(parents: list[int], starts: list[int] | None = None) -> list[Span]:
    return [Span("t", f"{n + 1:x}", f"{p + 1:x}" if p >= 0 else "", "s", (starts or [0] * len(parents))[n], 0, {},
                 (), 0, "", {}, n) for n, p in enumerate(parents)]


def _cycles(parents: list[int]) -> list[frozenset[int]]:
    """The cycles of a parent list, found the slow way: from each span, len(parents) steps land on a cycle."""
    found = set()
    for n in range(len(parents)):
        node = n
        for _ in range(len(parents)):
            node = parents[node] if node >= 0 else -1
        if node >= 0:
            cycle, walk = {node}, parents[node]
            while walk != node:
                cycle.add(walk)
                walk = parents[walk]
            found.add(frozenset(cycle))
    return sorted(found, key=min)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(st.integers(-1, n - 1), min_size=n, max_size=n)))
def test_cutting_cycles_cuts_each_once_at_its_first_span_and_leaves_a_tree(parents: list[int]) -> None:
    spans = _tree(parents)
    found = cut_cycles(spans)
    cycles = _cycles(parents)
    cut = [n for n, s in enumerate(spans) if parents[n] >= 0 and not s.parent_id]
    assert found.count == len(cycles) and cut == sorted(min(c) for c in cycles)
    after = [int(s.parent_id, 16) - 1 if s.parent_id else -1 for s in spans]
    assert _cycles(after) == []
    position = {id(s): k for k, s in enumerate(ordered(spans))}
    for n, p in enumerate(after):
        if p >= 0:
            assert position[id(spans[p])] < position[id(spans[n])]  # equal starts: a parent before its child


def test_ordering_walks_a_long_chain_and_cycle_without_recursion() -> None:
    n = 5000
    chain = _tree([n - 1, *range(n - 1)], starts=[5] * n)  # a cycle through every span
    assert cut_cycles(chain).size == n
    assert [int(s.span_id, 16) for s in ordered(chain)] == list(range(1, n + 1))


# -- a start that is no time ------------------------------------------------------------------------------------

def test_a_start_that_is_no_time_is_warned_once_and_ordered_just_after_its_parent() -> None:
    spans = [
        _span(1, None, 100, {"gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": "c"}),
        _span(2, 1, "soon", _chat(["Where is order 1?", "Shipped.", "And order 2?"], "Also shipped.")),
        _span(3, None, 50, _chat(["Where is order 1?"], "Shipped.")),
        _span(4, 1, "later", {"gen_ai.operation.name": "invoke_agent"}),
    ]
    report = _load(spans)
    assert _turns(report) == {"c": [("Where is order 1?", "Shipped."), ("And order 2?", "Also shipped.")]}
    (bad,) = _warnings(report, "no time")
    assert "spans[1].startTimeUnixNano: must be the span's start in nanoseconds" in bad
    assert "on 2 spans (the first is here)" in bad and "(got 'soon')" in bad


def test_a_start_written_as_digits_or_iso_time_or_zero_is_no_warning() -> None:
    spans = [_span(1, None, "0", _chat(["q"], "a")), _span(2, 1, "2024-05-01T10:00:00Z", {}), _span(3, 1, 5, {})]
    assert not _warnings(_load(spans), "no time")


def test_ordering_places_an_unknown_start_after_its_parent() -> None:
    spans = _tree([-1, 0, -1], starts=[100, 0, 50])
    assert [s.span_id for s in ordered(spans)] == ["3", "1", "2"]


# -- repeated span ids ------------------------------------------------------------------------------------------

def test_a_span_exported_twice_counts_once_and_spans_sharing_an_id_are_both_kept() -> None:
    tool = _span(2, 1, 1, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
                           "gen_ai.tool.call.arguments": '{"id": 1}'})
    other = _span(3, 1, 2, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "refund"})
    clash = _span(3, 1, 3, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "notify"})
    report = _load([_span(1, None, 0, _chat(["Refund order 1."], "Done.")), tool, other, dict(tool), clash])
    (conv,) = report.conversations
    assert conv.conversation[0].agentic is not None
    assert [t.tool_name for t in conv.conversation[0].agentic.tools_used] == ["lookup", "refund", "notify"]
    (copy,) = _warnings(report, "exported twice")
    assert "spans[3]: repeats span 0000000000000002 of trace " + TRACE in copy and "at resourceSpans[0]" in copy
    assert "spans[1] (line 1)" in copy and "this copy was left out, the first kept" in copy
    (differ,) = _warnings(report, "says something else")
    assert "spans[4]: has the id of span 0000000000000003" in differ and "both were kept" in differ


def test_dropping_copies_keeps_the_first_of_each_id_and_every_span_that_differs() -> None:
    spans = _tree([-1, 0, 0, 0])
    spans[2].span_id = spans[1].span_id  # an exact copy of span 1 (its place aside)
    spans[2].order = 7
    spans[3].span_id, spans[3].name = spans[1].span_id, "other"
    kept, copies, differing = drop_copies(spans)
    assert kept == [spans[0], spans[1], spans[3]]
    assert (copies.count, copies.first, copies.other) == (1, spans[2], spans[1])
    assert (differing.count, differing.first, differing.other) == (1, spans[3], spans[1])


# -- a span that is both a model call and a tool call -----------------------------------------------------------

@pytest.mark.parametrize("kinds", [("execute_tool", "LLM"), ("chat", "TOOL")])
def test_a_span_that_is_both_a_model_call_and_a_tool_call_keeps_its_turn_and_its_call(kinds: tuple[str, str]) -> None:
    operation, kind = kinds
    first = _span(1, None, 0, {**_chat(["Hi."], "Hello."), "session.id": "s"})
    attrs = {"gen_ai.operation.name": operation, "openinference.span.kind": kind, "session.id": "s",
             "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Hi.",
             "llm.input_messages.1.message.role": "assistant", "llm.input_messages.1.message.content": "Hello.",
             "llm.input_messages.2.message.role": "user", "llm.input_messages.2.message.content": "What is 2+2?",
             "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "4",
             "gen_ai.tool.name": "calculator", "gen_ai.tool.call.arguments": '{"expression": "2+2"}',
             "input.value": '{"messages": "the model\'s request"}'}
    report = _load([first, _span(2, None, 1, attrs)])
    assert not report.errors
    (conv,) = report.conversations
    assert [(t.query, t.assistant) for t in conv.conversation] == [("Hi.", "Hello."), ("What is 2+2?", "4")]
    turn = conv.conversation[1]
    assert turn.agentic is not None
    assert [(t.tool_name, t.parameters) for t in turn.agentic.tools_used] == [("calculator", {"expression": "2+2"})]
    (both,) = _warnings(report, "both a model call and a tool call")
    assert "spans[1]: is both" in both and f"'openinference.span.kind': '{kind}'" in both
