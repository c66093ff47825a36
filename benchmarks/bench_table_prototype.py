"""Prototype for issue 27: could one pyarrow Table replace the loader's speed-only containers?

``python benchmarks/bench_table_prototype.py [--size 1000000] [--keep DIR]``

Issue 27 asks whether one Table (the raw JSON as a compressed column, the interaction columns, the
tool components as a struct column) can replace the conversation store's compressed blocks
(:mod:`agentic_core.io.conversation_store`), the pickled component packs
(:mod:`agentic_core.columnar.component_list`) and the distinct-item fingerprint
(:mod:`agentic_core.columnar.item_counts`). This script measures each replacement against what it
would replace, on the file :mod:`make_large` writes (the one ``bench_scale.py`` loads), in this
process (``VmRSS`` growth, in MiB, and CPU time):

1. raw JSON: the store's blocks of 64 records compressed together, against a ``large_binary``
   column of records compressed one by one (an Arrow array is never compressed in memory, so a
   compressed column is a column of compressed values), LZ4 and zstd, and against the plain
   column;
2. tool components: the packs pickled as a load worker sends them and read back, against a
   ``list<struct>`` column built from them and read back into :class:`ToolComponents` (the
   parameter values are any JSON value, which a struct column cannot type: they travel as JSON
   text here, which is the prototype's best case, not an exact equivalent);
3. distinct judge items: :func:`count_distinct_items` against ``Table.group_by`` over the three
   texts and the score's bits (the same count, exactly);
4. interaction columns: a load worker's piece (4,000 conversations) sent as the dataclass and
   merged by :class:`ColumnBuilder`, against the same columns sent as a Table per conversation and
   one per interaction, joined, and read back as the fields the callers read (the same values).
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
import orjson  # noqa: E402
import pyarrow as pa  # noqa: E402
from make_large import make_records, write_jsonl  # noqa: E402

from agentic_core.columnar.columns import ColumnBuilder, InteractionColumns  # noqa: E402
from agentic_core.columnar.component_list import ComponentList  # noqa: E402
from agentic_core.columnar.item_counts import count_distinct_items  # noqa: E402
from agentic_core.io.loader import load_paths  # noqa: E402
from agentic_core.judges.base import score_bits  # noqa: E402
from agentic_core.tools.combine import TABLE_COLUMNS  # noqa: E402
from agentic_core.tools.results import MatchRow, ParamError, ToolComponents  # noqa: E402

_BLOCK = 64  # the store's records per block


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(x.split()[1]) / 1024 for x in f if x.startswith("VmRSS:"))


def _timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, its CPU time and the growth of this process's resident memory while its result is held.

    CPU time, not wall time: on a shared machine the wall time counts the other processes' load
    (every measured step runs on one thread: ``group_by`` is told not to use threads).
    """
    gc.collect()
    before = _rss_mb()
    started = time.process_time()
    value = fn()
    return value, time.process_time() - started, _rss_mb() - before


def _row(what: str, mib: float, *seconds: float) -> None:
    print(f"| {what} | {mib:,.0f} MiB | " + " | ".join(f"{s:.2f} s" for s in seconds) + " |")


def _blocks(lines: list[bytes], codec: pa.Codec) -> list[tuple[bytes, int]]:
    joined = (b"".join(lines[i : i + _BLOCK]) for i in range(0, len(lines), _BLOCK))
    return [(codec.compress(text, asbytes=True), len(text)) for text in joined]


def _column(lines: list[bytes], codec: pa.Codec | None) -> pa.Array:
    values = lines if codec is None else [codec.compress(t, asbytes=True) for t in lines]
    return pa.array(values, type=pa.large_binary())


def _read_blocks(blocks: list[tuple[bytes, int]], codec: pa.Codec) -> int:
    return sum(len(codec.decompress(data, size, asbytes=True)) for data, size in blocks)


def _read_column(column: pa.Array, sizes: list[int], codec: pa.Codec) -> int:
    return sum(len(codec.decompress(v, n, asbytes=True)) for v, n in zip(column.to_pylist(), sizes, strict=True))


def raw_json(lines: list[bytes]) -> None:
    """Compare the store's blocks with a compressed JSON column (built, then every record read back)."""
    print("| raw JSON of every record | bytes held | build (CPU) | read all back (CPU) |\n|---|---:|---:|---:|")
    sizes = list(map(len, lines))
    for name in ("lz4", "zstd"):
        codec = pa.Codec(name)
        blocks, took, _ = _timed(partial(_blocks, lines, codec))
        _, read, _ = _timed(partial(_read_blocks, blocks, codec))
        label = f"blocks of {_BLOCK} records, {name}" + (" (the store)" if name == "lz4" else "")
        _row(label, sum(len(data) for data, _ in blocks) / 2**20, took, read)
        column, took, _ = _timed(partial(_column, lines, codec))
        _, read, _ = _timed(partial(_read_column, column, sizes, codec))
        _row(f"a Table column, each record {name}-compressed", column.nbytes / 2**20, took, read)
    column, took, _ = _timed(lambda: _column(lines, None))
    _row("a Table column, uncompressed", column.nbytes / 2**20, took)


_STRUCT_FIELDS = [f for f in ToolComponents.__dataclass_fields__ if f not in ("param_errors", "matches")]


def _to_row(c: ToolComponents) -> dict[str, Any]:
    row = {f: getattr(c, f) for f in _STRUCT_FIELDS}
    row["param_errors"] = [
        {
            "tool_name": e.tool_name,
            "param_name": e.param_name,
            "expected_value": orjson.dumps(e.expected_value),
            "used_value": orjson.dumps(e.used_value),
            "why": e.why,
        }
        for e in c.param_errors
    ]
    row["matches"] = [m._asdict() for m in c.matches]
    return row


def _from_row(row: dict[str, Any]) -> ToolComponents:
    errors = [
        ParamError(
            e["tool_name"], e["param_name"], orjson.loads(e["expected_value"]), orjson.loads(e["used_value"]), e["why"]
        )
        for e in row.pop("param_errors")
    ]
    matches = [MatchRow(**m) for m in row.pop("matches")]
    return ToolComponents(**row, param_errors=errors, matches=matches)


def _packs(components: list[ToolComponents | None], step: int) -> list[bytes]:
    return [
        pickle.dumps(components[i : i + step], protocol=pickle.HIGHEST_PROTOCOL)
        for i in range(0, len(components), step)
    ]


def tool_components(components: list[ToolComponents | None]) -> None:
    """Compare the pickled packs with a struct column (8,192 components per pack, as the builder flushes)."""
    print("\n| tool components | bytes | build / send (CPU) | read back (CPU) |\n|---|---:|---:|---:|")
    packs, built, _ = _timed(lambda: _packs(components, 8192))
    back, read, _ = _timed(lambda: [c for p in packs for c in pickle.loads(p)])
    assert back == components
    _row("pickled packs (what a load worker sends)", sum(map(len, packs)) / 2**20, built, read)
    column, built, _ = _timed(lambda: pa.array([None if c is None else _to_row(c) for c in components]))
    back, read, _ = _timed(lambda: [None if r is None else _from_row(r) for r in column.to_pylist()])
    _row("list<struct> column (values as JSON text)", column.nbytes / 2**20, built, read)
    print(f"\n(read back equal to the components: {back == components})")


def distinct_items(columns: Any) -> None:
    """Compare the fingerprint count with a group-by over a Table of the item columns."""

    def grouped() -> int:
        table = pa.table(
            {**{n: columns.texts[n] for n in ("query", "answer", "ground_truth")}, "score": score_bits(columns.score)}
        )
        return table.group_by(["query", "answer", "ground_truth", "score"], use_threads=False).aggregate([]).num_rows

    print("\n| distinct judge items | count | CPU | resident memory, growth after |\n|---|---:|---:|---:|")
    for name, fn in (("fingerprint (item_counts)", lambda: count_distinct_items(columns)), ("Table.group_by", grouped)):
        count, took, grew = _timed(fn)
        print(f"| {name} | {count:,} | {took:.2f} s | {grew:+,.0f} MiB |")


def _pieces(columns: InteractionColumns, conversations: int) -> list[InteractionColumns]:
    """``columns`` cut into pieces of ``conversations`` conversations (as the load workers send them)."""
    ends = np.concatenate([[0], np.cumsum(columns.sizes)])
    pieces = []
    for c0 in range(0, len(columns.sizes), conversations):
        c1 = min(c0 + conversations, len(columns.sizes))
        r0, r1 = int(ends[c0]), int(ends[c1])
        pieces.append(
            InteractionColumns(
                sizes=columns.sizes[c0:c1], session_ids=columns.session_ids[c0:c1],
                assistant_ids=columns.assistant_ids[c0:c1], task_keys=columns.task_keys[c0:c1],
                texts={n: pa.chunked_array([t.slice(r0, r1 - r0).combine_chunks()]) for n, t in columns.texts.items()},
                score=columns.score[r0:r1], tool_components=ComponentList(),
                max_text_length=columns.max_text_length[r0:r1], human_label=columns.human_label[r0:r1],
                human_score=columns.human_score[r0:r1], expected_names=columns.expected_names[r0:r1],
                used_names=columns.used_names[r0:r1], tool_table=columns.tool_table[r0:r1],
            )
        )  # fmt: skip
    return pieces


def _as_tables(piece: InteractionColumns) -> tuple[pa.Table, pa.Table]:
    """A piece as a Table per conversation and a Table per interaction (the tool table one column each)."""
    per_conversation = pa.table(
        {"size": piece.sizes, "session_id": piece.session_ids, "assistant_id": piece.assistant_ids,
         "task_key": piece.task_keys}
    )  # fmt: skip
    numbers = {"score": piece.score, "max_text_length": piece.max_text_length, "human_label": piece.human_label,
               "human_score": piece.human_score}  # fmt: skip
    names = {"expected_names": pa.array(piece.expected_names, pa.list_(pa.string())),
             "used_names": pa.array(piece.used_names, pa.list_(pa.string()))}  # fmt: skip
    tools = {name: piece.tool_table[:, k] for k, name in enumerate(TABLE_COLUMNS)}
    return per_conversation, pa.table({**piece.texts, **numbers, **names, **tools})


def _merge_tables(blobs: list[bytes]) -> InteractionColumns:
    """The parent's side: the pieces' Tables joined, then read as the fields callers read."""
    pairs = [pickle.loads(b) for b in blobs]
    conv = pa.concat_tables([c for c, _ in pairs])
    rows = pa.concat_tables([r for _, r in pairs])
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}
    names = {
        n: [shared.setdefault(t, t) for t in map(tuple, rows[n].to_pylist())] for n in ("expected_names", "used_names")
    }
    return InteractionColumns(
        sizes=conv["size"].to_numpy(), session_ids=conv["session_id"].to_pylist(),
        assistant_ids=conv["assistant_id"].to_pylist(), task_keys=conv["task_key"].to_pylist(),
        texts={n: rows[n] for n in ("qa_id", "query", "answer", "ground_truth")}, score=rows["score"].to_numpy(),
        tool_components=ComponentList(), max_text_length=rows["max_text_length"].to_numpy(),
        human_label=rows["human_label"].to_numpy(), human_score=rows["human_score"].to_numpy(),
        expected_names=names["expected_names"], used_names=names["used_names"],
        tool_table=np.column_stack([rows[n].to_numpy() for n in TABLE_COLUMNS]),
    )  # fmt: skip


def _merge_columns(blobs: list[bytes]) -> InteractionColumns:
    """The parent's side today: each piece's columns unpickled and appended (ColumnBuilder.add_columns)."""
    builder = ColumnBuilder()
    for blob in blobs:
        builder.add_columns(pickle.loads(blob))
    return builder.build()


def interaction_columns(columns: InteractionColumns) -> None:
    """Compare a piece's columns sent as the dataclass with the same columns sent as Tables."""
    pieces = _pieces(columns, 4000)
    print(f"\n| interaction columns, {len(pieces)} pieces | bytes sent | pack + send (CPU) | merge (CPU, parent) |")
    print("|---|---:|---:|---:|")
    dumps = partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL)
    blobs, packed, _ = _timed(lambda: [dumps(p) for p in pieces])
    merged, took, _ = _timed(partial(_merge_columns, blobs))
    _row("the dataclass, pickled (today)", sum(map(len, blobs)) / 2**20, packed, took)
    blobs, packed, _ = _timed(lambda: [dumps(_as_tables(p)) for p in pieces])
    from_tables, took, _ = _timed(partial(_merge_tables, blobs))
    _row("a Table per conversation and one per interaction", sum(map(len, blobs)) / 2**20, packed, took)
    same = all(
        np.array_equal(getattr(merged, f), getattr(from_tables, f), equal_nan=True)
        for f in ("sizes", "score", "max_text_length", "human_label", "human_score", "tool_table")
    ) and all(getattr(merged, f) == getattr(from_tables, f) for f in ("session_ids", "task_keys", "used_names"))
    print(f"\n(the same columns either way: {same})")


def main() -> None:
    """CLI entry."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1_000_000, help="interactions (5 per conversation)")
    parser.add_argument("--keep", type=Path, help="write the file here (and reuse it) instead of a temp dir")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = (args.keep or Path(tmp)) / f"scale_{args.size}.jsonl"
        if not path.exists():
            write_jsonl(path, make_records(args.size // 5, 5))
        lines = [line for line in path.read_bytes().split(b"\n") if line]
        raw_json(lines)
        del lines
        report = load_paths([path])
        columns = report.conversations.columns
        distinct_items(columns)
        interaction_columns(columns)
        tool_components(list(columns.tool_components))


if __name__ == "__main__":
    main()
