"""A run's human labels travel with it: saved with the run, back when it is reopened, in its run file (issue 37)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.corrected_reading import data_labels
from agentic_core.data.labels import HumanLabel
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from agentic_core.runs import RunStore
from agentic_core.runs.run_file import run_file_bytes

FILE_LABELS = [
    HumanLabel(session_id="lab01-a1", label=0, source="file", labelled_at=5.0),
    HumanLabel(session_id="lab02-a1", qa_id="lab02-q", label=1, source="endpoint", labelled_at=6.0),
    HumanLabel(session_id="nobody", label=1, source="file", labelled_at=7.0),  # kept, and named as unmatched
]


@pytest.fixture
def labelled() -> EvaluationResult:
    result = evaluate(load_sample("labelled"), "dataset", cache_mode="off")
    result.labels = list(FILE_LABELS)
    return result


def test_labels_are_saved_with_the_run_and_come_back_when_it_is_reopened(
    tmp_path: Path, labelled: EvaluationResult
) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    run_id = store.save(labelled, "labelled_support.jsonl").id
    assert store.labels(run_id) == FILE_LABELS  # in the labels table, where the review queue adds its own
    reopened = store.open(run_id)
    assert reopened.labels == FILE_LABELS
    # The data's own human_label values travel with the conversations.
    assert data_labels(reopened) == data_labels(labelled) and len(data_labels(labelled)) == 54
    assert store.label_counts([run_id, "other"]) == {run_id: 3}
    # The same corrected reading as before the save: no judge, the same labels.
    before = aggregate(labelled).corrected
    after = aggregate(reopened).corrected
    assert before is not None and after == before and after.unmatched == 1


def test_labels_added_later_are_read_with_the_run(tmp_path: Path, labelled: EvaluationResult) -> None:
    store = RunStore(tmp_path / "runs.sqlite3")
    run_id = store.save(labelled, "labelled_support.jsonl").id
    later = HumanLabel(session_id="lab03-a1", label=1, source="queue", design="random-tasks", labelled_at=9.0)
    store.add_labels(run_id, [later])
    assert store.open(run_id).labels == [*FILE_LABELS, later]
    assert store.payload(run_id).labels == [*FILE_LABELS, later]


def test_export_and_import_carry_the_labels(tmp_path: Path, labelled: EvaluationResult) -> None:
    source = RunStore(tmp_path / "a.sqlite3")
    run_id = source.save(labelled, "labelled_support.jsonl").id
    data = source.export(run_id)
    target = RunStore(tmp_path / "b.sqlite3")
    imported = target.import_(data, "run file").id
    assert target.labels(imported) == FILE_LABELS
    assert target.open(imported).labels == FILE_LABELS


def test_a_run_file_without_labels_still_reads(tmp_path: Path, labelled: EvaluationResult) -> None:
    labelled.labels = []
    store = RunStore(tmp_path / "runs.sqlite3")
    payload = store.payload(store.save(labelled, "labelled_support.jsonl").id)
    document = payload.model_dump(mode="json")
    del document["labels"]  # a run file written before labels existed
    imported = store.import_(run_file_bytes(type(payload).model_validate(document)), "old run file").id
    assert store.labels(imported) == [] and store.open(imported).labels == []
