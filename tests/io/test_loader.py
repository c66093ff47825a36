"""Tests of agentic_core.io.loader: records load in order and unaltered, invalid records are
skipped and listed while the rest loads, duplicates across files, unreadable files, in-memory
records, the garbage collector's state, and a property test on corruption."""

from __future__ import annotations

import copy
import gc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentic_core.errors import DataError
from agentic_core.io.loader import load_bytes, load_many, load_paths, load_records
from tests.io.conftest import (
    DATA,
    as_json,
    as_jsonl,
    conversation,
    interaction,
    only_error,
    with_tools,
)

# -- loading ------------------------------------------------------------------------------------


def test_json_array_loads_in_order_and_unaltered() -> None:
    records = [conversation("a", with_tools()), conversation("b", interaction(score=0.25), task_id="t1")]
    report = load_bytes("data.json", as_json(records))
    assert report.ok and not report.issues
    assert [c.session_id for c in report.conversations] == ["a", "b"]
    # Nothing added, dropped or converted: dumping what was given gives back the input.
    assert [c.model_dump(exclude_unset=True) for c in report.conversations] == records
    assert report.n_records == 2 and report.n_interactions == 2
    assert report.files == ["data.json"]


def test_seed_000_example_loads() -> None:
    report = load_paths([DATA / "seed_000_example.json"])
    assert report.ok and not report.issues
    (conv,) = report.conversations
    inter = conv.conversation[0]
    assert conv.session_id == "agentic_eval_session"
    assert inter.agentic is not None and inter.agentic.tools_used[0].parameters == {
        "operation": "add",
        "a": 15,
        "b": 27,
    }
    assert (
        inter.ground_truth_agentic is not None and inter.ground_truth_agentic.tool_sequence_matters is False
    )


def test_every_error_of_a_record_is_reported_and_the_first_is_in_skipped() -> None:
    record = {"session_id": 5, "assistant_id": None, "conversation": "x"}
    report = load_bytes("data.json", as_json([record]))
    assert [i.path for i in report.errors] == ["session_id", "assistant_id", "conversation"]
    (skipped,) = report.skipped
    assert skipped.session_id is None and skipped.record == 0
    assert skipped.message.startswith("session_id: must be a string")


# -- partial files, duplicates ------------------------------------------------------------------


def test_partial_file_keeps_valid_records_and_lists_skipped_ones() -> None:
    records = [
        conversation("a"),
        conversation("b", interaction(score=7)),
        conversation("c"),
        "garbage",
        conversation("d"),
    ]
    report = load_bytes("part.jsonl", as_jsonl(records))
    assert [c.session_id for c in report.conversations] == ["a", "c", "d"]
    assert [(s.record, s.line, s.session_id) for s in report.skipped] == [(1, 2, "b"), (3, 4, None)]
    assert "conversation[0].score: must be a number in [0, 1] (got 7)" in report.skipped[0].message
    assert report.summary() == "1 file, 5 records: 3 loaded, 2 skipped (see issues), 0 warnings"
    assert not report.ok


def test_duplicate_session_id_within_a_file_names_the_first_occurrence() -> None:
    report = load_bytes("dup.jsonl", as_jsonl([conversation("x"), conversation("y"), conversation("x")]))
    assert [c.session_id for c in report.conversations] == ["x", "y"]
    issue = only_error(report)
    assert (issue.record, issue.line, issue.path) == (2, 3, "session_id")
    assert issue.rule == (
        "duplicate session_id and assistant_id; the first occurrence is dup.jsonl record 0 (line 1)"
    )
    assert "task_id" in issue.fix


def test_duplicates_across_files(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    second = tmp_path / "second.jsonl"
    first.write_bytes(as_json([conversation("a"), conversation("b")]))
    second.write_bytes(as_jsonl([conversation("c"), conversation("b")]))
    for report in (
        load_paths([first, second]),
        load_many([(str(first), first.read_bytes()), (str(second), second.read_bytes())]),
    ):
        assert [c.session_id for c in report.conversations] == ["a", "b", "c"]
        issue = only_error(report)
        assert issue.file == str(second) and issue.record == 1
        assert f"the first occurrence is {first} record 1" in issue.rule
        assert report.summary() == "2 files, 4 records: 3 loaded, 1 skipped (see issues), 0 warnings"


def test_repeated_attempts_sharing_a_session_id() -> None:
    # The seed-000 notebook data gives K attempts the same session_id and different assistant_ids.
    attempts = [
        dict(conversation("agentic_eval_session"), assistant_id=f"agent_response_{k}") for k in (1, 2, 3)
    ]
    # The default identity is (session_id, assistant_id), so the seed's own data loads whole.
    default = load_bytes("k3.json", as_json(attempts))
    assert len(default.conversations) == 3 and default.ok
    strict = load_bytes("k3.json", as_json(attempts), duplicate_key="session_id")
    assert len(strict.conversations) == 1 and len(strict.skipped) == 2
    assert "differ in assistant_id" in strict.errors[0].fix and "task_id" in strict.errors[0].fix
    assert [c.assistant_id for c in default.conversations] == [
        "agent_response_1",
        "agent_response_2",
        "agent_response_3",
    ]
    twice = load_many(
        [("k3.json", as_json(attempts)), ("k3 copy.json", as_json(attempts))],
        duplicate_key="session_id+assistant_id",
    )
    assert len(twice.conversations) == 3 and len(twice.skipped) == 3


# -- files, in-memory records, garbage collector ------------------------------------------------


def test_missing_files_are_errors_not_exceptions(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(as_json([conversation("a")]))
    report = load_paths([tmp_path / "nope.json", good, tmp_path])
    assert [c.session_id for c in report.conversations] == ["a"]
    assert [i.rule for i in report.errors] == ["file not found", "is a directory, not a file"]
    with pytest.raises(DataError, match="no file could be read"):
        load_paths([tmp_path / "nope.json"]).raise_if_empty()
    with pytest.raises(DataError, match="no file was given"):
        load_paths([]).raise_if_empty()


def test_load_records_does_not_modify_its_input_and_accepts_models() -> None:
    records = [conversation("a"), conversation("b", interaction(score=3))]
    before = copy.deepcopy(records)
    report = load_records(records, source="api")
    assert records == before
    assert [c.session_id for c in report.conversations] == ["a"]
    assert report.errors[0].file == "api"
    again = load_records(report.conversations)
    assert again.ok and again.conversations == report.conversations


def test_garbage_collector_state_is_restored() -> None:
    assert gc.isenabled()
    load_records([conversation()])
    assert gc.isenabled()
    gc.disable()
    try:
        load_records([conversation()])
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- property: corrupting any subset skips exactly that subset ----------------------------------


CORRUPTIONS = [
    lambda r: r.pop("session_id"),
    lambda r: r.update(conversation=[]),
    lambda r: r["conversation"][0].update(score=1.5),
    lambda r: r["conversation"][0].update(score="high"),
    lambda r: r["conversation"][0].update(agentic={"final_answer_uses_tools": "true"}),
    lambda r: r["conversation"][0].pop("query"),
    lambda r: r.update(assistant_id=3),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=1, max_value=40).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, len(CORRUPTIONS) - 1)), max_size=n),
            st.sampled_from(["json", "jsonl", "request"]),
        )
    )
)
def test_corrupted_subset_is_skipped_and_the_rest_loads_in_order(
    case: tuple[int, list[tuple[int, int]], str],
) -> None:
    n, corruptions, fmt = case
    records = [conversation(f"s{i}", interaction(f"q{i}", score=i / 100)) for i in range(n)]
    bad = set()
    for index, kind in corruptions:
        if index not in bad:
            CORRUPTIONS[kind](records[index])
            bad.add(index)
    if fmt == "json":
        data = as_json(records)
    elif fmt == "jsonl":
        data = as_jsonl(records)
    else:
        data = as_json({"datasets": records, "config": {}})
    report = load_bytes(f"data.{fmt}", data)
    good = [i for i in range(n) if i not in bad]
    assert [c.session_id for c in report.conversations] == [f"s{i}" for i in good]
    assert [s.record for s in report.skipped] == sorted(bad)
    assert {i.record for i in report.errors} == bad
    assert report.n_records == n
