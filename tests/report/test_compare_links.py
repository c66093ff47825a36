"""Compare's pair: from the link, else B the active run and A the previous run of the same data; same verdicts."""

from __future__ import annotations

from agentic_core.analysis.compare_runs import Side, compare_sides
from agentic_core.evaluate import evaluate
from agentic_core.judges.base import JudgeIdentity
from agentic_core.report.compare_links import default_pair, linked_pair, same_verdicts
from agentic_core.runs import RunMeta
from agentic_core.settings import make_settings
from tests.analysis.test_compare_runs import agent
from tests.datasets import convs


def meta(run_id: str, at: float, data: str, fingerprint: str) -> RunMeta:
    identity = JudgeIdentity(kind="dataset", name="dataset")
    return RunMeta(
        id=run_id, name=run_id, created_at=at, data_name=data, data_fingerprint=fingerprint, judge=identity,
        n_conversations=1, n_interactions=1,
    )  # fmt: skip


RUNS = [
    meta("travel-1", 1.0, "travel", "T"),
    meta("support-1", 2.0, "support", "S"),
    meta("travel-2", 3.0, "travel", "T"),
    meta("support-2", 4.0, "support", "S"),
]


def test_a_defaults_to_the_previous_run_of_the_same_data() -> None:
    assert default_pair(RUNS, None) == ("support-1", "support-2")  # B the newest
    assert default_pair(RUNS, "travel-2") == ("travel-1", "travel-2")  # B the active run's data, newest
    assert default_pair(RUNS, "travel-1") == ("travel-1", "travel-2")  # an older run active: its data's newest
    lone = [meta("x", 1.0, "x", "X"), meta("y", 2.0, "y", "Y")]
    assert default_pair(lone, "y") == ("x", "y")


def test_the_link_wins_and_a_missing_run_is_said() -> None:
    assert linked_pair({"run_a": "travel-1", "run_b": "support-2"}, RUNS, None) == ("travel-1", "support-2", [])
    a, b, messages = linked_pair({"run_a": "gone", "run_b": "travel-2"}, RUNS, None)
    assert (a, b) == ("support-1", "travel-2")
    assert len(messages) == 1 and "`gone` is not in this history" in messages[0]


def test_same_verdicts_only_when_every_task_matches() -> None:
    result = evaluate(convs(agent("v1", set(range(15)))), "dataset", cache_mode="off")
    settings = make_settings()
    same = compare_sides(Side(result, settings, "A"), Side(result, settings, "B"))
    assert same_verdicts(same)
    other = evaluate(convs(agent("v1", set(range(16)))), "dataset", cache_mode="off")
    assert not same_verdicts(compare_sides(Side(result, settings, "A"), Side(other, settings, "B")))
