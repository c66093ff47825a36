"""The LLM judge: any LangChain chat model, called concurrently, scoring with the rubric prompt.

Every per-item problem (timeout, rate limit that outlasts the retries, auth error, garbage
reply, out-of-range score) becomes a ``failed`` verdict with ``score=None`` and the error kept:
one bad item never raises and is never scored 0.

Speed matters (the reference judged strictly one item at a time): calls run in a pool of
``concurrency`` workers; the system message, the structured-output runnable and the chat
model's own HTTP client are built once and reused; per call we only format one string, await
the model and parse its reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.rate_limiters import InMemoryRateLimiter
from langchain_core.runnables import Runnable
from pydantic import BaseModel, SecretStr

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.llm_options import DEFAULT_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S
from agentic_core.judges.prompt import (
    PROMPT_VERSION,
    JudgementParseError,
    JudgeOutput,
    JudgePrompt,
    message_text,
    parse_judgement,
    validate_judgement,
)
from agentic_core.secrets import mask_secrets

StructuredMode = bool | Literal["auto"]

# Providers whose servers are often local or third-party OpenAI look-alikes without tool
# calling / JSON-schema support: "auto" uses text parsing for them, which every server handles.
_TEXT_FIRST_PROVIDERS = frozenset({"openai-compatible", "ollama"})

# Exception class names (anywhere in the MRO) that mean "try again": rate limits, overload and
# transport failures of the provider SDKs we support, matched by name so that none of them has
# to be importable here.
_RETRYABLE_NAMES = frozenset(
    {
        "RateLimitError",  # openai, groq, anthropic
        "APIConnectionError",  # openai, groq, anthropic (APITimeoutError derives from it)
        "APITimeoutError",
        "InternalServerError",
        "ServiceUnavailableError",
        "OverloadedError",  # anthropic 529
        "ResourceExhausted",  # google.api_core 429
        "ServiceUnavailable",  # google.api_core 503
        "DeadlineExceeded",  # google.api_core 504
        "TooManyRequests",  # google.api_core 429
        "TransportError",  # httpx (ConnectError, ReadTimeout, RemoteProtocolError, ...)
        "TimeoutException",  # httpx
    }
)
_MAX_ERROR_CHARS = 2_000
_MAX_RETRY_AFTER_S = 60.0


@dataclass
class JudgeStats:
    """Counters over the judge's lifetime (the runner reports differences per run).

    Attributes:
        requests: Model calls made, retries included.
        retries: Calls that were repeats after a retryable error.
        failures: Items that ended ``failed``.
    """

    requests: int = 0
    retries: int = 0
    failures: int = 0


def status_code_of(exc: BaseException) -> int | None:
    """The HTTP status carried by a provider exception, if any."""
    for candidate in (
        getattr(exc, "status_code", None),
        getattr(getattr(exc, "response", None), "status_code", None),
        getattr(exc, "code", None),  # google.api_core exceptions
    ):
        if isinstance(candidate, int) and not isinstance(candidate, bool) and 100 <= candidate <= 599:
            return candidate
    return None


def is_retryable(exc: BaseException) -> bool:
    """Whether a failed call is worth repeating.

    Rate limits (429), request timeouts (408), conflicts (409), server errors (5xx), timeouts
    and connection errors are; other 4xx (authentication, permission, bad request, unknown
    model) are not, since repeating them only wastes time and quota.
    """
    status = status_code_of(exc)
    if status is not None:
        return status in (408, 409, 429) or status >= 500
    if isinstance(exc, (TimeoutError, ConnectionError)):
        return True
    return any(cls.__name__ in _RETRYABLE_NAMES for cls in type(exc).__mro__)


def _retry_after_s(exc: BaseException) -> float | None:
    """The server's ``Retry-After`` hint in seconds, when it sent one."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
        return None if value is None else max(0.0, float(value))
    except (TypeError, ValueError, AttributeError):
        return None


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


def _secrets_of(model: Any) -> tuple[SecretStr, ...]:
    """The secrets held by a chat model (its ``SecretStr`` fields), to mask in errors."""
    fields = getattr(type(model), "model_fields", {})
    return tuple(v for v in (getattr(model, name, None) for name in fields) if isinstance(v, SecretStr))


def _base_url_of(model: Any) -> str | None:
    """The server a chat model talks to, from the attribute names our providers use."""
    for name in ("openai_api_base", "groq_api_base", "anthropic_api_url", "base_url"):
        value = getattr(model, name, None)
        if isinstance(value, str) and value:
            return value
    return None


class LLMJudge:
    """Judges answers with a LangChain chat model and the rubric prompt.

    Args:
        chat_model: Any LangChain chat model (see :mod:`agentic_core.judges.providers` to build
            one by provider name).
        provider: Provider name recorded in the identity (``groq``, ``openai``, ...).
        model_name: Model name recorded in the identity.
        concurrency: Calls in flight at most.
        timeout_s: Per-call timeout in seconds (each retry gets its own).
        max_retries: Repeats after a retryable error (rate limit, timeout, connection, 5xx).
        rps: Requests per second at most (retries included), or ``None`` for no limit.
        use_structured_output: ``True`` to use the model's structured output, ``False`` for
            text parsing, ``"auto"`` for structured output where the provider reliably supports
            it. Models without structured output fall back to text parsing either way.
        temperature: Sampling temperature; applied to models that have a ``temperature``
            field, and recorded in the identity. ``None`` leaves the model's own setting.
        base_url: Server URL recorded in the identity; read from the model when omitted.
        backoff_base_s: First retry delay; doubles on each retry, with jitter.
        backoff_max_s: Longest retry delay.

    Raises:
        JudgeConfigError: an argument is out of range.
    """

    recommended_threshold: float = 0.7
    cacheable: bool = True

    def __init__(
        self,
        chat_model: BaseChatModel,
        *,
        provider: str,
        model_name: str,
        concurrency: int = DEFAULT_CONCURRENCY,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        rps: float | None = None,
        use_structured_output: StructuredMode = "auto",
        temperature: float | None = 0.0,
        base_url: str | None = None,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 30.0,
    ) -> None:
        _check_int("concurrency", concurrency, 1, "use a whole number such as 8 (32 for fast servers)")
        _check_int("max_retries", max_retries, 0, "use a whole number >= 0, such as 4")
        _check_positive("timeout_s", timeout_s, "use a number of seconds > 0, such as 60")
        _check_positive(
            "backoff_base_s", backoff_base_s, "use a number of seconds > 0, such as 1", zero_ok=True
        )
        _check_positive(
            "backoff_max_s", backoff_max_s, "use a number of seconds > 0, such as 30", zero_ok=True
        )
        if rps is not None:
            _check_positive("rps", rps, "use a number of requests per second > 0, or leave it empty")
        if use_structured_output not in (True, False, "auto"):
            raise JudgeConfigError(
                "use_structured_output", "must be true, false or 'auto'", use_structured_output, "use 'auto'"
            )

        self.concurrency = concurrency
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.backoff_base_s = float(backoff_base_s)
        self.backoff_max_s = float(backoff_max_s)
        self.stats = JudgeStats()
        self.warnings: list[str] = []
        self.rate_limiter: InMemoryRateLimiter | None = None
        if rps is not None:
            # LangChain's own token bucket; a bucket of one request forbids bursts above ``rps``.
            self.rate_limiter = InMemoryRateLimiter(
                requests_per_second=rps, check_every_n_seconds=min(0.1, 0.25 / rps), max_bucket_size=1
            )

        model = chat_model
        model_temperature = getattr(model, "temperature", None)
        if temperature is not None and "temperature" in getattr(type(model), "model_fields", {}):
            if model_temperature != temperature:
                # A copy, so the caller's model is left as it was; it shares the HTTP client.
                model = model.model_copy(update={"temperature": temperature})
            model_temperature = temperature
        effective_temperature = temperature if model_temperature is None else model_temperature
        self._model = model
        self._secrets = _secrets_of(chat_model)
        self._prompt = JudgePrompt()

        self._structured: Runnable[Any, Any] | None = None
        wants_structured = use_structured_output is True or (
            use_structured_output == "auto" and provider not in _TEXT_FIRST_PROVIDERS
        )
        if wants_structured:
            try:
                # include_raw keeps the AIMessage: token usage, and the text when parsing fails.
                self._structured = model.with_structured_output(JudgeOutput, include_raw=True)
            except NotImplementedError:
                if use_structured_output is True:
                    self.warnings.append(
                        f"{type(chat_model).__name__} has no structured output; "
                        "the judge parses its text replies instead"
                    )

        params: dict[str, Any] = {
            "provider": provider,
            "temperature": effective_temperature,
            "structured": self._structured is not None,
        }
        url = sanitise_url(base_url or _base_url_of(chat_model))
        if url:
            params["base_url"] = url
        self.identity = JudgeIdentity(
            kind="llm", model=model_name, prompt_version=PROMPT_VERSION, params=params
        )

    def __repr__(self) -> str:
        # Never the model's repr: the judge's repr may end up in logs.
        return f"LLMJudge({self.identity.label()}, concurrency={self.concurrency})"

    @property
    def structured(self) -> bool:
        """Whether replies are read through the model's structured output."""
        return self._structured is not None

    def messages(self, item: JudgeItem) -> list[BaseMessage]:
        """The exact prompt sent for ``item`` (for benchmarks, debugging and tests)."""
        return self._prompt.messages(item)

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        """Judge every item concurrently; same length and order as ``items``.

        Args:
            items: What to judge.
            progress: Called as ``progress(done, total)`` each time an item completes.

        Returns:
            One verdict per item; failures are ``failed`` verdicts, never exceptions.
        """
        results: list[Verdict | None] = [None] * len(items)
        done = 0
        # aclosing: if ``progress`` raises, the calls still in flight are cancelled right away.
        async with contextlib.aclosing(self.ajudge_stream(items)) as stream:
            async for index, verdict in stream:
                results[index] = verdict
                done += 1
                if progress is not None:
                    progress(done, len(items))
        verdicts = [v for v in results if v is not None]
        if len(verdicts) != len(items):  # the stream yields every index exactly once
            raise RuntimeError(f"{len(items) - len(verdicts)} items were left without a verdict")
        return verdicts

    async def ajudge_stream(self, items: Sequence[JudgeItem]) -> AsyncGenerator[tuple[int, Verdict], None]:
        """Judge items concurrently, yielding ``(index, verdict)`` as each one completes.

        The runner uses this to write verdicts to the cache while the run is still going, so an
        interrupted run keeps everything judged so far. Closing the iterator early cancels the
        calls still in flight.
        """
        total = len(items)
        if total == 0:
            return
        pending = iter(enumerate(items))
        finished: asyncio.Queue[tuple[int, Verdict] | BaseException] = asyncio.Queue()

        async def worker() -> None:
            # A fixed pool of workers bounds concurrency like a semaphore would, without one
            # task per item; all workers share one iterator (safe: next() never awaits).
            try:
                for index, item in pending:
                    finished.put_nowait((index, await self._judge_one(item)))
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # KeyboardInterrupt & co: hand it to the consumer
                finished.put_nowait(exc)

        workers = [asyncio.create_task(worker()) for _ in range(min(self.concurrency, total))]
        try:
            for _ in range(total):
                got = await finished.get()
                if isinstance(got, BaseException):
                    raise got
                yield got
        finally:
            for task in workers:
                task.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.gather(*workers, return_exceptions=True)

    async def _judge_one(self, item: JudgeItem) -> Verdict:
        """One item: call with timeout and retries, then parse. Never raises an ``Exception``."""
        messages = self._prompt.messages(item)
        runnable: Runnable[Any, Any] = self._structured if self._structured is not None else self._model
        started = time.perf_counter()
        attempt = 0
        while True:
            if self.rate_limiter is not None:
                await self.rate_limiter.aacquire()
            self.stats.requests += 1
            try:
                output = await asyncio.wait_for(runnable.ainvoke(messages), self.timeout_s)
            except asyncio.TimeoutError:
                error: Exception = TimeoutError(f"no reply within {self.timeout_s:g} s")
            except Exception as exc:
                error = exc
            else:
                return self._verdict(output, time.perf_counter() - started)
            if attempt < self.max_retries and is_retryable(error):
                attempt += 1
                self.stats.retries += 1
                await asyncio.sleep(self._backoff_s(attempt, error))
                continue
            return self._failed(self._describe(error, attempt + 1), time.perf_counter() - started)

    def _backoff_s(self, attempt: int, error: BaseException) -> float:
        """Exponential backoff with jitter, at least the server's ``Retry-After``."""
        delay = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1))
        # Jitter spreads the retries of concurrent workers hit by the same rate limit.
        delay *= random.uniform(0.5, 1.0)
        hint = _retry_after_s(error)
        if hint is not None:
            delay = max(delay, min(hint, _MAX_RETRY_AFTER_S))
        return delay

    def _describe(self, error: BaseException, attempts: int) -> str:
        """A one-line error for the user: type, message, attempts; secrets scrubbed."""
        text = f"{type(error).__name__}: {error}".strip()
        status = status_code_of(error)
        if attempts > 1:
            text += f" (after {attempts} attempts)"
        elif status is not None and not is_retryable(error):
            text += f" (HTTP {status}: not retried; check the API key, model name and permissions)"
        return self._scrub(text)[:_MAX_ERROR_CHARS]

    def _scrub(self, text: str) -> str:
        return mask_secrets(text, self._secrets)

    def _failed(self, error: str, latency_s: float, message: AIMessage | None = None) -> Verdict:
        self.stats.failures += 1
        usage = _usage(message)
        return Verdict(
            score=None,
            status="failed",
            error=error,
            latency_s=latency_s,
            input_tokens=usage[0],
            output_tokens=usage[1],
        )

    def _verdict(self, output: Any, latency_s: float) -> Verdict:
        """Turn a model reply (AIMessage, or the structured dict) into a verdict."""
        message: AIMessage | None
        try:
            if isinstance(output, dict) and "raw" in output:
                message = output["raw"] if isinstance(output["raw"], AIMessage) else None
                judgement = self._structured_judgement(output, message)
            else:
                message = output if isinstance(output, AIMessage) else None
                text = message_text(message.content) if message is not None else message_text(output)
                judgement = parse_judgement(text)
        except JudgementParseError as exc:
            return self._failed(self._scrub(str(exc))[: 2 * _MAX_ERROR_CHARS], latency_s, message)
        usage = _usage(message)
        return Verdict(
            score=judgement.score,
            reasoning=judgement.reasoning,
            status="ok",
            latency_s=latency_s,
            input_tokens=usage[0],
            output_tokens=usage[1],
        )

    @staticmethod
    def _structured_judgement(output: dict[str, Any], message: AIMessage | None) -> Any:
        parsed = output.get("parsed")
        raw_text = message_text(message.content) if message is not None else ""
        if parsed is not None:
            shown = parsed.model_dump_json() if isinstance(parsed, BaseModel) else repr(parsed)
            return validate_judgement(parsed, shown)
        # The model answered in text instead of the schema: its text may still hold the JSON.
        if raw_text.strip():
            return parse_judgement(raw_text)
        calls = getattr(message, "tool_calls", None) if message is not None else None
        detail = output.get("parsing_error")
        raise JudgementParseError(f"structured output not parseable: {detail}", repr(calls or raw_text))


def _usage(message: AIMessage | None) -> tuple[int | None, int | None]:
    """Input and output tokens reported by the provider, when it reported them."""
    usage = getattr(message, "usage_metadata", None) if message is not None else None
    if not usage:
        return None, None
    return usage.get("input_tokens"), usage.get("output_tokens")


def _check_int(name: str, value: Any, minimum: int, fix: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise JudgeConfigError(name, f"must be a whole number >= {minimum}", value, fix)


def _check_positive(name: str, value: Any, fix: str, *, zero_ok: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value == value
    if ok:
        ok = value >= 0 if zero_ok else value > 0
        ok = ok and value != float("inf")
    if not ok:
        rule = "must be a finite number >= 0" if zero_ok else "must be a finite number > 0"
        raise JudgeConfigError(name, rule, value, fix)
