"""benchmarks/bench_cascade.py: the LLM stand-in agrees at exactly the set rate; calls and kappas are counted."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from agentic_core.judges.base import JudgeItem, ProgressFn, Verdict
from benchmarks import bench_cascade
from benchmarks.bench_cascade import AgreeingLLM, RebandedJudge, kappa_of, wrong_pairs
from tests.cascade_fakes import UNSURE, AbstainingJudge
from tests.fakes import FakeJudge


def _keys(n: int) -> list[tuple[str, str, str]]:
    return [(f"q{i}", f"a{i}", f"t{i}") for i in range(n)]


def test_the_stand_in_is_wrong_on_exactly_the_set_share_deterministically() -> None:
    keys = _keys(200)
    wrong = wrong_pairs(keys, 0.92, seed=3)
    assert len(wrong) == 16 and wrong == wrong_pairs(keys, 0.92, seed=3) and wrong != wrong_pairs(keys, 0.92, seed=4)
    labels = {k: i % 2 for i, k in enumerate(keys)}
    llm = AgreeingLLM(labels, wrong, "t")
    items = [JudgeItem(query=q, answer=a, ground_truth=t) for q, a, t in keys]
    verdicts = asyncio.run(llm.ajudge(items))
    agree = sum(
        (v.score is not None and v.score >= 0.7) == bool(labels[k]) for v, k in zip(verdicts, keys, strict=True)
    )
    assert agree == 184 and llm.calls == 200


def test_kappa_leaves_unscored_verdicts_out_and_counts_them() -> None:
    verdicts = [Verdict(score=0.9), Verdict(score=0.1), Verdict(status="failed"), Verdict(score=0.9)]
    kappa, unscored = kappa_of(verdicts, [1, 0, 1, 0])
    assert unscored == 1 and kappa == pytest.approx(0.4)  # 2 of 3 agree; chance agreement 4/9


class _WithProbability(FakeJudge):
    """Each answer is its own probability (and score)."""

    async def ajudge(self, items: Sequence[JudgeItem], progress: ProgressFn | None = None) -> list[Verdict]:
        return [Verdict(score=p, probability=p) for p in (float(i.answer) for i in items)]


def test_rebanding_abstains_strictly_inside_the_band() -> None:
    items = [JudgeItem(query="q", answer=str(p), ground_truth="t") for p in (0.05, 0.2, 0.5, 0.8, 0.95)]
    verdicts = asyncio.run(RebandedJudge(_WithProbability(), 0.2, 0.8).ajudge(items))
    assert [v.status for v in verdicts] == ["ok", "ok", "uncertain", "ok", "ok"]
    assert verdicts[2].probability == 0.5 and verdicts[2].score is None


def test_run_counts_the_llm_calls_the_cascade_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [("Paris", 1), ("Lyon", 0), ("Paris.", 1), (f"{UNSURE} Paris", 1), (f"{UNSURE} Rome", 0)]
    devset = tmp_path / "devset.jsonl"
    devset.write_text(
        "\n".join(
            json.dumps(
                {
                    "id": f"r{i}",
                    "query": f"q{i}",
                    "answer": a,
                    "ground_truth": "Paris",
                    "label": lab,
                    "category": "c",
                    "split": "holdout",
                }
            )
            for i, (a, lab) in enumerate(rows)
        )
    )
    monkeypatch.setattr(bench_cascade, "build_judge", lambda name: AbstainingJudge())
    doc = bench_cascade.run("fake", [1.0], 2, "holdout", devset)
    assert doc["profile"]["uncertain"] == 2 and doc["pairs"] == 5
    cell = doc["summary"]["1.0"]
    assert cell["saved"]["mean"] == pytest.approx(3 / 5)  # the LLM saw the 2 abstentions only
    assert cell["kappa_llm"]["mean"] == 1.0 and cell["kappa_gap"]["mean"] == 0.0 and cell["goal_met"]
    assert "NOTE" not in bench_cascade.markdown(doc)
