"""The Python API's labels: ``evaluate(..., labels=path or list)``, ``agg.corrected``, the package face (issue 37)."""

from __future__ import annotations

from pathlib import Path

import pytest

import agentic_core
from agentic_core import DataError, HumanLabel, aggregate, evaluate, read_labels_file
from agentic_core.io.labels_file import label_rows, write_labels
from tests.fakes import CountingJudge, FakeJudge

TRAVEL = Path(__file__).resolve().parents[1] / "sample_data" / "travel_agent.jsonl"


def _labels() -> list[HumanLabel]:
    result = evaluate(TRAVEL, "dataset", cache_mode="off")
    return [HumanLabel(session_id=s, label=i % 3 != 0, source="file", labelled_at=1.0)  # type: ignore[arg-type]
            for i, s in enumerate(result.session_ids) if i % 2 == 0]  # fmt: skip


def test_labels_given_as_a_list_or_a_file_give_the_same_corrected_reading(tmp_path: Path) -> None:
    labels = _labels()
    path = tmp_path / "labels.csv"
    path.write_bytes(write_labels(label_rows(labels), "csv"))
    from_list = evaluate(TRAVEL, "dataset", cache_mode="off", labels=labels)
    from_file = evaluate(TRAVEL, "dataset", cache_mode="off", labels=str(path))
    assert from_list.labels == labels
    assert [(x.session_id, x.label) for x in from_file.labels] == [(x.session_id, x.label) for x in labels]
    a, b = aggregate(from_list).corrected, aggregate(from_file).corrected
    assert a is not None and b is not None
    assert a.success_rate == b.success_rate and a.n_labelled == 20
    assert aggregate(evaluate(TRAVEL, "dataset", cache_mode="off")).corrected is None  # no label, no reading


def test_a_bad_labels_file_fails_before_any_judging(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"session_id": "s", "label": "maybe"}\n')
    judge = CountingJudge(FakeJudge(0.9))
    with pytest.raises(DataError, match=r"bad\.jsonl line 1, label"):
        evaluate(TRAVEL, judge, cache_mode="off", labels=bad)
    with pytest.raises(DataError, match="cannot be read"):
        evaluate(TRAVEL, judge, cache_mode="off", labels=tmp_path / "missing.csv")
    assert judge.calls == 0


def test_the_package_face_offers_the_labels() -> None:
    assert {"HumanLabel", "read_labels_file"} <= set(agentic_core.__all__)
    assert read_labels_file(b"session_id,label\ns,1\n", "a.csv").labels[0].label == 1
