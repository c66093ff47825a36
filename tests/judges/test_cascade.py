"""The cascade judge: the offline judge where sure, the LLM only for the uncertain (fakes only)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import JudgeItem, Verdict
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.cascade import LLM_PREFIX, OFFLINE_FAILED_PREFIX, OFFLINE_PREFIX, CascadeJudge, cascade_counts
from agentic_core.judges.registry import JUDGES, build_judge
from agentic_core.judges.runner import run_judge_sync
from tests.cascade_fakes import BROKEN, UNSURE, AbstainingJudge
from tests.fakes import FakeJudge, LatencyChatModel, SlowStreamJudge, judgement_json
from tests.judges.conftest import fast_judge


def _items() -> list[JudgeItem]:
    answers = ["Paris", f"maybe Paris {UNSURE}", "Lyon", f"{UNSURE} Rome", f"{BROKEN} x", "Paris!", f"{UNSURE} z"]
    return [JudgeItem(query=f"q{i}?", answer=a, ground_truth="Paris") for i, a in enumerate(answers)]


def _judge(items: list[JudgeItem], cascade: CascadeJudge) -> list[Verdict]:
    return asyncio.run(cascade.ajudge(items))


def test_only_the_uncertain_items_go_to_the_llm_and_its_verdict_stands_for_them() -> None:
    items = _items()
    offline, llm = AbstainingJudge(), FakeJudge(0.8, recommended_threshold=0.7)
    cascade = CascadeJudge(offline, llm)
    verdicts = _judge(items, cascade)
    assert offline.judged == items  # the offline judge sees everything
    assert llm.judged == [i for i in items if UNSURE in i.answer]  # the LLM exactly the abstentions
    for item, verdict in zip(items, verdicts, strict=True):
        if UNSURE in item.answer:
            assert verdict.score == 0.8 and verdict.status == "ok"
            assert verdict.reasoning.startswith(f"{LLM_PREFIX} (p=0.55: P(correct) 0.55 is inside the band); LLM: ")
            assert verdict.reasoning.endswith("fake 0.8")
        elif BROKEN in item.answer:
            assert verdict.status == "failed" and verdict.score is None
            assert verdict.reasoning.startswith(OFFLINE_FAILED_PREFIX)
            assert verdict.error == "cannot read this answer"
        else:
            assert verdict.score == offline.verdict(item).score
            assert verdict.reasoning.startswith(f"{OFFLINE_PREFIX} (p=")
    counts = cascade_counts(verdicts)  # read back from the verdicts alone
    assert (counts.decided_offline, counts.sent_to_llm, counts.llm_failed, counts.offline_failed) == (3, 3, 0, 1)
    assert counts.as_json()["llm_share"] == round(3 / 7, 6)
    assert "3 of 7 interaction(s) went to the LLM judge" in counts.summary()


def test_an_llm_failure_stays_unscored_never_the_offline_probability() -> None:
    items = _items()
    cascade = CascadeJudge(AbstainingJudge(), FakeJudge(None))
    verdicts = _judge(items, cascade)
    sent = [v for i, v in zip(items, verdicts, strict=True) if UNSURE in i.answer]
    assert sent and all(v.status == "failed" and v.score is None for v in sent)
    assert all(v.error == "fake failure" and "failed, so unscored" in v.reasoning for v in sent)
    assert cascade_counts(verdicts).llm_failed == 3


def test_a_sure_verdict_that_would_flip_at_the_llm_threshold_goes_to_the_llm() -> None:
    # The offline judge passes 0.6 at its threshold 0.5; the cascade's threshold (the LLM's) is 0.7.
    offline = AbstainingJudge(threshold=0.5, score_sure=0.6)
    llm = FakeJudge(0.9, recommended_threshold=0.7)
    cascade = CascadeJudge(offline, llm)
    item = JudgeItem(query="q?", answer="Paris", ground_truth="Paris")
    (verdict,) = _judge([item], cascade)
    assert llm.judged == [item] and verdict.score == 0.9
    assert "passes at its own threshold 0.5 but not at the cascade's 0.7" in verdict.reasoning
    assert cascade.recommended_threshold == 0.7


def test_identity_changes_with_either_judge_and_names_both() -> None:
    base = CascadeJudge(AbstainingJudge("v1"), FakeJudge(kind="llm"))
    other_offline = CascadeJudge(AbstainingJudge("v2"), FakeJudge(kind="llm"))
    other_llm = CascadeJudge(AbstainingJudge("v1"), FakeJudge(kind="llm2"))
    same = CascadeJudge(AbstainingJudge("v1"), FakeJudge(kind="llm"))
    prints = {j.identity.fingerprint() for j in (base, other_offline, other_llm)}
    assert len(prints) == 3 and same.identity.fingerprint() == base.identity.fingerprint()
    assert base.identity.kind == "cascade"
    assert base.identity.params["offline"] == AbstainingJudge("v1").identity.fingerprint()
    assert base.identity.params["llm"] == FakeJudge(kind="llm").identity.fingerprint()


def test_progress_counts_both_stages_up_to_the_total() -> None:
    items = _items()
    seen: list[tuple[int, int]] = []
    asyncio.run(CascadeJudge(AbstainingJudge(), FakeJudge(0.8)).ajudge(items, lambda d, t: seen.append((d, t))))
    assert [d for d, _ in seen] == list(range(1, len(items) + 1)) and {t for _, t in seen} == {len(items)}


def test_the_runner_caches_cascade_verdicts_and_counts_come_back_from_the_cache(tmp_path: Path) -> None:
    items = _items()
    llm = FakeJudge(0.8)
    cache = JudgeCache(tmp_path / "cache.sqlite3")
    first = run_judge_sync(CascadeJudge(AbstainingJudge(), llm), items, cache=cache)
    assert len(llm.judged) == 3 and first.model_calls == len(items)
    second = run_judge_sync(CascadeJudge(AbstainingJudge(), llm), items, cache=cache)
    assert len(llm.judged) == 3  # nothing asked again: the LLM's verdicts came from the cache
    counts = cascade_counts(second.verdicts)
    # the failed offline verdict is not cached: judged again, not sent to the LLM again
    assert (counts.decided_offline, counts.sent_to_llm, counts.offline_failed, counts.from_cache) == (3, 3, 1, 6)


def test_the_llm_judges_token_usage_is_counted() -> None:
    model = LatencyChatModel(latency_s=0.0, reply=judgement_json(0.9), usage=(100, 20))
    cascade = CascadeJudge(AbstainingJudge(), fast_judge(model, use_structured_output="text"))
    verdicts = _judge(_items(), cascade)
    assert model.calls == 3
    counts = cascade_counts(verdicts)
    assert (counts.llm_input_tokens, counts.llm_output_tokens) == (300, 60)


def test_registry_builds_the_cascade_with_the_llm_options(monkeypatch: pytest.MonkeyPatch) -> None:
    assert JUDGES["cascade"].offline is False  # needs the LLM's key
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    with pytest.raises(JudgeConfigError, match="GROQ_API_KEY"):
        build_judge("cascade", provider="groq", model="m")
    with pytest.raises(JudgeConfigError, match="offline judges"):
        build_judge("cascade", provider="ollama", model="m", offline="llm")
    judge = build_judge("cascade", provider="ollama", model="llama3", offline="lexical")
    assert isinstance(judge, CascadeJudge) and judge.offline.identity.kind == "lexical"
    assert judge.identity.model == "llama3" and judge.identity.params["provider"] == "ollama"


def test_the_offline_judges_notice_and_warnings_reach_the_page_and_the_run() -> None:
    offline = AbstainingJudge()
    offline.notice = "running lexical-only"  # type: ignore[attr-defined]
    offline.warnings = ["offline warning"]
    llm = FakeJudge()
    llm.warnings = ["llm warning"]  # type: ignore[attr-defined]
    cascade = CascadeJudge(offline, llm)
    assert cascade.notice == "running lexical-only"
    run = run_judge_sync(cascade, _items())
    assert run.warnings == ["offline warning", "llm warning"]
    assert CascadeJudge(AbstainingJudge(), llm).notice is None


def test_stopping_the_run_stops_the_llm_stage_and_keeps_what_was_judged(tmp_path: Path) -> None:
    items = [JudgeItem(query=f"q{i}?", answer=f"{UNSURE} {i}", ground_truth="Paris") for i in range(40)]
    llm = SlowStreamJudge(0.9, per_item_s=0.01)
    cache = JudgeCache(tmp_path / "cache.sqlite3")
    seen = 0

    def progress(done: int, total: int) -> None:
        nonlocal seen
        seen = done
        if done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_judge_sync(CascadeJudge(AbstainingJudge(), llm), items, cache=cache, progress=progress)
    assert 5 <= llm.streamed < 40  # the LLM stage stopped, it did not run on to the end
    again = FakeJudge(0.9)
    rerun = run_judge_sync(CascadeJudge(AbstainingJudge(), again), items, cache=cache)
    assert rerun.cache_hits >= 5 and len(again.judged) == 40 - rerun.cache_hits
