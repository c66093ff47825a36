"""Prototype for issue 27: could one pyarrow Table replace the loader's speed-only containers?

``python benchmarks/bench_table_prototype.py [--size 1000000] [--keep DIR]``

Issue 27 asks whether one Table (the raw JSON as a compressed column, the interaction columns, the
tool components as a struct column) can replace the conversation store's compressed blocks
(:mod:`agentic_core.io.conversation_store`), the pickled component packs
(:mod:`agentic_core.columnar.component_list`) and the distinct-item fingerprint
(:mod:`agentic_core.judges.item_counts`). This script measures each replacement against what it
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
   texts and the score's bits (the same count, exactly).
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

import orjson  # noqa: E402
import pyarrow as pa  # noqa: E402
from make_large import make_records, write_jsonl  # noqa: E402

from agentic_core.io.loader import load_paths  # noqa: E402
from agentic_core.judges.base import score_bits  # noqa: E402
from agentic_core.judges.item_counts import count_distinct_items  # noqa: E402
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
        tool_components(list(columns.tool_components))


if __name__ == "__main__":
    main()
