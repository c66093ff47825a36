"""The reply formats the LLM judge can ask a chat model for, and the runnables that ask for them.

``json_schema`` is the provider's own structured output (a JSON schema for OpenAI-style servers
and Ollama, tool calling for others), ``json_object`` is JSON mode (the prompt states the object's
shape; OpenAI-style servers also get the schema beside the type, which llama-cpp-python turns into
a grammar and others ignore: without it a small model answers ``{}``), ``text`` is the chat model
itself, read by the tolerant parser. Schemas are passed as
dicts, not classes: the OpenAI client would validate a class itself and raise on a bad reply,
losing its text; with a dict every reply reaches the judge's own reader.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.runnables import Runnable

STEPS = ("json_schema", "json_object", "text")
"""The formats in the order ``auto`` tries them."""

# with_structured_output's method per format (None: the provider's own default).
_METHODS: dict[str, str | None] = {"json_schema": None, "json_object": "json_mode"}


def format_runnable(model: BaseChatModel, step: str, schema: dict[str, Any]) -> Runnable[Any, Any] | None:
    """The runnable asking ``model`` for ``schema`` in format ``step``, or ``None`` when it has none."""
    if step == "text":
        return model
    method = _METHODS[step]
    if method is not None and type(model).with_structured_output is BaseChatModel.with_structured_output:
        return None  # the generic implementation ignores the method: always tool calling
    if "openai_api_base" in type(model).model_fields:
        # OpenAI-style servers: the format goes in the request body as it is, and the reply is read
        # as text by the judge's own reader. Given as ``response_format``, LangChain would route the
        # call through the client's parse path, which cost about a third more time per call.
        fmt: dict[str, Any] = {"type": "json_object", "schema": schema}
        if step == "json_schema":
            name = str(schema.get("title") or "reply")
            fmt = {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
        return model.bind(extra_body={**(getattr(model, "extra_body", None) or {}), "response_format": fmt})
    try:
        # include_raw keeps the AIMessage: token usage, and the text when parsing fails.
        if method is None:
            return model.with_structured_output(schema, include_raw=True)
        return model.with_structured_output(schema, include_raw=True, method=method)
    except (NotImplementedError, ValueError, TypeError):
        return None
