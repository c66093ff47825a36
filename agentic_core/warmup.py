"""``python -m agentic_core.warmup``: judge the built-in samples once with the default judge.

The verdicts land in the persistent judge cache, so the dashboard opens on evaluated results at
once and later starts make no judge calls. Safe to run repeatedly (cache hits only).

``python -m agentic_core.warmup --write-pack`` judges the samples afresh (no cache) and rewrites
the verdicts shipped in ``sample_data/verdicts.jsonl`` (see :mod:`agentic_core.judges.packs`):
run it after changing the default judge.
"""

from __future__ import annotations

import sys
import time

from agentic_core.errors import AgenticError
from agentic_core.evaluate import evaluate, judge_items
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.judges.packs import pack_path, pack_rows, write_pack
from agentic_core.judges.runner import run_judge_sync
from agentic_core.judges.spec import DEFAULT_JUDGE, judge_spec


def write_sample_pack() -> int:
    """Judge every built-in sample afresh with the default judge and rewrite the shipped verdicts.

    Returns:
        How many verdicts were written.
    """
    judge = judge_spec(DEFAULT_JUDGE).build()
    fingerprint = judge.identity.fingerprint()
    rows = []
    for name in SAMPLES:
        items = judge_items(load_sample(name).conversations)
        run = run_judge_sync(judge, items, cache=None, cache_mode="off")
        rows.extend(pack_rows(fingerprint, items, run.verdicts))
    return write_pack(rows)


def main(argv: list[str] | None = None) -> int:
    """Evaluate every built-in sample with the default judge; print one line each on stderr."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--write-pack"]:
        count = write_sample_pack()
        print(f"warmup: wrote {count} verdicts of {DEFAULT_JUDGE} to {pack_path()}", file=sys.stderr)
        return 0
    if args:
        print("usage: python -m agentic_core.warmup [--write-pack]", file=sys.stderr)
        return 2
    for name in SAMPLES:
        start = time.perf_counter()
        try:
            result = evaluate(load_sample(name), DEFAULT_JUDGE)
        except AgenticError as exc:
            print(f"warmup: sample '{name}' not evaluated: {exc}", file=sys.stderr)
            continue
        run = result.judge_run
        print(
            f"warmup: {name}: {result.n_interactions} interactions judged by {run.identity.label()} "
            f"in {time.perf_counter() - start:.1f}s ({run.cache_hits} from cache, {run.model_calls} new)",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
