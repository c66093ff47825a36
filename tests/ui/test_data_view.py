"""The Data page's view model (ui/views/data_view.py), without Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from agentic_core.io import LoadReport, load_records, load_sample
from agentic_core.report import conversations_preview
from ui import views


@dataclass
class Upload:
    file_id: str
    name: str
    size: int


def _report_with_issues() -> LoadReport:
    good = load_sample("seeds").conversations[0].model_dump(mode="json")
    misspelt = {**good, "session_id": "s-warn", "sesion_note": "x"}
    broken = {"session_id": "s-bad"}  # no conversation: an error, the record is skipped
    return load_records([good, misspelt, broken], source="upload.json")


def test_data_name_of_one_two_and_many_files() -> None:
    assert views.data_name(["a.json"]) == "a.json"
    assert views.data_name(["a.json", "b.jsonl"]) == "a.json + b.jsonl"
    assert views.data_name(["a.json", "b.jsonl", "c.json"]) == "a.json + 2 more files"


def test_the_upload_signature_changes_with_format_files_and_references() -> None:
    files = [Upload("1", "a.json", 10)]
    base = views.upload_signature("auto", files, None)
    assert base == views.upload_signature("auto", [Upload("1", "a.json", 10)], None)
    assert base != views.upload_signature("openai", files, None)
    assert base != views.upload_signature("auto", [*files, Upload("2", "b.json", 5)], None)
    assert base != views.upload_signature("auto", files, Upload("3", "refs.json", 7))
    hash(base)  # a session key


def test_issues_split_by_severity_and_empty_columns_are_left_out() -> None:
    report = _report_with_issues()
    frame = report.to_frame()
    groups = views.issue_groups(frame)
    assert len(groups.errors) + len(groups.warnings) + len(groups.notes) == len(frame)  # nothing dropped
    assert not groups.errors.empty and not groups.warnings.empty and not groups.clean
    assert set(groups.errors["severity"]) == {"error"} and set(groups.warnings["severity"]) == {"warning"}
    columns = views.issue_columns(groups.errors)
    assert {"file", "rule", "fix"} <= set(columns)
    assert "column" not in columns  # column numbers exist only for syntax errors
    assert all(groups.errors[c].notna().any() for c in columns if c not in ("file", "rule", "fix"))


def test_issue_sentences_name_where_and_the_fix() -> None:
    frame = pd.DataFrame(
        {
            "file": ["a.json", "b*.json"],
            # Nullable integers, as LoadReport.to_frame builds them.
            "record": pd.array([3, None], dtype="Int64"),
            "line": pd.array([4, None], dtype="Int64"),
            "path": ["conversation[0]", ""],
            "rule": ["must be a list", "unknown key"],
            "fix": ["give a list", "remove it"],
        }
    )
    first, second = views.issue_sentences(frame)
    assert first == "- **a.json** (record 3, line 4, at conversation\\[0\\]): must be a list. *Fix:* give a list"
    assert second.startswith("- **b\\*.json**: unknown key.")  # no place known: no parentheses
    assert len(views.issue_sentences(pd.concat([frame] * 30), limit=50)) == 50
    assert views.sentences_title("errors", 60) == "The errors in full sentences (the first 50)"
    assert views.sentences_title("errors", 50) == "The errors in full sentences"


def test_active_sentence_says_whether_a_run_exists() -> None:
    judged = views.active_sentence("d", 2, 5, "lexical")
    assert "judged by lexical" in judged and "2 conversations, 5 interactions" in judged
    assert views.active_sentence("d", 1200, 3400, None) == (
        "Loaded 1,200 conversations (3,400 interactions) from **d** — go to Run to evaluate."
    )


def test_preview_caption_counts_the_table() -> None:
    table = pd.DataFrame({"interactions": [2, 3, 1500], "task_key": ["t1", "t1", "t2"], "tool_calls": [0, 4, 1]})
    expected = "3 conversations, 1,505 interactions, 2 distinct tasks; 2 conversations use tools."
    assert views.preview_caption(table) == expected
    real = conversations_preview(load_sample("seeds").conversations)
    assert views.preview_caption(real).startswith(f"{len(real):,} conversations, {int(real['interactions'].sum()):,}")
