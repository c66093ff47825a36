"""Loading a large JSON Lines file in pieces on worker processes (issue 14): the same report as a load in
one process, whatever goes wrong where (bad lines, invalid records, duplicates within a piece, across
pieces and across files), a pool that breaks half-way, and the files that are never split."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

from agentic_core.common.gc_control import gc_paused
from agentic_core.errors import SettingsError
from agentic_core.io import load_pieces
from agentic_core.io.load_pieces import PiecePool, PieceSettings, plan
from agentic_core.io.loader import DEFAULT_FORMAT, LoadReport, _Loader, load_paths
from agentic_core.io.parse import is_json_lines, parse
from tests.io.conftest import as_json, conversation, interaction, with_tools
from tests.io.test_streaming_load import _lines

# Tiny pieces, so that a file of a hundred records is cut into many; pytest runs helper threads,
# which are idle here, so forking next to them is allowed in these tests.
PIECES = PieceSettings(workers=2, min_bytes=0, piece_bytes=2_000, single_thread_only=False)
ONE_PROCESS = PieceSettings(workers=1)


def _good(i: int) -> dict[str, Any]:
    turns = [with_tools(), interaction(f"q{i}", score=(i % 10) / 10)]
    return conversation(f"g{i}", *turns, task_id=f"t{i % 7}")


def _file(first: int, count: int, *, mixed: bool = True) -> bytes:
    """Valid records, with every kind of problem and duplicates (within the file) in the middle."""
    rows = [orjson.dumps(_good(i)) for i in range(first, first + count)]
    if mixed:
        rows[count // 2 : count // 2] = _lines().split(b"\n")
        rows.insert(count - 3, orjson.dumps(_good(first + 1)))  # a duplicate far from the first
        rows.insert(count - 2, orjson.dumps(conversation("   ")))  # a blank session id
    return b"\n".join(rows) + b"\n"


def _load(files: list[tuple[str, bytes]], settings: PieceSettings) -> LoadReport:
    loader = _Loader("session_id+assistant_id", DEFAULT_FORMAT, settings)
    try:
        with gc_paused(promote=True):
            for name, data in files:
                loader.add_bytes(name, data)
    finally:
        loader.close()
    return loader.finish()


def _summary(report: LoadReport) -> tuple[Any, ...]:
    columns = report.conversations.columns
    return (
        [(i.severity, i.file, i.record, i.line, i.column, i.path, i.message()) for i in report.issues],
        list(report.skipped),
        [c.model_dump() for c in report.conversations],
        report.files,
        report.n_records,
        report.n_interactions,
        columns.session_ids,
        columns.assistant_ids,
        columns.task_keys,
        columns.sizes.tolist(),
        {name: column.to_pylist() for name, column in columns.texts.items()},
        columns.scores(),
        columns.tool_components,
        columns.expected_names,
        columns.used_names,
    )


def _same_arrays(a: LoadReport, b: LoadReport) -> None:
    x, y = a.conversations.columns, b.conversations.columns
    for name in ("score", "max_text_length", "human_label", "human_score", "tool_table"):
        assert np.array_equal(getattr(x, name), getattr(y, name), equal_nan=True), name


def test_a_file_in_pieces_gives_the_report_of_one_process() -> None:
    data = _file(0, 120)
    pieces = plan(PiecePool(PIECES), "data.jsonl", data, DEFAULT_FORMAT)
    assert pieces is not None and len(pieces) > 10  # really cut, and the problems fall in several pieces
    here = _load([("data.jsonl", data)], ONE_PROCESS)
    rules = " | ".join(i.rule for i in here.issues)
    for word in ("not valid JSON", "duplicate", "must not be blank", "surrogate", "nested more than", "unknown"):
        assert word in rules.lower() if word == "unknown" else word in rules, word
    split = _load([("data.jsonl", data)], PIECES)
    assert _summary(split) == _summary(here)
    _same_arrays(split, here)


def test_duplicates_across_files_and_pieces_are_found_as_in_one_process() -> None:
    first, second = _file(0, 100), _file(80, 100)  # the second repeats twenty sessions of the first
    here = _load([("a.jsonl", first), ("b.jsonl", second)], ONE_PROCESS)
    split = _load([("a.jsonl", first), ("b.jsonl", second)], PIECES)
    assert sum("duplicate" in i.rule for i in here.issues) >= 20
    assert _summary(split) == _summary(here)
    _same_arrays(split, here)


def test_workers_forked_for_a_file_read_it_from_shared_memory_and_later_files_are_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keys: list[str | None] = []
    real = PiecePool.start_with

    def spy(self: PiecePool, data: bytes) -> Any:
        executor, key = real(self, data)
        keys.append(key)
        return executor, key

    monkeypatch.setattr(PiecePool, "start_with", spy)
    first, second = _file(0, 100), _file(100, 100)
    split = _load([("a.jsonl", first), ("b.jsonl", second)], PIECES)
    assert len(keys) == 2 and keys[0] is not None and keys[1] is None  # the second file's pieces are sent
    assert not load_pieces._INHERITED  # this process keeps no reference of its own
    assert _summary(split) == _summary(_load([("a.jsonl", first), ("b.jsonl", second)], ONE_PROCESS))


def test_a_worker_not_forked_with_the_file_says_so() -> None:
    with pytest.raises(RuntimeError, match=r"was not forked with file 'a\.jsonl'"):
        load_pieces.load_inherited_piece("no-such-key", "a.jsonl", 0, 10, 1)


def test_every_piece_size_gives_the_same_report() -> None:
    data = _file(0, 90)
    here = _summary(_load([("data.jsonl", data)], ONE_PROCESS))
    for size in (1, 700, 5_000, 50_000):
        settings = PieceSettings(workers=2, min_bytes=0, piece_bytes=size, single_thread_only=False)
        assert _summary(_load([("data.jsonl", data)], settings)) == here, size


_PARENT = os.getpid()


def _dies_in_workers_after_the_first_pieces(name: str, data: bytes, first_line: int) -> Any:
    if os.getpid() != _PARENT and first_line > 40:
        os._exit(3)  # as if the kernel killed the worker for memory
    return _REAL_LOAD_PIECE(name, data, first_line)


_REAL_LOAD_PIECE = load_pieces.load_piece


def test_a_broken_pool_loads_the_rest_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _file(0, 120)
    here = _summary(_load([("data.jsonl", data)], ONE_PROCESS))
    # Forked workers inherit the patched module: every piece past line 40 kills its worker.
    monkeypatch.setattr(load_pieces, "load_piece", _dies_in_workers_after_the_first_pieces)
    assert _summary(_load([("data.jsonl", data)], PIECES)) == here


def _traces(n: int) -> bytes:
    trace = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    return b"\n".join(orjson.dumps(trace) for _ in range(n)) + b"\n"


@pytest.mark.parametrize(
    ("why", "data", "settings"),
    [
        ("one worker", _file(0, 100), ONE_PROCESS),
        ("smaller than min_bytes", _file(0, 100), PieceSettings(workers=2, min_bytes=10**9)),
        ("64 lines or fewer", _file(0, 40, mixed=False), PIECES),
        ("another format (its importer maps whole files)", _traces(200), PIECES),
        ("a JSON array", as_json([_good(i) for i in range(200)]), PIECES),
        ("pretty-printed records", b"\n".join(orjson.dumps(_good(i), option=orjson.OPT_INDENT_2) for i in range(99)),
         PIECES),
        ("mostly broken first lines", b"{oops\n" * 70 + _file(0, 100), PIECES),
    ],
)
def test_files_that_are_not_split(why: str, data: bytes, settings: PieceSettings) -> None:
    assert plan(PiecePool(settings), "f.jsonl", data, DEFAULT_FORMAT) is None, why


def test_a_forced_other_format_is_not_split() -> None:
    assert plan(PiecePool(PIECES), "f.jsonl", _file(0, 100, mixed=False), "openai") is None


def test_no_fork_while_other_threads_run() -> None:
    settings = PieceSettings(workers=2, min_bytes=0, piece_bytes=2_000)  # single_thread_only (the default)
    stop = threading.Event()
    busy = threading.Thread(target=stop.wait)
    busy.start()
    try:
        assert not PiecePool(settings).available()
        assert plan(PiecePool(settings), "f.jsonl", _file(0, 100), DEFAULT_FORMAT) is None
    finally:
        stop.set()
        busy.join()


def test_load_paths_uses_pieces_and_gives_the_same_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.jsonl"
    path.write_bytes(_file(0, 150))
    here = _summary(load_paths([path], workers=1))
    used: list[int] = []
    real_plan = load_pieces.plan

    def spy(pool: PiecePool, name: str, data: bytes, fmt: str) -> Any:
        pool.settings = PieceSettings(workers=2, min_bytes=0, piece_bytes=3_000, single_thread_only=False)
        pieces = real_plan(pool, name, data, fmt)
        used.append(len(pieces or ()))
        return pieces

    monkeypatch.setattr("agentic_core.io.loader.plan", spy)
    assert _summary(load_paths([path], workers=2)) == here
    assert used and used[0] > 5


def test_worker_settings_from_the_argument_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(load_pieces.WORKERS_ENV, "3")
    assert PieceSettings.automatic().workers == 3
    assert PieceSettings.automatic(1).workers == 1  # the argument wins
    assert not PieceSettings.automatic(1).enabled and PieceSettings.automatic().enabled
    monkeypatch.setenv(load_pieces.WORKERS_ENV, "many")
    with pytest.raises(SettingsError) as caught:
        PieceSettings.automatic()
    assert load_pieces.WORKERS_ENV in str(caught.value) and "many" in str(caught.value)
    with pytest.raises(SettingsError, match="workers"):
        load_paths([], workers=-1)
    monkeypatch.delenv(load_pieces.WORKERS_ENV)
    assert PieceSettings.automatic().workers >= 1


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (_file(0, 100, mixed=False), True),
        (b"\n\n" + _file(0, 100, mixed=False), True),
        (b"{oops\n" + _file(0, 100, mixed=False), False),  # decided by parsing more than the first line
        (b"\xef\xbb\xbf" + _file(0, 100, mixed=False), False),  # likewise (the mark is dropped first)
        (b'{"session_id": "s"}\n\n\n', False),  # one object, then nothing
        (b'{"session_id": "s",\n "conversation": []}\n', False),  # one object over two lines
        (b"[1]\n[2]\n", False),  # values, not objects
        (b"", False),
        (b"   \n", False),
        (as_json([_good(1)], indent=2), False),
    ],
)
def test_json_lines_are_recognised_from_their_first_lines_as_parse_does(data: bytes, expected: bool) -> None:
    assert is_json_lines(data) is expected
    if expected:
        assert parse("f", data).kind == "jsonl"
