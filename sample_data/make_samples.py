"""Deterministic generator for the sample datasets in ``sample_data/``.

Run from the repository root (or anywhere):

    .venv/bin/python sample_data/make_samples.py                # (re)write the files and validate them
    .venv/bin/python sample_data/make_samples.py --check        # validate the files on disk only
    .venv/bin/python sample_data/make_samples.py --out DIR      # write (or check) in DIR instead

Every random choice goes through ``random.Random`` seeded from a fixed string, so re-running writes
byte-identical files. After writing, every record is validated with
``agentic_core.data.schemas.Conversation.model_validate`` and checked for unknown keys (``model_extra`` must be
empty on every model), and the script prints a short summary of what each file contains.

The hand-written texts (support tasks, travel routes and travellers, the seed examples' answers) are JSON files in
``sample_data/texts/``; the code that turns them into conversations is the ``samplegen`` package.

Files written:
    seed_examples.json          the seeds' own examples (seed 000 notebook dataset, seed 001 conversations)
    travel_agent.jsonl          ~40 multi-turn travel/booking conversations with varied tool failures
    support_bot_attempts.jsonl  30 support tasks x 8 attempts, per-task success probability 0.2 .. 1.0
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from samplegen.common import summarize, validate_file, write_json, write_jsonl  # noqa: E402  (after sys.path)
from samplegen.seed import build_seed_examples  # noqa: E402
from samplegen.support import N_ATTEMPTS, build_support  # noqa: E402
from samplegen.travel import build_travel  # noqa: E402

SEED_NAME = "seed_examples.json"
TRAVEL_NAME = "travel_agent.jsonl"
SUPPORT_NAME = "support_bot_attempts.jsonl"
FILES = (SEED_NAME, TRAVEL_NAME, SUPPORT_NAME)


def write_all(out: Path) -> None:
    """Write the three files into ``out`` and print what was injected where."""
    write_json(out / SEED_NAME, build_seed_examples())
    travel, coverage = build_travel()
    write_jsonl(out / TRAVEL_NAME, travel)
    support, stats, per_task = build_support()
    write_jsonl(out / SUPPORT_NAME, support)
    print("travel_agent faults injected (turn:fault -> count):")
    for key, cnt in sorted(coverage.items()):
        print(f"  {key:32s} {cnt}")
    print("support_bot_attempts interaction outcomes:")
    for key, cnt in sorted(stats.items()):
        print(f"  {key:45s} {cnt}")
    print("support_bot_attempts per task (task_id, p, correct of 8):")
    for task_id, p, c in per_task:
        print(f"  {task_id:32s} p={p:.2f}  {c}/{N_ATTEMPTS}")


def main(argv: list[str] | None = None) -> int:
    """Write (unless ``--check``) and validate the files; print a summary of each."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only validate the files already on disk")
    ap.add_argument("--out", type=Path, default=HERE, help="folder to write (or check) in (default: here)")
    args = ap.parse_args(argv)
    if not args.check:
        args.out.mkdir(parents=True, exist_ok=True)
        write_all(args.out)
    for name in FILES:
        path = args.out / name
        models = validate_file(path)
        print(summarize(path, models))
    print("all records validate (Conversation.model_validate) with no unknown keys")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
