"""The LLM judge: any LangChain chat model, called concurrently, scoring with the rubric prompt.

Every per-item problem (timeout, rate limit that outlasts the retries, auth error, empty or
garbage reply, out-of-range score, a reply holding several verdicts even when asked again, a copy
of the rubric's placeholders) becomes a ``failed`` verdict with ``score=None``, the error kept and
its cause classified (:class:`~agentic_core.judges.causes.UnscoredCause`): one bad item never
raises and is never scored 0.

A call that times out is cancelled (its connection closed), and the timeout adapts to the server
unless the user set it: :mod:`agentic_core.judges.llm.timing`.

Speed matters (the reference judged strictly one item at a time): calls run in a pool of
``concurrency`` workers, paced by :mod:`agentic_core.judges.llm.pacing` (fewer in flight when the
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
import time
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.rate_limiters import InMemoryRateLimiter
from langchain_core.runnables import Runnable

from agentic_core.common.secrets import mask_known, register_secret
from agentic_core.common.text_normal import squeeze
from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict, gather_stream
from agentic_core.judges.causes import UnscoredCause
from agentic_core.judges.llm.errors import (
    backoff_s,
    cause_of_error,
    describe_error,
    is_format_refused,
    is_retryable,
    status_code_of,
)
from agentic_core.judges.llm.formats import STEPS, format_runnable
from agentic_core.judges.llm.model import JudgeStats, base_url_of, own_retries_warning, sanitise_url, secrets_of
from agentic_core.judges.llm.pacing import Pacer
from agentic_core.judges.llm.prompt import (
    PROMPT_VERSION,
    REPLY_SCHEMA,
    AmbiguousJudgementError,
    JudgementParseError,
    JudgePrompt,
    JudgeReply,
)
from agentic_core.judges.llm.replies import cut_at_budget, message_of, read_judgement, usage_of
from agentic_core.judges.llm.reply_text import clip_reasoning, lone_surrogate_at, printable
from agentic_core.judges.llm.rubric import RubricWatch
from agentic_core.judges.llm.timing import CallClock, CallReport, CallTimeout

if TYPE_CHECKING:
    from agentic_core.judges.llm.spec_fields import LLMSpecFields

_MAX_ERROR_CHARS = 2_000


class LLMJudge:
    """Judges answers with a LangChain chat model and the rubric prompt, as its validated spec says.

    Args:
        spec: The judge's options, checked when the spec was made: the provider and model (recorded in the
            identity with the temperature, the first reply format and the base URL), the concurrency, the
            timeout (``None``: 60 s adapting to the server's measured latency, see
            :mod:`agentic_core.judges.llm.timing`; a number is never adapted unless ``adaptive_timeout``
            says so, as benchmarks do at scale) and its ceiling, the retries after a retryable error (rate
            limit, connection, 5xx; a timeout only where a retry can help), the rate limit, the reply format
            (``auto`` negotiates, see the module docstring; a model without the format asked for falls back
            to text, with a warning) and the reply budget (set on the chat model; named here in the error
            of a reply cut at it).
        chat_model: Any LangChain chat model: the spec's own
            (:func:`~agentic_core.judges.llm.providers.build_chat_model`, which ``spec.build()`` uses), or a
            stand-in. A model with a ``temperature`` field is copied with the spec's; the base URL recorded
            is read from the model when the spec names none.
    """

    recommended_threshold: float = 0.7
    cacheable: bool = True
    calls_llm, reads_texts, abstains, notice = True, True, False, None
    backoff_base_s: float = 1.0
    """The first retry's delay in seconds; doubling on each retry, with jitter (tests shorten it on a judge)."""
    backoff_max_s: float = 30.0
    """The longest retry delay in seconds."""

    def __init__(self, spec: LLMSpecFields, chat_model: BaseChatModel) -> None:
        self.concurrency = spec.concurrency
        self.clock = CallClock(spec)
        self.rubric = RubricWatch()
        self.max_retries = spec.max_retries
        self.max_tokens = spec.max_tokens
        self.stats = JudgeStats()
        self.warnings: list[str] = []
        self.rate_limiter: InMemoryRateLimiter | None = None
        if spec.rps is not None:
            # LangChain's own token bucket; a bucket of one request forbids bursts above ``rps``.
            self.rate_limiter = InMemoryRateLimiter(
                requests_per_second=spec.rps, check_every_n_seconds=min(0.1, 0.25 / spec.rps), max_bucket_size=1
            )

        model, temperature = chat_model, spec.temperature
        if "temperature" in getattr(type(model), "model_fields", {}):
            if model.temperature != temperature:  # type: ignore[attr-defined]
                # A copy, so the caller's model is left as it was; it shares the HTTP client.
                model = model.model_copy(update={"temperature": temperature})
        elif getattr(model, "temperature", None) is not None:
            temperature = model.temperature  # type: ignore[attr-defined]  # fixed on the model: what it uses
        self._model = model
        own_retries = own_retries_warning(model)
        if own_retries:
            self.warnings.append(own_retries)
        self._secrets = secrets_of(chat_model)
        # Registered for the whole process: a reply echoing this key must be masked for every
        # caller, including one whose own judge holds another key (see agentic_core.common.secrets).
        register_secret(*self._secrets)
        self._prompt = JudgePrompt()

        mode = spec.use_structured_output
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
            "provider": spec.provider,
            "temperature": temperature,
            "structured": self._steps[0] != "text",
        }
        url = sanitise_url(spec.base_url or base_url_of(chat_model))
        if url:
            params["base_url"] = url
        self.identity = JudgeIdentity(kind="llm", model=spec.model, prompt_version=PROMPT_VERSION, params=params)

    def __repr__(self) -> str:
        # Never the model's repr: the judge's repr may end up in logs.
        return f"LLMJudge({self.identity.label()}, concurrency={self.concurrency})"

    def call_report(self) -> CallReport:
        """What the calls showed about the server so far (the runner records it with the run)."""
        return self.clock.report()

    @property
    def reply_format(self) -> str:
        """The reply format in use: ``json_schema``, ``json_object`` or ``text`` (it may be negotiated down)."""
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

        self._pacer = Pacer(self.concurrency, self.clock.timeout_s)
        if self.clock.server_stops is False:
            # Known from an earlier run: the server keeps working on abandoned calls; start one at a time.
            self._pacer.limit = self._pacer.target = 1
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
            self.rubric.check()  # a run of fewer replies than the watch waits for
            notes = [*self.clock.notes, *self._pacer.notes, *self.rubric.notes]
            # The timeout's note is rewritten as it adapts: keep only its latest wording.
            self.warnings[:] = [w for w in self.warnings if not w.startswith("LLM timeout ")]
            self.warnings.extend(n for n in notes if n not in self.warnings)
            self._pacer = None

    async def _judge_one(self, item: JudgeItem) -> Verdict:
        """One item: call (timeout, retries), parse, and ask once more if the reply was ambiguous.

        Never raises an ``Exception``: every problem becomes a ``failed`` verdict.
        """
        messages = self._prompt.messages(item)
        started = time.perf_counter()
        output = await self._call(messages)
        if isinstance(output, _CallFailure):
            return self._failed(output.error, time.perf_counter() - started, cause=output.cause)
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
            return self._failed(error, time.perf_counter() - started, first_message, cause=output.cause)
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

    async def _call(self, messages: list[BaseMessage], schema: dict[str, Any] = REPLY_SCHEMA) -> Any:
        """One model call, with its timeout and retries: the reply, or a :class:`_CallFailure`.

        The agentic metrics call the same model, with the same retries, rate limit, counters and
        negotiated format, for their own ``schema``.
        """
        attempt = 0
        clock = self.clock
        while True:
            pacer = self._pacer
            started = await pacer.acquire() if pacer is not None else 0.0
            step = self._step  # read once a slot is free: an earlier call may have settled it
            use = self._asker(self._steps[step], schema) or self._model
            if self.rate_limiter is not None:
                await self.rate_limiter.aacquire()
            ticket = clock.start(retry=attempt > 0)
            retry_helps: bool | None = None  # for a timeout: whether a retry can help (the clock decides)
            try:
                result = await clock.run(use.ainvoke(messages), ticket)
                was_measuring = clock.server_stops
                clock.replied(ticket)
                if pacer is not None:
                    pacer.timeout_s = clock.timeout_s
                    await pacer.release(started, replied=True)
                    if clock.server_stops and was_measuring is None:
                        await pacer.reopen()  # the server stops on a hang-up: one at a time is not needed
                self._settled = True
                return result
            except CallTimeout as exc:
                error: Exception = TimeoutError(str(exc))
                retry_helps = clock.timed_out(ticket)
            except Exception as exc:
                error = exc
                if status_code_of(exc) is None and cause_of_error(exc) is UnscoredCause.TIMED_OUT:
                    retry_helps = clock.timed_out(ticket)  # the client's own timeout: it closed the connection
            if pacer is not None:
                pacer.timeout_s = clock.timeout_s
                await pacer.release(
                    started, replied=False, timed_out=retry_helps is not None, serialise=clock.server_stops is not True
                )
            if not self._settled and step + 1 < len(self._steps) and is_format_refused(error):
                self._step_down(step, error)
                continue
            retryable = retry_helps if retry_helps is not None else is_retryable(error)
            if attempt < self.max_retries and retryable:
                attempt += 1
                self.stats.retries += 1
                await asyncio.sleep(backoff_s(attempt, error, self.backoff_base_s, self.backoff_max_s))
                continue
            text = describe_error(error, attempt + 1)
            if retry_helps is not None:
                clock.gave_up()
            if retry_helps is False and self.max_retries:
                text += " (not retried: it was alone on the server, so a retry would take as long again, after it)"
            return _CallFailure(self._scrub(text)[:_MAX_ERROR_CHARS], cause_of_error(error))

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

    def _scrub(self, text: str) -> str:
        # Every secret the process knows, not only this judge's: a server may echo another
        # caller's key (see agentic_core.common.secrets).
        return printable(mask_known(text, self._secrets))

    def _failed(
        self,
        error: str,
        latency_s: float,
        *replies: AIMessage | None,
        cause: UnscoredCause = UnscoredCause.INVALID_REPLY,
    ) -> Verdict:
        """An unscored verdict of ``cause`` (by default: a reply that is not a judgement); the error is
        scrubbed of secrets (then clipped, never before)."""
        usage = usage_of(*replies)
        return Verdict(
            score=None,
            status="failed",
            error=self._scrub(error)[: 2 * _MAX_ERROR_CHARS],
            latency_s=latency_s,
            input_tokens=usage[0],
            output_tokens=usage[1],
            cause=cause,
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
        placeholder = self.rubric.reply(judgement.score, judgement.reasoning)
        if placeholder is not None:
            error = (
                f"the judge's reply copies the rubric's placeholder {placeholder!r} instead of judging, so its score "
                f"{judgement.score:g} is not used; reasoning: {judgement.reasoning[:200]!r}"
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
    cause: UnscoredCause = UnscoredCause.OTHER
