"""Spans to seed conversations: grouped by conversation (else trace), ordered by time and parent.

A conversation is every trace sharing a ``gen_ai.conversation.id`` (OpenInference ``session.id``);
a trace without one is a conversation of its own, named by its trace id (a trace naming several is split:
:meth:`~agentic_core.io.otel_spool.SpanSpool.groups`). Exact copies of a span are left out and parent cycles
cut (:mod:`agentic_core.io.otel_tree`); the spans are read in start-time order (a parent before its children
at the same instant, then the file's order):

- each model call (``chat`` span, OpenInference ``LLM``) whose input holds a user message not
  seen before starts a user turn; the turn's answer is the text of its last model output;
- tool spans (``execute_tool``, OpenInference ``TOOL``) are the turn's ``tools_used`` in start
  order, with arguments and result (the v1.36 tool span carries neither: they come from the model's
  tool call and the tool message with the same call id); without tool spans, the tool calls the
  model made are used;
- when no model call carries messages, each agent (``invoke_agent`` / ``AGENT``) or root chain span
  with an input and an output is one turn.

The conversation keeps its thread as ``trace`` (:mod:`agentic_core.data.trace`): the system prompt, then per
turn the query, each tool call with its result, and the answer; and its spans as ``spans``
(:mod:`agentic_core.io.span_records`: names, kinds, parents, times, tokens, cost, errors, the answer's span),
for the Explorer's span tree. Each interaction keeps ``telemetry``: the
model, the agent's name, the turn's input and output tokens summed over its model calls, its latency (first
span start to last span end) and the trace id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from agentic_core.common.wording import plural
from agentic_core.io.importers.common import RecordMap, decode_result, tool_arguments
from agentic_core.io.importers.messages import step_text
from agentic_core.io.otel_messages import (
    NO_RESULT,
    Call,
    Msg,
    agent_name,
    conversation_id,
    decode,
    first_text,
    messages,
    model,
    roles,
    span_kind,
    system_text,
    token_usage,
    tool_call,
)
from agentic_core.io.otel_spans import Span
from agentic_core.io.otel_tree import Found, cut_cycles, drop_copies, ordered
from agentic_core.io.span_records import otel_span_records


@dataclass
class _Turn:
    """A user turn being assembled."""

    query: str
    query_path: str
    answer: str | None = None
    answer_path: str | None = None
    answer_span: Span | None = None  # the span whose output is the answer (marked in the span tree)
    spans: list[Span] = field(default_factory=list)
    llm: list[Span] = field(default_factory=list)
    tools: list[Span] = field(default_factory=list)
    output_calls: list[Call] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)  # the turn's tool calls as mapped


class ConversationBuilder:
    """Builds one seed conversation from one group of spans, recording issues and origins in ``rec``."""

    def __init__(self, rec: RecordMap, warn_span: Callable[[Span, str, str, Any, str], None],
                 line_of: Callable[[int], int | None] | None = None) -> None:
        self.rec = rec
        self.warn_span = warn_span
        self.line_of = line_of
        self.turns: list[_Turn] = []
        self.results: dict[str, tuple[Any, str]] = {}
        self.context: tuple[str, str] | None = None
        self.pending_tools: list[Span] = []
        self.both = Found()  # spans read as a model call and as a tool call
        self.spans: list[Span] = []  # the spans in the order read (kept as the conversation's ``spans``)

    def _warn_for(self, span: Span) -> Callable[[str, str, Any, str], None]:
        return lambda path, rule, value, fix: self.warn_span(span, path, rule, value, fix)

    def _model_call(self, span: Span, seen_users: int) -> int:
        """Read one model call; start a turn when its input holds a new user message. Returns the users seen."""
        inputs, outputs = messages(span, self._warn_for(span))
        users = [m for m in inputs if m.role == "user"]
        for msg in inputs:
            if msg.role == "tool" and msg.call_id:
                self.results.setdefault(msg.call_id, (msg.result, msg.path))
            if msg.role in ("system", "developer") and msg.text and self.context is None:
                self.context = (msg.text, msg.path)
        instructions = system_text(span)
        if instructions and self.context is None:
            self.context = (instructions, span.attr_path("gen_ai.system_instructions"))
        current = self.turns[-1] if self.turns else None
        new: list[Msg] = []
        if len(users) > seen_users:
            new = users[seen_users:]
        elif users and (current is None or users[-1].text != current.query):
            new = users[-1:]  # an instrumentation that records only the latest message
        if new:
            texts = [m.text for m in new if m.text]
            current = _Turn("\n".join(texts), new[0].path)
            self.turns.append(current)
        if current is None:
            self.warn_span(span, span.path, "is a model call before any user message; it is not evaluated", None,
                           "record the user's message in the model call's input messages")
            return seen_users
        current.spans.append(span)
        current.llm.append(span)
        for out in outputs:
            if out.text:
                current.answer, current.answer_path, current.answer_span = out.text, out.path, span
            for call in out.calls:
                call.record = span.record
            current.output_calls.extend(out.calls)
        return max(seen_users, len(users))

    def _agent_turn(self, span: Span) -> None:
        """An agent or chain span with an input and an output as one turn (when no model call has messages)."""
        inputs, outputs = messages(span, self._warn_for(span))
        users = [m for m in inputs if m.role == "user" and m.text]
        answers = [m for m in outputs if m.text]
        query = (users[-1].text, users[-1].path) if users else None
        if query is None and "input.value" in span.attrs:
            value = decode(span.attrs["input.value"])
            text = value.get("input", value.get("query")) if isinstance(value, dict) else value
            query = (str(text), span.attr_path("input.value"))
        if query is None or query[0] is None:
            return
        turn = _Turn(query[0], query[1])
        if answers:
            turn.answer, turn.answer_path = answers[-1].text, answers[-1].path
        elif "output.value" in span.attrs:
            value = decode(span.attrs["output.value"])
            text = value.get("output", value.get("answer")) if isinstance(value, dict) else value
            turn.answer, turn.answer_path = str(text), span.attr_path("output.value")
        if turn.answer is not None:
            turn.answer_span = span
        turn.spans.append(span)
        self.turns.append(turn)

    def read(self, spans: list[Span]) -> None:
        """Read a group's spans, in order, into turns."""
        seen_users = 0
        spans = self.spans = ordered(spans)
        for span in spans:
            llm, tool = roles(span)
            if llm:
                seen_users = self._model_call(span, seen_users)
            if tool:  # after its own model call: a span that is both keeps its call in the turn it started
                (self.turns[-1].tools if self.turns else self.pending_tools).append(span)
            if llm and tool:
                self.both.add(span)
        if not self.turns:
            roots = [s for s in spans if span_kind(s) == "agent"] or [s for s in spans if not s.parent_id]
            for span in roots:
                self._agent_turn(span)
            for span in spans:
                if roles(span)[1]:
                    later = [t for t in self.turns if t.spans[0].start_ns <= span.start_ns]
                    (later[-1].tools if later else self.pending_tools).append(span)
        if self.turns and self.pending_tools:
            self.turns[0].tools[:0] = self.pending_tools

    def _calls(self, turn: _Turn) -> list[Call]:
        """The turn's tool calls, each with its arguments and result from wherever the trace holds them."""
        by_id = {c.id: c for c in turn.output_calls if c.id}
        if not turn.tools:
            calls = turn.output_calls
        else:
            calls = []
            for span in turn.tools:
                call = tool_call(span)
                asked = by_id.get(call.id)
                if call.arguments_path is None and asked is not None:
                    call.arguments, call.arguments_path = asked.arguments, asked.arguments_path
                calls.append(call)
        for call in calls:
            if call.result is NO_RESULT and call.id in self.results:
                call.result, call.result_path = self.results[call.id]
        return calls

    def interaction(self, t: int, turn: _Turn, qa_prefix: str, agent: str | None) -> dict[str, Any]:
        """The seed interaction of turn ``t``, with its origins noted."""
        rec, at = self.rec, f"conversation[{t}]"
        out: dict[str, Any] = {"qa_id": f"{qa_prefix}-{t + 1}", "query": turn.query, "assistant": turn.answer or "",
                               "ground_truth_assistant": ""}
        rec.origin(at, turn.query_path)
        rec.origin(f"{at}.query", turn.query_path)
        rec.origin(f"{at}.assistant", turn.answer_path)
        if turn.answer is None:
            last = turn.llm[-1] if turn.llm else turn.spans[0]
            self.warn_span(last, last.path, "the agent's reply to this user turn is missing (no text in the model's "
                           "output after its tool calls); it was mapped with an empty answer, which judges grade as "
                           "wrong", None, "record the model's final output message (gen_ai.output.messages)")
        used = []
        turn.calls = self._calls(turn)
        for m, call in enumerate(turn.calls):
            where = f"{at}.agentic.tools_used[{m}]"
            before = len(rec.warnings)
            params = tool_arguments(decode(call.arguments) if isinstance(call.arguments, str) else call.arguments,
                                    call.arguments_path or call.path, rec)
            if self.line_of is not None and call.record is not None:  # at the line of the span holding the call
                line = self.line_of(call.record)
                rec.warnings[before:] = [replace(w, line=line) for w in rec.warnings[before:]]
            result = None if call.result is NO_RESULT else decode_result(call.result)
            used.append({"tool_name": call.name, "parameters": params, "result": result, "step": m + 1})
            rec.origin(where, call.path)
            rec.origin(f"{where}.parameters", call.arguments_path)
            rec.origin(f"{where}.result", call.result_path)
        if used:
            out["agentic"] = {"tools_used": used}
        out["telemetry"] = self.telemetry(turn, agent)
        rec.origin(f"{at}.telemetry", (turn.llm or turn.spans)[-1].path)
        return out

    def thread(self, interactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``Conversation.trace``: the system prompt, then per turn the query, each call and its result, the answer."""
        steps: list[dict[str, Any]] = []
        if self.context is not None:
            steps.append({"role": "system", "content": self.context[0], "interaction": None, "source": self.context[1]})
        for t, (turn, out) in enumerate(zip(self.turns, interactions, strict=True)):
            steps.append({"role": "user", "content": turn.query, "interaction": t, "source": turn.query_path})
            used = (out.get("agentic") or {}).get("tools_used", [])
            for call, mapped in zip(turn.calls, used, strict=True):
                steps.append({"role": "assistant", "content": "", "interaction": t, "source": call.path, "tool_calls": [
                    {"name": call.name, "arguments": mapped["parameters"], "id": call.id or None}]})
                steps.append({"role": "tool", "content": step_text(mapped["result"]), "interaction": t,
                              "name": call.name, "tool_call_id": call.id or None,
                              "source": call.result_path or call.path})
            steps.append({"role": "assistant", "content": out["assistant"], "interaction": t,
                          "source": turn.answer_path})
        return steps

    @staticmethod
    def telemetry(turn: _Turn, agent: str | None) -> dict[str, Any]:
        """The turn's model, agent, tokens, latency and trace id (a value the trace lacks is left out)."""
        spans = turn.spans + turn.tools
        found: dict[str, Any] = {}
        models = [m for s in turn.llm if (m := model(s)) is not None]
        if models:
            found["model"] = models[-1]
        if agent is not None:
            found["agent_name"] = agent
        counts = [token_usage(s) for s in turn.llm]
        for n, key in enumerate(("input_tokens", "output_tokens")):
            given = [c[n] for c in counts if c[n] is not None]
            if given:
                found[key] = sum(given)
        starts = [s.start_ns for s in spans if s.start_ns]
        ends = [s.end_ns for s in spans if s.end_ns]
        if starts and ends and max(ends) >= min(starts):
            found["latency_ms"] = (max(ends) - min(starts)) / 1e6
        found["trace_id"] = turn.spans[0].trace_id
        return found


def _mend_tree(spans: list[Span], warn_span: Callable[[Span, str, str, Any, str], None],
               line_of: Callable[[int], int | None] | None) -> list[Span]:
    """The spans with exact copies left out and parent cycles cut, each problem warned once (see otel_tree)."""
    def at(span: Span) -> str:
        line = line_of(span.record) if line_of is not None else None
        return (span.path or f"record {span.record}") + (f" (line {line})" if line is not None else "")

    def times(found: Found, what: str) -> str:
        return f"; {plural(found.count, what)} in this conversation" if found.count > 1 else ""

    spans, copies, differing = drop_copies(spans)
    if copies.first is not None and copies.other is not None:
        span = copies.first
        warn_span(span, span.path, f"repeats span {span.span_id} of trace {span.trace_id} exactly as written at "
                  f"{at(copies.other)} (one span exported twice): this copy was left out, the first kept"
                  f"{times(copies, 'copy')}", None, "export each span once (a retried batch can repeat its spans)")
    if differing.first is not None and differing.other is not None:
        span = differing.first
        warn_span(span, span.path, f"has the id of span {span.span_id} of trace {span.trace_id} written at "
                  f"{at(differing.other)}, but says something else: both were kept, and a child naming this id "
                  f"was placed under the first in the file{times(differing, 'repeated id')}", None,
                  "give each span of a trace its own span id")
    cycles = cut_cycles(spans)
    if cycles.first is not None and cycles.other is not None:
        span = cycles.first
        warn_span(span, span.path, f"is on a parent cycle of {plural(cycles.size, 'span')} in trace {span.trace_id} "
                  f"(span {span.span_id}: its parents lead back to it): its link to its parent "
                  f"{cycles.other.span_id} was cut, the cycle's first span in the file read as a root"
                  f"{times(cycles, 'cycle')}", None,
                  "export the spans as recorded: a span's parentSpanId names its caller, never one of its callees")
    return spans


def _warn_both_roles(builder: ConversationBuilder) -> None:
    """One warning for the spans read as a model call and as a tool call (the two conventions disagree)."""
    span = builder.both.first
    if span is None:
        return
    more = f"; {plural(builder.both.count, 'span')} in this conversation" if builder.both.count > 1 else ""
    kinds = {k: span.attrs[k] for k in ("gen_ai.operation.name", "openinference.span.kind") if k in span.attrs}
    builder.warn_span(span, span.path, "is both a model call and a tool call (its GenAI operation and its "
                      "OpenInference kind disagree): it was read as both, its messages in the turn and its tool call "
                      "in that turn's tools (input.value and output.value read as the model's when its kind is "
                      f"LLM){more}", kinds, "nothing to do if it is one model call that ran a tool; else record "
                      "gen_ai.operation.name and openinference.span.kind alike")


def conversation(rec: RecordMap, key: str, spans: list[Span], stem: str,
                 warn_span: Callable[[Span, str, str, Any, str], None],
                 line_of: Callable[[int], int | None] | None = None) -> dict[str, Any] | None:
    """The seed conversation of one group of spans (``None``, with an error recorded, when it has no turn).

    Args:
        rec: The mapped record (issues and origins go there).
        key: The group's conversation id (or trace id).
        spans: The group's spans, in file order (repeated ids and parent cycles are dealt with here, see
            :mod:`agentic_core.io.otel_tree`).
        stem: The file's stem (the agent's name when the spans name neither agent nor model nor service).
        warn_span: Records a warning located at a span.
        line_of: The line of a file record (warnings about a tool call name the line of its span).

    Returns:
        The seed conversation dict.
    """
    rec.session_id = key
    id_span = next((s for s in spans if conversation_id(s) is not None), None)
    if id_span is not None:
        attr = "gen_ai.conversation.id" if "gen_ai.conversation.id" in id_span.attrs else "session.id"
        rec.origin("session_id", id_span.attr_path(attr))
    spans = _mend_tree(spans, warn_span, line_of)
    builder = ConversationBuilder(rec, warn_span, line_of)
    builder.read(spans)
    _warn_both_roles(builder)
    if not builder.turns:
        rec.error(spans[0].path, f"the {len(spans)} spans of this conversation hold no user message answered by the "
                  "agent: nothing to evaluate", key, "record the model calls' input and output messages (content "
                  "capture on: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)")
        return None
    agent = next((a for s in spans if (a := agent_name(s)) is not None), None)
    task_id = next((t for s in spans if (t := first_text(s, "task.id")) is not None), None)
    service = next((v for s in spans if isinstance(v := s.resource.get("service.name"), str)
                    and v and not v.startswith("unknown_service")), None)
    models = [m for s in spans if (m := model(s)) is not None]
    assistant = agent or (models[0] if models else None) or service or stem
    interactions = [builder.interaction(t, turn, task_id or key, agent) for t, turn in enumerate(builder.turns)]
    out: dict[str, Any] = {"session_id": key, "assistant_id": assistant, "conversation": interactions}
    if task_id is not None:
        out["task_id"] = task_id
    if builder.context is not None:
        out["context"] = builder.context[0]
        rec.origin("context", builder.context[1])
    out["trace"] = builder.thread(interactions)  # the Explorer's whole-trace view
    out["spans"] = otel_span_records(builder.spans, ((t.spans + t.tools, t.answer_span) for t in builder.turns))
    return out
