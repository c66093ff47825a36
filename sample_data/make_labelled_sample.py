"""Write ``labelled_support.jsonl``: support answers with a person's verdict, for judge calibration.

28 support questions, each answered twice by the agent (two attempts, one conversation each: 56
interactions). Every interaction carries the grader's ``score`` (the ``dataset`` judge reads it) and
a person's verdict: ``human_label`` (0/1) on most, ``human_score`` (0..1) on a few, as a team mixing
thumbs up/down with graded reviews would have.

People and judges disagree on realistic cases, on purpose: a right answer in other words or units
("two weeks" for "14 days"), a wrong answer that repeats the reference but flips a negation or one
number, a right answer padded with a wrong extra, a partly right answer that a grader scores high.
The Calibration page and ``python -m agentic_core calibrate`` show those cases.

The cases are data, in ``texts/labelled_cases.json``: per task its query, ground truth and two answers, each
with the grader's score and the person's verdict (an integer 0/1 is a ``human_label``, a fraction a
``human_score``); a ``why`` marks where people and judges part ways and is not written out.

Deterministic (no randomness): re-running writes byte-identical files. ``--check`` validates the
file on disk without writing; ``--out DIR`` writes (or checks) in DIR instead of ``sample_data/``.

    .venv/bin/python sample_data/make_labelled_sample.py [--check] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from samplegen.common import check_keys, load_texts  # noqa: E402  (after the sys.path set-up)

NAME = "labelled_support.jsonl"
AGENT = "helpdesk-v5"
CASES: list[dict[str, Any]] = load_texts("labelled_cases.json")
CASE_KEYS = {"task", "query", "truth", "answers"}
ANSWER_KEYS = {"answer", "score", "verdict", "why"}


def records() -> list[dict[str, object]]:
    """The conversations: one per answer, two attempts per task."""
    out: list[dict[str, object]] = []
    for n, case in enumerate(CASES, start=1):
        check_keys(case, CASE_KEYS, f"texts/labelled_cases.json, task {case.get('task')!r}")
        for attempt, given in enumerate(case["answers"], start=1):
            check_keys(given, ANSWER_KEYS, f"texts/labelled_cases.json, task {case['task']!r}, answer {attempt}")
            turn: dict[str, object] = {
                "qa_id": f"lab{n:02d}-q",
                "query": case["query"],
                "assistant": given["answer"],
                "ground_truth_assistant": case["truth"],
                "score": given["score"],
            }
            verdict = given["verdict"]
            if isinstance(verdict, float):
                turn["human_score"] = verdict
            else:
                turn["human_label"] = verdict
            out.append(
                {
                    "session_id": f"lab{n:02d}-a{attempt}",
                    "assistant_id": AGENT,
                    "task_id": f"lab_{case['task']}",
                    "conversation": [turn],
                }
            )
    return out


def check(lines: list[str]) -> None:
    """Every record validates, with no unknown key, and carries a human verdict."""
    sys.path.insert(0, str(HERE.parent))
    from agentic_core.data.schemas import Conversation

    for number, line in enumerate(lines, start=1):
        conv = Conversation.model_validate_json(line)
        assert not conv.model_extra, f"line {number}: unknown keys {conv.model_extra}"
        for turn in conv.conversation:
            assert not turn.model_extra, f"line {number}: unknown keys {turn.model_extra}"
            assert turn.human_label is not None or turn.human_score is not None, f"line {number}: no verdict"


def main(argv: list[str]) -> int:
    """Write (or with ``--check`` only validate) the file; print a one-line summary."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only validate the file already on disk")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (or check) in (default: here)")
    args = parser.parse_args(argv)
    path = args.out / NAME
    if args.check:
        lines = path.read_text(encoding="utf-8").splitlines()
    else:
        lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records()]
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    check(lines)
    print(f"{path.name}: {len(lines)} conversations, {len(lines)} interactions, {len(CASES)} tasks", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
