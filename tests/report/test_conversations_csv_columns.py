"""The conversations CSV has no column that is empty on every row (issue 25)."""

from __future__ import annotations

import io

import pandas as pd

from agentic_core.analysis.aggregate import aggregate
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.report.exports import export_bytes


def frame(sample: str) -> pd.DataFrame:
    result = evaluate(load_sample(sample), "dataset", cache_mode="off")
    return pd.read_csv(io.BytesIO(export_bytes(result, aggregate(result), "conversations")))


def test_one_interaction_per_conversation_leaves_out_the_empty_statistics() -> None:
    travel = frame("travel")
    assert not [c for c in travel.columns if travel[c].isna().all()]
    assert "pass_at_k" not in travel.columns and "statistics" not in travel.columns
    assert {"session_id", "status", "is_fully_correct", "k"} <= set(travel.columns)


def test_conversations_with_several_interactions_keep_them_and_say_how() -> None:
    seeds = frame("seeds")
    assert {"pass_at_k", "pass_pow_k", "statistics"} <= set(seeds.columns)
    assert seeds["pass_at_k"].notna().any()
