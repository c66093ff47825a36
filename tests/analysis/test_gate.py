"""The CI gate's checks: bounds on a run's metrics, and B worse than A."""

from __future__ import annotations

import pytest

from agentic_core.analysis.compare_runs import Side, compare_sides
from agentic_core.analysis.gate import below_bounds, parse_bounds, parse_gate_metrics, worse_than_baseline
from agentic_core.errors import SettingsError
from agentic_core.evaluate import aggregate
from agentic_core.settings import make_settings
from tests.analysis.test_compare_runs import agent, judged


def test_bounds_are_parsed_and_checked() -> None:
    assert parse_bounds("success_rate=0.8, pass_pow_k=0.5") == {"success_rate": 0.8, "pass_pow_k": 0.5}
    bad_values = [
        ("succes=0.8", "unknown metric"),
        ("success_rate", "METRIC=BOUND"),
        ("success_rate=2", r"\[0, 1\]"),
        ("pass_pow_k@2=0.5", "no @k"),
        ("", "at least one"),
    ]
    for bad, match in bad_values:
        with pytest.raises(SettingsError, match=match):
            parse_bounds(bad)
    assert parse_gate_metrics("success_rate,pass_pow_k@3") == [("success_rate", None), ("pass_pow_k", 3)]
    assert len(parse_gate_metrics("all")) == 8
    with pytest.raises(SettingsError, match="@k"):
        parse_gate_metrics("success_rate@2")


def test_a_point_estimate_or_a_lower_bound_below_its_bound_fails() -> None:
    agg = aggregate(judged(agent("a", set(range(15)))), make_settings(unit="task", k=1))
    assert below_bounds(agg, {"success_rate": 0.45}) == []
    [failure] = below_bounds(agg, {"success_rate": 0.45}, lower=True)
    assert "success_rate = 0.500" in failure and "lower bound" in failure and "0.45" in failure
    [failure] = below_bounds(agg, {"success_rate": 0.8, "pass_at_k": 0.2})
    assert "success_rate = 0.500" in failure and "below the bound 0.8" in failure
    [undefined] = below_bounds(agg, {"tool_overall": 0.5})  # no tool use in this run
    assert "undefined" in undefined


def test_b_worse_than_a_fails_only_the_named_metrics() -> None:
    good, bad = judged(agent("a", set(range(23)))), judged(agent("b", set(range(15))))
    result = compare_sides(Side(good, label="main"), Side(bad, label="branch"))
    [failure] = worse_than_baseline(result, [("success_rate", None)])
    assert failure.startswith("success_rate: branch 0.500 vs main 0.767, delta -0.267")
    assert "P(B worse than A) = " in failure and "0.95" in failure
    assert worse_than_baseline(result, [("tool_overall", None)]) == []  # not in this comparison
    better = compare_sides(Side(bad, label="main"), Side(good, label="branch"))
    assert worse_than_baseline(better, parse_gate_metrics("all")) == []
