"""The LLM judge against hostile or broken judge servers: echoed keys, broken replies, huge replies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentic_core.common import secrets
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.llm import judge as llm_module
from agentic_core.judges.llm.errors import BODY_NOT_JSON
from agentic_core.judges.llm.reply_text import MAX_REASONING_CHARS
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.spec import LLMSpec
from tests.echo_server import EchoJudgeServer, echo_key, last_user_text
from tests.fakes import make_items

KEY_A = "sk-caller-A-0123456789abcdef"
KEY_B = "sk-caller-B-fedcba9876543210"


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    secrets.forget_secrets()
    yield
    secrets.forget_secrets()


def _judge(server: EchoJudgeServer, key: str, **kwargs: Any) -> Any:
    return LLMSpec(
        provider="openai-compatible", model="echo-judge", api_key=key, base_url=server.base_url, concurrency=8, **kwargs
    ).build()


def _cache_bytes(tmp_path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("c.sqlite3"))


def test_the_callers_own_key_echoed_by_the_judge_is_masked_before_the_cache(tmp_path: Path) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    with EchoJudgeServer(echo_key) as server:
        run = run_judge_sync(_judge(server, KEY_A), make_items(5), cache=cache)
    assert run.counts["ok"] == 5
    for verdict in run.verdicts:
        assert KEY_A not in verdict.reasoning and f"Bearer {secrets.MASK}" in verdict.reasoning
    cache.close()
    assert KEY_A.encode() not in _cache_bytes(tmp_path)


def test_another_callers_key_echoed_to_this_caller_is_masked(tmp_path: Path) -> None:
    # A judge built with key A registers it; a server then echoes A's key to caller B.
    with EchoJudgeServer(echo_key) as server:
        _judge(server, KEY_A)

    def leak_a(body: dict[str, Any], authorization: str) -> str:
        return json.dumps({"score": 0.8, "reasoning": f"earlier caller used {KEY_A}"})

    cache = JudgeCache(tmp_path / "c.sqlite3")
    with EchoJudgeServer(leak_a) as server:
        run = run_judge_sync(_judge(server, KEY_B), make_items(3), cache=cache)
    assert run.counts["ok"] == 3
    assert all(v.reasoning == f"earlier caller used {secrets.MASK}" for v in run.verdicts)
    cache.close()
    assert KEY_A.encode() not in _cache_bytes(tmp_path)


def _one_bad(bad_content: str) -> Any:
    def reply(body: dict[str, Any], authorization: str) -> str:
        if "q57?" in last_user_text(body):
            return bad_content
        return json.dumps({"score": 0.75, "reasoning": "Same facts."})

    return reply


@pytest.mark.parametrize(
    ("bad_content", "reason"),
    [
        (json.dumps({"score": 0.9, "reasoning": "broken \ud800 text"}), "lone surrogate"),
        ('{"score": 0.9, "reasoning": "deep", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ],
    ids=["lone-surrogate", "nested-100000-deep"],
)
def test_one_bad_reply_is_one_unscored_item_and_every_good_verdict_is_cached(
    tmp_path: Path, bad_content: str, reason: str
) -> None:
    cache = JudgeCache(tmp_path / "c.sqlite3")
    with EchoJudgeServer(_one_bad(bad_content)) as server:
        run = run_judge_sync(_judge(server, KEY_A), make_items(100), cache=cache)
    assert run.counts == {"ok": 99, "failed": 1, "cached": 0, "uncertain": 0}
    (failed,) = [v for v in run.verdicts if v.status == "failed"]
    assert failed.score is None and reason in (failed.error or "")
    assert run.verdicts[57] is failed
    failed.model_dump_json().encode("utf-8")  # every writer downstream accepts the error text
    assert len(cache) == 99


def test_an_unexpected_error_while_reading_one_reply_costs_that_item_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = llm_module.read_judgement

    def flaky(output: Any, message: Any) -> Any:
        if message is not None and "boom" in str(message.content):
            raise RecursionError("maximum recursion depth exceeded")
        return real(output, message)

    monkeypatch.setattr(llm_module, "read_judgement", flaky)
    cache = JudgeCache(tmp_path / "c.sqlite3")
    with EchoJudgeServer(_one_bad('{"score": 0.5, "reasoning": "boom"}')) as server:
        run = run_judge_sync(_judge(server, KEY_A), make_items(100), cache=cache)
    assert run.counts["ok"] == 99 and run.counts["failed"] == 1
    assert "could not be read (RecursionError" in (run.verdicts[57].error or "")
    assert len(cache) == 99


def test_a_huge_reasoning_is_clipped_with_a_note(tmp_path: Path) -> None:
    def huge(body: dict[str, Any], authorization: str) -> str:
        return json.dumps({"score": 0.6, "reasoning": "word " * 400_000})

    cache = JudgeCache(tmp_path / "c.sqlite3")
    with EchoJudgeServer(huge) as server:
        run = run_judge_sync(_judge(server, KEY_A), make_items(2), cache=cache)
    for verdict in run.verdicts:
        assert verdict.score == 0.6
        assert len(verdict.reasoning) <= MAX_REASONING_CHARS and "clipped" in verdict.reasoning
    again = run_judge_sync(_judge(server, KEY_A), make_items(2), cache=cache)
    assert again.counts["cached"] == 2 and again.verdicts[0].reasoning == run.verdicts[0].reasoning


@pytest.mark.parametrize("provider", ["openai", "openai-compatible", "groq"])
@pytest.mark.parametrize("body", [b"<html><body>502 Bad gateway</body></html>", b""], ids=["html", "empty"])
def test_a_200_whose_body_is_not_json_says_so(provider: str, body: bytes) -> None:
    with EchoJudgeServer(raw_body=body) as server:
        judge = LLMSpec(provider=provider, model="m", api_key=KEY_A, base_url=server.base_url, max_retries=0).build()
        run = run_judge_sync(judge, make_items(1))
    error = run.verdicts[0].error or ""
    assert run.verdicts[0].status == "failed"
    assert BODY_NOT_JSON in error and "base_url" in error
    assert "check the API key" not in error


def test_building_a_judge_registers_its_key_for_the_whole_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNUSUAL_NAME", KEY_B)  # a variable whose name says nothing about keys
    assert KEY_B not in secrets.known_secrets()
    LLMSpec(
        provider="openai-compatible", model="m", api_key_env="UNUSUAL_NAME", base_url="http://127.0.0.1:9/v1"
    ).build()
    assert KEY_B in secrets.known_secrets()
    assert secrets.mask_known(f"echo {KEY_B}") == f"echo {secrets.MASK}"
