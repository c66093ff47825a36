"""Labelled answer / reference pairs as a seed-format labelled dataset, judged by ``calibrate`` as a user would.

Run: ``.venv/bin/python benchmarks/labelled_pairs.py [PAIRS.jsonl] [--out FILE] [--judges learned,hybrid,lexical]``

Reads pairs in the devset's format (``{id, query, answer, ground_truth, label, category}``; by default the fresh
holdout ``sample_data/judge_holdout_v2.jsonl``) and writes them as seed conversations of one interaction each,
with the label as ``human_label``. Then, for each judge named, it runs the product's own command,
``python -m agentic_core calibrate FILE --judge NAME --json --cache off``, and prints what a user reads off
it: the share of labelled interactions left unscored (abstained), the accuracy and Cohen's kappa on the
interactions scored, and ROC AUC (``calibrate`` computes both on the scored interactions only).

``--samples`` also judges the built-in samples' labels the same way: ``labelled_support.jsonl`` (people's
labels) and, for the travel and support-attempt samples, which carry a grader's ``score`` but no person's
verdict, that score read as a label (correct at 0.5 and above, as ``calibrate`` reads a ``human_score``).

Nothing here is asserted; the figures go to benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOLDOUT = ROOT / "sample_data" / "judge_holdout_v2.jsonl"
SAMPLES = ROOT / "sample_data"


def seed_records(pairs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One seed conversation per pair, its label as the interaction's ``human_label``."""
    return [
        {
            "session_id": str(pair["id"]),
            "assistant_id": "holdout",
            "task_id": str(pair["id"]),
            "conversation": [
                {
                    "qa_id": str(pair["id"]),
                    "query": pair["query"],
                    "assistant": pair["answer"],
                    "ground_truth_assistant": pair["ground_truth"],
                    "human_label": int(pair["label"]),
                }
            ],
        }
        for pair in pairs
    ]


def graded_as_labels(path: Path, out: Path) -> Path:
    """A copy of a sample whose interactions carry the grader's ``score`` as their ``human_score``."""
    text = path.read_text(encoding="utf-8")
    records = json.loads(text) if text.lstrip().startswith("[") else [json.loads(x) for x in text.splitlines() if x]
    for record in records:
        for turn in record["conversation"]:
            turn["human_score"] = turn["score"]
    out.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return out


def calibrate(path: Path, judge: str) -> dict[str, Any]:
    """The ``calibrate --json`` document of one judge on one labelled file (run as a user runs it)."""
    done = subprocess.run(
        [sys.executable, "-m", "agentic_core", "calibrate", str(path), "--judge", judge, "--json", "--cache", "off",
         "--no-progress"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"calibrate failed on {path} with --judge {judge}:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def row(name: str, judge: str, doc: dict[str, Any]) -> str:
    """One table row: labelled, abstained, accuracy and kappa on the scored, ROC AUC."""
    labelled, unscored = doc["labelled"], doc["unscored"]
    auc = "—" if doc["auc"] is None else f"{doc['auc']:.3f}"
    return (
        f"| {name} | {judge} | {labelled} | {unscored / labelled:.1%} | {doc['accuracy']:.3f} | "
        f"{doc['kappa']:.3f} | {auc} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Write the labelled file(s), run ``calibrate`` on each judge, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("pairs", nargs="?", type=Path, default=HOLDOUT, help="labelled pairs (devset format)")
    parser.add_argument("--out", type=Path, default=None, help="write the seed-format file here (kept)")
    parser.add_argument("--judges", default="learned", help="comma-separated judge names to calibrate")
    parser.add_argument("--samples", action="store_true", help="also the built-in samples' labels")
    args = parser.parse_args(argv)
    pairs = [json.loads(line) for line in args.pairs.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "labelled_pairs.jsonl"
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in seed_records(pairs)), "utf-8")
        files = [(args.pairs.name, out)]
        if args.samples:
            files.append(("labelled_support.jsonl", SAMPLES / "labelled_support.jsonl"))
            for name in ("travel_agent.jsonl", "support_bot_attempts.jsonl"):
                files.append((f"{name} (grader's score)", graded_as_labels(SAMPLES / name, Path(tmp) / name)))
        print("| labelled file | judge | labelled | abstained | accuracy on the scored | kappa | ROC AUC |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name, path in files:
            for judge in (j.strip() for j in args.judges.split(",") if j.strip()):
                print(row(name, judge, calibrate(path, judge)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
