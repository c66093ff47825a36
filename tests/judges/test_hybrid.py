"""The ``hybrid`` and ``lexical`` judges: fitted variants of the learned model that never abstain (issue 38).

``hybrid`` is the learned model with the MiniLM cosine, ``lexical`` the one without it; both score every pair with
the model's P(correct) (correct at or above 0.5), where ``learned`` leaves the band between its cuts uncertain.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from agentic_core.judges.base import Judge, JudgeItem
from agentic_core.judges.offline.learned import (
    RECOMMENDED_THRESHOLD,
    HybridJudge,
    LearnedJudge,
    LexicalJudge,
    load_models,
)
from agentic_core.judges.registry import build_judge
from agentic_core.judges.runner import judge_sync, run_judge_sync

DEVSET = Path(__file__).resolve().parents[2] / "sample_data" / "judge_devset.jsonl"

ITEMS = [
    JudgeItem(query="Capital of France?", answer="The capital of France is Paris.", ground_truth="Paris"),
    JudgeItem(query="Capital of France?", answer="Lyon.", ground_truth="Paris"),
    JudgeItem(query="Is the flight booked?", answer="The flight is not booked.", ground_truth="The flight is booked."),
    JudgeItem(query="Help?", answer="I'm sorry, I can't help with that.", ground_truth="Your order shipped."),
    JudgeItem(query="How long is the trip?", answer="Maybe 6, 7 or 8 days.", ground_truth="7 days"),
]


@pytest.fixture(scope="module")
def hybrid() -> HybridJudge:
    return HybridJudge()


def test_the_names_on_the_cli_and_endpoint_build_the_fitted_variants() -> None:
    # Contract: the judge names stay; what they build is now the fitted model.
    assert isinstance(build_judge("lexical"), LexicalJudge)
    assert isinstance(build_judge("hybrid"), HybridJudge)
    for judge in (LexicalJudge(), HybridJudge(use_embedding=False)):
        assert isinstance(judge, Judge) and judge.recommended_threshold == RECOMMENDED_THRESHOLD == 0.5


def test_they_never_abstain_and_score_with_the_learned_models_probability(hybrid: HybridJudge) -> None:
    learned = judge_sync(LearnedJudge(), ITEMS)
    for judge, kind in ((hybrid, "embedding"), (LexicalJudge(), "lexical")):
        verdicts = judge_sync(judge, ITEMS)
        assert all(v.status == "ok" and v.score is not None and v.score == v.probability for v in verdicts)
        if kind == "embedding":  # the same model as learned: the same probability, uncertain or not
            assert [v.probability for v in verdicts] == pytest.approx([v.probability for v in learned])
        scores = [v.score for v in verdicts]
        assert scores[0] is not None and scores[0] >= 0.5
        assert all(s is not None and s < 0.5 for s in scores[1:]), (judge.identity.kind, scores)
        assert all(f"correct at or above {RECOMMENDED_THRESHOLD}" in (v.reasoning or "") for v in verdicts)


def test_the_lexical_variant_is_the_model_fitted_without_the_cosine() -> None:
    models, _, _ = load_models()
    judge = LexicalJudge()
    assert judge.model is models["lexical"] or judge.model.features == models["lexical"].features
    assert "cosine" not in judge.model.features and "cosine" in models["embedding"].features
    assert judge.notice is None and judge.warnings == []  # no embedding wanted: nothing to warn about


def test_the_identities_differ_by_judge_and_by_embedding() -> None:
    prints = {
        LearnedJudge(use_embedding=False).identity.fingerprint(),
        LexicalJudge().identity.fingerprint(),
        HybridJudge(use_embedding=False).identity.fingerprint(),
        HybridJudge().identity.fingerprint(),
        LearnedJudge().identity.fingerprint(),
    }
    assert len(prints) == 5
    params = LexicalJudge().identity.params
    assert params["abstains"] is False and params["embedding"] is False and len(params["model_sha256"]) == 64


def test_hybrid_without_the_embedding_packages_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentic_core.judges.offline import minilm_files

    monkeypatch.setattr(
        minilm_files, "embedding_available", lambda: (False, "needs onnxruntime; pip install onnxruntime==1.31.1")
    )
    fallback = HybridJudge()
    assert fallback.notice is not None and "pip install" in fallback.notice
    assert fallback.identity.params["embedding"] is False
    run = run_judge_sync(fallback, [JudgeItem(query="q", answer="Paris", ground_truth="Paris")], cache_mode="off")
    assert run.verdicts[0].score is not None and run.verdicts[0].score >= 0.5
    assert any("Hybrid judge without embeddings" in w for w in run.warnings)


def test_devset_floor_of_the_lexical_variant() -> None:
    # A floor that can fail (the fitted model reaches ~0.97 on the pairs it was fitted on, see
    # benchmarks/RESULTS.md); the fresh holdout is measured by benchmarks/labelled_pairs.py, never here.
    records = [json.loads(line) for line in DEVSET.read_text().splitlines() if line.strip()]
    items = [JudgeItem(query=r["query"], answer=r["answer"], ground_truth=r["ground_truth"]) for r in records]
    scores = np.array([v.score for v in judge_sync(LexicalJudge(), items)], dtype=float)
    labels = np.array([r["label"] for r in records])
    assert roc_auc_score(labels, scores) >= 0.93
    assert ((scores >= 0.5) == (labels == 1)).mean() >= 0.88
