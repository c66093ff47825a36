"""The verdicts shipped for the built-in samples: current with the default judge, used as cache hits."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_core.evaluate import judge_items
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.judges.cache import JudgeCache, cache_key
from agentic_core.judges.packs import packed_verdicts
from agentic_core.judges.registry import DEFAULT_JUDGE, build_judge
from agentic_core.judges.runner import estimate_calls, run_judge_sync

REWRITE = "the shipped verdicts are behind the default judge: run python -m agentic_core.warmup --write-pack"


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_shipped_verdicts_are_what_the_default_judge_says_now(sample: str) -> None:
    judge = build_judge(DEFAULT_JUDGE)
    items = judge_items(load_sample(sample).conversations)
    keys = [cache_key(judge.identity.fingerprint(), item) for item in items]
    assert set(packed_verdicts(keys)) == set(keys), REWRITE
    fresh = run_judge_sync(judge, items, cache=None, cache_mode="off").verdicts
    shipped = packed_verdicts(keys)
    for key, verdict in zip(keys, fresh, strict=True):
        assert shipped[key].score == pytest.approx(verdict.score, abs=1e-12), REWRITE
        assert shipped[key].reasoning == verdict.reasoning, REWRITE
        # An abstention ships as one, with its probability and reason.
        assert (shipped[key].status == "uncertain") == (verdict.status == "uncertain"), REWRITE
        assert shipped[key].probability == pytest.approx(verdict.probability, abs=1e-12), REWRITE


def test_a_fresh_cache_answers_the_samples_from_the_shipped_verdicts(tmp_path: Path) -> None:
    judge = build_judge(DEFAULT_JUDGE)
    items = judge_items(load_sample("support").conversations)
    with JudgeCache(tmp_path / "cache.sqlite") as cache:
        assert len(cache) == 0
        assert estimate_calls(judge, items, cache, "use") == 0  # the Run page's estimate agrees
        run = run_judge_sync(judge, items, cache=cache, cache_mode="use")
        assert run.model_calls == 0 and run.counts["cached"] + run.counts["uncertain"] == len(items)
        assert run.cache_hits == len({(i.query, i.answer, i.ground_truth) for i in items})
        assert len(cache) == run.cache_hits  # copied into the user's cache
        # Refresh means judge again: the shipped verdicts are not used.
        assert estimate_calls(judge, items, cache, "refresh") == run.cache_hits
        again = run_judge_sync(judge, items, cache=cache, cache_mode="refresh")
        assert again.model_calls == run.cache_hits and again.counts["cached"] == 0


def test_another_judge_finds_no_shipped_verdict() -> None:
    # The key hashes the judge's fingerprint: a lexical-only judge cannot pick up hybrid verdicts.
    other = build_judge("lexical")
    items = judge_items(load_sample("support").conversations)
    assert packed_verdicts(cache_key(other.identity.fingerprint(), item) for item in items) == {}
