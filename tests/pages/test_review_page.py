"""The Review queue page (pages/review.py): labels given with its buttons are stored in the history at once, a
reload keeps them, the corrected headline follows them, and the queue goes out to a file and comes back."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.analysis import aggregate, label_queue
from agentic_core.runs import RunStore
from agentic_core.settings import make_settings
from tests.pages.conftest import APP, OpenApp

REVIEW = "pages/review.py"


def _progress(at: AppTest) -> str:
    return " ".join(str(p.proto.text) for p in at.get("progress"))


def test_labels_are_stored_at_once_and_a_reload_keeps_them(open_app: OpenApp, history: Path) -> None:
    at = open_app(page=REVIEW)
    assert not at.error, [e.value for e in at.error]
    total = int(re.search(r"0 of (\d+) labelled", _progress(at)).group(1))  # type: ignore[union-attr]
    assert any("Random tasks" in i.value for i in at.info)  # the design in use is said
    first = at.subheader[0].value
    at.button(key="review_right").click().run()
    at.button(key="review_wrong").click().run()
    at.button(key="review_skip").click().run()
    at.button(key="review_right").click().run()
    assert not at.exception and not at.error
    assert f"3 of {total} labelled" in _progress(at)
    runs = RunStore(history).runs()
    assert len(runs) == 1  # the sample run was stored with its first label
    stored = RunStore(history).labels(runs[0].id)
    assert sorted(lab.label for lab in stored) == [0, 1, 1]
    assert {(lab.source, lab.design) for lab in stored} == {("queue", "random-tasks")}
    # The queue's first items, in its order: what the core draws for the same seed.
    result = RunStore(history).open(runs[0].id)
    queue = label_queue(result, aggregate(result, make_settings()), [], seed=0)
    labelled = {lab.key for lab in stored}
    assert queue.items[0].key in labelled and queue.items[1].key in labelled and queue.items[2].key not in labelled
    assert len(queue.items) == total and first.startswith(f"Item 1 of {total}")

    reloaded = AppTest.from_file(APP, default_timeout=60)  # a new session: the link's run= reopens the run
    reloaded.query_params["run"] = runs[0].id
    reloaded.run()
    reloaded.switch_page(REVIEW).run()
    assert not reloaded.exception and not reloaded.error
    assert f"3 of {total} labelled" in _progress(reloaded)


def test_a_label_the_history_cannot_store_is_kept_and_said(
    open_app: OpenApp, history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_app(page=REVIEW)

    def refuse(self: RunStore, run_id: str, labels: list[object]) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(RunStore, "add_labels", refuse)
    at.button(key="review_right").click().run()
    assert any("could not be stored" in e.value and "disk full" in e.value for e in at.error)
    assert _progress(at).startswith("**1 of ")  # kept in the session, not dropped
    at.run()
    assert _progress(at).startswith("**1 of ")


def test_export_then_import_brings_the_labels_back(open_app: OpenApp, history: Path) -> None:
    at = open_app(page=REVIEW)
    at.button(key="review_wrong").click().run()
    assert at.get("download_button")  # the page offers the queue as a file
    # Build the file a person returns: the queue exported by the core, the first 25 rows labelled right.
    runs = RunStore(history).runs()
    result = RunStore(history).open(runs[0].id)
    from agentic_core.analysis import export_queue

    agg = aggregate(result, make_settings())
    queue = label_queue(result, agg, RunStore(history).labels(runs[0].id), seed=0)
    rows = list(csv.DictReader(io.StringIO(export_queue(result, agg, queue, "csv").decode())))
    header = list(rows[0])
    assert header[:6] == ["session_id", "assistant_id", "qa_id", "label", "design", "inclusion"]
    assert "question" in header and "judge_verdict" in header
    assert rows[0]["label"] == "0"  # the label given on the page is in the export
    for row in rows[1:25]:
        row["label"] = "1"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header)
    writer.writeheader()
    writer.writerows(rows)
    upload = out.getvalue().encode()
    _upload(at, "review_import", "queue.csv", upload)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("Imported 25 label(s)" in s.value for s in at.success)
    assert "**25 of " in _progress(at)
    assert len(RunStore(history).labels(runs[0].id)) == 25


def test_a_bad_file_is_said_with_its_line(open_app: OpenApp, history: Path) -> None:
    at = open_app(page=REVIEW)
    _upload(at, "review_import", "bad.csv", b"session_id,label\nsup01-a1,maybe\n")
    assert any("bad.csv line 2" in e.value for e in at.error)


def _upload(at: AppTest, key: str, name: str, data: bytes) -> None:
    at.file_uploader(key=key).set_value([(name, data, "text/csv")]).run()
