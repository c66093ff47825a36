"""Data page: uploads (several files, invalid records, size limit), built-in samples, preview."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.io.importers import DEFAULT_FORMAT, FORMAT_CHOICES, FORMAT_LABELS
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.report.preview import conversations_preview

DATA = "pages/data.py"


def _conversation(session_id: str, score: Any = 0.9, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "assistant_id": "bot-1",
        "task_id": "capital",
        "conversation": [
            {
                "qa_id": "q1",
                "query": "What is the capital of France?",
                "assistant": "Paris.",
                "ground_truth_assistant": "Paris",
                "score": score,
                **extra,
            }
        ],
    }


def _jsonl(*records: dict[str, Any]) -> bytes:
    return "\n".join(json.dumps(r) for r in records).encode()


def _frame(at: AppTest, key: str) -> pd.DataFrame:
    """The table inside the container with ``key``."""
    tables = [node for node in at.container(key) if getattr(node, "type", None) == "dataframe"]
    assert len(tables) == 1, f"expected one table in {key!r}"
    frame: pd.DataFrame = tables[0].value
    return frame


def _texts(elements: Any) -> str:
    return "\n".join(str(e.value) for e in elements)


def _data_page(app: AppTest) -> AppTest:
    at = app.switch_page(DATA).run()
    assert not at.exception
    return at


def test_several_valid_files_load_together(app: AppTest) -> None:
    at = _data_page(app)
    lines = SAMPLES["support"].path.read_bytes().splitlines()
    half = len(lines) // 2
    at.file_uploader(key="upload").set_value(
        [
            ("part1.jsonl", b"\n".join(lines[:half]), "application/json"),
            ("part2.jsonl", b"\n".join(lines[half:]), "application/json"),
        ]
    ).run()
    assert not at.exception
    n = len(load_sample("support").conversations)
    assert f"Loaded {n:,} conversations" in _texts(at.success)
    assert "go to Run to evaluate" in _texts(at.success)
    assert "No problems found" in _texts(at.success)
    assert len(_frame(at, "preview_table")) == n
    # The shared sidebar (drawn before the page) already shows it: the page reran after loading.
    assert "Loaded but not run yet: part1.jsonl + part2.jsonl" in _texts(at.sidebar.caption)
    # Active, not judged: the Run page offers it.
    at.switch_page("pages/run.py").run()
    assert "**Data:** part1.jsonl + part2.jsonl" in _texts(at.markdown)
    assert "Not evaluated yet" in _texts(at.caption)


def test_duplicates_across_files_are_caught(app: AppTest) -> None:
    at = _data_page(app)
    body = _jsonl(_conversation("s1"), _conversation("s2"))
    at.file_uploader(key="upload").set_value(
        [("a.jsonl", body, "application/json"), ("b.jsonl", body, "application/json")]
    ).run()
    assert not at.exception
    assert "Loaded 2 conversations" in _texts(at.success)
    errors = _frame(at, "report_errors")
    assert list(errors["file"]) == ["b.jsonl", "b.jsonl"]
    assert list(errors["record"]) == [0, 1]
    assert errors["rule"].str.contains("duplicate session_id and assistant_id; the first occurrence is a.jsonl").all()


def test_invalid_records_are_reported_and_valid_ones_load(app: AppTest) -> None:
    at = _data_page(app)
    body = _jsonl(
        _conversation("ok-1"),
        _conversation("bad-score", score=1.5),
        _conversation("typo", scroe=0.4),
        _conversation("ok-2"),
    )
    at.file_uploader(key="upload").set_value([("mixed.jsonl", body, "application/json")]).run()
    assert not at.exception
    # The three loadable records load: a warning does not skip a record.
    assert "Loaded 3 conversations" in _texts(at.success)
    assert "1 error(s)" in _texts(at.error) and "skipped" in _texts(at.error)

    errors = _frame(at, "report_errors")
    assert len(errors) == 1
    row = errors.iloc[0]
    assert (row["file"], row["record"], row["line"]) == ("mixed.jsonl", 1, 2)
    assert row["path"] == "conversation[0].score"
    assert "[0, 1]" in row["rule"] and row["value"] == "1.5"
    assert row["fix"]

    # One errors table (no second near-duplicate table of skipped records), and the full sentences below it.
    assert not [c for c in at.main if getattr(c, "key", None) == "report_skipped"]
    assert "1 record(s) skipped; each one's problems are rows of the table above." in _texts(at.caption)
    assert any(row["rule"] in m.value.replace("\\", "") for m in at.markdown)

    warnings = _frame(at, "report_warnings")
    assert len(warnings) == 1
    assert warnings.iloc[0]["record"] == 2 and warnings.iloc[0]["path"] == "conversation[0].scroe"
    assert "score" in warnings.iloc[0]["fix"]  # suggests the key that was probably meant
    assert "1 warning(s)" in _texts(at.warning)

    preview = _frame(at, "preview_table")
    assert list(preview["session_id"]) == ["ok-1", "typo", "ok-2"]


def test_file_without_valid_record_keeps_the_previous_data(app: AppTest) -> None:
    at = _data_page(app)
    at.file_uploader(key="upload").set_value([("broken.json", b'[{"session_id": ', "application/json")]).run()
    assert not at.exception
    error = _texts(at.error)
    assert "Nothing was loaded from broken.json" in error
    assert "line 1" in error
    assert f"The active data is still **{SAMPLES['support'].title}**" in _texts(at.caption)
    assert len(_frame(at, "report_errors")) == 1


def test_oversized_file_is_refused_with_the_limit(monkeypatch: pytest.MonkeyPatch, app: AppTest) -> None:
    monkeypatch.setenv("AGENTIC_MAX_UPLOAD_MB", "1")
    at = _data_page(app)
    assert "up to 1 MB per file" in at.file_uploader(key="upload").label
    big = _jsonl(*(_conversation(f"s{i}") for i in range(6000)))
    assert len(big) > 1024 * 1024
    small = _jsonl(_conversation("small"))
    at.file_uploader(key="upload").set_value(
        [("big.jsonl", big, "application/json"), ("small.jsonl", small, "application/json")]
    ).run()
    assert not at.exception
    assert "Loaded 1 conversations" in _texts(at.success)
    errors = _frame(at, "report_errors")
    assert list(errors["file"]) == ["big.jsonl"]
    assert "over the 1 MB limit per file" in errors.iloc[0]["rule"]
    assert "split" in errors.iloc[0]["fix"]


def test_sample_buttons_load_samples(app: AppTest) -> None:
    at = _data_page(app)
    assert {b.key for b in at.button} >= {f"sample_{name}" for name in SAMPLES}
    at.button(key="sample_seeds").click().run()
    assert not at.exception
    n = len(load_sample("seeds").conversations)
    assert f"Loaded {n:,} conversations" in _texts(at.success)
    assert len(_frame(at, "preview_table")) == n
    # The default sample was evaluated when the app opened: the page says so.
    at.button(key="sample_support").click().run()
    assert "It already has a run (judged by dataset)" in _texts(at.success)


def test_preview_shows_one_raw_record(app: AppTest) -> None:
    at = _data_page(app)
    at.button(key="sample_travel").click().run()
    conversations = load_sample("travel").conversations
    at.number_input(key="preview_record").set_value(3).run()
    assert not at.exception
    shown = json.loads(at.json[0].value)
    assert shown["session_id"] == conversations[3].session_id
    assert len(shown["conversation"]) == len(conversations[3].conversation)
    preview = _frame(at, "preview_table")
    assert preview["tool_calls"].sum() > 0  # the travel agent uses tools


def test_conversations_preview_counts() -> None:
    conv = load_sample("travel").conversations[0]
    frame = conversations_preview([conv])
    row = frame.iloc[0]
    assert row["interactions"] == len(conv.conversation)
    assert row["tool_calls"] == sum(len(i.agentic.tools_used) for i in conv.conversation if i.agentic)
    assert row["expected_tool_calls"] == sum(
        len(i.ground_truth_agentic.expected_tools) for i in conv.conversation if i.ground_truth_agentic
    )
    assert row["scored"] == sum(i.score is not None for i in conv.conversation)
    assert row["task_key"] == conv.task_key()
    assert list(conversations_preview([]).columns) == list(frame.columns)


IMPORT_SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def test_trace_files_are_detected_and_a_forced_format_rereads_them(app: AppTest) -> None:
    at = _data_page(app)
    chooser = at.selectbox(key="upload_format")
    assert chooser.value == DEFAULT_FORMAT and list(chooser.options) == [FORMAT_LABELS[f] for f in FORMAT_CHOICES]
    body = (IMPORT_SAMPLES / "openai_traces.jsonl").read_bytes()
    at.file_uploader(key="upload").set_value([("traces.jsonl", body, "application/json")]).run()
    assert not at.exception
    assert "Loaded 12 conversations (18 interactions) from **traces.jsonl**" in _texts(at.success)
    notes = _frame(at, "report_notes")
    assert "read as OpenAI chat traces (detected from the content)" in notes.iloc[0]["rule"]
    preview = _frame(at, "preview_table")
    assert len(preview) == 12 and preview["tool_calls"].sum() > 0

    # Another format chosen: the same file is read again, and refused with the format it is in.
    at.selectbox(key="upload_format").set_value("ragas").run()
    assert not at.exception
    error = _texts(at.error)
    assert "Nothing was loaded from traces.jsonl" in error and "'openai' format" in error
    assert "The active data is still **traces.jsonl**" in _texts(at.caption)


def test_a_forced_format_loads_a_tau_bench_results_file(app: AppTest) -> None:
    at = _data_page(app)
    at.selectbox(key="upload_format").set_value("tau-bench").run()
    body = (IMPORT_SAMPLES / "tau_bench_airline.json").read_bytes()
    at.file_uploader(key="upload").set_value([("gpt-4o-airline.json", body, "application/json")]).run()
    assert not at.exception
    assert "Loaded 200 conversations (200 interactions)" in _texts(at.success)
    assert "(the format chosen)" in _frame(at, "report_notes").iloc[0]["rule"]
    assert _frame(at, "preview_table")["task_key"].nunique() == 50


def test_what_an_importer_could_not_map_is_in_the_report(app: AppTest) -> None:
    at = _data_page(app)
    trace = {"id": "t", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
             "reference": ["Hello"], "colour": "red"}
    broken = {"id": "u", "messages": "oops"}
    at.file_uploader(key="upload").set_value([("t.jsonl", _jsonl(trace, broken), "application/json")]).run()
    assert not at.exception
    errors = _frame(at, "report_errors")
    assert (errors.iloc[0]["record"], errors.iloc[0]["path"], errors.iloc[0]["line"]) == (1, "messages", 2)
    warnings = _frame(at, "report_warnings")
    assert list(warnings["path"]) == ["colour"] and "OpenAI chat trace" in warnings.iloc[0]["rule"]
