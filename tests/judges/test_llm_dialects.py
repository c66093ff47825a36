"""Self-hosted judges (issue 29): the LLM judge through stand-ins of llama.cpp, Ollama and vLLM.

Each stand-in (``benchmarks/standin_server.py``) behaves like that server's OpenAI-compatible
endpoint where they differ: the ``response_format`` types it accepts and how it refuses the
others, the reply-budget field it reads, one request at a time or batched, and a long rambling
reply when no budget is sent. With default settings the judge must score every item through each.
"""

from __future__ import annotations

import importlib.util
import io
import json
import time

import pytest

from agentic_core.cli import main as cli_main
from agentic_core.io.samples import SAMPLES
from agentic_core.judges.llm.errors import describe_error, is_retryable
from agentic_core.judges.llm.options import DEFAULT_MAX_TOKENS
from agentic_core.judges.llm.pacing import Pacer
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.spec import LLMSpec
from tests.fakes import FakeAPIError, make_items
from tests.judges.standin import StandInServer

pytestmark = pytest.mark.timeout(120)


def _judge(server: StandInServer, **kwargs: object) -> object:
    kwargs.setdefault("timeout_s", 10.0)
    return LLMSpec(provider="openai-compatible", model="local-model", base_url=server.base_url, **kwargs).build()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dialect", "settled", "refused"),
    [("llama.cpp", "json_object", 1), ("ollama", "json_schema", 0), ("vllm", "json_schema", 0)],
)
def test_every_item_is_scored_through_each_dialect_with_default_settings(
    dialect: str, settled: str, refused: int
) -> None:
    with StandInServer(dialect, latency_s=0.01) as server:
        judge = _judge(server)
        run = run_judge_sync(judge, make_items(12), cache_mode="off")
    assert run.counts["ok"] == 12, [v.error for v in run.verdicts if v.status != "ok"]
    assert judge.reply_format == settled  # type: ignore[attr-defined]
    # The refusal is not retried: one refused request, then every call in the format that worked.
    assert server.stats.refused == refused and server.stats.requests == 12 + refused
    assert server.stats.formats[refused:] == [settled] * 12
    assert set(server.stats.budgets) == {DEFAULT_MAX_TOKENS}  # the budget each dialect reads was sent
    assert all(server.stats.schemas)  # JSON mode too carries the schema (llama-cpp-python makes it a grammar)
    said = " ".join(judge.warnings)  # type: ignore[attr-defined]
    assert ("refused json_schema" in said and "json_object" in said) == bool(refused)


def test_a_pinned_format_the_server_refuses_fails_every_item_once_each_never_retried() -> None:
    with StandInServer("llama.cpp", latency_s=0.01) as server:
        judge = _judge(server, use_structured_output="json_schema")
        run = run_judge_sync(judge, make_items(5), cache_mode="off")
    assert run.counts["failed"] == 5 and server.stats.requests == 5  # max_retries is 4: none was used
    error = run.verdicts[0].error or ""
    assert "Input should be 'text' or 'json_object'" in error and "request is invalid: not retried" in error


def test_text_mode_reads_a_fenced_verdict_from_a_small_model() -> None:
    with StandInServer("llama.cpp", latency_s=0.01) as server:
        run = run_judge_sync(_judge(server, use_structured_output="text"), make_items(3), cache_mode="off")
    assert run.counts["ok"] == 3 and server.stats.formats == ["text"] * 3


def test_without_a_budget_a_small_model_rambles_and_the_error_says_what_to_set() -> None:
    with StandInServer("llama.cpp", latency_s=0.01, ramble_s=0.05) as server:
        run = run_judge_sync(
            _judge(server, max_tokens=None, use_structured_output="text"), make_items(2), cache_mode="off"
        )
    assert run.counts["failed"] == 2 and server.stats.budgets == [None, None]
    error = run.verdicts[0].error or ""
    assert "cut at the server's length limit: raise the reply budget" in error and "--max-tokens" in error


def test_a_server_serving_one_request_at_a_time_gets_fewer_in_flight_and_the_run_says_so() -> None:
    # 0.1 s per request, one at a time: eight sent together wait up to 0.8 s, a quarter of the
    # 1.6 s timeout being 0.4 s: the judge halves its concurrency and names the change.
    with StandInServer("ollama", latency_s=0.1) as server:
        judge = _judge(server, concurrency=8, timeout_s=1.6)
        started = time.perf_counter()
        run = run_judge_sync(judge, make_items(24), cache_mode="off")
        elapsed = time.perf_counter() - started
    assert run.counts["ok"] == 24
    lowered = [w for w in judge.warnings if "concurrency lowered from 8" in w]  # type: ignore[attr-defined]
    assert lowered and "--concurrency" in lowered[0]
    assert judge._pacer is None  # type: ignore[attr-defined]  # per run
    assert elapsed < 24 * 0.1 + 3  # throughput unchanged: the server's pace, plus slack


def test_a_server_that_batches_keeps_the_concurrency_asked_for() -> None:
    with StandInServer("vllm", latency_s=0.05) as server:
        judge = _judge(server, concurrency=8)
        run = run_judge_sync(judge, make_items(24), cache_mode="off")
    assert run.counts["ok"] == 24 and server.stats.max_in_flight == 8
    assert not any("concurrency lowered" in w for w in judge.warnings)  # type: ignore[attr-defined]


@pytest.mark.skipif(importlib.util.find_spec("langchain_ollama") is None, reason="langchain-ollama is not installed")
def test_ollamas_own_langchain_class_gets_the_budget_and_scores_every_item() -> None:
    with StandInServer("ollama", latency_s=0.01) as server:
        judge = LLMSpec(provider="ollama", model="gemma3:270m", base_url=server.root_url, timeout_s=10.0).build()
        assert judge._model.num_predict == DEFAULT_MAX_TOKENS  # type: ignore[attr-defined]
        run = run_judge_sync(judge, make_items(6), cache_mode="off")
    assert run.counts["ok"] == 6, [v.error for v in run.verdicts if v.status != "ok"]
    assert server.stats.budgets == [DEFAULT_MAX_TOKENS] * 6 and server.stats.formats == ["json_schema"] * 6


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli_main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_calibrate_says_the_judge_scored_nothing_and_why() -> None:
    with StandInServer("llama.cpp", latency_s=0.01) as server:
        code, _, err = _cli(
            "calibrate", str(SAMPLES["labelled"].path), "--judge", "llm", "--provider", "openai-compatible",
             "--model", "local", "--base-url", server.base_url, "--structured-output", "json_schema",
             "--cache", "off", "--no-progress"
        )
    assert code != 0 and "scored none of the" in err and "add human_label" not in err
    assert "json_object" in err  # the server's own words, naming what it accepts


@pytest.mark.parametrize(
    ("status", "body", "retry"),
    [
        (500, "Error code: 500 - {'error': {'message': \"Input should be 'text' or 'json_object'\"}}", False),
        (500, "Error code: 500 - response_format type must be one of \"text\" or \"json_object\"", False),
        (500, "Error code: 500 - CUDA out of memory", True),
        (503, "Error code: 503 - overloaded", True),
        (422, "Error code: 422 - Unprocessable", False),
    ],
)
def test_a_5xx_that_says_the_request_is_invalid_is_not_retried(status: int, body: str, retry: bool) -> None:
    error = FakeAPIError(body, status)
    assert is_retryable(error) is retry
    assert ("request is invalid" in describe_error(error, 1)) is (status >= 500 and not retry)


def test_the_pacer_opens_after_the_first_reply_and_halves_only_on_queued_replies() -> None:
    import asyncio

    async def scenario() -> Pacer:
        pacer = Pacer(8, timeout_s=4.0)
        assert pacer.limit == 1
        started = await pacer.acquire()
        await pacer.release(started - 0.2, replied=True)  # the first reply: 0.2 s unqueued
        assert pacer.limit == 8 and pacer.baseline_s is not None
        started = await pacer.acquire()
        await pacer.release(started - 0.9, replied=True)  # 4.5 times slower, but under a quarter of 4 s
        assert pacer.limit == 8
        started = await pacer.acquire()
        await pacer.release(started - 1.5, replied=True)  # queued
        assert pacer.limit == 4
        return pacer

    pacer = asyncio.run(scenario())
    assert len(pacer.notes) == 1 and "from 8 to 4" in pacer.notes[0] and "0.2 s unqueued" in pacer.notes[0]


def test_evaluate_sends_the_budget_and_negotiates_from_the_command_line() -> None:
    with StandInServer("llama.cpp", latency_s=0.01) as server:
        code, out, err = _cli(
            "evaluate", str(SAMPLES["labelled"].path), "--judge", "llm", "--provider", "openai-compatible",
             "--model", "local", "--base-url", server.base_url, "--max-tokens", "256", "--structured-output", "auto",
             "--cache", "off", "--no-progress", "--no-save", "--json"
        )
    doc = json.loads(out)
    assert code == 0, err
    assert set(server.stats.budgets) == {256} and server.stats.refused == 1
    assert "refused json_schema" in json.dumps(doc)  # the format chosen is said in the run's warnings


def test_the_agentic_metrics_ask_in_the_format_the_answer_judge_negotiated() -> None:
    from agentic_core.agentic_metrics.llm_judge import MetricJudge
    from agentic_core.agentic_metrics.llm_prompts import TOPIC_TASK

    with StandInServer("llama.cpp", latency_s=0.01) as server:
        judge = _judge(server)
        run_judge_sync(judge, make_items(2), cache_mode="off")
        run_judge_sync(MetricJudge(judge, TOPIC_TASK), make_items(2, prefix="t"), cache_mode="off")  # type: ignore[arg-type]
    assert server.stats.refused == 1 and server.stats.formats[-2:] == ["json_object", "json_object"]
