"""Two runs, one task: the filters, each side's attempts, the answers turn by turn, and the view's link."""

from __future__ import annotations

from typing import Any

import pytest

from agentic_core.analysis import RunComparison, Side, aggregate, compare_sides
from agentic_core.evaluate import evaluate
from agentic_core.report import (
    PAIR_FILTERS,
    PairView,
    attempts_caption,
    filter_counts,
    linked_assistants,
    linked_source,
    pair_query,
    paired_tasks,
    pick_attempt,
    read_pair_link,
    side_attempts,
    side_by_side_html,
    turn_pairs,
)
from agentic_core.result import EvaluationResult
from tests.datasets import convs

RIGHT, WRONG = 0.9, 0.1  # dataset-judge scores: correct at the default threshold, and not
TRUTH = {
    "refund": "30 days",
    "shipping": "Express shipping costs $12.95.",
    "warranty": "Two years.",
    "hours": "9 to 5.",
    "only-a": "Yes.",
}


def _record(agent: str, task: str, n: int, turns: list[tuple[str, float]]) -> dict[str, Any]:
    return {
        "session_id": f"{agent}-{task}-{n}", "assistant_id": agent, "task_id": task,
        "conversation": [
            {"qa_id": f"{task}-q{k}", "query": f"{task}: question {k}", "assistant": answer,
             "ground_truth_assistant": TRUTH.get(task, f"truth {k}"), "score": score}
            for k, (answer, score) in enumerate(turns)
        ],
    }  # fmt: skip


# Per task, each side's attempts: (answer, score) per turn. What each filter lists follows from these by hand:
# refund A 2/2, B 0/2 -> worse; shipping A 0/2, B 2/2 and multi A 0/1, B 1/1 -> better; warranty A 0/2, B 1/2
# (not most) -> both wrong; hours 2/2 on both -> neither; only-a is not paired.
A_RUN = {
    "refund": [[("You have 30 days to return it.", RIGHT)]] * 2,
    "shipping": [[("Shipping is $5.", WRONG)]] * 2,
    "warranty": [[("One year.", WRONG)], [("Six months.", WRONG)]],
    "hours": [[("9 to 5.", RIGHT)]] * 2,
    "only-a": [[("Yes.", RIGHT)]],
    "multi": [[("first answer", RIGHT), ("second answer, wrong", WRONG)]],
}
B_RUN = {
    "refund": [[("You have 14 days to return it.", WRONG)]] * 2,
    "shipping": [[("Express shipping costs $12.95.", RIGHT)]] * 2,
    "warranty": [[("Two years.", RIGHT)], [("One year.", WRONG)]],
    "hours": [[("9 to 5.", RIGHT)]] * 2,
    "multi": [[("first answer", RIGHT), ("second answer", RIGHT), ("a third turn", RIGHT)]],
}


def _run(agent: str, spec: dict[str, list[list[tuple[str, float]]]]) -> EvaluationResult:
    records = [_record(agent, task, n, turns) for task, attempts in spec.items() for n, turns in enumerate(attempts)]
    return evaluate(convs(records), "dataset", cache_mode="off")


@pytest.fixture(scope="module")
def sides() -> tuple[Side, Side, RunComparison]:
    a, b = Side(_run("v1", A_RUN), label="before"), Side(_run("v2", B_RUN), label="after")
    return a, b, compare_sides(a, b)


def test_the_filters_list_the_flipped_and_the_both_wrong_tasks(sides: tuple[Side, Side, RunComparison]) -> None:
    _, _, cmp = sides
    listed = {name: sorted(t.task for t in paired_tasks(cmp, name)) for name in PAIR_FILTERS}
    assert listed == {"all": ["hours", "multi", "refund", "shipping", "warranty"], "worse": ["refund"],
                      "better": ["multi", "shipping"], "both_wrong": ["warranty"]}
    assert filter_counts(cmp) == {"all": 5, "worse": 1, "better": 2, "both_wrong": 1}
    with pytest.raises(KeyError):
        paired_tasks(cmp, "sideways")


def test_each_side_lists_its_attempts_in_order_with_their_status(sides: tuple[Side, Side, RunComparison]) -> None:
    a, b, _ = sides
    attempts = side_attempts(b, aggregate(b.result, b.settings), "warranty")
    assert [(x.number, x.session_id, x.status) for x in attempts] == [
        (1, "v2-warranty-0", "correct"), (2, "v2-warranty-1", "incorrect")]
    assert b.result.conversations[attempts[1].row].session_id == "v2-warranty-1"
    assert attempts_caption("B", attempts, attempts[1]) == (
        "B made 2 attempts: 1 correct, 1 incorrect; showing #2 (v2-warranty-1).")
    assert side_attempts(b, aggregate(b.result, b.settings), "only-a") == []
    assert attempts_caption("B", [], None) == "B made no attempt at this task."
    multi = side_attempts(a, aggregate(a.result, a.settings), "multi")
    assert multi[0].label == "#1 · v1-multi-0 · incorrect (1 of 2 turns)"


def test_the_answers_pair_up_turn_by_turn_with_both_verdicts_and_the_reference(
    sides: tuple[Side, Side, RunComparison],
) -> None:
    a, b, _ = sides
    agg_a, agg_b = aggregate(a.result, a.settings), aggregate(b.result, b.settings)
    (pair,) = turn_pairs(a, agg_a, side_attempts(a, agg_a, "refund")[0], b, agg_b, side_attempts(b, agg_b, "refund")[1])
    assert pair.a is not None and pair.b is not None
    assert (pair.a.answer, pair.a.status, pair.b.answer, pair.b.status) == (
        "You have 30 days to return it.", "correct", "You have 14 days to return it.", "incorrect")
    assert pair.query == "refund: question 0" and pair.references == ["30 days"]
    pairs = turn_pairs(a, agg_a, side_attempts(a, agg_a, "multi")[0], b, agg_b, side_attempts(b, agg_b, "multi")[0])
    assert [(p.position, p.a is not None, p.b is not None) for p in pairs] == [(1, True, True), (2, True, True),
                                                                                (3, False, True)]
    assert pairs[1].a is not None and pairs[1].a.status == "incorrect" and pairs[2].query == "multi: question 2"
    # A's diff against B marks what differs: 30 (only in A) and 14 (only in B), numbers in bold.
    page = side_by_side_html(pair.a.answer, pair.b.answer, "A <before>", "B")
    assert '<ins class="salient"><b>30</b></ins>' in page and '<del class="salient"><b>14</b></del>' in page
    assert "A &lt;before&gt;" in page and "<before>" not in page  # headings are text, escaped


def test_a_link_round_trips_and_what_it_cannot_use_is_said(sides: tuple[Side, Side, RunComparison]) -> None:
    _, _, cmp = sides
    view = PairView("both_wrong", "warranty", 1, 2)
    assert read_pair_link(pair_query(view), cmp) == (view, [])
    assert read_pair_link({}, cmp) == (PairView(), [])
    back, messages = read_pair_link({"pair_show": "sideways", "pair_task": "refund", "attempt_a": "x"}, cmp)
    assert back == PairView("all", "refund", 1, 1) and len(messages) == 2
    assert "`pair_show=sideways` is not a filter" in messages[0] and "attempt A `x`" in messages[1]
    back, messages = read_pair_link({"pair_show": "better", "pair_task": "refund"}, cmp)
    assert back.show == "all" and back.task == "refund" and "is not flipped to better" in messages[0]
    back, messages = read_pair_link({"pair_task": "only-a"}, cmp)
    assert back.task is None and "not a task both sides attempted" in messages[0]


def test_an_attempt_the_side_did_not_make_falls_back_to_its_first(sides: tuple[Side, Side, RunComparison]) -> None:
    a, _, _ = sides
    attempts = side_attempts(a, aggregate(a.result, a.settings), "refund")
    assert pick_attempt(2, attempts, "A") == (attempts[1], None)
    chosen, message = pick_attempt(5, attempts, "A")
    assert chosen == attempts[0] and message is not None and "A made 2 attempts" in message
    assert pick_attempt(1, [], "A") == (None, None)


def test_a_link_names_runs_or_assistants_and_unknown_assistants_are_said() -> None:
    assert linked_source({"run_a": "x"}, "assistants") == "runs"
    assert linked_source({"assistant_b": "y"}, "runs") == "assistants"
    assert linked_source({}, "runs") == "runs"
    assert linked_assistants({"assistant_a": "mid", "assistant_b": "high"}, ["low", "mid", "high"]) == (
        "mid", "high", [])
    a, b, messages = linked_assistants({"assistant_a": "gone"}, ["low", "mid", "high"])
    assert (a, b) == ("low", "mid") and "`gone` is not in this run" in messages[0]
