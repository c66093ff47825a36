"""Issue 40: every unscored item says why: one cause per verdict, counted and worded once (verdict_counts)."""

from __future__ import annotations

import math
import socket

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.judges.base import JudgeIdentity, Verdict, uncertain_verdict
from agentic_core.judges.causes import CAUSES, cause_from_text, cause_of
from agentic_core.judges.llm.timing import CallReport, nice_seconds
from agentic_core.judges.monitor import RunMonitor
from agentic_core.judges.runner import JudgeRun, judge_sync, run_judge_sync
from agentic_core.judges.spec import LLMSpec
from agentic_core.judges.verdict_counts import verdict_counts
from tests.fakes import (
    AuthenticationError,
    FakeAPIError,
    HangingChatModel,
    RaisingChatModel,
    RateLimitingChatModel,
    garbage_chat_model,
    judgement_json,
    make_items,
)
from tests.judges.conftest import ITEM, ScriptedChatModel, fast_judge
from tests.judges.standin import StandInServer

pytestmark = pytest.mark.timeout(60)


def _cause(model: object, **kwargs: object) -> str | None:
    verdict = judge_sync(fast_judge(model, **kwargs), [ITEM])[0]  # type: ignore[arg-type]
    assert verdict.status == "failed" and verdict.score is None
    return verdict.cause


def test_a_timeout_is_timed_out() -> None:
    assert _cause(HangingChatModel(), timeout_s=0.05) == "timed_out"


def test_a_reply_that_is_not_a_judgement_is_an_invalid_reply() -> None:
    assert _cause(garbage_chat_model()) == "invalid_reply"
    assert _cause(ScriptedChatModel(replies=[judgement_json(1.7)])) == "invalid_reply"  # out of range


def test_a_rate_limit_beyond_the_retries_is_rate_limited() -> None:
    assert _cause(RateLimitingChatModel(fail_times=100), max_retries=1) == "rate_limited"


def test_a_5xx_beyond_the_retries_is_a_server_error() -> None:
    assert _cause(RaisingChatModel(make_error=lambda: FakeAPIError("boom", 503)), max_retries=1) == "server_error"


def test_a_refused_request_is_rejected() -> None:
    assert _cause(RaisingChatModel(make_error=AuthenticationError)) == "rejected"
    assert _cause(RaisingChatModel(make_error=lambda: FakeAPIError("no such model", 404))) == "rejected"


def test_anything_else_is_other() -> None:
    assert _cause(RaisingChatModel()) == "other"  # ValueError: model exploded


def test_a_pinned_format_the_server_refuses_is_refused_format() -> None:
    with StandInServer("llama.cpp", latency_s=0.01) as server:
        judge = LLMSpec(
            provider="openai-compatible", model="m", base_url=server.base_url, use_structured_output="json_schema",
            timeout_s=10.0,
        ).build()
        run = run_judge_sync(judge, make_items(2), cache_mode="off")
    assert [v.cause for v in run.verdicts] == ["refused_format", "refused_format"]


def test_a_server_that_is_not_there_is_unreachable() -> None:
    with socket.socket() as sock:  # a port nothing listens on: bound, never accepting
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        url = f"http://127.0.0.1:{port}/v1"
        judge = LLMSpec(provider="openai-compatible", model="m", base_url=url, max_retries=0).build()
        run = run_judge_sync(judge, make_items(1), cache_mode="off")
    assert run.verdicts[0].cause == "unreachable", run.verdicts[0].error


def test_an_abstention_is_uncertain_and_a_cancelled_runs_missing_items_are_not_judged() -> None:
    assert cause_of(uncertain_verdict(0.5, "between the bands", "p in the middle")) == "uncertain"
    monitor = RunMonitor(2)
    monitor.record(0, Verdict(score=1.0))
    partial = monitor.partial("not judged: the run was cancelled before this interaction")
    assert [cause_of(v) for v in partial] == [None, "not_judged"]


def test_scored_verdicts_have_no_cause() -> None:
    assert cause_of(Verdict(score=0.4)) is None and cause_of(Verdict(score=0.4, status="cached")) is None


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        ("TimeoutError: no reply within 60 s (after 5 attempts)", "timed_out"),
        ("RateLimitError: Rate limit reached; retry later (after 5 attempts)", "rate_limited"),
        ("unparseable judge output (no JSON object with a 'score' key); raw output: 'fine'", "invalid_reply"),
        ("the provider returned an empty response (no content)", "invalid_reply"),
        ("APIConnectionError: Connection error. (after 5 attempts)", "unreachable"),
        ("InternalServerError: Error code: 500 - boom (after 5 attempts)", "server_error"),
        ("AuthenticationError: Error code: 401 (HTTP 401: not retried; check the API key)", "rejected"),
        ("not judged: the run was cancelled before this interaction", "not_judged"),
        ("offline judge failed; no embedding model", "other"),
    ],
)
def test_verdicts_stored_without_a_cause_are_classified_from_their_error(error: str, cause: str) -> None:
    # Runs stored before causes were recorded, and verdicts of other judges, carry only the error text.
    assert cause_from_text("failed", error) == cause
    assert cause_of(Verdict(score=None, status="failed", error=error)) == cause


def _run(verdicts: list[Verdict], calls: CallReport | None = None) -> JudgeRun:
    counts = {s: sum(v.status == s for v in verdicts) for s in ("ok", "failed", "cached", "uncertain")}
    return JudgeRun(verdicts=verdicts, identity=JudgeIdentity(kind="llm"), counts=counts, llm_calls=calls)


TIMED_OUT = Verdict(score=None, status="failed", error="TimeoutError: no reply within 60 s", cause="timed_out")


def test_the_issues_sentence_for_two_timeouts() -> None:
    # The first reply took 29 s; the suggested timeout is 4 x 29 = 116 s, up to two significant digits: 120.
    calls = CallReport(timeout_s=60, timeout_explicit=True, timed_out_after_s=60, first_reply_s=29.2,
                       slowest_reply_s=29.2, suggested_timeout_s=nice_seconds(4 * 29.2), concurrency=8)  # fmt: skip
    counts = verdict_counts(_run([TIMED_OUT, TIMED_OUT, Verdict(score=0.9)]))
    assert counts.causes["timed_out"] == 2 and sum(counts.causes.values()) == 2
    assert counts.unscored_words(calls) == (
        "2 unscored: 2 timed out after 60 s (the server answered the first call in 29 s; try --timeout 120 or "
        "--concurrency 1)"
    )


def test_every_cause_is_counted_and_worded() -> None:
    verdicts = [Verdict(score=None, status="failed", error="x", cause=c) for c in CAUSES if c != "uncertain"]
    verdicts.append(uncertain_verdict(0.5, "r", "why"))
    counts = verdict_counts(_run(verdicts))
    assert counts.causes == dict.fromkeys((str(c) for c in CAUSES), 1)
    words = counts.unscored_words()
    assert words.startswith(f"{len(CAUSES)} unscored: ")
    for phrase in ("timed out", "refused", "not judgements", "rate limited", "server error", "could not reach",
                   "rejected", "uncertain", "not judged", "failed otherwise"):  # fmt: skip
        assert phrase in words


def test_a_stored_counts_mapping_has_no_causes_and_a_frame_is_read_from_its_errors() -> None:
    assert verdict_counts({"ok": 3, "failed": 1}).unscored_words() == "1 unscored"
    frame = pd.DataFrame(
        {
            "judge_status": ["ok", "failed", "failed", "uncertain"],
            "judge_error": [None, "TimeoutError: no reply within 5 s", "RateLimitError: slow", "uncertain: p=0.5"],
        }
    )
    causes = verdict_counts(frame).causes
    assert (causes["timed_out"], causes["rate_limited"], causes["uncertain"], sum(causes.values())) == (1, 1, 1, 3)


@given(st.floats(min_value=1e-3, max_value=1e5, allow_nan=False))
def test_nice_seconds_rounds_up_to_two_significant_digits(x: float) -> None:
    y = nice_seconds(x)
    assert x <= y * (1 + 1e-9) and y <= x * 1.1 + 1e-9  # up, by less than one unit of the second digit
    digits = y / 10 ** (math.floor(math.log10(y)) - 1)
    assert abs(digits - round(digits)) < 1e-6  # two significant digits
