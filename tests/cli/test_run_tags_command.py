"""``evaluate --tag/--note/--meta``, ``runs list``'s filters and its ``--json`` fields, ``runs show``, ``runs tag``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, main
from agentic_core.runs import RunStore, RunTags

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "sample_data" / "seed_examples.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(path))
    return path


def evaluate(*extra: str) -> dict[str, Any]:
    code, out, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--json", "--no-progress", *extra)
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_evaluate_stores_its_tags_note_and_metadata(history: Path) -> None:
    run_id = evaluate("--tag", "nightly", "--tag", "baseline", "--note", "before the fix",
                      "--meta", "model=gpt-4o", "--meta", "git_commit=abc123")["run_id"]  # fmt: skip
    expected = RunTags.checked(["baseline", "nightly"], "before the fix", {"model": "gpt-4o", "git_commit": "abc123"})
    assert RunStore(history).meta(run_id).run_tags == expected

    listed = json.loads(run("runs", "list", "--json")[1])["runs"][0]
    assert listed["tags"] == ["baseline", "nightly"] and listed["note"] == "before the fix"
    assert listed["metadata"] == {"git_commit": "abc123", "model": "gpt-4o"}
    assert listed["id"] == run_id and "judge_label" in listed  # the fields already there stay

    code, out, _ = run("runs", "show", run_id)
    assert code == EXIT_OK
    assert "tags: baseline, nightly" in out and "note: before the fix" in out
    assert "metadata: git_commit=abc123, model=gpt-4o" in out
    shown = json.loads(run("runs", "show", run_id, "--json")[1])
    assert shown["run"]["tags"] == ["baseline", "nightly"] and shown["run"]["metadata"]["model"] == "gpt-4o"
    assert "baseline,nightly" in run("runs", "list")[1]  # the table's tags column


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--meta", "api_key=abc"], "--meta api_key: must not name a credential"),
        (["--meta", "model"], "--meta: must be KEY=VALUE"),
        (["--tag", "two words"], "--tag: must be one word"),
        (["--meta", "model=sk-abcdefghijklmnopqrstuvwxyz"], "--meta model: must not hold a credential"),
    ],
)
def test_a_bad_tag_exits_2_before_judging(history: Path, options: list[str], said: str) -> None:
    code, out, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--no-progress", *options)
    assert code == EXIT_USER_ERROR and said in err and out == ""
    assert "sk-abcdefghijklmnopqrstuvwxyz" not in err
    assert RunStore(history).runs() == []


def test_runs_list_filters_on_tags_metadata_and_words(history: Path) -> None:
    a = evaluate("--tag", "baseline", "--meta", "model=gpt-4o")["run_id"]
    b = evaluate("--tag", "candidate", "--tag", "prompt-v2", "--meta", "model=gpt-4o-mini", "--note", "Prompt fix")[
        "run_id"
    ]

    def listed(*options: str) -> list[str]:
        code, out, err = run("runs", "list", "--json", *options)
        assert code == EXIT_OK, err
        return [r["id"] for r in json.loads(out)["runs"]]

    assert listed() == [b, a]
    assert listed("--tag", "baseline") == [a]
    assert listed("--tag", "candidate", "--tag", "prompt-v2") == [b]
    assert listed("--meta", "model=gpt-4o") == [a]
    assert listed("--search", "prompt FIX") == [b]
    assert listed("--tag", "baseline", "--search", "fix") == []
    code, out, _ = run("runs", "list", "--tag", "absent")
    assert code == EXIT_OK and "matches the filters" in out
    assert run("runs", "list", "--meta", "model")[0] == EXIT_USER_ERROR


def test_runs_tag_adds_removes_and_sets(history: Path) -> None:
    run_id = evaluate("--tag", "baseline", "--meta", "model=gpt-4o", "--meta", "seed=1")["run_id"]
    code, out, err = run("runs", "tag", run_id, "candidate", "nightly", "--remove", "baseline", "--note", "retried",
                         "--meta", "model=gpt-4o-mini", "--unset", "seed")  # fmt: skip
    assert code == EXIT_OK, err
    assert "tags: candidate, nightly" in out and "note: retried" in out and "metadata: model=gpt-4o-mini" in out
    assert RunStore(history).meta(run_id).run_tags == RunTags.checked(
        ["candidate", "nightly"], "retried", {"model": "gpt-4o-mini"}
    )
    doc = json.loads(run("runs", "tag", run_id, "--note", "", "--json")[1])
    assert doc["note"] == "" and doc["tags"] == ["candidate", "nightly"] and doc["id"] == run_id
    code, _, err = run("runs", "tag", run_id, "bad tag")
    assert code == EXIT_USER_ERROR and "--tag: must be one word" in err
    code, _, err = run("runs", "tag", "20990101-000000-dead", "x")
    assert code == EXIT_USER_ERROR and "is not in the history" in err


def test_the_run_file_and_export_import_keep_the_tags(history: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, _, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--no-progress", "--no-save", "--out", str(out),
                       "--tag", "ci", "--meta", "git_commit=abc123")  # fmt: skip
    assert code == EXIT_OK, err
    imported = json.loads(run("runs", "import", str(next(out.glob("run*.json.gz"))), "--json")[1])
    assert imported["tags"] == ["ci"] and imported["metadata"] == {"git_commit": "abc123"}
    target = tmp_path / "again.json.gz"
    assert run("runs", "export", imported["id"], "--out", str(target))[0] == EXIT_OK
    again = json.loads(run("runs", "import", str(target), "--json")[1])
    assert again["id"] != imported["id"] and again["tags"] == ["ci"]


def test_tags_with_nowhere_to_go_are_said(history: Path) -> None:
    code, _, err = run("evaluate", str(SEEDS), "--judge", "dataset", "--no-progress", "--no-save", "--tag", "x")
    assert code == EXIT_OK and "--tag, --note and --meta are kept with the stored run" in err
