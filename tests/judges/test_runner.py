"""run_judge: dedupe, cache modes, accounting, interruption, and no key leaking to disk or logs."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from agentic_core.errors import SettingsError
from agentic_core.judges.base import JudgeItem
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CHUNK_SIZE, estimate_calls, run_judge, run_judge_sync
from agentic_core.judges.spec import LLMSpec
from tests.fakes import (
    CountingJudge,
    FakeJudge,
    LatencyChatModel,
    OpenAIStandIn,
    RateLimitingChatModel,
    llm_judge_over,
    make_items,
)

SECRET = "sk-test-SECRET123"


@pytest.fixture
def cache(tmp_path: Path) -> JudgeCache:
    return JudgeCache(tmp_path / "cache" / "judge_cache.sqlite3")


# -- cache modes and accounting ---------------------------------------------------------------------


def test_second_run_is_all_cache_hits_with_zero_model_calls(cache: JudgeCache) -> None:
    items = make_items(30)
    judge = CountingJudge(FakeJudge(lambda item: len(item.answer) / 100, tokens=(10, 2)))
    first = run_judge_sync(judge, items, cache=cache)
    assert (first.cache_hits, first.cache_misses, first.model_calls) == (0, 30, 30)
    assert first.counts == {"ok": 30, "failed": 0, "cached": 0, "uncertain": 0}
    assert (first.input_tokens, first.output_tokens) == (300, 60)

    second = run_judge_sync(judge, items, cache=cache)
    assert (second.cache_hits, second.cache_misses, second.model_calls) == (30, 0, 0)
    assert second.counts == {"ok": 0, "failed": 0, "cached": 30, "uncertain": 0}
    assert judge.items_judged == 30
    assert [v.status for v in second.verdicts] == ["cached"] * 30
    assert [v.score for v in second.verdicts] == [v.score for v in first.verdicts]
    assert (second.input_tokens, second.output_tokens) == (0, 0)  # cache hits cost nothing
    assert second.cache_mode == "use" and second.cache_path == str(cache.path)


def test_new_items_only_are_judged(cache: JudgeCache) -> None:
    judge = CountingJudge(FakeJudge(0.5))
    run_judge_sync(judge, make_items(10), cache=cache)
    run = run_judge_sync(judge, make_items(10) + make_items(5, prefix="new"), cache=cache)
    assert (run.cache_hits, run.cache_misses, run.model_calls) == (10, 5, 5)
    assert judge.items_judged == 15
    assert [v.status for v in run.verdicts] == ["cached"] * 10 + ["ok"] * 5


def test_refresh_rejudges_everything_and_overwrites(cache: JudgeCache) -> None:
    items = make_items(8)
    run_judge_sync(FakeJudge(0.2), items, cache=cache)
    newer = CountingJudge(FakeJudge(0.9))  # same identity, new opinion
    refreshed = run_judge_sync(newer, items, cache=cache, cache_mode="refresh")
    assert (refreshed.cache_hits, refreshed.cache_misses, refreshed.model_calls) == (0, 0, 8)
    assert newer.items_judged == 8 and refreshed.counts["ok"] == 8
    again = run_judge_sync(FakeJudge(0.0), items, cache=cache)
    assert [v.score for v in again.verdicts] == [0.9] * 8 and again.model_calls == 0


def test_off_mode_never_touches_the_database(cache: JudgeCache) -> None:
    assert cache.path is not None
    run = run_judge_sync(FakeJudge(0.5), make_items(5), cache=cache, cache_mode="off")
    assert run.model_calls == 5 and run.cache_hits == 0 and run.cache_mode == "off"
    assert not cache.path.exists() and not cache.path.parent.exists()


def test_off_mode_ignores_existing_entries(cache: JudgeCache) -> None:
    items = make_items(4)
    run_judge_sync(FakeJudge(0.1), items, cache=cache)
    before = len(cache)
    run = run_judge_sync(FakeJudge(0.7), items, cache=cache, cache_mode="off")
    assert [v.score for v in run.verdicts] == [0.7] * 4 and len(cache) == before
    assert run_judge_sync(FakeJudge(0.0), items, cache=cache).verdicts[0].score == 0.1


def test_failures_are_not_cached_and_are_retried_next_run(cache: JudgeCache) -> None:
    items = make_items(6)
    flaky = FakeJudge([0.5, None])  # every second item fails
    first = run_judge_sync(flaky, items, cache=cache)
    assert first.counts == {"ok": 3, "failed": 3, "cached": 0, "uncertain": 0}
    assert all(v.score is None and v.error for v in first.verdicts if v.status == "failed")
    assert len(cache) == 3

    healthy = CountingJudge(FakeJudge(0.8))
    second = run_judge_sync(healthy, items, cache=cache)
    assert second.model_calls == 3 and healthy.items_judged == 3
    assert second.counts == {"ok": 3, "failed": 0, "cached": 3, "uncertain": 0}


def test_non_cacheable_judge_skips_the_cache(cache: JudgeCache) -> None:
    assert cache.path is not None
    judge = CountingJudge(FakeJudge(0.5, cacheable=False))
    run = run_judge_sync(judge, make_items(4), cache=cache)
    assert run.model_calls == 4 and run.cache_mode == "off" and run.cache_path is None
    assert not cache.path.exists()


def test_other_judge_identity_misses(cache: JudgeCache) -> None:
    items = make_items(3)
    run_judge_sync(FakeJudge(0.5, kind="one"), items, cache=cache)
    run = run_judge_sync(FakeJudge(0.5, kind="two"), items, cache=cache)
    assert run.cache_hits == 0 and run.model_calls == 3


def test_invalid_cache_mode() -> None:
    with pytest.raises(SettingsError):
        run_judge_sync(FakeJudge(), make_items(1), cache_mode="sometimes")  # type: ignore[arg-type]


# -- dedupe, order, progress ------------------------------------------------------------------------


def test_identical_items_are_judged_once_and_share_the_verdict(cache: JudgeCache) -> None:
    a, b = make_items(2)
    items = [a, b, a, a, b]
    judge = CountingJudge(FakeJudge(lambda item: 0.3 if item == a else 0.6, tokens=(5, 1)))
    run = run_judge_sync(judge, items, cache=cache)
    assert judge.items_judged == 2 and run.model_calls == 2 and run.duplicates == 3
    assert [v.score for v in run.verdicts] == [0.3, 0.6, 0.3, 0.3, 0.6]
    assert run.counts == {"ok": 5, "failed": 0, "cached": 0, "uncertain": 0}
    assert run.input_tokens == 10  # duplicates cost nothing
    assert run.verdicts[0] is run.verdicts[2] is run.verdicts[3]  # one (frozen) verdict, no copies
    with pytest.raises(ValidationError):
        run.verdicts[0].score = 0.9  # type: ignore[misc]  # so no one item can change the others
    assert estimate_calls(judge, items, cache) == 0


def test_non_cacheable_judge_keeps_items_that_differ_only_in_score() -> None:
    base = JudgeItem(query="q", answer="a", ground_truth="g", score=0.1)
    items = [base, dataclasses.replace(base, **{"score": 0.9}), base]
    judge = CountingJudge(FakeJudge(lambda item: item.score, cacheable=False))
    run = run_judge_sync(judge, items)
    assert judge.items_judged == 2 and [v.score for v in run.verdicts] == [0.1, 0.9, 0.1]


def test_order_is_kept_across_hits_misses_and_duplicates(cache: JudgeCache) -> None:
    items = make_items(20)
    score = {item: i / 20 for i, item in enumerate(items)}
    judge = FakeJudge(lambda item: score[item])
    run_judge_sync(judge, items[::2], cache=cache)
    mixed = list(reversed(items)) + items[:3]
    run = run_judge_sync(judge, mixed, cache=cache)
    assert [v.score for v in run.verdicts] == [score[item] for item in mixed]


def test_progress_covers_hits_and_ends_at_total(cache: JudgeCache) -> None:
    items = make_items(300)
    run_judge_sync(FakeJudge(0.5), items[:100], cache=cache)
    seen: list[tuple[int, int]] = []
    asyncio.run(
        run_judge(FakeJudge(0.5), items + items[:10], cache=cache, progress=lambda d, t: seen.append((d, t)))
    )
    assert seen[0] == (110, 310)  # cache hits (and their duplicates) are done at once
    assert seen[-1] == (310, 310)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_sync_progress_is_called_in_the_callers_thread(cache: JudgeCache) -> None:
    import threading

    threads: set[int] = set()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        threads.add(threading.get_ident())
        seen.append(done)

    run_judge_sync(FakeJudge(0.5, latency_s=0.01), make_items(300), cache=cache, progress=progress)
    assert threads == {threading.get_ident()}
    assert seen and seen[-1] == 300


def test_estimate_calls(cache: JudgeCache) -> None:
    items = make_items(10) + make_items(2)
    judge = FakeJudge(0.5)
    assert estimate_calls(judge, items, cache) == 10
    run_judge_sync(judge, make_items(4), cache=cache)
    assert estimate_calls(judge, items, cache) == 6
    assert estimate_calls(judge, items, cache, "refresh") == 10
    assert estimate_calls(judge, items, cache, "off") == 10
    assert estimate_calls(judge, items, None) == 10
    assert estimate_calls(FakeJudge(0.5, cacheable=False), items, cache) == 10


def test_retries_and_tokens_of_an_llm_judge_are_reported(cache: JudgeCache) -> None:
    model = RateLimitingChatModel(fail_times=2)
    judge = llm_judge_over(model, concurrency=1)
    judge.backoff_base_s = 0.001
    run = run_judge_sync(judge, make_items(3), cache=cache)
    assert run.counts["ok"] == 3 and run.retries == 2 and model.calls == 5
    assert (run.input_tokens, run.output_tokens) == (150, 30)


def test_sync_runs_can_share_one_model_and_work_inside_a_running_loop(cache: JudgeCache) -> None:
    judge = llm_judge_over(LatencyChatModel(latency_s=0.001))

    async def inside_a_loop() -> int:
        return run_judge_sync(judge, make_items(3, prefix="in"), cache=cache).model_calls

    assert asyncio.run(inside_a_loop()) == 3
    assert run_judge_sync(judge, make_items(3, prefix="out"), cache=cache).model_calls == 3


# -- interruption keeps what was judged ---------------------------------------------------------------


def test_judge_dying_half_way_keeps_earlier_chunks(cache: JudgeCache) -> None:
    items = make_items(CHUNK_SIZE * 2 + 50)
    dying = FakeJudge(0.5, fail_on_call=3)
    with pytest.raises(RuntimeError, match="fake judge failure"):
        run_judge_sync(dying, items, cache=cache)
    assert len(cache) == CHUNK_SIZE * 2

    healthy = CountingJudge(FakeJudge(0.5))
    rerun = run_judge_sync(healthy, items, cache=cache)
    assert rerun.model_calls == 50 and healthy.items_judged == 50


def test_cancelled_run_keeps_everything_judged_so_far(cache: JudgeCache) -> None:
    judge = llm_judge_over(LatencyChatModel(latency_s=0.005), concurrency=4)
    done_so_far = 0

    async def main() -> None:
        nonlocal done_so_far
        reached = asyncio.Event()

        def progress(done: int, total: int) -> None:
            nonlocal done_so_far
            done_so_far = done
            if done >= 40:
                reached.set()

        task = asyncio.create_task(run_judge(judge, make_items(400), cache=cache, progress=progress))
        await reached.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert 40 <= done_so_far < 400
    assert len(cache) == done_so_far  # every completed verdict was written, none lost


def test_interrupt_in_sync_run_flushes_before_propagating(cache: JudgeCache) -> None:
    judge = llm_judge_over(LatencyChatModel(latency_s=0.01), concurrency=4)

    def progress(done: int, total: int) -> None:
        if done >= 30:
            raise KeyboardInterrupt  # Ctrl-C, or Streamlit stopping a rerun

    with pytest.raises(KeyboardInterrupt):
        run_judge_sync(judge, make_items(400), cache=cache, progress=progress)
    kept = len(cache)
    assert 30 <= kept < 400
    rerun = run_judge_sync(judge, make_items(400), cache=cache)
    assert rerun.cache_hits == kept and rerun.model_calls == 400 - kept


# -- cache trouble becomes warnings, never a crash -----------------------------------------------------


def test_corrupt_cache_is_rebuilt_and_reported_in_the_run(tmp_path: Path) -> None:
    path = tmp_path / "judge_cache.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    run = run_judge_sync(FakeJudge(0.5), make_items(5), cache=JudgeCache(path))
    assert run.counts["ok"] == 5 and run.model_calls == 5
    assert len(run.warnings) == 1 and "corrupt" in run.warnings[0]
    assert list(tmp_path.glob("judge_cache.sqlite3.corrupt-*"))
    assert run_judge_sync(FakeJudge(0.5), make_items(5), cache=JudgeCache(path)).model_calls == 0


def test_unwritable_cache_is_a_warning_and_the_run_completes(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    run = run_judge_sync(FakeJudge(0.5), make_items(5), cache=JudgeCache(tmp_path / "file" / "c.sqlite3"))
    assert run.counts["ok"] == 5
    assert any("cannot be opened for writing" in w for w in run.warnings)


# -- the key never reaches disk or logs --------------------------------------------------------------


@pytest.mark.timeout(60)
def test_api_key_is_never_written_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # the OpenAI / httpx clients log requests at DEBUG
    monkeypatch.setenv("MY_KEY_VAR", SECRET)
    cache = JudgeCache(tmp_path / "cache" / "judge_cache.sqlite3")
    outputs: list[str] = []
    with OpenAIStandIn() as server:
        for api_key, api_key_env in ((SECRET, None), (None, "MY_KEY_VAR")):
            judge = LLMSpec(
                provider="openai-compatible",
                model="stand-in",
                api_key=api_key,
                api_key_env=api_key_env,
                base_url=server.base_url,
                concurrency=4,
            ).build()
            run = run_judge_sync(judge, make_items(12), cache=cache, cache_mode="refresh")
            assert run.counts["ok"] == 12
            outputs += [run.model_dump_json(), repr(run), repr(judge), judge.identity.label()]
        assert server.auth_headers and set(server.auth_headers) == {f"Bearer {SECRET}"}  # the key was used

    with OpenAIStandIn(status=401) as server:  # a rejected key: errors must not quote it
        judge = LLMSpec(
            provider="openai-compatible", model="stand-in", api_key=SECRET, base_url=server.base_url
        ).build()
        run = run_judge_sync(judge, make_items(2, prefix="auth"), cache=cache)
        assert run.counts["failed"] == 2
        outputs += [v.error or "" for v in run.verdicts] + [run.model_dump_json()]

    (tmp_path / "export.json").write_text("\n".join(outputs))  # what an export would contain
    cache.close()
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "judge_cache.sqlite3" for p in files)
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), f"key found in {path}"
    assert SECRET not in caplog.text
    assert all(SECRET not in text for text in outputs)
