"""aggregate() applies every setting without judging again: exact numbers, units, thresholds, tools."""


from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core import stats
from agentic_core.analysis.aggregate import aggregate, resolve_unit
from agentic_core.evaluate import evaluate
from agentic_core.settings import ToolWeights, make_settings
from tests.datasets import conv, convs
from tests.fakes import FakeJudge


def test_task_unit_matches_per_task_formula_by_hand() -> None:
    # Task A: 3 attempts, 2 fully correct; task B: 3 attempts, 1 fully correct.
    records = [
        conv("a1", [0.9, 0.9], task="A"),
        conv("a2", [0.9, 0.8], task="A"),
        conv("a3", [0.9, 0.1], task="A"),
        conv("b1", [0.1], task="B"),
        conv("b2", [0.95], task="B"),
        conv("b3", [0.3], task="B"),
    ]
    result = evaluate(convs(records), "dataset")
    agg = aggregate(result, make_settings(k=2, mode="frequentist", estimator="unbiased"))
    assert agg.unit == "task"
    # Chen et al. (2021) unbiased pass@k = 1 - C(n-c,k)/C(n,k), pass^k = C(c,k)/C(n,k), by hand:
    at_a, at_b = 1 - math.comb(1, 2) / math.comb(3, 2), 1 - math.comb(2, 2) / math.comb(3, 2)
    pow_a, pow_b = math.comb(2, 2) / math.comb(3, 2), math.comb(1, 2) / math.comb(3, 2)
    assert agg.headline.pass_at_k == pytest.approx((at_a + at_b) / 2)
    assert agg.headline.pass_pow_k == pytest.approx((pow_a + pow_b) / 2)
    assert list(agg.groups["group"]) == ["A", "B"]
    assert agg.counts.correct_conversations == 3


def test_conversation_unit_reproduces_seed_001_example() -> None:
    # Seed 001 response: 3 conversations, 2 fully correct, k=3 -> pass^3 = (2/3)^3 = 0.2963.
    records = [conv("c1", [0.85, 0.92, 0.88]), conv("c2", [0.92, 0.65]), conv("c3", [0.9])]
    result = evaluate(convs(records), "dataset")
    agg = aggregate(result, make_settings(k=3, unit="conversation", mode="frequentist", estimator="plug-in"))
    assert agg.counts.correct_conversations == 2
    assert agg.headline.pass_pow_k == pytest.approx(0.2963, abs=5e-5)
    assert agg.headline.pass_at_k == pytest.approx(1 - (1 / 3) ** 3)


def test_interaction_unit_is_per_conversation_over_turns() -> None:
    records = [conv("c1", [0.9, 0.9, 0.1, 0.9]), conv("c2", [0.9, 0.2])]
    result = evaluate(convs(records), "dataset")
    agg = aggregate(result, make_settings(k=2, unit="interaction", mode="frequentist", estimator="plug-in"))
    expected = (stats.pass_at_k(4, 3, 2, "plug-in") + stats.pass_at_k(2, 1, 2, "plug-in")) / 2
    assert agg.headline.pass_at_k == pytest.approx(expected)
    assert list(agg.conversations["correct_interactions"]) == [3, 1]


def test_auto_unit_picks_task_only_when_a_task_repeats() -> None:
    single = evaluate(convs([conv("a", [0.9]), conv("b", [0.9])]), "dataset")
    assert resolve_unit(single, make_settings())[0] == "conversation"
    repeated = evaluate(convs([conv("a", [0.9], task="t"), conv("b", [0.9], task="t")]), "dataset")
    unit, reason = resolve_unit(repeated, make_settings())
    assert unit == "task" and "1 of 1 tasks" in reason


def test_threshold_is_inclusive_despite_float_rounding() -> None:
    result = evaluate(convs([conv("a", [0.7]), conv("b", [0.1 + 0.6])]), "dataset")  # 0.69999999999
    agg = aggregate(result, make_settings(threshold=0.7))
    assert agg.counts.correct_interactions == 2


def test_unscored_interactions_are_excluded_and_counted_never_zero() -> None:
    judge = FakeJudge(lambda item: None if item.query == "a: question 1" else 0.9, cacheable=False)
    records = [conv("a", [0, 0]), conv("b", [0]), conv("c", [0])]
    result = evaluate(convs(records), judge)
    assert result.judge_run.counts["failed"] == 1
    assert np.isnan(result.interactions["score"].iloc[1])
    agg = aggregate(result, make_settings(k=1, unit="conversation", mode="frequentist", estimator="plug-in"))
    assert agg.counts.unscored_conversations == 1 and agg.counts.scored_conversations == 2
    assert agg.headline.pass_at_k == pytest.approx(1.0)  # 2 of 2 scored conversations correct
    assert list(agg.conversations["status"]) == ["unscored", "correct", "correct"]
    strict = aggregate(
        result,
        make_settings(k=1, unit="conversation", mode="frequentist", estimator="plug-in", unscored_as_incorrect=True),
    )
    assert strict.counts.scored_conversations == 3
    assert strict.headline.pass_at_k == pytest.approx(2 / 3)


def test_require_tool_correctness_and_weights() -> None:
    records = [conv("good", [0.9], tools=True), conv("bad", [0.9], tools=True, used_b=5)]
    result = evaluate(convs(records), "dataset")
    base = aggregate(result, make_settings(k=1, unit="conversation", mode="frequentist", estimator="plug-in"))
    assert base.counts.correct_conversations == 2
    strict = aggregate(
        result,
        make_settings(k=1, unit="conversation", mode="frequentist", estimator="plug-in", require_tool_correctness=True),
    )
    assert strict.counts.correct_conversations == 1
    # Only utilization weighted: the wrong parameter no longer matters.
    lenient = aggregate(
        result,
        make_settings(require_tool_correctness=True, tool_weights=ToolWeights.from_mapping({"utilization": 1})),
    )
    assert lenient.counts.correct_conversations == 2


def test_weights_point_two_four_three_one_on_a_perfect_call_are_correct() -> None:
    result = evaluate(convs([conv("a", [0.9], tools=True)]), "dataset")
    agg = aggregate(
        result,
        make_settings(tool_weights=ToolWeights.parse("selection=0.2,parameters=0.4,sequence=0.3,utilization=0.1")),
    )
    assert agg.interactions["tool_correct"].tolist() == [True]
    assert agg.tool_summary.correct_interactions == 1


records_strategy = st.lists(
    st.tuples(st.integers(0, 4), st.lists(st.floats(0, 1), min_size=1, max_size=3)), min_size=2, max_size=12
)


@settings(max_examples=25, deadline=None)
@given(records_strategy, st.sampled_from(["bayesian", "frequentist"]), st.randoms(use_true_random=False))
def test_numbers_never_depend_on_data_order(rows: list[tuple[int, list[float]]], mode: str, rnd: random.Random) -> None:
    records = [conv(f"s{i}", scores, task=f"t{task}") for i, (task, scores) in enumerate(rows)]
    shuffled = records[:]
    rnd.shuffle(shuffled)
    a = aggregate(evaluate(convs(records), "dataset"), make_settings(k=2, mode=mode))
    b = aggregate(evaluate(convs(shuffled), "dataset"), make_settings(k=2, mode=mode))
    for p, q in zip(a.curve, b.curve, strict=True):
        assert (p.pass_at_k, p.pass_pow_k, p.pass_at_k_ci, p.pass_pow_k_ci) == (
            q.pass_at_k,
            q.pass_pow_k,
            q.pass_at_k_ci,
            q.pass_pow_k_ci,
        )


TAU = Path(__file__).resolve().parents[1] / "data" / "tau_airline_shape.jsonl"


def test_defaults_reproduce_tau_bench_published_curve() -> None:
    # tau-bench (Yao et al. 2024), gpt-4o on the airline domain, 50 tasks x 4 trials: the paper's
    # pass^1..4 = 0.420, 0.273, 0.220, 0.200. tests/data/tau_airline_shape.jsonl has that run's shape
    # (14, 12, 10, 4 and 10 tasks with 0..4 successes). With no settings at all the workbench must
    # print the paper's numbers: frequentist, unbiased, K = 4 (every task has 4 trials).
    agg = aggregate(evaluate(TAU, "dataset"))
    assert (agg.settings.mode, agg.settings.estimator, agg.unit, agg.k) == ("frequentist", "unbiased", "task", 4)
    assert [round(p.pass_pow_k, 3) for p in agg.curve] == [0.420, 0.273, 0.220, 0.200]  # type: ignore[arg-type]
    assert [round(p.pass_at_k, 3) for p in agg.curve] == [0.420, 0.567, 0.660, 0.720]  # type: ignore[arg-type]
    # The success rate is pass@1 (same method, same interval), not a pooled share beside it.
    assert agg.success_rate.value == agg.curve[0].pass_at_k == agg.curve[0].pass_pow_k
    assert agg.success_rate.ci == agg.curve[0].pass_at_k_ci
    assert agg.success_rate.observed == pytest.approx(84 / 200)
    assert "K = 4" in agg.k_reason and "100% of the 50 groups" in agg.k_reason


def test_auto_k_is_the_largest_k_ninety_percent_of_tasks_support() -> None:
    # 10 tasks: 9 with 6 attempts, 1 with 2 -> K = 6 (90% support 6); one more short task -> K = 2.
    records = [conv(f"t{t}-{i}", [0.9], task=f"t{t}") for t in range(9) for i in range(6)]
    records += [conv(f"short-{i}", [0.9], task="short") for i in range(2)]
    agg = aggregate(evaluate(convs(records), "dataset"))
    assert agg.k == 6
    assert agg.excluded_groups == ["short"]  # n = 2 < K under the unbiased estimator: named
    records += [conv(f"shorter-{i}", [0.9], task="shorter") for i in range(2)]
    assert aggregate(evaluate(convs(records), "dataset")).k == 2
    assert aggregate(evaluate(convs(records), "dataset"), make_settings(k=5)).k == 5


def test_unscored_interactions_are_bounded_by_counting_them_both_ways() -> None:
    # An answer that confuses the judge leaves the denominator: 1 of 1 scored correct looks perfect,
    # but counting the unscored one as incorrect gives 0.5.
    judge = FakeJudge(lambda item: None if item.query.startswith("b:") else 0.9, cacheable=False)
    result = evaluate(convs([conv("a", [0]), conv("b", [0])]), judge)
    agg = aggregate(result, make_settings(unit="conversation", k=1))
    assert agg.success_rate.value == 1.0
    assert agg.unscored is not None and agg.unscored.unscored_interactions == 1
    assert agg.unscored.as_incorrect.success_rate == 0.5
    assert agg.unscored.as_correct.success_rate == 1.0
    everything = aggregate(evaluate(convs([conv("a", [0.9])]), "dataset"))
    assert everything.unscored is None


def test_every_number_says_how_it_was_made() -> None:
    result = evaluate(TAU, "dataset")
    for mode, target, words in (
        ("frequentist", "population", ["Frequentist", "unbiased", "task population", "BCa"]),
        ("frequentist", "these-tasks", ["these tasks", "within each task"]),
        ("bayesian", "population", ["Bayesian", "hierarchical", "task population"]),
        ("bayesian", "these-tasks", ["Bayesian", "Beta(1, 1) prior", "these tasks"]),
    ):
        agg = aggregate(result, make_settings(mode=mode, target=target))
        assert agg.statistics.mode == mode and agg.statistics.target == target
        for word in words:
            assert word in agg.statistics.description, (mode, target, agg.statistics.description)


def test_all_zero_tool_weights_judge_conversations_on_answers_alone() -> None:
    # All four weights at 0 means "tool use is not scored": the answer metrics stay, tool use
    # never makes a conversation incorrect, and the headline says so.
    records = [conv("good", [0.9], tools=True), conv("bad", [0.9], tools=True, used_b=5)]
    result = evaluate(convs(records), "dataset")
    zero = ToolWeights.parse("selection=0,parameters=0,sequence=0,utilization=0")
    agg = aggregate(result, make_settings(tool_weights=zero, require_tool_correctness=True))
    strict = aggregate(result, make_settings(require_tool_correctness=True))
    assert strict.counts.correct_conversations == 1
    assert agg.counts.correct_conversations == 2
    assert agg.interactions["tool_overall"].isna().all()
    assert any("Tool use is not scored" in note for note in agg.headline.notes)
    assert agg.tool_summary.overall.mean is None


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_success_rate_does_not_change_with_k(mode: str) -> None:
    # Issue 30: K = 3 drops the task with 2 attempts from the curve; it stays in the success rate.
    records = [conv(f"a{i}", [0.9 if i < 2 else 0.1], task="A") for i in range(4)]
    records += [conv(f"b{i}", [0.9 if i < 3 else 0.1], task="B") for i in range(4)]
    records += [conv(f"c{i}", [0.9], task="C") for i in range(2)]
    result = evaluate(convs(records), "dataset")
    at = {k: aggregate(result, make_settings(k=k, mode=mode)) for k in (1, 3)}
    assert at[3].excluded_groups == (["C"] if mode == "frequentist" else [])
    assert at[1].success_rate.value == pytest.approx(at[3].success_rate.value, abs=1e-12)
    assert at[1].success_rate.ci == pytest.approx(at[3].success_rate.ci, abs=1e-12)
    assert at[1].headline.success_rate == pytest.approx(at[3].headline.success_rate, abs=1e-12)
    if mode == "frequentist":
        assert at[3].success_rate.value == pytest.approx((2 / 4 + 3 / 4 + 2 / 2) / 3)
