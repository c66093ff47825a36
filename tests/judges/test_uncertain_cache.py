"""Abstentions through the runner, the cache (schema 2, and a schema-1 file converted) and the shipped verdicts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from agentic_core.judges.base import JudgeItem, Verdict, uncertain_verdict
from agentic_core.judges.cache import SCHEMA_VERSION, JudgeCache
from agentic_core.judges.monitor import RunMonitor
from agentic_core.judges.packs import pack_rows, packed_verdicts, write_pack
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.verdict_counts import verdict_counts
from tests.abstaining import AbstainingJudge, abstains_on


def _items(n: int) -> list[JudgeItem]:
    return [JudgeItem(f"q{i}", f"answer {i}", f"truth {i}") for i in range(n)]


def test_an_abstention_is_unscored_with_its_probability_and_reason() -> None:
    v = uncertain_verdict(0.55, "cosine 0.7, token overlap 0.4", "between 0.30 and 0.80")
    assert v.score is None and v.status == "uncertain" and v.probability == 0.55
    assert v.error == "uncertain: between 0.30 and 0.80"


def test_abstentions_are_cached_and_served_back_uncertain_not_judged_again(tmp_path: Path) -> None:
    items = _items(12)
    judge = AbstainingJudge()
    with JudgeCache(tmp_path / "c.sqlite3") as cache:
        first = run_judge_sync(judge, items, cache=cache)
        expected_uncertain = sum(abstains_on(i) for i in items)
        assert 0 < expected_uncertain < len(items)
        assert first.counts["uncertain"] == expected_uncertain and first.counts["ok"] == len(items) - expected_uncertain
        assert judge.calls == len(items)
        second = run_judge_sync(judge, items, cache=cache)
    assert judge.calls == len(items)  # nothing judged again, abstentions included
    assert second.model_calls == 0 and second.cache_hits == len(items)
    sure = len(items) - expected_uncertain
    assert second.counts == {"ok": 0, "failed": 0, "cached": sure, "uncertain": expected_uncertain}
    for before, after in zip(first.verdicts, second.verdicts, strict=True):
        assert after.probability == before.probability  # the sure verdicts keep theirs too
        assert after.reasoning == before.reasoning
        if before.status == "uncertain":
            assert after.status == "uncertain" and after.score is None and after.error == before.error
        else:
            assert after.status == "cached" and after.score == before.score


def test_a_schema_1_cache_is_converted_and_keeps_its_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE verdicts (key TEXT PRIMARY KEY, judge TEXT NOT NULL, "
        "score REAL NOT NULL CHECK (score >= 0.0 AND score <= 1.0), reasoning TEXT NOT NULL, "
        "input_tokens INTEGER, output_tokens INTEGER, created_at REAL NOT NULL) WITHOUT ROWID"
    )
    conn.execute("INSERT INTO verdicts VALUES ('old', 'j', 0.25, 'kept from schema 1', 7, 3, 1.0)")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with JudgeCache(path) as cache:
        old = cache.get_many(["old"])["old"]
        assert (old.score, old.status, old.reasoning, old.input_tokens, old.probability) == (
            0.25, "cached", "kept from schema 1", 7, None
        )
        assert cache.put_many([("new", uncertain_verdict(0.5, "r", "why"))], judge="j") == 1
        assert cache.get_many(["new"])["new"].status == "uncertain"
        assert not cache.warnings
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    conn.close()


def test_a_schema_1_cache_that_can_only_be_read_is_read_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE verdicts (key TEXT PRIMARY KEY, judge TEXT NOT NULL, score REAL NOT NULL, "
        "reasoning TEXT NOT NULL, input_tokens INTEGER, output_tokens INTEGER, created_at REAL NOT NULL)"
    )
    conn.execute("INSERT INTO verdicts VALUES ('old', 'j', 1.0, 'r', NULL, NULL, 1.0)")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    cache = JudgeCache(path)
    # What the cache does when the file cannot be written (root can write any file: called directly).
    assert cache._open_read_only() is not None and cache._read_only
    old = cache.get_many(["old"])["old"]
    assert (old.score, old.status, old.probability) == (1.0, "cached", None)
    cache.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1  # left as it was
    conn.close()


def test_the_cache_refuses_nothing_an_abstention_holds(tmp_path: Path) -> None:
    # The row check: no score is allowed only for an abstention.
    with JudgeCache(tmp_path / "c.sqlite3") as cache:
        cache.put_many([("k", Verdict(score=0.5))], judge="j")
        conn = sqlite3.connect(tmp_path / "c.sqlite3")
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE verdicts SET score = NULL WHERE key = 'k'")
        conn.close()


def test_the_monitor_counts_abstentions_apart() -> None:
    items = _items(10)
    monitor = RunMonitor(len(items))
    run = run_judge_sync(AbstainingJudge(), items, cache=None, cache_mode="off", monitor=monitor)
    snap = monitor.snapshot()
    assert snap.uncertain == run.counts["uncertain"] > 0
    assert snap.judged == run.counts["ok"] and snap.failed == 0
    counts = verdict_counts(run)
    assert counts.words() == f"{counts.judged} judged, {counts.uncertain} uncertain (unscored), 0 failed"
    assert counts.judged + counts.uncertain == len(items)


def test_shipped_verdicts_keep_abstentions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = _items(8)
    verdicts = run_judge_sync(AbstainingJudge(), items, cache=None, cache_mode="off").verdicts
    rows = pack_rows("fp", items, verdicts)
    assert len(rows) == len(items)
    target = tmp_path / "verdicts.jsonl"
    monkeypatch.setattr("agentic_core.judges.packs.pack_path", lambda: target)
    write_pack(rows, target)
    shipped = packed_verdicts(str(r["key"]) for r in rows)
    by_key = {str(r["key"]): v for r, v in zip(rows, verdicts, strict=True)}
    for key, verdict in shipped.items():
        original = by_key[key]
        assert verdict.probability == original.probability
        abstained = original.status == "uncertain"
        assert verdict.status == ("uncertain" if abstained else "cached")
        assert verdict.score == original.score and verdict.error == (original.error if abstained else None)
    write_pack([], target)  # leaves the packs' memo empty for the next test
