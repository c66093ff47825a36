"""Detection of a file's format from its first records, and the format names (auto, seed, openai, ...)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from agentic_core.cli import EXIT_OK, EXIT_USER_ERROR, build_parser, main
from agentic_core.errors import SettingsError
from agentic_core.io.importers import DEFAULT_FORMAT, FORMAT_CHOICES, FORMAT_LABELS, IMPORTERS, check_format
from agentic_core.io.importers.detect import LOOK_AT, detect, record_format
from agentic_core.io.loader import load_bytes, load_paths, load_records
from agentic_core.io.parse import parse
from agentic_core.io.parsed import UNPARSABLE, Parsed

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
FILES = {
    "seed": SAMPLES / "seed_examples.json",
    "openai": SAMPLES / "openai_traces.jsonl",
    "ragas": SAMPLES / "ragas_multiturn.jsonl",
    "tau-bench": SAMPLES / "tau_bench_airline.json",
    "inspect": SAMPLES / "inspect_log.json",
}


@pytest.mark.parametrize("fmt", list(FILES))
def test_every_sample_is_detected_from_its_content(fmt: str) -> None:
    path = FILES[fmt]
    found = detect(parse(path.name, path.read_bytes()))
    assert found is not None and found.format == fmt


@pytest.mark.parametrize("fmt", list(FILES))
def test_every_sample_loads_the_same_detected_or_forced(fmt: str) -> None:
    auto = load_paths([FILES[fmt]])
    forced = load_paths([FILES[fmt]], format=fmt)
    assert auto.ok and forced.ok
    assert [c.session_id for c in auto.conversations] == [c.session_id for c in forced.conversations]


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"session_id": "s", "conversation": []}, ("seed", "conversation")),
        ({"task_id": 1, "traj": [], "reward": 1}, ("tau-bench", "traj")),
        ({"user_input": []}, ("ragas", "user_input")),
        ({"eval": {}, "samples": []}, ("inspect", "eval")),
        ({"messages": []}, ("openai", "messages")),
        ({"session_id": "s"}, ("seed", "session_id")),
        ({"messages": "not a list"}, None),
        ({"anything": 1}, None),
        ([1, 2], None),
    ],
)
def test_one_records_format_and_the_key_that_shows_it(record: Any, expected: tuple[str, str] | None) -> None:
    assert record_format(record) == expected


def test_detection_skips_unreadable_lines_and_looks_at_a_few_records_only() -> None:
    records: list[Any] = [UNPARSABLE, {"x": 1}, {"messages": []}]
    found = detect(Parsed("jsonl", records=records))
    assert found is not None and (found.format, found.record, found.key) == ("openai", 2, "messages")
    late: list[Any] = [{"x": i} for i in range(LOOK_AT)] + [{"messages": []}]
    assert detect(Parsed("jsonl", records=late)) is None


def test_a_file_in_no_known_format_is_read_as_seed_and_its_errors_say_so() -> None:
    report = load_bytes("x.jsonl", b'{"foo": 1}\n')
    assert not report.conversations and not report.notes
    assert any("session_id" in i.message() for i in report.errors)


def test_format_names_are_one_table() -> None:
    assert FORMAT_CHOICES == ("auto", "seed", "openai", "ragas", "tau-bench", "inspect", "otel") == tuple(FORMAT_LABELS)
    assert DEFAULT_FORMAT == "auto"
    assert set(IMPORTERS) == set(FORMAT_CHOICES) - {"auto", "seed"}
    assert check_format("tau-bench") == "tau-bench"


@pytest.mark.parametrize("load", [lambda: load_records([], format="xml"), lambda: load_paths([], format="csv")])
def test_an_unknown_format_name_is_a_settings_error(load: Any) -> None:
    with pytest.raises(SettingsError) as caught:
        load()
    assert caught.value.place == "format" and "auto, seed, openai, ragas, tau-bench, inspect" in str(caught.value)


def test_existing_calls_without_a_format_keep_working() -> None:
    record = {
        "session_id": "s",
        "assistant_id": "a",
        "conversation": [{"qa_id": "q", "query": "?", "assistant": "!", "ground_truth_assistant": "!"}],
    }
    assert len(load_records([record]).conversations) == 1
    assert len(load_records([record], "mem", duplicate_key="session_id").conversations) == 1
    assert len(load_bytes("f.jsonl", json.dumps(record).encode()).conversations) == 1


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_takes_a_format_and_refuses_a_wrong_one_clearly() -> None:
    trace_file = str(FILES["openai"])
    code, out, err = run_cli(
        "evaluate", trace_file, "--format", "openai", "--judge", "dataset", "--json", "--no-progress"
    )
    assert code == EXIT_OK, err
    assert json.loads(out)["load"]["summary"].startswith("1 file, 12 records: 12 loaded")
    assert "read as OpenAI chat traces (the format chosen)" in err
    code, out, err = run_cli("evaluate", trace_file, "--format", "ragas", "--no-progress")
    assert code == EXIT_USER_ERROR and not out
    assert "the format was set to 'ragas'" in err and "--format openai" in err


def test_the_format_option_is_listed_in_the_help() -> None:
    with pytest.raises(SystemExit), contextlib.redirect_stdout(io.StringIO()) as shown:
        build_parser().parse_args(["evaluate", "--help"])
    assert "--format {auto,seed,openai,ragas,tau-bench,inspect,otel}" in shown.getvalue()
    assert "90% of the tasks" in shown.getvalue()  # a percent sign in a help text is printed as written
