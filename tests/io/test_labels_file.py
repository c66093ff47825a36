"""Labels files (agentic_core.io.labels_file): CSV / JSONL / JSON read and written back, blank rows counted, errors
naming the line (issue 37)."""

from __future__ import annotations

import json

import pytest

from agentic_core.data.labels import HumanLabel
from agentic_core.errors import DataError
from agentic_core.io.labels_file import LABEL_COLUMNS, label_rows, read_labels_file, write_labels

LABELS = [
    HumanLabel(session_id="s1", label=1, source="file", labelled_at=1.0),  # the whole conversation
    HumanLabel(session_id="s2", qa_id="q1", label=0, source="file", labelled_at=1.0),
    HumanLabel(
        session_id="s3", assistant_id="b", qa_id="q2", label=1, source="file", design="uncertain-first",
        inclusion=0.25, labelled_at=1.0,
    ),
]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_labels_round_trip_through_csv_and_jsonl(fmt: str) -> None:
    data = write_labels(label_rows(LABELS), fmt, extra=("question",))  # type: ignore[arg-type]
    back = read_labels_file(data, f"labels.{fmt}", labelled_at=1.0)
    assert back.labels == LABELS
    assert back.blank == 0


def test_csv_header_holds_the_label_columns_then_the_extra_ones() -> None:
    text = write_labels([{"session_id": "s1", "label": None, "question": "Q?"}], "csv", extra=("question",)).decode()
    header, row = text.splitlines()
    assert header.split(",") == [*LABEL_COLUMNS, "question"]
    assert row == "s1,,,,,,Q?"  # not labelled yet: written empty


def test_blank_labels_are_skipped_and_counted_and_extra_columns_ignored() -> None:
    data = b"session_id,qa_id,label,answer\ns1,q1,right,It is 3.\ns2,q1,,It is 4.\ns3,,WRONG,No.\ns4,,  ,\n"
    read = read_labels_file(data, "queue.csv")
    assert [(x.session_id, x.qa_id, x.label) for x in read.labels] == [("s1", "q1", 1), ("s3", None, 0)]
    assert read.blank == 2
    assert all(x.source == "file" and x.design == "unknown" for x in read.labels)


def test_a_json_list_and_boolean_labels() -> None:
    data = json.dumps([{"session_id": "s1", "label": True}, {"session_id": "s2", "label": False, "extra": 1}])
    read = read_labels_file(data.encode(), "labels.json", source="queue")
    assert [(x.session_id, x.label, x.source) for x in read.labels] == [("s1", 1, "queue"), ("s2", 0, "queue")]


@pytest.mark.parametrize(
    ("data", "name", "place", "rule"),
    [
        (b"session_id,label\ns1,1\ns2,maybe\n", "a.csv", "a.csv line 3, label", "label must be 1 or 0"),
        (b"session_id,label\n,1\n", "a.csv", "a.csv line 2, session_id", "field required"),
        (b"qa_id,label\nq,1\n", "a.csv", "a.csv, header", "must name the columns session_id and label"),
        (b'{"session_id": "s1", "label": 1}\n{"session_id": \n', "a.jsonl", "a.jsonl line 2", "one JSON object"),
        (b'{"session_id": "s1", "label": 1}\n[1]\n', "a.jsonl", "a.jsonl line 2", "must be a JSON object"),
        (b'[{"session_id": "s1", "label": 2}]', "a.json", "a.json item 0, label", "label must be 1 or 0"),
        (b'{"session_id": "s1", "label": 1, "inclusion": 2}\n', "a.jsonl", "a.jsonl line 1, inclusion", "less than"),
        (b"\xff\xfe", "a.csv", "a.csv", "must be UTF-8"),
        (b"", "a.jsonl", "a.jsonl", "holds no label"),
    ],
)
def test_errors_name_the_file_and_the_line(data: bytes, name: str, place: str, rule: str) -> None:
    with pytest.raises(DataError) as info:
        read_labels_file(data, name)
    message = str(info.value)
    assert message.startswith(place), message
    assert rule in message
