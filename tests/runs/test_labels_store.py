"""Human labels in the run history: kept the moment they are given, one row each; old histories still read."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

from agentic_core.data.labels import HumanLabel
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from agentic_core.runs import RunStore, RunStoreError
from agentic_core.runs.store import SCHEMA_VERSION

SCHEMA1 = Path(__file__).parent / "data" / "history_schema1.sqlite3"  # written by an older store (data/README.md)


@pytest.fixture(scope="module")
def seeds() -> EvaluationResult:
    return evaluate(load_sample("seeds"), "dataset", cache_mode="off")


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_labels_are_kept_replaced_by_item_and_removed(tmp_path: Path, seeds: EvaluationResult) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    run = store.save(seeds, "seed_examples.json").id
    first = HumanLabel(session_id="s1", qa_id="q1", label=1, design="random-tasks", labelled_at=10.0)
    whole = HumanLabel(session_id="s1", label=0, source="file", labelled_at=11.0)  # the whole conversation
    other = HumanLabel(session_id="s1", assistant_id="b", qa_id="q1", label=0, design="uncertain-first",
                       inclusion=0.25, labelled_at=12.0)  # fmt: skip
    assert store.add_labels(run, [first, whole, other]) == 3
    assert store.labels(run) == [first, whole, other]  # three items: the conversation, one turn, another assistant's
    changed = first.model_copy(update={"label": 0, "labelled_at": 13.0})
    store.add_labels(run, [changed])  # the same item again: replaces the earlier label
    assert store.labels(run) == [whole, other, changed]
    # A second store on the same file (another browser tab) sees every label at once.
    assert RunStore(tmp_path / "runs.sqlite3").labels(run) == [whole, other, changed]
    assert store.delete_labels(run, [whole.key, ("nobody", "", "")]) == 1
    assert store.labels(run) == [other, changed]
    store.delete(run)  # a deleted run takes its labels with it
    assert store.labels(run) == []


def test_a_label_for_an_unknown_run_is_refused(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    with pytest.raises(RunStoreError):
        store.add_labels("20990101-000000-dead", [HumanLabel(session_id="s", label=1)])


def test_a_label_is_0_or_1_with_an_inclusion_probability_in_0_1() -> None:
    with pytest.raises(ValidationError):
        HumanLabel(session_id="s", label=2)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        HumanLabel(session_id="s", label=1, inclusion=0.0)
    with pytest.raises(ValidationError):
        HumanLabel(session_id="", label=1)


def test_an_older_history_is_upgraded_to_hold_labels(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    shutil.copy(SCHEMA1, path)
    store = RunStore(path)
    assert _version(path) == SCHEMA_VERSION == 3
    run = store.runs()[0].id
    store.add_labels(run, [HumanLabel(session_id="s", label=1, labelled_at=1.0)])
    assert [label.session_id for label in store.labels(run)] == ["s"]


def test_a_read_only_older_history_has_no_labels_and_is_not_changed(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    shutil.copy(SCHEMA1, path)
    before = path.read_bytes()
    store = RunStore(path, read_only=True)
    run = store.runs()[0].id
    assert store.labels(run) == []
    with pytest.raises(RunStoreError, match="read-only"):
        store.add_labels(run, [HumanLabel(session_id="s", label=1)])
    assert path.read_bytes() == before
