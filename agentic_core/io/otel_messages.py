"""What a span says, in each convention: its kind, its messages, its tool call, tokens, model and ids.

Three conventions are read, alike:

- the current OpenTelemetry GenAI semantic conventions: ``gen_ai.operation.name`` (``chat``,
  ``execute_tool``, ``invoke_agent``), ``gen_ai.input.messages`` / ``gen_ai.output.messages`` as
  JSON (``[{"role": "user", "parts": [{"type": "text", "content": "..."}]}]``), ``gen_ai.tool.*``;
- the v1.36 conventions' events: ``gen_ai.system.message``, ``gen_ai.user.message``,
  ``gen_ai.assistant.message``, ``gen_ai.tool.message``, ``gen_ai.choice`` (and the flattened
  ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*`` attributes of OpenLLMetry);
- OpenInference (Phoenix): ``openinference.span.kind``, ``llm.input_messages.N.message.*``,
  ``tool.name``, ``tool.parameters``, ``input.value`` / ``output.value``, ``session.id``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from agentic_core.io.otel_spans import Span

Warn = Callable[[str, str, Any, str], None]
"""Records a warning: (place in the file, rule, value, fix)."""

NO_RESULT = object()
"""A call whose result the trace does not hold (told apart from a ``null`` result)."""


@dataclass
class Call:
    """A tool call: its id, name, arguments and result, and where each came from."""

    id: str
    name: str
    arguments: Any
    path: str
    arguments_path: str | None = None
    result: Any = NO_RESULT
    result_path: str | None = None
    record: int | None = None  # the file record of the span that holds the call (for its line)


@dataclass
class Msg:
    """A chat message: role, text (``None`` when it has none), tool calls, the answered call's id."""

    role: str
    text: str | None
    path: str
    calls: list[Call] = field(default_factory=list)
    call_id: str = ""
    result: Any = NO_RESULT


LLM_OPERATIONS = frozenset({"chat", "text_completion", "generate_content", "completion"})
_OI_KINDS = {"LLM": "llm", "TOOL": "tool", "AGENT": "agent", "CHAIN": "chain"}


def span_kind(span: Span) -> str:
    """``llm``, ``tool``, ``agent``, ``chain`` or ``other``, from either convention."""
    op = span.attrs.get("gen_ai.operation.name")
    if op in LLM_OPERATIONS:
        return "llm"
    if op == "execute_tool":
        return "tool"
    if op in ("invoke_agent", "create_agent"):
        return "agent"
    kind = span.attrs.get("openinference.span.kind")
    if isinstance(kind, str) and kind.upper() in _OI_KINDS:
        return _OI_KINDS[kind.upper()]
    if any(e.name.startswith("gen_ai.") for e in span.events) or "gen_ai.prompt.0.content" in span.attrs:
        return "llm"
    return "other"


def roles(span: Span) -> tuple[bool, bool]:
    """Whether a span is (a model call, a tool call): both when the two conventions disagree.

    A span whose ``gen_ai.operation.name`` is ``execute_tool`` and whose ``openinference.span.kind`` is
    ``LLM`` (or ``chat`` and ``TOOL``) is read as both: its messages start or continue a turn, its tool
    call is one of that turn's (reading it as one kind only would drop the other's turn or call).
    """
    kind = span_kind(span)
    other = span.attrs.get("openinference.span.kind")
    other = other.upper() if isinstance(other, str) else None
    op = span.attrs.get("gen_ai.operation.name")
    return (kind == "llm" or (op == "execute_tool" and other == "LLM"),
            kind == "tool" or (op in LLM_OPERATIONS and other == "TOOL"))


def first_text(span: Span, *keys: str) -> str | None:
    """The first of ``keys`` that holds a non-blank string (or an id given as an integer)."""
    for key in keys:
        value = span.attrs.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str) and value.strip():
            return value
    return None


def conversation_id(span: Span) -> str | None:
    """The conversation id a span carries (``gen_ai.conversation.id``, OpenInference ``session.id``)."""
    return first_text(span, "gen_ai.conversation.id", "session.id")


def model(span: Span) -> str | None:
    """The model that answered (the response's model, else the requested one)."""
    return first_text(span, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name")


def agent_name(span: Span) -> str | None:
    """The agent's name (``gen_ai.agent.name``, OpenInference ``agent.name``)."""
    return first_text(span, "gen_ai.agent.name", "agent.name")


def token_usage(span: Span) -> tuple[int | None, int | None]:
    """Input and output tokens of a model call (current, pre-1.28 and OpenInference names)."""
    def count(*keys: str) -> int | None:
        for key in keys:
            value = span.attrs.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return value
        return None
    return (count("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"),
            count("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"))


def decode(value: Any) -> Any:
    """A JSON string decoded; anything else (or text that is not JSON) kept as it is."""
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value  # not JSON (or nested past orjson's limit): kept as text
    return value


def _text_of(content: Any) -> str | None:
    """Text of a message content: a string, a list of parts (text parts joined), or ``None``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("content", p.get("text")) for p in content if isinstance(p, dict)
                 and p.get("type", "text") == "text"]
        return "\n".join(t for t in texts if isinstance(t, str)) or None
    return None


def _openai_calls(raw: Any, path: str) -> list[Call]:
    """Tool calls in the OpenAI shape (``{id, function: {name, arguments}}``) or ``{id, name, arguments}``."""
    out = []
    for j, item in enumerate(decode(raw) if isinstance(raw, str) else raw or []):
        if not isinstance(item, dict):
            continue
        inner = item.get("function")
        fn: dict[str, Any] = inner if isinstance(inner, dict) else item
        name = fn.get("name")
        if isinstance(name, str) and name:
            out.append(Call(str(item.get("id") or ""), name, fn.get("arguments"), f"{path}[{j}]",
                            f"{path}[{j}].arguments"))
    return out


def _part_message(raw: Any, path: str) -> Msg | None:
    """One message of the current conventions (``{"role", "parts": [...]}``); ``None`` if not one."""
    if not isinstance(raw, dict) or not isinstance(raw.get("role"), str):
        return None
    parts = raw.get("parts")
    if not isinstance(parts, list):
        msg = Msg(raw["role"], _text_of(raw.get("content")), path, _openai_calls(raw.get("tool_calls"), path))
        msg.call_id = str(raw.get("tool_call_id") or "")
        return msg
    texts: list[str] = []
    msg = Msg(raw["role"], None, path)
    for p, part in enumerate(parts):
        at = f"{path}.parts[{p}]"
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get("content"), str):
            texts.append(part["content"])
        elif kind == "tool_call" and isinstance(part.get("name"), str):
            msg.calls.append(Call(str(part.get("id") or ""), part["name"], part.get("arguments"), at,
                                  f"{at}.arguments"))
        elif kind == "tool_call_response":
            msg.call_id = str(part.get("id") or "")
            msg.result = part.get("response", part.get("result"))
    msg.text = "\n".join(texts) if texts else None
    return msg


def _json_messages(span: Span, key: str, warn: Warn) -> list[Msg] | None:
    """The messages of a ``gen_ai.input.messages`` / ``gen_ai.output.messages`` attribute, if present."""
    if key not in span.attrs:
        return None
    path = span.attr_path(key)
    value = decode(span.attrs[key])
    if not isinstance(value, list):
        warn(path, "must be a JSON list of messages ([{\"role\": ..., \"parts\": [...]}]); it was left out",
             span.attrs[key], "record the messages as the GenAI semantic conventions describe")
        return []
    return [m for i, item in enumerate(value) if (m := _part_message(item, f"{path}[{i}]")) is not None]


def _unflatten(span: Span, prefix: str) -> list[tuple[int, dict[str, Any]]]:
    """Attributes ``prefix.N.rest`` as ``[(N, {rest: value})]`` in index order (OpenInference, OpenLLMetry)."""
    found: dict[int, dict[str, Any]] = {}
    for key, value in span.attrs.items():
        if key.startswith(prefix):
            head, _, rest = key[len(prefix):].partition(".")
            if head.isdigit() and rest:
                found.setdefault(int(head), {})[rest] = value
    return sorted(found.items())


def _flat_calls(fields: dict[str, Any], path: str, name_key: str) -> list[Call]:
    """Tool calls flattened as ``<calls>.J.<field>`` (both OpenInference's and OpenLLMetry's names)."""
    calls: dict[int, dict[str, Any]] = {}
    for key, value in fields.items():
        for prefix in ("message.tool_calls.", "tool_calls."):
            if key.startswith(prefix):
                head, _, rest = key[len(prefix):].partition(".")
                if head.isdigit():
                    calls.setdefault(int(head), {})[rest.removeprefix("tool_call.")] = value
    out = []
    for j, call in sorted(calls.items()):
        name = call.get("function.name", call.get(name_key, call.get("name")))
        if isinstance(name, str) and name:
            args = call.get("function.arguments", call.get("arguments"))
            out.append(Call(str(call.get("id") or ""), name, args, f"{path}.tool_calls.{j}"))
    return out


def _flat_messages(span: Span, prefix: str) -> list[Msg]:
    """Messages flattened into attributes (``llm.input_messages.0.message.role``, ``gen_ai.prompt.0.role``)."""
    out = []
    for i, fields in _unflatten(span, prefix):
        path = span.attr_path(f"{prefix}{i}")
        role = fields.get("message.role", fields.get("role"))
        content = fields.get("message.content", fields.get("content"))
        msg = Msg(role if isinstance(role, str) else "", _text_of(content), path,
                  _flat_calls(fields, path, "function.name"))
        msg.call_id = str(fields.get("message.tool_call_id", fields.get("tool_call_id")) or "")
        out.append(msg)
    return out


_EVENT_ROLES = {"gen_ai.system.message": "system", "gen_ai.user.message": "user",
                "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}


def _event_messages(span: Span) -> tuple[list[Msg], list[Msg]]:
    """The v1.36 message events: (the input messages, the choices)."""
    inputs: list[Msg] = []
    choices: list[Msg] = []
    for ev in span.events:
        body = decode(ev.attrs.get("gen_ai.event.content", ev.attrs.get("body")))
        fields = {**(body if isinstance(body, dict) else {}), **ev.attrs}
        if ev.name in _EVENT_ROLES:
            msg = Msg(_EVENT_ROLES[ev.name], _text_of(decode(fields.get("content"))), ev.path,
                      _openai_calls(fields.get("tool_calls"), f"{ev.path}.attributes.tool_calls"))
            msg.call_id = str(fields.get("id") or fields.get("tool_call_id") or "")
            if msg.role == "tool":
                msg.result = decode(fields.get("content"))
            inputs.append(msg)
        elif ev.name == "gen_ai.choice":
            message = decode(fields.get("message"))
            message = message if isinstance(message, dict) else fields
            choices.append(Msg("assistant", _text_of(decode(message.get("content"))), ev.path,
                               _openai_calls(message.get("tool_calls"), f"{ev.path}.attributes.tool_calls")))
    return inputs, choices


def messages(span: Span, warn: Warn) -> tuple[list[Msg], list[Msg]]:
    """A model call's (input messages, output messages), whichever convention wrote them."""
    inputs = _json_messages(span, "gen_ai.input.messages", warn)
    outputs = _json_messages(span, "gen_ai.output.messages", warn)
    if inputs is None:
        inputs = _flat_messages(span, "llm.input_messages.") or _flat_messages(span, "gen_ai.prompt.")
    if outputs is None:
        outputs = _flat_messages(span, "llm.output_messages.") or _flat_messages(span, "gen_ai.completion.")
    if not inputs and not outputs:
        inputs, outputs = _event_messages(span)
    for msg in inputs:
        if msg.role == "tool" and msg.result is NO_RESULT:
            msg.result = msg.text
    return inputs, outputs


def system_text(span: Span) -> str | None:
    """The system instructions (``gen_ai.system_instructions``: a JSON list of parts, or text)."""
    value = decode(span.attrs.get("gen_ai.system_instructions"))
    return _text_of(value)


def tool_call(span: Span) -> Call:
    """A tool span's call: ``gen_ai.tool.*`` (arguments and result may be missing: v1.36) or OpenInference's."""
    name = first_text(span, "gen_ai.tool.name", "tool.name") or span.name
    call_id = first_text(span, "gen_ai.tool.call.id", "tool_call.id", "tool.id") or ""
    call = Call(call_id, name, None, span.path, record=span.record)
    # An OpenInference LLM span that is also a tool span (see roles): its input and output values are the model's.
    kind = span.attrs.get("openinference.span.kind")
    model_io = isinstance(kind, str) and kind.upper() == "LLM"
    for key in ("gen_ai.tool.call.arguments", "tool.parameters", *(() if model_io else ("input.value",))):
        if key in span.attrs:
            call.arguments, call.arguments_path = span.attrs[key], span.attr_path(key)
            break
    for key in ("gen_ai.tool.call.result", *(() if model_io else ("output.value",))):
        if key in span.attrs:
            call.result, call.result_path = decode(span.attrs[key]), span.attr_path(key)
            break
    return call


COST_KEYS = ("gen_ai.usage.cost", "llm.cost.total")
"""Attributes a span's cost is read from (Langfuse's and LiteLLM's GenAI name, OpenInference's), the first given:
shown in the Explorer's span tree (:mod:`agentic_core.io.span_records`), not evaluated."""

READ = frozenset({*COST_KEYS,
    "gen_ai.operation.name", "gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions",
    "gen_ai.conversation.id", "gen_ai.agent.name", "gen_ai.request.model", "gen_ai.response.model",
    "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.prompt_tokens",
    "gen_ai.usage.completion_tokens", "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.tool.call.arguments",
    "gen_ai.tool.call.result", "openinference.span.kind", "session.id", "agent.name", "llm.model_name",
    "llm.token_count.prompt", "llm.token_count.completion", "tool.name", "tool.parameters", "tool_call.id",
    "tool.id", "input.value", "output.value", "task.id",
})
"""The attributes the importer reads."""

READ_PREFIXES = ("llm.input_messages.", "llm.output_messages.", "gen_ai.prompt.", "gen_ai.completion.")
"""Attribute families the importer reads (flattened messages)."""

UNUSED: dict[str, str] = {
    "gen_ai.request.": "request settings (temperature, max tokens) are not evaluated",
    "gen_ai.response.": "response ids and finish reasons are not evaluated",
    "gen_ai.system": "the provider is not evaluated (the model is kept)",
    "gen_ai.provider.name": "the provider is not evaluated (the model is kept)",
    "gen_ai.usage.": "other token counts (cached, reasoning) are not evaluated",
    "gen_ai.tool.type": "the tool's kind is not evaluated",
    "gen_ai.tool.description": "tool descriptions are not evaluated (the calls made are)",
    "gen_ai.tool.definitions": "tool schemas offered to the model are not evaluated (the calls made are)",
    "gen_ai.agent.": "agent ids and descriptions are not evaluated (the agent's name is kept)",
    "gen_ai.output.type": "the requested output type is not evaluated",
    "gen_ai.data_source.id": "data sources are not evaluated",
    "llm.": "OpenInference invocation parameters, provider and tool schemas are not evaluated",
    "input.mime_type": "mime types are not needed to read the values",
    "output.mime_type": "mime types are not needed to read the values",
    "tool.description": "tool descriptions are not evaluated (the calls made are)",
    "server.": "the server's address is not evaluated",
    "error.type": "the span's error type is not evaluated (an unanswered turn is reported)",
    "metadata": "OpenInference metadata is not evaluated",
    "user.id": "the end user's id is not evaluated",
}
"""Attribute names or prefixes that carry nothing the workbench evaluates, with the reason (one note)."""


def attribute_use(key: str) -> str | None:
    """``None`` for an attribute the importer reads; else the reason it is unused, or ``""`` if unknown."""
    if key in READ or key.startswith(READ_PREFIXES):
        return None
    for prefix, reason in UNUSED.items():
        if key == prefix or (prefix.endswith(".") and key.startswith(prefix)):
            return reason
    return ""
