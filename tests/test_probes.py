"""The outside audit's probes (issue 9), kept as tests: each input once crashed a run, lost work or misled.

Every test names the finding it guards. Probes of the judges' wording and tag handling live with
the judges (tests/judges/test_prompt.py, test_llm.py, test_lexical.py, test_hybrid.py), those of the
dashboard with the pages (tests/pages/, tests/ui/, tests/e2e/).
"""

from __future__ import annotations

import copy
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from agentic_core.cli import EXIT_NOTHING_SCORED, EXIT_OK, EXIT_STRICT, EXIT_USER_ERROR, main
from agentic_core.evaluate import MAX_JUDGED_CHARS, aggregate, evaluate, judge_items
from agentic_core.io.loader import load_paths, load_records
from agentic_core.io.record_checks import MAX_TOOL_NESTING
from agentic_core.io.samples import SAMPLES
from agentic_core.report.exports import EXPORT_FILES, export_bytes
from agentic_core.report.preview import record_view
from agentic_core.settings import make_settings

TRAVEL = SAMPLES["travel"].path


def travel_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in TRAVEL.read_text().splitlines() if line.strip()]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["evaluate", *argv, "--no-progress", "--cache", "off"], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    # ensure_ascii keeps a lone surrogate as its \ud800 escape, as a JSON writer would.
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"next": value}
    return value


# -- crashes and lost work ------------------------------------------------------------------------


def test_tool_parameters_nested_hundreds_deep_skip_one_record_not_the_run(tmp_path: Path) -> None:
    # Was: RecursionError, exit 1, the whole run lost.
    records = travel_records()
    records[2]["conversation"][0]["agentic"]["tools_used"][0]["parameters"] = {"filter": nested(400)}
    path = write_jsonl(tmp_path / "deep.jsonl", records)
    code, out, err = run(str(path), "--judge", "dataset", "--json")
    assert code == EXIT_OK
    assert f"more than {MAX_TOOL_NESTING} levels deep" in err and "record 2" in err
    assert json.loads(out)["counts"]["conversations"] == len(records) - 1
    assert run(str(path), "--judge", "dataset", "--strict")[0] == EXIT_STRICT


def test_nesting_at_the_limit_is_evaluated() -> None:
    records = travel_records()[:2]
    records[0]["conversation"][0]["agentic"]["tools_used"][0]["parameters"] = {"f": nested(MAX_TOOL_NESTING - 2)}
    report = load_records(records)
    assert len(report.conversations) == 2 and not report.errors
    evaluate(report, "dataset", cache_mode="off")  # tool comparison handles it


def test_a_lone_surrogate_is_repaired_in_place_and_reported(tmp_path: Path) -> None:
    # Was: UnicodeEncodeError in the DataFrame step, run lost (CLI and dashboard).
    records = travel_records()
    records[1]["conversation"][0]["assistant"] = "Booked \ud800 for you"
    path = write_jsonl(tmp_path / "surrogate.jsonl", records)
    assert "\\ud800" in path.read_text()
    out_dir = tmp_path / "out"
    code, _, err = run(str(path), "--judge", "lexical", "--json", "--out", str(out_dir))
    assert code == EXIT_OK
    assert "record 1" in err and "conversation[0].assistant" in err and "U+FFFD" in err
    frame = pd.read_csv(out_dir / "interactions.csv")
    assert frame["answer"].str.contains("\ufffd").any()


def test_records_given_in_memory_are_not_changed_by_the_repair() -> None:
    records = travel_records()[:2]
    records[0]["session_id"] = "trv-\udfff"
    before = copy.deepcopy(records)
    report = load_records(records)
    assert records == before
    assert report.conversations[0].session_id == "trv-\ufffd"


@pytest.mark.parametrize("kind", ["missing", "malformed", "csv", "directory"])
def test_strict_fails_on_every_file_that_could_not_be_read(tmp_path: Path, kind: str) -> None:
    # Was: --strict exited 0 for these; it counted only skipped records.
    bad = tmp_path / f"bad-{kind}.json"
    if kind == "malformed":
        bad.write_text('{"session_id": "x", ')
    elif kind == "csv":
        bad.write_text("session_id,query,answer\ns1,hi,hello\n")
    elif kind == "directory":
        bad.mkdir()
    assert run(str(TRAVEL), str(bad), "--judge", "dataset")[0] == EXIT_OK
    code, _, err = run(str(TRAVEL), str(bad), "--judge", "dataset", "--strict")
    assert code == EXIT_STRICT
    assert "--strict" in err and bad.name in err


def test_a_run_that_scored_nothing_fails(tmp_path: Path) -> None:
    # Was: exit 0. The dataset judge leaves records without a score unscored.
    records = travel_records()
    for record in records:
        for turn in record["conversation"]:
            turn.pop("score", None)
    code, _, err = run(str(write_jsonl(tmp_path / "noscore.jsonl", records)), "--judge", "dataset")
    assert code == EXIT_NOTHING_SCORED
    assert "nothing could be scored" in err


def test_api_key_env_naming_an_unset_variable_fails_before_any_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # Was: a placeholder key was sent; the only sign a wall of 401s.
    monkeypatch.delenv("MY_TEAM_KEY", raising=False)
    code, out, err = run(
        str(TRAVEL), "--judge", "llm", "--provider", "openai-compatible", "--model", "m",
        "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "MY_TEAM_KEY",
    )  # fmt: skip
    assert code == EXIT_USER_ERROR and out == ""
    assert "MY_TEAM_KEY" in err


def test_a_huge_answer_is_cut_for_the_judge_and_the_run_says_so() -> None:
    # Was: a 10 MB answer cost ~2 GB and a 26 MB one 4.3 GB and 46 s.
    records = travel_records()[:2]
    records[0]["conversation"][0]["assistant"] = "word " * 2_000_000  # 10 MB
    report = load_records(records)
    items = judge_items(report.conversations)
    assert len(items[0].answer) < MAX_JUDGED_CHARS + 200
    assert "cut: 10,000,000 characters" in items[0].answer
    result = evaluate(report, "lexical", cache_mode="off")
    assert any(f"longer than {MAX_JUDGED_CHARS:,} characters" in w for w in result.judge_run.warnings)


# -- exports and messages -------------------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://evil.example","click")', "=cmd|' /C calc'!A0", "+1+2", "-2+3", "@SUM(A1)", "\tx"]


def test_every_csv_neutralises_formula_cells() -> None:
    # Was: =HYPERLINK(...) and =cmd|... written verbatim (OWASP CSV injection).
    records = travel_records()[:len(FORMULAS)]
    for record, formula in zip(records, FORMULAS, strict=True):
        record["session_id"] = formula
        record["conversation"][0]["assistant"] = formula
    result = evaluate(load_records(records), "dataset", cache_mode="off")
    agg = aggregate(result, make_settings())
    csvs = [name for name, file in EXPORT_FILES.items() if file.endswith(".csv")]
    assert set(csvs) == {"interactions", "conversations", "tasks"}
    for name in csvs:
        frame = pd.read_csv(io.BytesIO(export_bytes(result, agg, name)), dtype=str, keep_default_na=False)
        cells = frame.to_numpy().ravel().tolist()
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], name
    interactions = pd.read_csv(io.BytesIO(export_bytes(result, agg, "interactions")), dtype=str)
    assert "'" + FORMULAS[0] in set(interactions["answer"])
    # Numbers stay numbers: a negative score-like value is not text and is not quoted.
    assert not interactions["judge_score"].str.startswith("'").any()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (gzip.compress(TRAVEL.read_bytes(), mtime=0), "is gzip-compressed"),  # mtime 0: the same id in every worker
        (b"session_id,query,assistant\ns1,hi,hello\n", "is a CSV (comma-separated) table, not JSON"),
        ('[{"session_id": "x"}]'.encode("utf-16-le"), "is UTF-16 (little-endian, without a byte-order mark)"),
        ('[{"session_id": "x"}]'.encode("utf-16-be"), "is UTF-16 (big-endian, without a byte-order mark)"),
        ('[{"session_id": "x"}]'.encode("utf-16"), "is UTF-16 encoded"),
        (b"PK\x03\x04rest-of-a-zip", "is a zip archive"),
    ],
)
def test_the_real_format_of_a_wrong_file_is_named(tmp_path: Path, data: bytes, said: str) -> None:
    path = tmp_path / "upload.jsonl"
    path.write_bytes(data)
    report = load_paths([path])
    assert not report.conversations
    assert [i.rule for i in report.errors] == [said] or said in report.errors[0].rule


@pytest.mark.parametrize("text", [",", " , ", ""])
def test_empty_tool_weights_are_an_error_not_the_defaults(text: str) -> None:
    # Was: --tool-weights , silently used the defaults.
    code, out, err = run(str(TRAVEL), "--judge", "dataset", "--tool-weights", text)
    assert code == EXIT_USER_ERROR and out == ""
    assert "--tool-weights" in err and "at least one dimension" in err


def test_all_zero_tool_weights_keep_the_answer_metrics() -> None:
    # Was: Overview, Explorer and Export blank with a raw dict error.
    zero = "selection=0,parameters=0,sequence=0,utilization=0"
    code, out, err = run(str(TRAVEL), "--judge", "dataset", "--json", "--tool-weights", zero, "--require-tools")
    assert code == EXIT_OK, err
    doc = json.loads(out)
    answers_only = json.loads(run(str(TRAVEL), "--judge", "dataset", "--json")[1])
    assert doc["headline"]["pass_at_k"] == answers_only["headline"]["pass_at_k"]
    assert any("Tool use is not scored" in note for note in doc["headline"]["notes"])


# -- further probes in the same spirit -----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (lambda t: t["agentic"]["tools_used"][0].__setitem__("parameters", [1, 2]), "must be an object"),
        (lambda t: t["agentic"]["tools_used"][0].pop("tool_name"), "required field 'tool_name' is missing"),
        (lambda t: t.__setitem__("score", True), "not a boolean"),
        (lambda t: t.__setitem__("score", "0.9"), "not a string"),
        (lambda t: t.__setitem__("assistant", 42), "must be a string"),
        (lambda t: t["agentic"]["tools_used"][0].__setitem__("step", 1.5), "whole number"),
    ],
)
def test_malformed_tool_calls_and_scores_are_reported_per_record(change: Any, rule: str) -> None:
    records = travel_records()[:3]
    change(records[1]["conversation"][0])
    report = load_records(records)
    assert len(report.conversations) == 2
    assert any(rule in issue.rule and issue.record == 1 for issue in report.errors)


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.__setitem__("session_id", "x" * 1_000_000),
        lambda r: r.__setitem__("session_id", "\u202etrv\u200b-001"),
        lambda r: r["conversation"][0].__setitem__("assistant", "a\x00b"),
        lambda r: r["conversation"][0]["agentic"]["tools_used"][0]["parameters"].__setitem__("origin", 10**400),
        lambda r: r["conversation"][0]["agentic"]["tools_used"][0].__setitem__("result", list(range(200_000))),
    ],
)
def test_odd_but_valid_values_are_evaluated_and_exported(change: Any) -> None:
    records = travel_records()[:3]
    change(records[0])
    result = evaluate(load_records(records), "lexical", cache_mode="off")
    agg = aggregate(result, make_settings())
    assert result.n_conversations == 3
    for name in EXPORT_FILES:
        assert export_bytes(result, agg, name)


def test_the_record_viewer_shortens_what_would_flood_the_browser() -> None:
    records = travel_records()[:1]
    records[0]["conversation"][0]["assistant"] = "x" * 50_000
    records[0]["conversation"][0]["agentic"]["tools_used"][0]["result"] = nested(MAX_TOOL_NESTING - 2)
    view = record_view(load_records(records).conversations[0], max_chars=1000, max_depth=20)
    text = json.dumps(view)
    assert "[49,000 more characters not shown]" in text
    assert "nested deeper than 20 levels, not shown" in text
    assert len(text) < 20_000
