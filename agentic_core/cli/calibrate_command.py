"""``python -m agentic_core calibrate FILE ... --judge ...``: the judge against human labels.

Judges the interactions that carry ``human_label`` / ``human_score`` (or reads a stored run: give
its id instead of files, and its Explorer overrides count as human verdicts too), then prints
accuracy, Cohen's kappa and the confusion matrix at the threshold, ROC AUC, the threshold sweep, the
suggested threshold (the middle of the thresholds with the highest kappa, and that range) and the
reliability bins; ``--json`` prints them as one document.
Its options: :mod:`agentic_core.cli.calibrate_options`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from agentic_core.analysis.calibration import CELLS, Calibration, calibrate_run, threshold_text
from agentic_core.analysis.calibration_coverage import CalibrationCoverage, calibration_coverage
from agentic_core.cli.parser import EXIT_OK
from agentic_core.result import EvaluationResult


def _judged(args: argparse.Namespace, stderr: TextIO) -> EvaluationResult:
    """The stored run named by the only argument, else the files judged now."""
    from agentic_core.cli.evaluate_command import judge_loaded
    from agentic_core.io.loader import load_paths
    from agentic_core.runs import RunStore

    if len(args.paths) == 1 and not Path(args.paths[0]).exists():
        store = RunStore()
        if args.paths[0] in {m.id for m in store.runs()}:
            print(f"calibrating stored run {args.paths[0]} (its verdicts; --judge is not used)", file=stderr)
            return store.open(args.paths[0])
    loaded = load_paths(args.paths)
    for issue in loaded.issues:
        print(f"{issue.severity}: {issue.message()}", file=stderr)
    loaded.raise_if_empty()
    result = judge_loaded(loaded, args, stderr)
    for warning in result.judge_run.warnings:
        print(f"warning: {warning}", file=stderr)
    return result


def calibration_document(
    result: EvaluationResult, cal: Calibration, cases: pd.DataFrame, coverage: CalibrationCoverage | None = None
) -> dict[str, Any]:
    """The ``--json`` document: the calibration, the judge, what it used and left out (``labelled``, ``scored``,
    ``unscored``, ``unscored_causes``, ``unscored_summary``, ``cascade``, ``llm_agreement``), and the cases where
    judge and people disagree."""
    point = cal.at_threshold
    disagree = cases[cases["cell"].isin(["fp", "fn"])]
    if coverage is None:
        coverage = calibration_coverage(result, cal.threshold)
    return {
        "judge": result.judge_identity.model_dump(mode="json"),
        "judge_label": result.judge_identity.label(),
        "accuracy": point.accuracy,
        "kappa": point.kappa,
        "confusion": point.confusion.model_dump(),
        **cal.model_dump(mode="json"),
        **coverage.model_dump(mode="json"),
        "disagreements": [
            {
                "row": int(r.row),
                "session_id": r.session_id,
                "qa_id": r.qa_id,
                "cell": r.cell,
                "judge_score": float(r.judge_score),
                "human_correct": bool(r.human_correct),
                "human_source": r.human_source,
                "answer": r.answer,
            }
            for r in disagree.itertuples()
        ],
    }


def print_calibration(doc: dict[str, Any], out: TextIO) -> None:
    """The calibration as text: headline figures, the confusion matrix, the sweep and the bins."""
    c = doc["confusion"]
    print(f"judge: {doc['judge_label']}", file=out)
    for line in CalibrationCoverage.model_validate(doc).lines():
        print(line, file=out)
    print(f"of the {doc['n_labelled']} used, {doc['n_human_correct']} marked correct by people", file=out)
    print(
        f"at threshold {threshold_text(doc['threshold'])}: accuracy {doc['accuracy']:.3f}, "
        f"Cohen's kappa {doc['kappa']:.3f}",
        file=out,
    )
    print("                   human correct  human incorrect", file=out)
    print(f"  judge correct    {c['tp']:>13}  {c['fp']:>15}", file=out)
    print(f"  judge incorrect  {c['fn']:>13}  {c['tn']:>15}", file=out)
    print(f"ROC AUC: {'undefined (one class only)' if doc['auc'] is None else format(doc['auc'], '.3f')}", file=out)
    best = doc["at_suggested"]
    print(
        f"suggested threshold (highest kappa): {threshold_text(doc['suggested_threshold'])} "
        f"(kappa {best['kappa']:.3f}, accuracy {best['accuracy']:.3f}; use it with --threshold)\n  {doc['suggestion']}",
        file=out,
    )
    print("\nthreshold sweep (each row holds for every threshold above the row before, up to its own):", file=out)
    print(" threshold  accuracy  kappa   TPR    FPR", file=out)
    for p in doc["sweep"]:
        tpr = "  -  " if p["true_positive_rate"] is None else f"{p['true_positive_rate']:.3f}"
        fpr = "  -  " if p["false_positive_rate"] is None else f"{p['false_positive_rate']:.3f}"
        print(f"   {p['threshold']:.3f}     {p['accuracy']:.3f}  {p['kappa']:>6.3f}  {tpr}  {fpr}", file=out)
    print("\nreliability (judge score bin: interactions, mean score, share people marked correct):", file=out)
    for b in doc["reliability"]:
        if b["n"]:
            print(
                f"  [{b['low']:.1f}, {b['high']:.1f}): {b['n']:>4}  {b['mean_score']:.3f}  "
                f"{b['human_correct_rate']:.3f}",
                file=out,
            )
    if doc["disagreements"]:
        print(f"\ndisagreements at {threshold_text(doc['threshold'])}:", file=out)
        for d in doc["disagreements"]:
            print(f"  row {d['row']} {d['session_id']} ({CELLS[d['cell']]}, score {d['judge_score']:.2f})", file=out)
    for note in doc["notes"]:
        print(f"note: {note}", file=out)


def run_calibrate(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``calibrate`` command; returns the exit code.

    Raises:
        AgenticError: unreadable files, a judge that cannot be built, no labelled and scored
            interaction, an invalid threshold (the caller prints it).
    """
    from agentic_core.settings import make_settings

    if args.threshold is not None:
        make_settings(threshold=args.threshold)  # the settings' own rule and message
    result = _judged(args, stderr)
    threshold = result.recommended_threshold if args.threshold is None else args.threshold
    cal, cases = calibrate_run(result, threshold)
    doc = calibration_document(result, cal, cases)
    if args.json:
        json.dump(doc, stdout, ensure_ascii=False)
        stdout.write("\n")
    else:
        print_calibration(doc, stdout)
    return EXIT_OK
