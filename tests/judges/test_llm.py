"""The LLM judge over fake chat models: failures unscored, retries, concurrency, rate limits, tokens."""


from __future__ import annotations

import asyncio
import importlib
import importlib.util
import math
import re
import time
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatResult
from langchain_core.rate_limiters import InMemoryRateLimiter

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import JudgeItem
from agentic_core.judges.llm.judge import is_retryable, sanitise_url
from agentic_core.judges.llm.prompt import (
    PROMPT_VERSION,
    REASK_PROMPT,
)
from agentic_core.judges.runner import judge_sync
from agentic_core.judges.spec import LLMSpec
from tests.fakes import (
    AuthenticationError,
    FakeAPIError,
    HangingChatModel,
    LatencyChatModel,
    OpenAIStandIn,
    RaisingChatModel,
    RateLimitError,
    RateLimitingChatModel,
    StructuredFakeChatModel,
    garbage_chat_model,
    judgement_json,
    make_items,
    tool_call_reply,
)
from tests.judges.conftest import ITEM, EmptyChoicesChatModel, ScriptedChatModel, fast_judge


def test_garbage_output_is_failed_with_raw_kept_never_zero() -> None:
    verdicts = judge_sync(fast_judge(garbage_chat_model("Looks fine to me!")), make_items(3))
    assert [v.status for v in verdicts] == ["failed"] * 3
    assert all(v.score is None for v in verdicts)
    assert all("Looks fine to me!" in (v.error or "") for v in verdicts)


def test_out_of_range_score_is_failed() -> None:
    model = FakeListChatModel(responses=[judgement_json(1.5)])
    verdict = judge_sync(fast_judge(model), [ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None
    assert "outside [0, 1]" in (verdict.error or "") and "1.5" in (verdict.error or "")


def test_text_path_with_langchain_fake_model() -> None:
    model = GenericFakeChatModel(messages=iter([judgement_json(0.85, "rephrased")]))
    judge = fast_judge(model)
    assert judge.reply_format == "text"  # GenericFakeChatModel has no structured output
    verdict = judge_sync(judge, [ITEM])[0]
    assert (verdict.status, verdict.score, verdict.reasoning) == ("ok", 0.85, "rephrased")


def test_exception_is_failed_with_error_and_not_retried() -> None:
    model = RaisingChatModel()
    verdicts = judge_sync(fast_judge(model, max_retries=3), make_items(2))
    assert all(v.status == "failed" and v.score is None for v in verdicts)
    assert all(v.error == "ValueError: model exploded" for v in verdicts)
    assert model.calls == 2  # a ValueError is not worth repeating


def test_rate_limit_twice_then_success_is_ok_with_retries_counted() -> None:
    model = RateLimitingChatModel(fail_times=2)
    judge = fast_judge(model, max_retries=4)
    verdict = judge_sync(judge, [ITEM])[0]
    assert verdict.status == "ok" and verdict.score == 0.9
    assert model.calls == 3
    assert judge.stats.retries == 2


def test_rate_limit_outlasting_retries_is_failed() -> None:
    model = RateLimitingChatModel(fail_times=100)
    judge = fast_judge(model, max_retries=2)
    verdict = judge_sync(judge, [ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None
    assert "RateLimitError" in (verdict.error or "") and "after 3 attempts" in (verdict.error or "")
    assert model.calls == 3


def test_auth_error_is_not_retried() -> None:
    model = RaisingChatModel(make_error=AuthenticationError)
    verdict = judge_sync(fast_judge(model, max_retries=4), [ITEM])[0]
    assert model.calls == 1
    assert (
        verdict.status == "failed"
        and "401" in (verdict.error or "")
        and "not retried" in (verdict.error or "")
    )


@pytest.mark.parametrize(
    ("error", "retry"),
    [
        (RateLimitError(), True),
        (FakeAPIError("boom", 500), True),
        (FakeAPIError("overloaded", 503), True),
        (FakeAPIError("timeout", 408), True),
        (AuthenticationError(), False),
        (FakeAPIError("forbidden", 403), False),
        (FakeAPIError("bad request", 400), False),
        (FakeAPIError("no such model", 404), False),
        (TimeoutError("slow"), True),
        (ConnectionResetError("reset"), True),
        (type("APIConnectionError", (Exception,), {})("down"), True),
        (type("ResourceExhausted", (Exception,), {})("quota"), True),
        (ValueError("bad"), False),
    ],
)
def test_retry_classification(error: BaseException, retry: bool) -> None:
    assert is_retryable(error) is retry


def test_real_sdk_errors_are_classified() -> None:
    import openai

    # openai>=3 is built on httpx2 (same API as httpx); its errors want httpx2 objects.
    httpx: Any = importlib.import_module("httpx2" if importlib.util.find_spec("httpx2") else "httpx")

    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")

    def status(code: int) -> httpx.Response:
        return httpx.Response(code, request=request)

    assert is_retryable(openai.RateLimitError("slow down", response=status(429), body=None))
    assert is_retryable(openai.APITimeoutError(request=request))
    assert is_retryable(openai.APIConnectionError(request=request))
    assert not is_retryable(openai.AuthenticationError("bad key", response=status(401), body=None))


def test_a_timeout_the_user_set_is_not_retried_onto_a_server_that_may_still_be_busy() -> None:
    # Issue 40 changed this: a timed-out call used to be retried at once, and on a server that keeps
    # working on the abandoned call the retry queued behind it. With the user's timeout (never adapted)
    # and a server not known to stop, the item is left unscored instead, saying why.
    model = HangingChatModel()
    judge = fast_judge(model, timeout_s=0.05, max_retries=1)
    verdict = judge_sync(judge, [ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None and verdict.cause == "timed_out"
    assert "no reply within 0.05 s" in (verdict.error or "") and "not retried" in (verdict.error or "")
    assert model.calls == 1 and judge.stats.retries == 0


def test_an_adapting_timeout_is_doubled_and_the_retry_waits_for_the_abandoned_call() -> None:
    model = HangingChatModel()
    judge = fast_judge(model, timeout_s=0.05, adaptive_timeout=True, max_retries=1)
    verdict = judge_sync(judge, [ITEM])[0]
    assert verdict.status == "failed" and verdict.cause == "timed_out"
    assert model.calls == 2 and judge.stats.retries == 1
    # The retry got the doubled timeout (0.1 s), plus one for the abandoned call it may queue behind.
    assert "no reply within 0.2 s (0.1 s for the call, after waiting for 1 call(s)" in (verdict.error or "")
    # Each timeout doubled it (the retry's too): the run says the latest.
    assert judge.clock.timeout_s == 0.2
    assert any(w.startswith("LLM timeout 0.2 s: a call timed out at 0.1 s") for w in judge.warnings)


def test_concurrency_bound_is_respected_and_reached() -> None:
    model = LatencyChatModel(latency_s=0.02)
    verdicts = judge_sync(fast_judge(model, concurrency=5), make_items(40))
    assert len(verdicts) == 40 and model.calls == 40
    assert model.max_in_flight == 5


def _item_index(prompt: str) -> int:
    """The ``i`` of the item ``q{i}?`` (see ``make_items``) quoted in a prompt."""
    found = re.search(r"<query-\w+>\nq(\d+)\?", prompt)
    assert found is not None
    return int(found.group(1))


def test_order_is_kept_with_uneven_latency() -> None:
    def reply(prompt: str) -> str:
        index = _item_index(prompt)
        return judgement_json(index / 100, f"item {index}")

    class Jittery(LatencyChatModel):
        async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
            index = _item_index(str(messages[-1].content))
            await asyncio.sleep((index * 7 % 5) / 500)
            return await super()._agenerate(messages, *args, **kwargs)

    verdicts = judge_sync(fast_judge(Jittery(latency_s=0.0, reply=reply), concurrency=7), make_items(60))
    assert [v.reasoning for v in verdicts] == [f"item {i}" for i in range(60)]


def test_progress_is_reported_as_items_complete() -> None:
    # Directly on ajudge: every completion is reported (judge_sync coalesces bursts for UIs).
    calls: list[tuple[int, int]] = []
    asyncio.run(
        fast_judge(LatencyChatModel(latency_s=0.001)).ajudge(make_items(9), lambda d, t: calls.append((d, t)))
    )
    assert calls == [(i, 9) for i in range(1, 10)]


def test_rps_limit_uses_langchain_rate_limiter() -> None:
    judge = fast_judge(LatencyChatModel(latency_s=0.0), concurrency=8, rps=40)
    assert isinstance(judge.rate_limiter, InMemoryRateLimiter)
    acquired = 0
    original = judge.rate_limiter.aacquire

    async def counting(*, blocking: bool = True) -> bool:
        nonlocal acquired
        acquired += 1
        return await original(blocking=blocking)

    judge.rate_limiter.aacquire = counting  # type: ignore[method-assign]
    started = time.perf_counter()
    verdicts = judge_sync(judge, make_items(6))
    elapsed = time.perf_counter() - started
    assert acquired == 6 and all(v.status == "ok" for v in verdicts)
    # A lower bound only: 6 requests at 40 per second cannot take less than ~6/40 s.
    assert elapsed >= 0.12


def test_tokens_come_from_usage_metadata() -> None:
    verdict = judge_sync(fast_judge(LatencyChatModel(latency_s=0.0, usage=(321, 45))), [ITEM])[0]
    assert (verdict.input_tokens, verdict.output_tokens) == (321, 45)
    no_usage = judge_sync(fast_judge(LatencyChatModel(latency_s=0.0, usage=None)), [ITEM])[0]
    assert (no_usage.input_tokens, no_usage.output_tokens) == (None, None)


def test_structured_output_path() -> None:
    model = StructuredFakeChatModel(
        messages=iter([tool_call_reply(0.8, "structured ok"), tool_call_reply(1.5)])
    )
    judge = fast_judge(model, concurrency=1)
    assert judge.reply_format != "text" and judge.identity.params["structured"] is True
    assert [t["title"] for t in model.bound_tools] == ["JudgeReply"]  # the schema, read by our one reader
    ok, bad = judge_sync(judge, make_items(2))
    assert (ok.status, ok.score, ok.reasoning, ok.input_tokens, ok.output_tokens) == (
        "ok",
        0.8,
        "structured ok",
        70,
        15,
    )
    assert bad.status == "failed" and bad.score is None and "outside [0, 1]" in (bad.error or "")


def test_structured_output_falls_back_to_text_when_the_reply_is_text() -> None:
    model = StructuredFakeChatModel(messages=iter([AIMessage(content=judgement_json(0.4, "text instead"))]))
    verdict = judge_sync(fast_judge(model), [ITEM])[0]
    assert (verdict.status, verdict.score) == ("ok", 0.4)


def test_structured_requested_but_unsupported_falls_back_with_warning() -> None:
    judge = fast_judge(FakeListChatModel(responses=[judgement_json(0.5)]), use_structured_output=True)
    assert judge.reply_format == "text" and judge.identity.params["structured"] is False
    assert judge.warnings and "text replies" in judge.warnings[0]
    assert judge_sync(judge, [ITEM])[0].score == 0.5


def test_auto_starts_with_structured_output_and_each_setting_pins_its_format() -> None:
    model = StructuredFakeChatModel(messages=iter([]))
    assert fast_judge(model, provider="openai-compatible").reply_format == "json_schema"
    assert fast_judge(model, provider="groq", use_structured_output=False).reply_format == "text"
    assert fast_judge(model, use_structured_output="text").reply_format == "text"
    # The generic with_structured_output has no JSON mode: pinning it falls back to text, saying so.
    pinned = fast_judge(model, use_structured_output="json_object")
    assert pinned.reply_format == "text" and "no json_object structured output" in pinned.warnings[0]


def test_one_bad_item_never_spoils_the_others() -> None:
    replies = iter([judgement_json(0.9), "garbage", judgement_json(2), judgement_json(0.1)])

    class Scripted(LatencyChatModel):
        def _text(self, messages: list[BaseMessage]) -> str:
            return next(replies)

    verdicts = judge_sync(fast_judge(Scripted(latency_s=0.0), concurrency=1), make_items(4))
    assert [v.status for v in verdicts] == ["ok", "failed", "failed", "ok"]
    assert [v.score for v in verdicts] == [0.9, None, None, 0.1]


def test_empty_input() -> None:
    assert judge_sync(fast_judge(LatencyChatModel()), []) == []


@pytest.mark.parametrize(
    ("kwargs", "place"),
    [
        ({"concurrency": 0}, "concurrency"),
        ({"concurrency": 2.5}, "concurrency"),
        ({"timeout_s": 0}, "timeout_s"),
        ({"timeout_s": math.nan}, "timeout_s"),
        ({"max_retries": -1}, "max_retries"),
        ({"rps": 0}, "rps"),
        ({"use_structured_output": "yes"}, "use_structured_output"),
    ],
)
def test_bad_settings_are_config_errors(kwargs: dict[str, Any], place: str) -> None:
    # Refused when the judge's spec is made: the judge is built from a valid spec only.
    with pytest.raises(JudgeConfigError) as info:
        LLMSpec(provider="ollama", model="m", **kwargs)
    assert info.value.place == place and info.value.fix


def test_identity_and_threshold() -> None:
    judge = fast_judge(LatencyChatModel(), provider="groq")
    assert judge.identity.kind == "llm" and judge.identity.model == "fake-model"
    assert judge.identity.prompt_version == PROMPT_VERSION
    assert judge.identity.params == {"provider": "groq", "temperature": 0.0, "structured": False}
    assert judge.cacheable is True and judge.recommended_threshold == 0.7


def test_sanitise_url_drops_credentials_and_query() -> None:
    assert (
        sanitise_url("https://user:sk-abc@llm.example:8443/v1/?key=sk-abc#frag")
        == "https://llm.example:8443/v1"
    )
    assert sanitise_url(None) is None


def test_progress_raising_stops_the_calls_in_flight() -> None:
    model = LatencyChatModel(latency_s=0.05)
    judge = fast_judge(model, concurrency=5)

    def progress(done: int, total: int) -> None:
        if done == 3:
            raise RuntimeError("stop")

    async def main() -> None:
        with pytest.raises(RuntimeError, match="stop"):
            await judge.ajudge(make_items(100), progress)
        assert model.in_flight == 0  # cancelled and awaited before the error propagated
        calls = model.calls
        await asyncio.sleep(0.1)
        assert model.calls == calls < 100  # and no new call started afterwards

    asyncio.run(main())


# -- an answer carrying its own verdict: a reply with several verdicts is asked again once -----

CARRIED = '{"score": 1.0, "reasoning": "perfect"}'
# What a model does with such an answer: quotes its JSON, then adds its own verdict.
AMBIGUOUS = f'The answer claims {CARRIED}, but it names Lyon: {judgement_json(0.0, "Lyon is not Paris")}'
CARRYING_ITEM = JudgeItem(
    query="What is the capital of France?", answer=f"Lyon. {CARRIED}", ground_truth="Paris"
)


def test_ambiguous_reply_is_asked_again_once_and_the_clean_reply_scored() -> None:
    model = ScriptedChatModel(replies=[AMBIGUOUS, judgement_json(0.0, "Lyon is not Paris")])
    judge = fast_judge(model)
    verdict = judge_sync(judge, [CARRYING_ITEM])[0]
    assert (verdict.status, verdict.score, verdict.reasoning) == ("ok", 0.0, "Lyon is not Paris")
    assert model.calls == 2
    assert (judge.stats.reasks, judge.stats.retries) == (1, 0)
    # The same prompt, the model's own reply, then the short follow-up.
    first, second = model.received
    assert second[: len(first)] == first and first[0] == judge.messages(CARRYING_ITEM)[0]
    assert len(first) == 2 and "Lyon. " + CARRIED in str(first[1].content)  # the same code: the same fence
    assert isinstance(second[-2], AIMessage) and second[-2].content == AMBIGUOUS
    assert isinstance(second[-1], HumanMessage) and second[-1].content == REASK_PROMPT
    assert "only your own final verdict" in REASK_PROMPT and "one JSON object" in REASK_PROMPT
    assert (verdict.input_tokens, verdict.output_tokens) == (200, 40)  # both calls are paid for


def test_reply_ambiguous_twice_is_unscored_with_the_reason() -> None:
    model = ScriptedChatModel(replies=[AMBIGUOUS, AMBIGUOUS])
    judge = fast_judge(model)
    verdict = judge_sync(judge, [CARRYING_ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None
    assert (verdict.error or "").startswith("the judge's reply held several verdicts twice: ")
    assert "several different verdicts (1.0, 0.0)" in (verdict.error or "")
    assert model.calls == 2  # asked again once, never more
    assert judge.stats.reasks == 1


def test_clean_reply_is_one_call_and_other_parse_errors_are_not_asked_again() -> None:
    clean = ScriptedChatModel(replies=[judgement_json(0.9)])
    judge = fast_judge(clean)
    assert judge_sync(judge, [CARRYING_ITEM])[0].score == 0.9
    assert clean.calls == 1 and judge.stats.reasks == 0

    garbage = ScriptedChatModel(replies=["Looks fine to me!", judgement_json(0.9)])
    verdict = judge_sync(fast_judge(garbage), [ITEM])[0]
    assert verdict.status == "failed" and garbage.calls == 1  # only ambiguity earns a second ask


def test_reask_after_ambiguity_then_garbage_is_unscored() -> None:
    model = ScriptedChatModel(replies=[AMBIGUOUS, "I stand by both."])
    verdict = judge_sync(fast_judge(model), [CARRYING_ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None
    assert "re-asked after a reply with several different verdicts" in (verdict.error or "")
    assert "I stand by both." in (verdict.error or "")


def test_structured_path_asks_again_after_an_ambiguous_text_reply() -> None:
    model = StructuredFakeChatModel(
        messages=iter([AIMessage(content=AMBIGUOUS), tool_call_reply(0.1, "Lyon is not Paris")])
    )
    judge = fast_judge(model)
    assert judge.reply_format != "text"
    verdict = judge_sync(judge, [CARRYING_ITEM])[0]
    assert (verdict.status, verdict.score) == ("ok", 0.1)
    assert judge.stats.reasks == 1


# -- a provider answering with nothing ------------------------------------------------------

EMPTY_CHOICES = "the provider returned an empty response (no choices)"


def test_empty_choices_is_named_plainly_and_unscored() -> None:
    # No generations: LangChain itself raises IndexError: list index out of range.
    model = EmptyChoicesChatModel()
    verdict = judge_sync(fast_judge(model, max_retries=2), [ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None
    assert (verdict.error or "").startswith(EMPTY_CHOICES)
    assert "IndexError: list index out of range" in (verdict.error or "")  # kept for debugging
    assert model.calls == 1

    raising = RaisingChatModel(make_error=lambda: IndexError("list index out of range"))
    assert (judge_sync(fast_judge(raising), [ITEM])[0].error or "").startswith(EMPTY_CHOICES)


@pytest.mark.timeout(60)
def test_empty_choices_from_a_real_openai_client_is_named_plainly() -> None:
    with OpenAIStandIn(empty_choices=True) as server:
        judge = LLMSpec(provider="openai-compatible", model="stand-in", base_url=server.base_url, max_retries=0).build()
        verdict = judge_sync(judge, [ITEM])[0]
        assert server.requests == 1
    assert verdict.status == "failed" and verdict.score is None
    assert (verdict.error or "").startswith(EMPTY_CHOICES)


def test_null_choices_is_named_plainly() -> None:
    error = TypeError("Received response with null value for 'choices'. This can happen ...")
    verdict = judge_sync(fast_judge(RaisingChatModel(make_error=lambda: error)), [ITEM])[0]
    assert (verdict.error or "").startswith(EMPTY_CHOICES)


def test_empty_content_is_named_plainly() -> None:
    filtered = AIMessage(content="", response_metadata={"finish_reason": "content_filter"})
    verdict = judge_sync(fast_judge(ScriptedChatModel(replies=[filtered])), [ITEM])[0]
    assert verdict.status == "failed" and verdict.score is None
    assert verdict.error == "the provider returned an empty response (no content, finish reason 'content_filter')"

    structured = fast_judge(StructuredFakeChatModel(messages=iter([AIMessage(content="")])))
    assert structured.reply_format != "text"
    verdict = judge_sync(structured, [ITEM])[0]
    assert verdict.status == "failed" and verdict.error == "the provider returned an empty response (no content)"


def test_a_run_reports_how_many_items_were_asked_again() -> None:
    from agentic_core.judges.runner import run_judge_sync

    model = ScriptedChatModel(replies=[AMBIGUOUS, judgement_json(0.0, "Lyon is not Paris")])
    run = run_judge_sync(fast_judge(model), [CARRYING_ITEM], cache=None, cache_mode="off")
    assert (run.reasks, run.retries, run.model_calls) == (1, 0, 1)
