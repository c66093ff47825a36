"""What the LLM judge reads off a chat model, and its counters: the server's URL, the model's secrets, its own retries.

Kept apart from :mod:`agentic_core.judges.llm.judge` (which imports it) so the judge's module holds the
judging; nothing here calls a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr


@dataclass
class JudgeStats:
    """Counters over the judge's lifetime (the runner reports differences per run).

    Attributes:
        retries: Calls that were repeats after a retryable error.
        reasks: Items asked a second time because the first reply held several different
            verdicts (see :data:`~agentic_core.judges.llm.prompt.REASK_PROMPT`).
    """

    retries: int = 0
    reasks: int = 0


def sanitise_url(url: str | None) -> str | None:
    """Drop credentials, query and fragment from a URL before it is recorded anywhere.

    A base URL such as ``https://user:token@host/v1?key=...`` would otherwise carry a secret
    into the judge identity, hence into the cache and every export.
    """
    if not url:
        return None
    parts = urlsplit(str(url))
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def secrets_of(model: Any) -> tuple[SecretStr, ...]:
    """The secrets held by a chat model (its ``SecretStr`` fields), to mask in errors."""
    fields = getattr(type(model), "model_fields", {})
    return tuple(v for v in (getattr(model, name, None) for name in fields) if isinstance(v, SecretStr))


def base_url_of(model: Any) -> str | None:
    """The server a chat model talks to, from the attribute names our providers use."""
    for name in ("openai_api_base", "groq_api_base", "anthropic_api_url", "base_url"):
        value = getattr(model, name, None)
        if isinstance(value, str) and value:
            return value
    return None


def own_retries_warning(model: Any) -> str | None:
    """A warning when the chat model's client repeats failed calls itself, out of the judge's count.

    The OpenAI, Groq and Anthropic clients retry twice unless built with ``max_retries=0`` (which
    :func:`~agentic_core.judges.llm.providers.build_chat_model` does): their repeats reach the server
    without being counted, and a repeat of a timed-out call queues behind the abandoned one on a
    server that keeps working on it. (Google's client reads 0 as its default, so it is left alone.)
    """
    if "max_retries" not in getattr(type(model), "model_fields", {}) or "google" in type(model).__module__:
        return None
    value = getattr(model, "max_retries", None)
    if value == 0:
        return None
    shown = "the client's default (2)" if value is None else str(value)
    return (
        f"{type(model).__name__} retries failed calls itself (max_retries={shown}): those repeats are not counted and "
        "may queue behind abandoned calls; build it with max_retries=0 (the judge retries where it helps, and counts)"
    )
