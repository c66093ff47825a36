"""Per-assistant breakdown: each assistant's numbers equal aggregating its conversations alone."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.assistant_breakdown import by_assistant
from agentic_core.evaluate import evaluate
from agentic_core.settings import make_settings
from tests.datasets import conv, convs


def _records() -> list[dict[str, Any]]:
    records = []
    # Agent a: tasks t0..t2, 3 attempts each, all right but one; agent b: same tasks, half right.
    for t in range(3):
        for i in range(3):
            score = 0.0 if (t, i) == (0, 0) else 1.0
            records.append({**conv(f"a-{t}-{i}", [score], task=f"t{t}"), "assistant_id": "a"})
            records.append({**conv(f"b-{t}-{i}", [1.0 if i == 0 else 0.0], task=f"t{t}"), "assistant_id": "b"})
    return records


@pytest.mark.parametrize("unit", ["task", "conversation", "interaction"])
@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_each_assistant_matches_its_own_aggregate(unit: str, mode: str) -> None:
    records = _records()
    settings = make_settings(threshold=0.5, unit=unit, k=2, mode=mode, n_samples=500)
    rows = by_assistant(aggregate(evaluate(convs(records), "dataset", cache_mode="off"), settings))
    assert [r.assistant for r in rows] == ["a", "b"]
    for row in rows:
        alone = [r for r in records if r["assistant_id"] == row.assistant]
        head = aggregate(evaluate(convs(alone), "dataset", cache_mode="off"), settings).headline
        assert row.k == 2 and row.conversations == 9
        assert row.success_rate == pytest.approx(head.success_rate)
        assert row.pass_at_k == pytest.approx(head.pass_at_k)
        assert row.pass_pow_k == pytest.approx(head.pass_pow_k)
        assert row.success_rate_ci == pytest.approx(head.success_rate_ci)
        assert row.pass_at_k_ci == pytest.approx(head.pass_at_k_ci)
        assert row.pass_pow_k_ci == pytest.approx(head.pass_pow_k_ci)


def test_known_values_by_task() -> None:
    settings = make_settings(threshold=0.5, unit="task", k=2, estimator="unbiased")
    a, b = by_assistant(aggregate(evaluate(convs(_records()), "dataset", cache_mode="off"), settings))
    # a: t0 2/3, t1 3/3, t2 3/3 -> success (2/3 + 1 + 1) / 3; pass^2 of t0 = C(2,2)/C(3,2) = 1/3.
    assert a.success_rate == pytest.approx(8 / 9)
    assert a.pass_pow_k == pytest.approx((1 / 3 + 1 + 1) / 3)
    assert a.correct_conversations == 8 and a.groups == 3
    # b: 1/3 on every task -> success 1/3, pass@2 = 1 - C(2,2)/C(3,2) = 2/3, pass^2 = 0.
    assert b.success_rate == pytest.approx(1 / 3)
    assert b.pass_at_k == pytest.approx(2 / 3)
    assert b.pass_pow_k == pytest.approx(0.0)


def test_one_assistant_gives_no_breakdown() -> None:
    records = [conv(f"s{i}", [1.0], task="t") for i in range(3)]
    assert by_assistant(aggregate(evaluate(convs(records), "dataset", cache_mode="off"))) == []
