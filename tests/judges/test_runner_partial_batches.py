"""A verdict the cache cannot take costs that verdict only, never its batch or the run."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from agentic_core.judges.base import JudgeItem, Verdict
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import run_judge_sync
from tests.fakes import FakeJudge, make_items


def test_one_verdict_the_cache_refuses_leaves_every_other_verdict_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = JudgeCache.put_many

    def picky(self: JudgeCache, entries: Iterable[tuple[str, Verdict]], *, judge: str = "") -> int:
        entries = list(entries)
        if any(v.score == 0.25 for _, v in entries):
            raise ValueError("cannot store this one")
        return real(self, entries, judge=judge)

    monkeypatch.setattr(JudgeCache, "put_many", picky)

    def score(item: JudgeItem) -> Any:
        return 0.25 if item.query == "q57?" else 0.75

    cache = JudgeCache(tmp_path / "c.sqlite3")
    run = run_judge_sync(FakeJudge(score), make_items(100), cache=cache)
    assert run.counts["ok"] == 100 and run.verdicts[57].score == 0.25
    assert len(cache) == 99
    (warning,) = [w for w in run.warnings if "could not be stored" in w]
    assert "1 verdict(s)" in warning and "ValueError: cannot store this one" in warning
