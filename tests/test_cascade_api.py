"""Python API: ``evaluate(data, "cascade", provider=..., model=...)`` as the LLM judge is chosen, and its counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentic_core import aggregate, evaluate, make_settings
from agentic_core.judges.cascade import result_cascade_counts
from tests.cascade_fakes import cascade_dataset, use_abstaining_default
from tests.fakes import OpenAIStandIn


def test_evaluate_with_the_cascade_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_abstaining_default(monkeypatch)
    data = tmp_path / "cascade.json"
    data.write_text(json.dumps(cascade_dataset(n_sure=5, n_unsure=2)))
    with OpenAIStandIn() as server:
        result = evaluate(data, "cascade", provider="openai-compatible", model="m", base_url=server.base_url,
                          cache_mode="off")
    assert server.requests == 2 and result.judge_identity.kind == "cascade"
    counts = result_cascade_counts(result)
    assert counts is not None and (counts.decided_offline, counts.sent_to_llm) == (5, 2)
    assert result.recommended_threshold == 0.7  # the LLM judge's
    assert int(result.interactions["score"].notna().sum()) == 7  # the stand-in's 0.85 and the sure verdicts
    agg = aggregate(result, make_settings(k=1))  # the README's way: the threshold default is the LLM's 0.7
    assert agg.counts.scored_conversations == 7


def test_other_judges_have_no_cascade_counts(tmp_path: Path) -> None:
    data = tmp_path / "plain.json"
    data.write_text(json.dumps(cascade_dataset(n_sure=2, n_unsure=0)))
    assert result_cascade_counts(evaluate(data, "lexical", cache_mode="off")) is None
