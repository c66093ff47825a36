"""``compare A B --labels FILE``: labels files given to both runs, for data files and stored runs alike (issue 37's
"a labels file" on the Compare face): the same corrected difference as the same labels stored in the runs, a bad
file refused before any judging, every label accounted for on stderr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR
from agentic_core.cli import compare_command as compare_module
from agentic_core.cli.gate_options import EXIT_GATE
from agentic_core.io.labels_file import write_labels
from agentic_core.runs import RunStore
from tests.analysis.test_compare_runs import agent
from tests.cli.test_compare_command import COMMON, run, write

A_PASSING, B_PASSING = set(range(15)), set(range(23))
# The judge (the data's scores) is wrong on these tasks: the labels say the opposite, so the correction is not nil.
A_WRONG, B_WRONG = {3, 20, 26}, {4, 21, 27}


def _rows(name: str, passing: set[int], wrong: set[int]) -> list[dict[str, Any]]:
    return [{"session_id": f"{name}-{i}", "label": int((i in passing) != (i in wrong))} for i in range(30)]


@pytest.fixture
def history(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("AGENTIC_RUNS_PATH", str(path))
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("compare-labels")
    labels = [*_rows("a", A_PASSING, A_WRONG), *_rows("b", B_PASSING, B_WRONG), {"session_id": "nobody", "label": 1}]
    (folder / "labels.csv").write_bytes(write_labels(labels, "csv"))
    return {
        "a": write(folder / "a.jsonl", agent("a", A_PASSING)),
        "b": write(folder / "b.jsonl", agent("b", B_PASSING)),
        "labels": str(folder / "labels.csv"),
    }


def _compare_json(*argv: str) -> dict[str, Any]:
    code, out, err = run("compare", *argv, *COMMON, "--json")
    assert code == EXIT_OK, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def _stored(path: str, *labels: str) -> str:
    """``evaluate`` a file into the history, with its ``--labels`` files stored with the run; the run id."""
    code, out, err = run("evaluate", path, *COMMON, "--json", *(x for f in labels for x in ("--labels", f)))
    assert code == EXIT_OK, err
    run_id: str = json.loads(out)["run_id"]
    return run_id


def test_a_labels_file_gives_the_difference_of_the_same_labels_stored_in_the_runs(
    files: dict[str, str], history: Path
) -> None:
    # The reference: the same file given to evaluate, stored with each run, read back by compare (the existing path).
    labelled = _compare_json(_stored(files["a"], files["labels"]), _stored(files["b"], files["labels"]))
    expected = labelled["corrected_difference"]
    assert expected is not None and expected["estimate"] is not None and expected["n_labelled_both"] == 30
    # Data files judged here, and stored runs without labels: the file gives both the same difference.
    from_files = _compare_json(files["a"], files["b"], "--labels", files["labels"])
    plain = _compare_json(_stored(files["a"]), _stored(files["b"]), "--labels", files["labels"])
    assert from_files["corrected_difference"] == expected
    assert plain["corrected_difference"] == expected
    # The labels correct the judge: the judge-only difference is another number.
    judge_only = next(m for m in from_files["metrics"] if m["metric"] == "success_rate")["delta"]
    assert expected["estimate"] != pytest.approx(judge_only)
    # Nothing else in the output changes.
    without = _compare_json(files["a"], files["b"])
    assert without["corrected_difference"] is None
    assert {**from_files, "corrected_difference": None} == without


def test_a_files_label_wins_over_the_stored_one_on_the_same_item(
    files: dict[str, str], history: Path, tmp_path: Path
) -> None:
    # A second file turns a-3 right (the stored label says wrong): evaluate's "a later one wins" is the reference.
    later = tmp_path / "later.jsonl"
    later.write_bytes(write_labels([{"session_id": "a-3", "label": 1}, {"session_id": "b-5", "label": 0}], "jsonl"))
    stored_a, stored_b = _stored(files["a"], files["labels"]), _stored(files["b"], files["labels"])
    expected = _compare_json(
        _stored(files["a"], files["labels"], str(later)), _stored(files["b"], files["labels"], str(later))
    )["corrected_difference"]
    given = _compare_json(stored_a, stored_b, "--labels", str(later))["corrected_difference"]
    assert given == expected
    assert given != _compare_json(stored_a, stored_b)["corrected_difference"]  # the later labels changed it
    assert len(RunStore(history).labels(stored_a)) == 61  # compare stores nothing


def test_a_bad_labels_file_exits_2_before_any_judging(
    files: dict[str, str], history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = compare_module.judge_loaded

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append("judged")
        return real(*args, **kwargs)

    monkeypatch.setattr(compare_module, "judge_loaded", spy)
    bad = tmp_path / "bad.csv"
    bad.write_text("session_id,label\na-1,1\na-2,perhaps\n")
    code, out, err = run("compare", files["a"], files["b"], *COMMON, "--labels", files["labels"], "--labels", str(bad))
    assert code == EXIT_USER_ERROR and out == ""
    assert "error: bad.csv line 3, label: label must be 1 or 0" in err and "(got 'perhaps')" in err
    code, _, err = run("compare", files["a"], files["b"], *COMMON, "--labels", str(tmp_path / "missing.csv"))
    assert code == EXIT_USER_ERROR and "missing.csv: cannot be read as a labels file" in err
    code, _, err = run("compare", files["a"], *COMMON, "--leaderboard", "--labels", files["labels"])
    assert code == EXIT_USER_ERROR and "--labels: corrects the difference of two runs" in err
    assert calls == []  # no file was judged
    code, _, err = run("compare", files["a"], files["b"], *COMMON, "--labels", files["labels"])
    assert code == EXIT_OK, err
    assert calls == ["judged", "judged"]  # the spy sees the judging a good file leads to


def test_every_label_is_accounted_for_on_stderr(files: dict[str, str], history: Path, tmp_path: Path) -> None:
    code, out, err = run("compare", files["a"], files["b"], *COMMON, "--labels", files["labels"])
    assert code == EXIT_OK, err
    assert "labels: 61 labels read from labels.csv" in err  # evaluate's line
    assert "labels: 30 of 61 labels matched items of A (a.jsonl), 30 of B (b.jsonl)" in err
    assert "labels: 1 matched no item of A or B (not used by the corrected difference)" in err
    assert "  unmatched label: nobody (no such conversation)" in err
    assert "unmatched" not in out and "matched items" not in out  # stdout is the comparison alone
    # Seven labels naming nothing: the first five named with why (each side's when they differ), the rest counted.
    many = tmp_path / "many.csv"
    rows = [{"session_id": "a-1", "qa_id": "nope", "label": 0}, *({"session_id": f"ghost-{i}", "label": 1}
                                                                   for i in range(6))]  # fmt: skip
    many.write_bytes(write_labels(rows, "csv"))
    code, _, err = run("compare", files["a"], files["b"], *COMMON, "--labels", str(many))
    assert code == EXIT_OK, err
    assert "labels: 0 of 7 labels matched items of A (a.jsonl), 0 of B (b.jsonl)" in err
    assert "labels: 7 matched no item of A or B" in err and "  ... and 2 more" in err
    assert "  unmatched label: a-1#nope (A: no interaction with this qa_id in the conversation; B: no such " \
           "conversation)" in err  # fmt: skip
    assert [f"ghost-{i}" in err for i in range(6)] == [True] * 4 + [False] * 2


def test_labels_on_both_sides_and_on_assistants(files: dict[str, str], history: Path, tmp_path: Path) -> None:
    # B re-runs A's conversations under the same ids: a label then labels both answers, and stderr says so.
    again = write(tmp_path / "again.jsonl", agent("a", B_PASSING))
    code, _, err = run("compare", files["a"], again, *COMMON, "--labels", files["labels"])
    assert code == EXIT_OK, err
    assert "labels: 30 of 61 labels matched items of A (a.jsonl), 30 of B (again.jsonl)" in err
    assert "note: 30 labels matched items of both A and B (the runs share those ids)" in err
    assert "labels: 31 matched no item of A or B" in err  # the b-* labels and nobody
    # Two assistants of one run: each side counts its assistant's labels; another assistant's is named.
    three = write(tmp_path / "three.jsonl", agent("x", {1}), agent("y", {1, 2}), agent("z", {2}))
    labels = tmp_path / "xyz.jsonl"
    labels.write_bytes(write_labels([{"session_id": f"{n}-1", "label": 1} for n in "xyz"], "jsonl"))
    code, _, err = run("compare", three, *COMMON, "--assistants", "x,y", "--labels", str(labels))
    assert code == EXIT_OK, err
    assert "labels: 1 of 3 labels matched items of A (x), 1 of B (y)" in err
    assert "  unmatched label: z-1 (A: a conversation of assistant z, not x; B: a conversation of assistant z, " \
           "not y)" in err  # fmt: skip


def test_fail_if_worse_keeps_gating_on_the_judges_differences(files: dict[str, str], history: Path) -> None:
    for order, expected in (((files["b"], files["a"]), EXIT_GATE), ((files["a"], files["b"]), EXIT_OK)):
        gate = ("--fail-if-worse", "success_rate")
        code, out, err = run("compare", *order, *COMMON, *gate)
        labelled_code, labelled_out, labelled_err = run("compare", *order, *COMMON, *gate, "--labels", files["labels"])
        assert code == labelled_code == expected
        gate_lines = [line for line in err.splitlines() if line.startswith("gate ")]
        assert gate_lines and gate_lines == [line for line in labelled_err.splitlines() if line.startswith("gate ")]
        assert "corrected difference" in labelled_out and "corrected difference" not in out
