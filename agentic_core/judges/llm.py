"""The LLM judge: any LangChain chat model, called concurrently, scoring with the rubric prompt.

Every per-item problem (timeout, rate limit that outlasts the retries, auth error, empty or
garbage reply, out-of-range score, a reply holding several verdicts even when asked again)
becomes a ``failed`` verdict with ``score=None`` and the error kept: one bad item never raises
and is never scored 0.

Speed matters (the reference judged strictly one item at a time): calls run in a pool of
``concurrency`` workers, paced by :mod:`agentic_core.judges.llm_pacing` (fewer in flight when the
server queues them); the system message, the runnables and the chat model's HTTP client are
built once and reused.

Structured output is negotiated (``"auto"``): the provider's native structured output (a JSON
schema for OpenAI-style servers), else JSON mode (``json_object``; the rubric states the object's
shape), else plain text read by the tolerant parser. A server that refuses a format with an
invalid-request error moves the judge one step down at once, without retrying, and the format
that worked is kept for the rest of the run and said in the warnings.
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
from pydantic import SecretStr

from agentic_core.common.secrets import mask_known, register_secret
from agentic_core.common.text_normal import squeeze
from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict, gather_stream
from agentic_core.judges.llm_errors import (
    MAX_RETRY_AFTER_S,
    describe_error,
    is_format_refused,
    is_retryable,
    retry_after_s,
)
from agentic_core.judges.llm_formats import STEPS, format_runnable
from agentic_core.judges.llm_options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    STRUCTURED_MODES,
    check_int,
    check_positive,
)
from agentic_core.judges.llm_pacing import Pacer
from agentic_core.judges.llm_replies import cut_at_budget, message_of, read_judgement, usage_of
from agentic_core.judges.prompt import (
    PROMPT_VERSION,
    REPLY_SCHEMA,
    AmbiguousJudgementError,
    JudgementParseError,
    JudgePrompt,
    JudgeReply,
)
from agentic_core.judges.reply_text import clip_reasoning, lone_surrogate_at, printable

StructuredMode = bool | Literal["auto", "json_schema", "json_object", "text"]

_MAX_ERROR_CHARS = 2_000


@dataclass
class JudgeStats:
    """Counters over the judge's lifetime (the runner reports differences per run).

    Attributes:
        requests: Model calls made, retries and re-asks included.
        retries: Calls that were repeats after a retryable error.
        reasks: Items asked a second time because the first reply held several different
            verdicts (see :data:`~agentic_core.judges.prompt.REASK_PROMPT`).
        failures: Items that ended ``failed``.
    """

    requests: int = 0
    retries: int = 0
    reasks: int = 0
    failures: int = 0


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
        use_structured_output: ``"auto"`` negotiates (see the module docstring);
            ``"json_schema"`` (or ``True``), ``"json_object"`` or ``"text"`` (or ``False``) pins one
            format. A model without the format asked for falls back to text, with a warning.
        max_tokens: The reply budget the chat model was built with, named in the error of a
            reply cut at it (the budget itself is set on the chat model: see
            :func:`agentic_core.judges.providers.build_chat_model`).
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
        max_tokens: int | None = None,
    ) -> None:
        check_int("concurrency", concurrency, 1, "use a whole number such as 8 (32 for fast servers)")
        check_int("max_retries", max_retries, 0, "use a whole number >= 0, such as 4")
        check_positive("timeout_s", timeout_s, "use a number of seconds > 0, such as 60")
        check_positive("backoff_base_s", backoff_base_s, "use a number of seconds > 0, such as 1", zero_ok=True)
        check_positive("backoff_max_s", backoff_max_s, "use a number of seconds > 0, such as 30", zero_ok=True)
        if rps is not None:
            check_positive("rps", rps, "use a number of requests per second > 0, or leave it empty")
        mode = str(use_structured_output)
        if isinstance(use_structured_output, bool):
            mode = "json_schema" if use_structured_output else "text"
        elif use_structured_output not in STRUCTURED_MODES:
            rule = f"must be true, false or one of {', '.join(STRUCTURED_MODES)}"
            raise JudgeConfigError("use_structured_output", rule, use_structured_output, "use 'auto'")

        self.concurrency = concurrency
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.backoff_base_s = float(backoff_base_s)
        self.backoff_max_s = float(backoff_max_s)
        self.max_tokens = max_tokens
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
        # Registered for the whole process: a reply echoing this key must be masked for every
        # caller, including one whose own judge holds another key (see agentic_core.common.secrets).
        register_secret(*self._secrets)
        self._prompt = JudgePrompt()

        self._askers: dict[tuple[str, str], Runnable[Any, Any] | None] = {}
        self._steps = [s for s in (STEPS if mode == "auto" else [mode]) if self._asker(s, REPLY_SCHEMA) is not None]
        if not self._steps:
            name = type(chat_model).__name__
            self.warnings.append(f"{name} has no {mode} structured output; the judge parses its text replies instead")
            self._steps = ["text"]
        self._step = 0
        self._settled = len(self._steps) == 1  # a format worked (or there is nothing to negotiate)
        self._pacer: Pacer | None = None

        params: dict[str, Any] = {
            "provider": provider,
            "temperature": effective_temperature,
            "structured": self._steps[0] != "text",
        }
        url = sanitise_url(base_url or _base_url_of(chat_model))
        if url:
            params["base_url"] = url
        self.identity = JudgeIdentity(kind="llm", model=model_name, prompt_version=PROMPT_VERSION, params=params)

    def __repr__(self) -> str:
        # Never the model's repr: the judge's repr may end up in logs.
        return f"LLMJudge({self.identity.label()}, concurrency={self.concurrency})"

    @property
    def structured(self) -> bool:
        """Whether replies are read through the model's structured output (now: it may be negotiated down)."""
        return self._steps[self._step] != "text"

    @property
    def reply_format(self) -> str:
        """The reply format in use: ``json_schema``, ``json_object`` or ``text``."""
        return self._steps[self._step]

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
        # If ``progress`` raises, the calls still in flight are cancelled right away (the stream is closed).
        return await gather_stream(self.ajudge_stream(items), len(items), progress)

    async def ajudge_stream(self, items: Sequence[JudgeItem]) -> AsyncGenerator[tuple[int, Verdict], None]:
        """Judge items concurrently, yielding ``(index, verdict)`` as each one completes.

        The runner caches verdicts as they come, so an interrupted run keeps what was judged;
        closing the iterator early cancels the calls still in flight.
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
                    started = time.perf_counter()
                    try:
                        verdict = await self._judge_one(item)
                    except Exception as exc:
                        # A reply no reader survives (nested 100,000 deep, ...) must not abort
                        # the run: the verdicts already received are paid for.
                        error = f"the judge's reply could not be read ({type(exc).__name__}: {exc})"
                        verdict = self._failed(error, time.perf_counter() - started)
                    finished.put_nowait((index, verdict))
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # KeyboardInterrupt & co: hand it to the consumer
                finished.put_nowait(exc)

        self._pacer = Pacer(self.concurrency, self.timeout_s)
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
            self.warnings.extend(n for n in self._pacer.notes if n not in self.warnings)
            self._pacer = None

    async def _judge_one(self, item: JudgeItem) -> Verdict:
        """One item: call (timeout, retries), parse, and ask once more if the reply was ambiguous.

        Never raises an ``Exception``: every problem becomes a ``failed`` verdict.
        """
        messages = self._prompt.messages(item)
        started = time.perf_counter()
        output = await self._call(messages)
        if isinstance(output, _CallFailure):
            return self._failed(output.error, time.perf_counter() - started)
        message = message_of(output)
        try:
            judgement = read_judgement(output, message)
        except AmbiguousJudgementError as exc:
            return await self._reask(messages, exc, message, started)
        except JudgementParseError as exc:
            error = str(exc)
            if cut_at_budget(message):
                cut = f"the reply budget ({self.max_tokens} tokens)" if self.max_tokens else "the server's length limit"
                error = (
                    f"the reply was cut at {cut}: raise the reply budget to fit the verdict (--max-tokens, the Run "
                    f"page's 'Reply budget', config.max_tokens at the endpoint); {error}"
                )
            return self._failed(error, time.perf_counter() - started, message)
        return self._ok(judgement, time.perf_counter() - started, message)

    async def _reask(
        self,
        messages: list[BaseMessage],
        first: AmbiguousJudgementError,
        first_message: AIMessage | None,
        started: float,
    ) -> Verdict:
        """Ask once more after a reply that held several different verdicts.

        An answer carrying its own ``{"score": 1.0, ...}`` can make the model quote it, then add its
        verdict. Told that only its own final verdict is wanted, the model usually settles it; a
        second ambiguous reply leaves the item unscored, saying so.
        """
        self.stats.reasks += 1
        output = await self._call(self._prompt.reask_messages(messages, first.raw))
        if isinstance(output, _CallFailure):
            error = f"re-asked after a reply with {first.reason}, then the call failed: {output.error}"
            return self._failed(error, time.perf_counter() - started, first_message)
        message = message_of(output)
        try:
            judgement = read_judgement(output, message)
        except AmbiguousJudgementError as exc:
            error = f"the judge's reply held several verdicts twice: {exc.reason}; second reply: {exc.raw!r}"
            return self._failed(error, time.perf_counter() - started, first_message, message)
        except JudgementParseError as exc:
            error = f"re-asked after a reply with {first.reason}, then: {exc}"
            return self._failed(error, time.perf_counter() - started, first_message, message)
        return self._ok(judgement, time.perf_counter() - started, first_message, message)

    def _asker(self, step: str, schema: dict[str, Any]) -> Runnable[Any, Any] | None:
        """The runnable asking for ``schema`` in format ``step`` (built once per schema and format)."""
        key = (str(schema.get("title")), step)
        if key not in self._askers:
            self._askers[key] = format_runnable(self._model, step, schema)
        return self._askers[key]

    async def _call(
        self,
        messages: list[BaseMessage],
        runnable: Runnable[Any, Any] | None = None,
        schema: dict[str, Any] = REPLY_SCHEMA,
    ) -> Any:
        """One model call, with its timeout and retries: the reply, or a :class:`_CallFailure`.

        The agentic metrics call the same model, with the same retries, rate limit, counters and
        negotiated format, for their own ``schema``; a ``runnable`` given is used as it is.
        """
        attempt = 0
        while True:
            pacer = self._pacer
            started = await pacer.acquire() if pacer is not None else 0.0
            step = self._step  # read once a slot is free: an earlier call may have settled it
            use = runnable if runnable is not None else self._asker(self._steps[step], schema) or self._model
            timed_out = False
            if self.rate_limiter is not None:
                await self.rate_limiter.aacquire()
            self.stats.requests += 1
            try:
                result = await asyncio.wait_for(use.ainvoke(messages), self.timeout_s)
                if pacer is not None:
                    await pacer.release(started, replied=True)
                self._settled = self._settled or runnable is None
                return result
            except asyncio.TimeoutError:
                error: Exception = TimeoutError(f"no reply within {self.timeout_s:g} s")
                timed_out = True
            except Exception as exc:
                error = exc
            if pacer is not None:
                await pacer.release(started, replied=False, timed_out=timed_out)
            if runnable is None and not self._settled and step + 1 < len(self._steps) and is_format_refused(error):
                self._step_down(step, error)
                continue
            if attempt < self.max_retries and is_retryable(error):
                attempt += 1
                self.stats.retries += 1
                await asyncio.sleep(self._backoff_s(attempt, error))
                continue
            return _CallFailure(self._scrub(describe_error(error, attempt + 1))[:_MAX_ERROR_CHARS])

    def _step_down(self, step: int, error: BaseException) -> None:
        """Use the next reply format after the server refused ``step``'s (once, however many calls saw it)."""
        if self._step != step:
            return
        self._step = step + 1
        refused, now = self._steps[step], self._steps[step + 1]
        reason = squeeze(self._scrub(describe_error(error, 1)))[:300]
        self.warnings.append(
            f"structured output: the server refused {refused} ({reason}); the judge asks for {now} for the rest "
            "of the run (set --structured-output to choose)"
        )

    def _backoff_s(self, attempt: int, error: BaseException) -> float:
        """Exponential backoff with jitter, at least the server's ``Retry-After``."""
        delay = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1))
        # Jitter spreads the retries of concurrent workers hit by the same rate limit.
        delay *= random.uniform(0.5, 1.0)
        hint = retry_after_s(error)
        if hint is not None:
            delay = max(delay, min(hint, MAX_RETRY_AFTER_S))
        return delay

    def _scrub(self, text: str) -> str:
        # Every secret the process knows, not only this judge's: a server may echo another
        # caller's key (see agentic_core.common.secrets).
        return printable(mask_known(text, self._secrets))

    def _failed(self, error: str, latency_s: float, *replies: AIMessage | None) -> Verdict:
        """An unscored verdict; the error is scrubbed of secrets (then clipped, never before)."""
        self.stats.failures += 1
        usage = usage_of(*replies)
        return Verdict(
            score=None,
            status="failed",
            error=self._scrub(error)[: 2 * _MAX_ERROR_CHARS],
            latency_s=latency_s,
            input_tokens=usage[0],
            output_tokens=usage[1],
        )

    def _ok(self, judgement: JudgeReply, latency_s: float, *replies: AIMessage | None) -> Verdict:
        """A scored verdict; its reasoning masked of every known secret, then clipped.

        A reasoning that is not valid Unicode (a lone surrogate) makes the item unscored instead:
        no writer downstream (stdout, CSV, SQLite) accepts it.
        """
        bad = lone_surrogate_at(judgement.reasoning)
        if bad is not None:
            error = (
                f"the judge's reasoning is not valid Unicode (a lone surrogate at character {bad}), "
                f"so its score {judgement.score:g} is not used; reasoning: {judgement.reasoning[:200]!r}"
            )
            return self._failed(error, latency_s, *replies)
        usage = usage_of(*replies)
        return Verdict(
            score=judgement.score,
            reasoning=clip_reasoning(mask_known(judgement.reasoning, self._secrets)),
            status="ok",
            latency_s=latency_s,
            input_tokens=usage[0],
            output_tokens=usage[1],
        )


@dataclass(frozen=True)
class _CallFailure:
    """A call that failed for good (retries spent or not worth it); ``error`` is scrubbed."""

    error: str
