"""``evaluate --labels FILE``: the corrected block of ``--json``, the corrected headline in the text, labels stored
with the run and counted by ``runs list`` / ``runs show``, no conversation left out silently (issue 37)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.corrected_words import judge_alone_text
from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.evaluate import evaluate
from agentic_core.io.labels_file import label_rows, write_labels
from agentic_core.io.samples import load_sample
from agentic_core.runs import RunStore
from agentic_core.settings import make_settings

ROOT = Path(__file__).resolve().parents[2]
LABELLED = ROOT / "sample_data" / "labelled_support.jsonl"
TRAVEL = ROOT / "sample_data" / "travel_agent.jsonl"
ARGS = ("--judge", "dataset", "--no-progress", "--seed", "11")
BLOCK_KEYS = {
    "success_rate", "pass_at_k", "pass_pow_k", "k", "method", "design", "design_said", "n_labels", "n_labelled",
    "n_labelled_tasks", "n_conversations", "sensitivity", "sensitivity_ci", "specificity", "specificity_ci", "notes",
    "unmatched",
}  # fmt: skip


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(path))
    return path


def _travel_labels(tmp_path: Path) -> Path:
    """Labels on every other conversation of the travel sample (and one naming no conversation)."""
    result = evaluate(TRAVEL, "dataset", cache_mode="off")
    rows = [{"session_id": s, "label": i % 3 != 0} for i, s in enumerate(result.session_ids) if i % 2 == 0]
    rows.append({"session_id": "nobody", "label": 1})
    path = tmp_path / "labels.csv"
    path.write_bytes(write_labels(rows, "csv"))
    return path


def test_labels_file_gives_the_corrected_block_and_is_stored_with_the_run(history: Path, tmp_path: Path) -> None:
    labels = _travel_labels(tmp_path)
    code, out, err = run("evaluate", str(TRAVEL), *ARGS, "--json", "--labels", str(labels))
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    block = doc["corrected"]
    assert set(block) >= BLOCK_KEYS
    assert block["n_labels"] == 21 and block["unmatched"] == 1 and block["n_labelled"] == 20
    assert set(block["success_rate"]) == {"estimate", "ci", "labels_only", "labels_only_ci"}
    assert block["pass_at_k"] is None  # one attempt per task: pass@K is not measured
    # The same numbers as the core's reading of the same labels (the block is built once, in the core).
    from agentic_core.io.labels_file import read_labels_file

    result = evaluate(TRAVEL, "dataset", cache_mode="off")
    result.labels = read_labels_file(labels.read_bytes(), labels.name).labels
    reading = aggregate(result, make_settings(threshold=doc["settings"]["threshold"], seed=11)).corrected
    assert reading is not None and block == json.loads(json.dumps(reading.as_json()))
    assert "headline" in doc and "curve" in doc and "run_id" in doc  # existing fields unchanged
    assert "labels: 21 labels read from labels.csv" in err
    stored = RunStore(history)
    assert len(stored.labels(doc["run_id"])) == 21  # with the run, unmatched one included


def test_text_output_puts_the_corrected_headline_beside_the_judge_alone(history: Path) -> None:
    code, out, err = run("evaluate", str(LABELLED), *ARGS, "--no-save")
    assert code == EXIT_OK, err
    agg = aggregate(evaluate(LABELLED, "dataset", cache_mode="off"), make_settings(seed=11))
    reading = agg.corrected
    assert reading is not None and reading.success_rate.estimate is not None
    line = next(x for x in out.splitlines() if x.startswith("corrected with "))
    # The core's sentence, number for number: the corrected value, the judge alone, its agreement.
    rate = reading.success_rate
    assert line.startswith(f"corrected with {reading.n_labelled} human labels on {reading.n_labelled_tasks} tasks: "
                           f"success rate {rate.estimate:.2f} [{rate.ci[0]:.2f}, {rate.ci[1]:.2f}]")  # fmt: skip
    assert f"; judge alone {judge_alone_text(agg)}; judge sensitivity {reading.sensitivity:.2f}" in line
    assert "corrected note: the labels do not say how their items were chosen" in out


def test_without_labels_the_block_is_null_and_the_text_says_how_to_get_one(history: Path) -> None:
    code, out, _ = run("evaluate", str(TRAVEL), *ARGS, "--json", "--no-save")
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["corrected"] is None
    code, out, _ = run("evaluate", str(TRAVEL), *ARGS, "--no-save")
    assert "corrected: no human labels" in out and "--labels FILE" in out and "review queue" in out


def test_no_silent_exclusion_in_the_success_rate_line(history: Path) -> None:
    result = evaluate(load_sample("travel"), "learned", cache_mode="off")
    agg = aggregate(result)
    scored, total = agg.counts.scored_conversations, agg.counts.conversations
    assert scored < total  # the travel sample's uncertain turns leave conversations out
    _, out, _ = run("evaluate", str(TRAVEL), "--judge", "learned", "--no-progress", "--no-save", "--json")
    assert json.loads(out)["conversations_counted"] == f"on {scored} of {total} conversations"
    _, out, _ = run("evaluate", str(TRAVEL), "--judge", "learned", "--no-progress", "--no-save")
    assert next(x for x in out.splitlines() if x.startswith("success rate")).find(f"on {scored} of {total}") > 0
    _code, out, _ = run("evaluate", str(TRAVEL), "--judge", "learned", "--no-progress", "--no-save", "--json",
                       "--unscored-as-incorrect")  # fmt: skip
    assert json.loads(out)["conversations_counted"] is None  # every conversation counts


def test_a_bad_labels_file_exits_2_naming_the_line_before_any_judging(history: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("session_id,label\ns1,1\ns2,perhaps\n")
    code, out, err = run("evaluate", str(TRAVEL), *ARGS, "--labels", str(bad))
    assert code == EXIT_USER_ERROR and out == ""
    assert "bad.csv line 3, label" in err and "judging" not in err
    assert RunStore(history).runs() == []  # nothing judged, nothing stored
    code, _, err = run("evaluate", str(TRAVEL), *ARGS, "--labels", str(tmp_path / "missing.csv"))
    assert code == EXIT_USER_ERROR and "missing.csv" in err


def test_a_later_labels_file_wins_on_the_same_item(history: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.csv"
    first.write_bytes(write_labels(label_rows([]), "jsonl") + b'{"session_id": "trv-001", "label": 1}\n')
    second.write_text("session_id,label\ntrv-001,0\n")
    code, out, err = run("evaluate", str(TRAVEL), *ARGS, "--json", "--labels", str(first), "--labels", str(second))
    assert code == EXIT_OK, err
    (label,) = RunStore(history).labels(json.loads(out)["run_id"])
    assert label.label == 0


def test_runs_list_and_show_count_the_labels(history: Path, tmp_path: Path) -> None:
    labels = _travel_labels(tmp_path)
    code, out, err = run("evaluate", str(TRAVEL), *ARGS, "--json", "--labels", str(labels))
    assert code == EXIT_OK, err
    run_id = json.loads(out)["run_id"]
    _, out, _ = run("runs", "list", "--json")
    (meta,) = json.loads(out)["runs"]
    assert meta["labels"] == 21 and meta["id"] == run_id and "judge_label" in meta
    _, out, _ = run("runs", "list")
    header, row = out.splitlines()
    assert header.split()[-1] == "labels" and row.split()[-1] == "21"
    _, out, _ = run("runs", "show", run_id, "--json")
    shown = json.loads(out)
    assert shown["labels"] == 21 and shown["corrected"]["n_labels"] == 21 and "overrides" in shown
    _code, out, _ = run("runs", "show", run_id)
    assert "human labels stored with the run: 21" in out and "corrected with " in out
