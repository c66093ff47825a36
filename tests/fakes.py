"""Fakes shared by the test-suite: judges, chat models and an OpenAI-compatible loopback server.

Nothing here touches the network; :class:`OpenAIStandIn` listens on 127.0.0.1 only.

Judges:
    :class:`FakeJudge` (configurable scores, optional failure on the n-th call),
    :class:`CountingJudge` (wraps a judge and counts items; written as a user's judge from before the
    capabilities, so it has none of them).
    :func:`replace_judge` and :func:`offer_judge` put a fake behind a registry name (its spec class's build).
    :func:`llm_judge_over` is the LLM judge over a fake chat model, of :func:`stand_in_spec`'s spec.
Chat models (LangChain ``BaseChatModel`` subclasses):
    :class:`LatencyChatModel` (async sleep, tracks calls in flight, reports token usage),
    :func:`garbage_chat_model` (a ``FakeListChatModel`` replying prose),
    :class:`RaisingChatModel`, :class:`RateLimitingChatModel` (429 n times, then replies),
    :class:`HangingChatModel` (never replies), :class:`StructuredFakeChatModel` (supports
    ``with_structured_output`` through tool calls), :class:`CountingChatModel` (wraps a model).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from agentic_core.judges.base import JudgeIdentity, JudgeItem, ProgressFn, Verdict
from agentic_core.judges.llm.provider_table import PROVIDERS
from agentic_core.judges.spec import SPECS, JudgeSpecBase, LLMSpec

if TYPE_CHECKING:
    from agentic_core.judges.llm.judge import LLMJudge

ScoreSpec = float | None | Sequence[float | None] | Callable[[JudgeItem], float | None]


def judgement_json(score: Any = 0.9, reasoning: str = "Same key facts as the ground truth.") -> str:
    """A well-formed judge reply."""
    return json.dumps({"score": score, "reasoning": reasoning})


def make_items(n: int, *, prefix: str = "q") -> list[JudgeItem]:
    """``n`` distinct items."""
    return [
        JudgeItem(query=f"{prefix}{i}?", answer=f"answer {i}", ground_truth=f"truth {i}") for i in range(n)
    ]


# -- judges ----------------------------------------------------------------------------------


class FakeJudge:
    """A judge with configurable scores (a ``None`` score gives a ``failed`` verdict).

    Args:
        scores: A constant, a sequence cycled over the items judged (in judging order), or a
            function of the item.
        kind: Identity kind (distinct kinds have distinct cache keys).
        cacheable: Whether the runner may cache its verdicts.
        fail_on_call: Raise ``RuntimeError`` on this ``ajudge`` call (1-based): a judge that
            dies half-way.
        latency_s: Async sleep per ``ajudge`` call.
        tokens: ``(input, output)`` tokens reported per item.
    """

    calls_llm, reads_texts, abstains, notice = False, True, False, None

    def __init__(
        self,
        scores: ScoreSpec = 1.0,
        *,
        kind: str = "fake",
        cacheable: bool = True,
        recommended_threshold: float = 0.5,
        fail_on_call: int | None = None,
        latency_s: float = 0.0,
        tokens: tuple[int, int] | None = None,
    ) -> None:
        self.identity = JudgeIdentity(kind=kind, model="fake-model", prompt_version="test", params={"p": 1})
        self.recommended_threshold = recommended_threshold
        self.cacheable = cacheable
        self.fail_on_call = fail_on_call
        self.latency_s = latency_s
        self.tokens = tokens
        self.calls = 0
        self.judged: list[JudgeItem] = []
        self._scores = scores
        self._cycle: Iterator[float | None] | None = (
            itertools.cycle(list(scores)) if isinstance(scores, Sequence) else None
        )

    def _score(self, item: JudgeItem) -> float | None:
        if self._cycle is not None:
            return next(self._cycle)
        if callable(self._scores):
            return self._scores(item)
        return self._scores  # type: ignore[return-value]

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        self.calls += 1
        if self.fail_on_call is not None and self.calls == self.fail_on_call:
            raise RuntimeError(f"fake judge failure on call {self.calls}")
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        out = []
        for i, item in enumerate(items):
            self.judged.append(item)
            score = self._score(item)
            tin, tout = self.tokens if self.tokens else (None, None)
            if score is None:
                out.append(Verdict(status="failed", score=None, error="fake failure", input_tokens=tin))
            else:
                out.append(
                    Verdict(score=score, reasoning=f"fake {score}", input_tokens=tin, output_tokens=tout)
                )
            if progress is not None:
                progress(i + 1, len(items))
        return out


class SlowStreamJudge(FakeJudge):
    """A :class:`FakeJudge` that streams one verdict every ``per_item_s`` seconds (a slow model).

    For cancelling runs half-way: the runner takes verdicts one by one from ``ajudge_stream``.
    """

    def __init__(self, scores: ScoreSpec = 0.9, *, per_item_s: float = 0.02, **kwargs: Any) -> None:
        super().__init__(scores, **kwargs)
        self.per_item_s = per_item_s
        self.streamed = 0

    async def ajudge_stream(self, items: Sequence[JudgeItem]) -> AsyncIterator[tuple[int, Verdict]]:
        for index, item in enumerate(items):
            await asyncio.sleep(self.per_item_s)
            self.streamed += 1
            (verdict,) = await super().ajudge([item])
            yield index, verdict


class CountingJudge:
    """Wraps a judge and counts the items it is asked to judge.

    Without the capability attributes (``calls_llm``, ``reads_texts``, ...), as a user's judge written before
    them: such a judge must keep working (:func:`agentic_core.judges.base.capabilities` gives the defaults).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.identity = inner.identity
        self.recommended_threshold = inner.recommended_threshold
        self.cacheable = inner.cacheable
        self.items_judged = 0
        self.calls = 0

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        self.calls += 1
        self.items_judged += len(items)
        result: list[Verdict] = await self.inner.ajudge(items, progress)
        return result


def replace_judge(monkeypatch: Any, name: str, make: Callable[[], Any]) -> None:
    """Make the registry judge ``name`` build ``make()`` (its spec class's ``build``, patched for the test)."""
    monkeypatch.setattr(SPECS[name], "build", lambda self: make())


def offer_judge(monkeypatch: Any, name: str, make: Callable[[], Any], title: str = "Fake") -> None:
    """A new offline registry judge ``name`` (no options) building ``make()``, for the test only."""
    from typing import Literal

    from pydantic import create_model

    spec: Any = create_model(f"FakeSpec_{name}", __base__=JudgeSpecBase, judge=(Literal[name], name))
    spec.title, spec.description, spec.build = title, f"{title} judge for tests", lambda self: make()
    monkeypatch.setitem(SPECS, name, spec)


def stand_in_spec(**options: Any) -> LLMSpec:
    """An LLM judge's spec for a stand-in chat model: Ollama's (no key, no URL) unless ``provider`` names
    another, which then gets what its rules ask for (a dummy key, a URL nothing listens on)."""
    provider = PROVIDERS[options.setdefault("provider", "ollama")]
    if provider.key_required:
        options.setdefault("api_key", "sk-stand-in-never-sent")
    if provider.base_url_required:
        options.setdefault("base_url", "http://127.0.0.1:9/v1")
    return LLMSpec(**{"model": "fake-model", **options})


def llm_judge_over(chat_model: BaseChatModel, **options: Any) -> LLMJudge:
    """The LLM judge of :func:`stand_in_spec` ``(**options)`` over ``chat_model`` (a fake)."""
    from agentic_core.judges.llm.judge import LLMJudge

    return LLMJudge(stand_in_spec(**options), chat_model)


# -- chat models -----------------------------------------------------------------------------


def _result(text: str, usage: tuple[int, int] | None = None) -> ChatResult:
    message = AIMessage(content=text)
    if usage is not None:
        message.usage_metadata = {
            "input_tokens": usage[0],
            "output_tokens": usage[1],
            "total_tokens": usage[0] + usage[1],
        }
    return ChatResult(generations=[ChatGeneration(message=message)])


def _last_text(messages: list[BaseMessage]) -> str:
    return str(messages[-1].content) if messages else ""


class LatencyChatModel(BaseChatModel):
    """Replies after an async sleep; measures how many calls are in flight at once.

    Attributes:
        latency_s: Sleep per call.
        reply: The reply text, or a function of the prompt's last message text.
        usage: ``(input, output)`` tokens reported per call, or ``None``.
        calls: Calls made so far.
        in_flight: Calls currently running.
        max_in_flight: Most calls ever running at once.
        prompts: The last message text of every call.
    """

    latency_s: float = 0.01
    reply: Any = Field(default_factory=judgement_json)
    usage: tuple[int, int] | None = (100, 20)
    calls: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    prompts: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "fake-latency"

    def _text(self, messages: list[BaseMessage]) -> str:
        prompt = _last_text(messages)
        self.prompts.append(prompt)
        return str(self.reply(prompt)) if callable(self.reply) else str(self.reply)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        time.sleep(self.latency_s)
        return _result(self._text(messages), self.usage)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.latency_s)
            return _result(self._text(messages), self.usage)
        finally:
            self.in_flight -= 1


def garbage_chat_model(text: str = "Looks good to me! Definitely a solid answer.") -> FakeListChatModel:
    """A LangChain fake chat model whose every reply is prose without any JSON."""
    return FakeListChatModel(responses=[text])


class FakeAPIError(Exception):
    """An error shaped like the provider SDKs' status errors (``status_code`` attribute)."""

    def __init__(self, message: str, status_code: int) -> None:
        super().__init__(message)
        self.status_code = status_code


class RateLimitError(FakeAPIError):
    """Like ``openai.RateLimitError`` / ``groq.RateLimitError``: HTTP 429."""

    def __init__(self, message: str = "Rate limit reached; retry later") -> None:
        super().__init__(message, 429)


class AuthenticationError(FakeAPIError):
    """Like ``openai.AuthenticationError``: HTTP 401, must not be retried."""

    def __init__(self, message: str = "Incorrect API key provided") -> None:
        super().__init__(message, 401)


class RaisingChatModel(BaseChatModel):
    """Raises ``make_error()`` on every call (default: a ``ValueError``)."""

    make_error: Callable[[], BaseException] = lambda: ValueError("model exploded")
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "fake-raising"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        raise self.make_error()

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        raise self.make_error()


class _AsyncOnlyChatModel(BaseChatModel):
    """Base of fakes that only the async path (what the judge uses) may call."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        raise NotImplementedError("async only")


class RateLimitingChatModel(_AsyncOnlyChatModel):
    """Raises :class:`RateLimitError` on the first ``fail_times`` calls, then replies."""

    fail_times: int = 2
    reply: str = Field(default_factory=judgement_json)
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "fake-rate-limiting"

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        if self.calls <= self.fail_times:
            raise RateLimitError()
        return _result(self.reply, (50, 10))


class HangingChatModel(_AsyncOnlyChatModel):
    """Never replies (until cancelled): for timeouts."""

    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "fake-hanging"

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


class StructuredFakeChatModel(GenericFakeChatModel):
    """A ``GenericFakeChatModel`` that supports ``with_structured_output``.

    LangChain's generic ``with_structured_output`` binds the schema as a tool and parses the
    reply's tool call; binding is a no-op here, and the scripted replies carry the tool calls
    (see :func:`tool_call_reply`).
    """

    bound_tools: list[Any] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        self.bound_tools = list(tools)
        return self


def tool_call_reply(score: Any, reasoning: str = "Structured verdict.", name: str = "JudgeReply") -> AIMessage:
    """An AI message carrying a structured judgement as a tool call, with token usage."""
    return AIMessage(
        content="",
        tool_calls=[{"name": name, "args": {"score": score, "reasoning": reasoning}, "id": "call_1"}],
        usage_metadata={"input_tokens": 70, "output_tokens": 15, "total_tokens": 85},
    )


class CountingChatModel(BaseChatModel):
    """Wraps another chat model and counts the calls that reach it."""

    inner: BaseChatModel
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "fake-counting"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        return ChatResult(generations=[ChatGeneration(message=self.inner.invoke(messages))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        return ChatResult(generations=[ChatGeneration(message=await self.inner.ainvoke(messages))])


# -- an OpenAI-compatible server on loopback -------------------------------------------------


class OpenAIStandIn:
    """A minimal OpenAI-compatible ``/v1/chat/completions`` server on 127.0.0.1 (stdlib only).

    Use as a context manager; ``base_url`` is ready inside. Replies with ``reply`` (a judgement
    by default) or with HTTP ``status`` when it is not 200; with ``empty_choices`` the 200 reply
    has ``"choices": []``, as some servers send after a content filter or an internal fault.
    Records the ``Authorization`` headers and the ``model`` of each request it received, so a test
    can check the key and the model were sent.
    """

    def __init__(
        self, *, reply: str | None = None, status: int = 200, latency_s: float = 0.0, empty_choices: bool = False
    ) -> None:
        self.reply = reply if reply is not None else judgement_json(0.85, "Matches the ground truth.")
        self.status = status
        self.empty_choices = empty_choices
        self.latency_s = latency_s
        self.auth_headers: list[str] = []
        self.models: list[str] = []  # the "model" of each request, to check what a caller passed on
        self.requests = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> OpenAIStandIn:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                stand_in.requests += 1
                stand_in.auth_headers.append(self.headers.get("authorization", ""))
                stand_in.models.append(str(body.get("model", "")))
                if stand_in.latency_s:
                    time.sleep(stand_in.latency_s)
                if stand_in.status != 200:
                    payload: dict[str, Any] = {
                        "error": {"message": "invalid api key", "type": "invalid_request_error", "code": None}
                    }
                else:
                    payload = {
                        "id": f"chatcmpl-{stand_in.requests}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "stand-in"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": stand_in.reply},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 120, "completion_tokens": 18, "total_tokens": 138},
                    }
                    if stand_in.empty_choices:
                        payload["choices"] = []
                data = json.dumps(payload).encode()
                self.send_response(stand_in.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
