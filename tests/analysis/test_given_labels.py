"""Labels given beside a comparison: added after a run's own (a given label wins), and where each one matched."""

from __future__ import annotations

from agentic_core.analysis.compare_runs import Side
from agentic_core.analysis.corrected_reading import match_labels
from agentic_core.analysis.given_labels import UNMATCHED_SHOWN, labels_on_sides, with_given_labels
from agentic_core.data.labels import HumanLabel
from tests.analysis.test_compare_runs import agent, judged


def _label(session: str, label: int = 1, **fields: str) -> HumanLabel:
    return HumanLabel(session_id=session, label=label, source="file", **fields)  # type: ignore[arg-type]


def test_a_given_label_replaces_the_runs_own_on_the_same_item_and_keeps_the_others() -> None:
    result = judged(agent("a", {1, 2}, tasks=range(4)))
    result.labels = [_label("a-1", 1, qa_id="q"), _label("a-2", 0)]
    with_given_labels(result, [_label("a-1", 0, qa_id="q"), _label("a-3", 1)])
    by_key = {lab.key: lab.label for lab in result.labels}
    assert by_key == {("a-1", "", "q"): 0, ("a-2", "", ""): 0, ("a-3", "", ""): 1}


def test_match_labels_says_label_by_label_which_conversation_and_why_not() -> None:
    result = judged(agent("a", {1}, tasks=range(3)))
    labels = [_label("a-2"), _label("ghost"), _label("a-0", qa_id="nope")]
    matched = match_labels(result, labels)
    assert matched.label_conv == [result.session_ids.index("a-2"), -1, -1]
    assert matched.label_why == ["", "no such conversation", "no interaction with this qa_id in the conversation"]
    assert matched.unmatched == 2  # the counts the corrected reading reports agree with the per-label account


def test_labels_are_counted_on_each_side_both_and_neither() -> None:
    a = judged(agent("a", {1}, tasks=range(4)))
    b = judged(agent("b", {2}, tasks=range(4)))
    labels = [_label("a-0"), _label("a-1"), _label("b-3"), *(_label(f"ghost-{i}") for i in range(UNMATCHED_SHOWN + 2))]
    found = labels_on_sides(labels, Side(a), Side(b))
    assert (found.n_labels, found.matched_a, found.matched_b, found.matched_both) == (len(labels), 2, 1, 0)
    assert found.unmatched == UNMATCHED_SHOWN + 2 and len(found.unmatched_examples) == UNMATCHED_SHOWN
    assert found.unmatched_examples[0] == "ghost-0 (no such conversation)"
    # The same ids in both runs: a label on one of them matches both sides.
    again = judged(agent("a", {2}, tasks=range(4)))
    assert labels_on_sides(labels, Side(a), Side(again)).matched_both == 2


def test_a_side_of_one_assistant_counts_only_its_conversations() -> None:
    run = judged(agent("x", {1}, tasks=range(3)), agent("y", {1}, tasks=range(3)))
    labels = [_label("x-0"), _label("x-1"), _label("y-2")]
    found = labels_on_sides(labels, Side(run, assistant="x"), Side(run, assistant="y"))
    assert (found.matched_a, found.matched_b, found.unmatched) == (2, 1, 0)
    found = labels_on_sides(labels, Side(run, assistant="x"), Side(run, assistant="x"))
    assert (found.matched_a, found.matched_b, found.matched_both, found.unmatched) == (2, 2, 2, 1)
    assert found.unmatched_examples == ("y-2 (a conversation of assistant y, not x)",)
