"""Issue 36: the CI gate, the comparison and the leaderboard never show or gate on an unmeasured pass@K."""

from __future__ import annotations

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.compare_runs import Side, compare_sides, leaderboard_of
from agentic_core.analysis.gate import below_bounds, worse_than_baseline
from agentic_core.errors import DataError, SettingsError
from agentic_core.evaluate import evaluate
from agentic_core.settings import make_settings
from tests.analysis.test_k_not_measured import one_attempt_each


def test_gate_on_unmeasured_pass_at_k_is_an_error_never_a_pass() -> None:
    agg = aggregate(one_attempt_each(correct=6, wrong=0), make_settings(k=3))
    with pytest.raises(SettingsError, match=r"--fail-under pass_at_k: cannot gate this run: pass@3 and pass\^3 are"):
        below_bounds(agg, {"pass_at_k": 0.5})
    with pytest.raises(SettingsError, match="gate success_rate"):
        below_bounds(agg, {"success_rate": 0.5, "pass_pow_k": 0.1}, lower=True)
    assert below_bounds(agg, {"success_rate": 0.5}) == []  # the success rate is measured and gates as before


def test_compare_and_leaderboard_show_no_unmeasured_number() -> None:
    a = one_attempt_each(correct=3, wrong=3)
    b = one_attempt_each(correct=5, wrong=1)
    settings = make_settings(k=3, estimator="plug-in")
    cmp = compare_sides(Side(a, settings, label="A"), Side(b, settings, label="B"))
    assert cmp.k == 3 and not cmp.k_evidence.measured and cmp.k_evidence.sentence in cmp.notes
    for row in cmp.paired.metrics:
        if row.metric == "success_rate" or row.k == 1:
            assert row.delta is not None
        else:
            assert (row.a, row.b, row.delta, row.delta_ci, row.p_b_better) == (None,) * 5, row
    doc = cmp.to_json()
    assert doc["k_evidence"]["measured"] is False
    with pytest.raises(SettingsError, match="--fail-if-worse pass_pow_k"):
        worse_than_baseline(cmp, [("success_rate", None), ("pass_pow_k", None)])
    assert worse_than_baseline(cmp, [("success_rate", None)]) == []  # B is better: nothing fails
    three = evaluate(
        [*a.conversations, *b.conversations, *one_attempt_each(correct=2, wrong=4, assistant="c").conversations],
        "dataset",
        cache_mode="off",
    )
    with pytest.raises(DataError, match="not measured"):
        leaderboard_of(three, settings, metric="pass_at_k")
