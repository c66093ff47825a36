"""Chat messages to turns: each user message with the agent's final reply and the tool calls in between.

One walker reads the chat logs of every importer: OpenAI-style messages (``role``, ``content``,
assistant ``tool_calls`` with ``function.name`` and ``function.arguments`` as a JSON string,
``tool`` messages linked by ``tool_call_id``; tau-bench trajectories are these), Inspect AI's
(``function`` is the name and ``arguments`` an object) and Ragas' (``type`` human / ai / tool,
``tool_calls`` with ``name`` and ``args``, tool messages without ids, linked by position).

A turn starts at a user message (consecutive user messages are one query, joined by newlines);
its answer is the last assistant text before the next user message, and its calls are every tool
call made in between, each with its linked result. System (and developer) messages become the
conversation's context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from agentic_core.io.importers.common import RecordMap, content_text, decode_result, tool_arguments
from agentic_core.io.render import json_type

OPENAI_ROLES: dict[str, str] = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
    "function": "tool",
}
"""OpenAI's roles (``function``: the legacy tool result) as the walker's roles."""


@dataclass
class Call:
    """One tool call the agent made, with where each of its parts is in the original record."""

    name: str
    parameters: dict[str, Any]
    path: str
    name_path: str
    arguments_path: str
    id: str | None = None
    result: Any = None
    result_path: str | None = None
    linked: bool = False


@dataclass
class Turn:
    """A user query, the agent's final reply to it and the tool calls in between."""

    query: str
    query_path: str
    calls: list[Call] = field(default_factory=list)
    answer: str | None = None
    answer_path: str | None = None
    last_reply_path: str | None = None  # the last assistant message of the turn, with or without text


@dataclass
class Walk:
    """The turns of one chat log and its context (the system messages)."""

    turns: list[Turn]
    context: str | None
    context_path: str | None
    ended_unanswered: Turn | None  # a last user message the agent never replied to (dropped)
    steps: list[dict[str, Any]] = field(default_factory=list)  # every message, as Conversation.trace holds it


def read_call(raw: Any, path: str, rec: RecordMap) -> Call | None:
    """One tool call in any of the three shapes; ``None`` (with a warning) when it has no name.

    Shapes: OpenAI ``{"id", "function": {"name", "arguments": "<JSON>"}}``, Inspect
    ``{"id", "function": "<name>", "arguments": {...}}``, Ragas / LangChain ``{"name", "args"}``
    (and ``{"name", "arguments"}`` or seed-style ``{"tool_name", "parameters"}``).
    """
    if not isinstance(raw, dict):
        rec.warn(path, f"must be a tool call object; it is {json_type(raw)}, left out", raw,
                 'write each call as {"id": ..., "function": {"name": ..., "arguments": "{...}"}}')
        return None
    function = raw.get("function")
    if isinstance(function, dict):
        name, arguments = function.get("name"), function.get("arguments")
        name_path, arguments_path = f"{path}.function.name", f"{path}.function.arguments"
    elif isinstance(function, str):
        name, arguments = function, raw.get("arguments")
        name_path, arguments_path = f"{path}.function", f"{path}.arguments"
    else:
        key = next((k for k in ("name", "tool_name") if k in raw), "name")
        args_key = next((k for k in ("args", "arguments", "parameters", "kwargs") if k in raw), "arguments")
        name, arguments = raw.get(key), raw.get(args_key)
        name_path, arguments_path = f"{path}.{key}", f"{path}.{args_key}"
    if not isinstance(name, str) or not name.strip():
        rec.warn(name_path, "a tool call needs the tool's name; this call was left out", name,
                 "give the function's name as a non-empty string")
        return None
    ident = raw.get("id")
    return Call(
        name,
        tool_arguments(arguments, arguments_path, rec),
        path,
        name_path,
        arguments_path,
        ident if isinstance(ident, str) else None,
    )


class _Walker:
    """The state of one walk (kept in one object so each message kind is a short method)."""

    def __init__(self, rec: RecordMap, path: str, *, role_key: str, roles: dict[str, str], ids: bool) -> None:
        self.rec = rec
        self.path = path
        self.role_key = role_key
        self.roles = roles
        self.ids = ids
        self.turns: list[Turn] = []
        self.replied = False  # whether the last turn has any assistant message yet
        self.context: list[str] = []
        self.context_path: str | None = None
        self.by_id: dict[str, Call] = {}
        self.steps: list[dict[str, Any]] = []

    def step(self, role: str, text: str | None, here: str, **more: Any) -> None:
        """Keep one message of the trace, with the interaction (turn) it belongs to."""
        step: dict[str, Any] = {"role": role, "content": text or "", "source": here}
        step["interaction"] = len(self.turns) - 1 if self.turns else None
        step.update({k: v for k, v in more.items() if v})
        self.steps.append(step)

    def walk(self, messages: list[Any]) -> Walk:
        """Walk the messages in order; a last user message without a reply is set apart."""
        for k, message in enumerate(messages):
            here = f"{self.path}[{k}]"
            if not isinstance(message, dict):
                self.rec.warn(here, f"must be a message object; it is {json_type(message)}, left out", message,
                              f'write each message as {{"{self.role_key}": ..., "content": ...}}')
                continue
            role = self.roles.get(message.get(self.role_key))  # type: ignore[arg-type]
            if role == "system":
                self.system(message, here)
            elif role == "user":
                self.user(message, here)
            elif role == "assistant":
                self.assistant(message, here)
            elif role == "tool":
                self.tool(message, here)
            else:
                self.rec.warn(f"{here}.{self.role_key}", "is not a known message role; the message was left out",
                              message.get(self.role_key), f"use one of {', '.join(self.roles)}")
        unanswered = None
        if self.turns and not self.replied:
            unanswered = self.turns.pop()
            for step in self.steps:  # the unanswered turn is not an interaction: its messages belong to none
                if step["interaction"] == len(self.turns):
                    step["interaction"] = None
        return Walk(self.turns, "\n\n".join(self.context) or None, self.context_path, unanswered, self.steps)

    def system(self, message: dict[str, Any], here: str) -> None:
        """A system or developer message: its text joins the context."""
        text = content_text(message.get("content"), f"{here}.content", self.rec)
        self.step("system", text, here)
        if text and text.strip():
            self.context.append(text)
            self.context_path = self.context_path or f"{here}.content"

    def user(self, message: dict[str, Any], here: str) -> None:
        """A user message: a new turn, or more of the query when the agent has not replied yet."""
        text = content_text(message.get("content"), f"{here}.content", self.rec)
        if text is None:
            self.rec.warn(f"{here}.content", "a user message needs its text; this one has none", None,
                          "give the user's message as content")
            text = ""
        if self.turns and not self.replied:
            # The agent had not answered yet: the user's messages together are one query.
            turn = self.turns[-1]
            turn.query = f"{turn.query}\n{text}" if turn.query and text else turn.query or text
            self.step("user", text, here)
            return
        self.turns.append(Turn(text, f"{here}.content"))
        self.replied = False
        self.step("user", text, here)

    def assistant(self, message: dict[str, Any], here: str) -> None:
        """An assistant message: its tool calls join the turn, its text becomes the turn's answer."""
        if not self.turns:
            self.rec.warn(here, "comes before the first user message, so it answers nothing; it was left out",
                          None, "start the trace with the user's first message (greetings are not evaluated)")
            self.step("assistant", message.get("content") if isinstance(message.get("content"), str) else "", here)
            return
        turn = self.turns[-1]
        before = len(turn.calls)
        self.replied = True
        turn.last_reply_path = here
        calls = message.get("tool_calls")
        if isinstance(calls, list):
            for j, raw in enumerate(calls):
                self.add_call(turn, read_call(raw, f"{here}.tool_calls[{j}]", self.rec))
        elif calls is not None:
            self.rec.warn(f"{here}.tool_calls", f"must be a list of tool calls; it is {json_type(calls)}, left out",
                          calls, "write tool_calls as a list")
        legacy = message.get("function_call")
        if isinstance(legacy, dict):
            self.add_call(turn, read_call({"function": legacy}, f"{here}.function_call", self.rec))
        text = content_text(message.get("content"), f"{here}.content", self.rec)
        if not (text and text.strip()) and isinstance(message.get("refusal"), str):
            text, where = message["refusal"], f"{here}.refusal"  # a refusal is the agent's reply too
        else:
            where = f"{here}.content"
        if text and text.strip():
            turn.answer, turn.answer_path = text, where
        made = [{"name": c.name, "arguments": c.parameters, "id": c.id} for c in turn.calls[before:]]
        self.step("assistant", text, here, tool_calls=made)

    def add_call(self, turn: Turn, call: Call | None) -> None:
        """Add a call to the turn (and to the calls by id, for the tool messages that answer it)."""
        if call is None:
            return
        turn.calls.append(call)
        if call.id is not None:
            self.by_id[call.id] = call

    def tool(self, message: dict[str, Any], here: str) -> None:
        """A tool message: its content becomes the result of the call it answers."""
        call = self.linked_call(message, here)
        content = message.get("content")
        ident = message.get("tool_call_id")
        if isinstance(content, list) and call is not None:
            content = content_text(content, f"{here}.content", self.rec)
        name = call.name if call is not None else message.get("name")
        self.step("tool", step_text(content), here, name=name if isinstance(name, str) else None,
                  tool_call_id=ident if isinstance(ident, str) else None)
        if call is None:
            return
        result = decode_result(content)
        error = message.get("error")
        if (result is None or result == "") and isinstance(error, dict) and error.get("message"):
            result = {"error": error.get("message")}  # Inspect: a failed call's error instead of its output
        call.result, call.result_path, call.linked = result, f"{here}.content", True

    def linked_call(self, message: dict[str, Any], here: str) -> Call | None:
        """The call a tool message answers: by ``tool_call_id``, else the first unanswered one of the turn."""
        ident = message.get("tool_call_id")
        if self.ids and ident is not None:
            call = self.by_id.get(ident) if isinstance(ident, str) else None
            if call is None:
                self.rec.warn(f"{here}.tool_call_id", "matches no tool call made before it; its result is not "
                              "linked to any call and was left out", ident,
                              "give each tool message the id of the assistant's tool call it answers (tool_calls[].id)")
            elif call.linked:
                self.rec.warn(f"{here}.tool_call_id", "answers a call that already has a result; the first result "
                              "is kept", ident, "give each tool call one tool message")
                return None
            return call
        name = message.get("name") or message.get("function")
        waiting = [c for c in (self.turns[-1].calls if self.turns else []) if not c.linked]
        if isinstance(name, str):  # a legacy function message names its call
            waiting = [c for c in waiting if c.name == name] or waiting
        if not waiting:
            self.rec.warn(here, "is a tool result, but no tool call of this turn is waiting for one; it was left out",
                          None, "put each tool message after the assistant message with its call")
            return None
        if self.ids and message.get(self.role_key) != "function":
            self.rec.warn(here, "has no tool_call_id; it was linked to the first unanswered call of the turn "
                          f"({waiting[0].name})", None, "give each tool message the tool_call_id of its call")
        return waiting[0]


def whole_trace(walk: Walk, *, one_interaction: bool = False) -> list[dict[str, Any]]:
    """The walk's messages as ``Conversation.trace``; ``one_interaction``: every message past the system
    prompt belongs to interaction 0 (formats that grade a whole trajectory as one interaction)."""
    if one_interaction:
        for step in walk.steps:
            step["interaction"] = None if step["role"] == "system" else 0
    return walk.steps


def step_text(value: Any) -> str:
    """A message content as the trace keeps it: text as it is, anything else as JSON."""
    if value is None or isinstance(value, str):
        return value or ""
    return orjson.dumps(value, default=str).decode()


def walk_messages(
    messages: list[Any],
    rec: RecordMap,
    path: str,
    *,
    role_key: str = "role",
    roles: dict[str, str] = OPENAI_ROLES,
    ids: bool = True,
) -> Walk:
    """Split a chat log into turns.

    Args:
        messages: The messages, in order.
        rec: The record being mapped (issues go there).
        path: The messages' path in the record (``messages``, ``traj``, ``user_input``).
        role_key: The key naming a message's role (Ragas: ``type``).
        roles: The format's roles as ``system`` / ``user`` / ``assistant`` / ``tool``.
        ids: Whether tool messages carry ``tool_call_id`` (Ragas: no, they follow their call).

    Returns:
        The turns; a last user message that got no reply is set apart in ``ended_unanswered``.
    """
    return _Walker(rec, path, role_key=role_key, roles=roles, ids=ids).walk(messages)
