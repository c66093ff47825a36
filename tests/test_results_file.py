"""benchmarks/results_file.py: one section of RESULTS.md replaced between its markers, the rest untouched."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import results_file
from benchmarks.results_file import (
    Recorder,
    ResultsFileError,
    add_results_arguments,
    command_line,
    markers,
    printed_markdown,
    replace_section,
    write_section,
)

ROOT = Path(__file__).resolve().parents[1]

BEFORE = (
    "# Benchmark results\n\n## Alpha\n\nhand-written prose about alpha\n\n"
    "<!-- results:alpha start -->\nold alpha figures\n| a | 1 |\n<!-- results:alpha end -->\n\n"
    "prose after alpha, kept\n\n## Beta\n\n<!-- results:beta start -->\nold beta\n<!-- results:beta end -->\n"
    "trailing text without a final newline"
)


def test_only_the_named_section_changes(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    path.write_text(BEFORE, encoding="utf-8")
    write_section("alpha", "| x | y |\n|---|---|\n| 1 | 2 |", command="python benchmarks/alpha.py", path=path)
    after = path.read_text(encoding="utf-8")
    start, end = markers("alpha")
    head, rest = after.split(start + "\n")
    inside, tail = rest.split(end)
    # Everything outside alpha's markers is byte for byte what it was.
    assert head == BEFORE.split(start + "\n")[0]
    assert tail == BEFORE.split(end)[1]
    assert "old alpha figures" not in inside
    assert "| 1 | 2 |" in inside
    assert "`python benchmarks/alpha.py`" in inside
    assert "old beta" in after


def test_section_lines_name_date_machine_and_commit(tmp_path: Path) -> None:
    when = dt.datetime(2026, 11, 27, 0, 5, tzinfo=dt.timezone.utc)
    text = results_file.render("| a |\n|---|", "python x.py", now=when)
    assert "- date: 2026-11-27 00:05 UTC" in text
    machine = next(line for line in text.splitlines() if line.startswith("- machine: "))
    assert f"x {os.cpu_count()} CPUs" in machine
    assert "GiB memory" in machine
    assert f"Python {sys.version_info.major}.{sys.version_info.minor}" in machine
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    commit = next(line for line in text.splitlines() if line.startswith("- commit: "))
    assert commit.removeprefix("- commit: ").removesuffix("+dirty") == head


def test_dirty_tree_is_marked(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, capture_output=True, check=True)

    git("init", "-q")
    (tmp_path / "f.txt").write_text("one\n")
    git("add", "f.txt")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    clean = results_file.commit(tmp_path)
    assert clean and not clean.endswith("+dirty")
    (tmp_path / "untracked.txt").write_text("scratch\n")
    assert results_file.commit(tmp_path) == clean
    (tmp_path / "f.txt").write_text("two\n")
    assert results_file.commit(tmp_path) == clean + "+dirty"
    assert results_file.commit(tmp_path.parent / "no-such-dir").startswith("unknown")


def test_missing_markers_append_the_section_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    path.write_text(BEFORE, encoding="utf-8")
    write_section("gamma", "| g |\n|---|", command="python g.py", path=path, title="Gamma bench")
    after = path.read_text(encoding="utf-8")
    assert after.startswith(BEFORE)
    added = after[len(BEFORE) :]
    start, end = markers("gamma")
    assert added.index("## Gamma bench") < added.index(start) < added.index("| g |") < added.index(end)
    assert added.endswith(end + "\n")
    # A second run replaces the appended section instead of appending another.
    write_section("gamma", "| h |\n|---|", command="python g.py", path=path)
    again = path.read_text(encoding="utf-8")
    assert again.count(start) == 1 and "| h |" in again and "| g |" not in again
    assert again.startswith(BEFORE)


@pytest.mark.parametrize(
    "text",
    [
        "<!-- results:alpha start -->\nx\n",
        "<!-- results:alpha end -->\nx\n<!-- results:alpha start -->\n",
        "<!-- results:alpha start -->\n<!-- results:alpha start -->\n<!-- results:alpha end -->\n",
    ],
)
def test_broken_markers_are_an_error_naming_the_lines(text: str) -> None:
    with pytest.raises(ResultsFileError, match=r"alpha.*exactly one.*Fix: fix the markers by hand"):
        replace_section(text, "alpha", "new\n")


def test_bad_name_and_empty_body_are_errors(tmp_path: Path) -> None:
    with pytest.raises(ResultsFileError, match="only letters"):
        markers("a -->")
    path = tmp_path / "RESULTS.md"
    path.write_text(BEFORE, encoding="utf-8")
    with pytest.raises(ResultsFileError, match="printed nothing"):
        write_section("alpha", "  \n", command="c", path=path)
    assert path.read_text(encoding="utf-8") == BEFORE


def test_a_failure_mid_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "RESULTS.md"
    path.write_text(BEFORE, encoding="utf-8")
    real_fdopen = os.fdopen

    class Half:
        """Writes half the text, then fails: a full disk or a killed process mid-write."""

        def __init__(self, *args: object, **kwargs: object) -> None:
            self._out = real_fdopen(*args, **kwargs)  # type: ignore[call-overload]

        def __enter__(self) -> Half:
            return self

        def __exit__(self, *exc: object) -> None:
            self._out.close()

        def write(self, text: str) -> int:
            self._out.write(text[: len(text) // 2])
            raise OSError("no space left on device")

    monkeypatch.setattr(results_file.os, "fdopen", Half)
    with pytest.raises(OSError, match="no space"):
        write_section("alpha", "| new |\n|---|", command="c", path=path)
    assert path.read_text(encoding="utf-8") == BEFORE
    assert [p.name for p in tmp_path.iterdir()] == ["RESULTS.md"]  # no temporary file left behind


def test_printed_output_keeps_tables_and_their_captions() -> None:
    printed = "100 interactions, built in 3 ms\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\n\nverdict: meets\n"
    assert printed_markdown(printed) == (
        "100 interactions, built in 3 ms\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nverdict: meets"
    )


def test_command_line_leaves_out_where_to_write() -> None:
    argv = [str(ROOT / "benchmarks" / "bench_x.py"), "--seeds", "3", "--write-results", "--results-file", "/t/R.md"]
    assert command_line(argv) == "python benchmarks/bench_x.py --seeds 3"
    assert command_line(["b.py", "--results-file=/t/R.md", "--n", "a b"]) == "python b.py --n 'a b'"


def test_recorder_is_inert_without_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    add_results_arguments(parser)
    path = tmp_path / "RESULTS.md"
    path.write_text(BEFORE, encoding="utf-8")
    args = parser.parse_args(["--results-file", str(path)])
    assert args.write_results is False
    recorder = Recorder(args, "alpha")
    print("| t |\n|---|")
    recorder.finish()
    assert path.read_text(encoding="utf-8") == BEFORE
    assert capsys.readouterr().out == "| t |\n|---|\n"

    args = parser.parse_args(["--write-results", "--results-file", str(path)])
    recorder = Recorder(args, "alpha")
    print("| t |\n|---|")
    recorder.finish()
    assert capsys.readouterr().out == "| t |\n|---|\n"  # the script's output itself is unchanged
    assert "| t |\n|---|\n\n<!-- results:alpha end -->" in path.read_text(encoding="utf-8")


def test_every_recording_script_has_its_markers_in_results_md() -> None:
    # A section without markers would be appended as a second copy instead of replacing the hand-written one.
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    names = {
        match.group(1)
        for script in sorted((ROOT / "benchmarks").glob("*.py"))
        for match in re.finditer(r'Recorder\(args, "([^"]+)"', script.read_text(encoding="utf-8"))
    }
    assert "bench_cascade" in names
    for name in names:
        start, end = markers(name)
        assert results.count(start) == 1 and results.count(end) == 1, name
        assert results.index(start) < results.index(end), name


def test_bench_cascade_replaces_its_section_end_to_end(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    original = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_cascade.py", "--seeds", "2", "--write-results", "--results-file", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )
    after = path.read_text(encoding="utf-8")
    start, end = markers("bench_cascade")
    # Outside the section the file is byte for byte the same; inside, the old text is gone.
    assert after.split(start)[0] == original.split(start)[0]
    assert after.split(end)[1] == original.split(end)[1]
    section = after.split(start)[1].split(end)[0]
    assert section != original.split(start)[1].split(end)[0]
    assert "`python benchmarks/bench_cascade.py --seeds 2`" in section
    # The tables written are the ones the script printed.
    table_lines = [line for line in done.stdout.splitlines() if line.startswith("|")]
    assert len(table_lines) >= 3
    assert all(line in section for line in table_lines)
    assert "- machine: " in section and "- commit: " in section and "- date: " in section
