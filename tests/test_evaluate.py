"""evaluate() judges once: what it stores, what it skips and reports, what it refuses."""


from __future__ import annotations

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.errors import DataError
from agentic_core.evaluate import evaluate
from agentic_core.io.loader import load_records
from agentic_core.settings import make_settings
from tests.datasets import conv, convs
from tests.fakes import CountingJudge, FakeJudge


def test_aggregate_never_calls_the_judge_again() -> None:
    judge = CountingJudge(FakeJudge([0.9, 0.2, 0.8], cacheable=False))
    result = evaluate(convs([conv(f"s{i}", [0.0, 0.0], task=f"t{i % 2}") for i in range(6)]), judge)
    assert judge.calls == 1 and judge.items_judged == 12
    for threshold in (0.1, 0.5, 0.85):
        for unit in ("task", "conversation", "interaction"):
            for mode in ("bayesian", "frequentist"):
                aggregate(result, make_settings(threshold=threshold, unit=unit, mode=mode, k=2))
    assert judge.calls == 1 and judge.items_judged == 12


def test_dataset_judge_without_scores_is_unscored_with_reason() -> None:
    rec = conv("a", [0.5])
    del rec["conversation"][0]["score"]
    result = evaluate(convs([rec]), "dataset")
    assert result.interactions["judge_status"].tolist() == ["failed"]
    assert "score" in result.interactions["judge_error"].iloc[0]


def test_empty_input_is_a_clear_error() -> None:
    with pytest.raises(DataError, match="at least one conversation"):
        evaluate([], "dataset")
    report = load_records([])
    with pytest.raises(DataError):
        evaluate(report, "dataset")


def test_invalid_records_are_skipped_and_reported_not_dropped_silently() -> None:
    bad = conv("bad", [1.5])
    report = load_records([conv("ok", [0.9]), bad])
    result = evaluate(report, "dataset")
    assert result.n_conversations == 1
    assert result.load_report is not None and len(result.load_report.skipped) == 1
