"""``python -m agentic_core compare A [B]``: B against A task by task, with the ``--fail-if-worse`` gate.

A and B are data files (loaded and judged here, with ``--judge`` and the cache) or stored run ids
(reopened from the run history; no judge is called). ``--assistants X,Y`` compares assistant X of A
with assistant Y of B (of A when B is omitted). ``--json`` prints :meth:`RunComparison.to_json`. When a run carries
human labels, one line gives the success rate's difference corrected for the judge's errors (issue 37).
``--labels FILE`` (repeatable, as ``evaluate``'s) gives both runs labels from files: read before any judging, added
after a stored run's own, and how many matched A and B (and which matched neither) said on stderr.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import numpy as np

from agentic_core.analysis.compare_runs import RunComparison, Side, compare_sides, leaderboard_of
from agentic_core.analysis.gate import gate_passed, worse_than_baseline
from agentic_core.analysis.given_labels import labels_on_sides, with_given_labels
from agentic_core.cli.evaluate_command import judge_loaded, settings_from_args
from agentic_core.cli.gate_options import EXIT_GATE
from agentic_core.cli.label_options import labels_from_args
from agentic_core.cli.parser import EXIT_NOTHING_SCORED, EXIT_OK
from agentic_core.common.frame_columns import PASS_METRICS, ResultCols
from agentic_core.errors import SettingsError
from agentic_core.result import EvaluationResult
from agentic_core.stats.leaderboard import Leaderboard

if TYPE_CHECKING:
    from agentic_core.data.labels import HumanLabel

Opened = tuple[EvaluationResult, str, str | None]
"""A reference opened: its result, its name and its stored run id (``None`` for a file)."""


def _judge_file(path: str, args: argparse.Namespace, stderr: TextIO) -> EvaluationResult:
    """Load and judge one data file, as ``evaluate`` does."""
    from agentic_core.io.loader import load_paths

    loaded = load_paths([path])
    for issue in loaded.issues:
        print(f"{issue.severity}: {issue.message()}", file=stderr)
    loaded.raise_if_empty()
    return judge_loaded(loaded, args, stderr)


def _open(
    ref: str, args: argparse.Namespace, stderr: TextIO, opened: dict[str, Opened], labels: list[HumanLabel]
) -> Opened:
    """A file or a stored run: (result, label, run id); each reference is judged or opened once.

    ``labels`` (``--labels`` files) are added after the run's own, as ``evaluate`` adds them.
    """
    if ref in opened:
        return opened[ref]
    path = Path(ref)
    if path.is_file():
        opened[ref] = (with_given_labels(_judge_file(ref, args, stderr), labels), path.name, None)
        return opened[ref]
    from agentic_core.runs import RunStore

    store = RunStore(Path(args.runs_path) if args.runs_path else None)
    if ref not in {meta.id for meta in store.runs()}:
        raise SettingsError(
            ref, "is neither a data file nor a stored run id", None,
            f"give a JSON / JSONL file or a run id from 'python -m agentic_core runs list' (history: {store.path})",
            show=False,
        )  # fmt: skip
    opened[ref] = (with_given_labels(store.open(ref), labels), store.meta(ref).name, ref)
    return opened[ref]


def _nothing_scored(result: EvaluationResult) -> bool:
    """No interaction has a judge score or a human verdict."""
    scores = result.interactions[ResultCols.SCORE].to_numpy(dtype=float)
    return not result.overrides and bool(np.isnan(scores).all())


def _sides(args: argparse.Namespace, stderr: TextIO, labels: list[HumanLabel]) -> tuple[Side, Side]:
    """The two sides the arguments name, with the ``--labels`` files' labels."""
    assistants: list[str | None] = [None, None]
    if args.assistants:
        parts = [p.strip() for p in args.assistants.split(",")]
        if len(parts) != 2 or not all(parts):
            raise SettingsError("--assistants", "takes two assistant ids, X,Y", args.assistants, "e.g. v1,v2")
        assistants = list(parts)
    if args.b is None and args.assistants is None:
        raise SettingsError("B", "is needed unless --assistants X,Y names two assistants of A", None, show=False)
    opened: dict[str, Opened] = {}
    refs = (args.a, args.b or args.a)
    sides = []
    for ref, assistant, default in zip(refs, assistants, ("A", "B"), strict=True):
        result, name, run_id = _open(ref, args, stderr, opened, labels)
        settings = settings_from_args(args, result.recommended_threshold)
        sides.append(Side(result, settings, label=assistant or name or default, assistant=assistant, run_id=run_id))
    a, b = sides
    if a.label == b.label:
        a = Side(a.result, a.settings, label=f"{a.label} (A)", assistant=a.assistant, run_id=a.run_id)
        b = Side(b.result, b.settings, label=f"{b.label} (B)", assistant=b.assistant, run_id=b.run_id)
    return a, b


def _three_places(x: float | None, sign: str = "") -> str:
    return "-" if x is None else f"{x:{sign}.3f}"


def print_comparison(cmp: RunComparison, out: TextIO) -> None:
    """The comparison as a table of metrics, then the flipped and unpaired tasks."""
    p = cmp.paired
    print(f"A: {cmp.a_label}   B: {cmp.b_label}", file=out)
    same = ": the same verdicts" if cmp.same_verdicts else ""
    print(f"paired tasks: {p.n_tasks} ({p.mode}, {p.level:.0%} intervals, K = {cmp.k}){same}", file=out)
    print(f"\n{'metric':<18} {'A':>6} {'B':>6} {'delta':>7}  {'interval':<18} P(B>A)", file=out)
    for m in cmp.metrics:
        name = m.metric if m.k is None else f"{m.metric}@{m.k}"
        if m.metric in PASS_METRICS[1:] and (m.k or 1) > cmp.k_evidence.measured_up_to:
            print(f"{name:<18} not measured (too few attempts per task; see the note)", file=out)
            continue
        ci = "" if m.delta_ci is None else f"[{m.delta_ci[0]:+.3f}, {m.delta_ci[1]:+.3f}]"
        print(
            f"{name:<18} {_three_places(m.a):>6} {_three_places(m.b):>6} {_three_places(m.delta, '+'):>7}  {ci:<18} "
            f"{_three_places(m.p_b_better)}",
            file=out,
        )
    if cmp.corrected is not None:  # human labels in a run: B - A corrected for the judge's errors
        print(f"\n{cmp.corrected.summary()}", file=out)
    flipped = cmp.flipped()
    if flipped:
        print(f"\nflipped tasks ({len(flipped)}):", file=out)
        for t in flipped:
            print(f"  {t.change:<7} {t.task}  A {t.a_c}/{t.a_n} -> B {t.b_c}/{t.b_n}", file=out)
    for side, label in (("only_a", cmp.a_label), ("only_b", cmp.b_label)):
        only = [t.task for t in cmp.tasks if t.change == side]
        if only:
            print(f"\nonly in {label} ({len(only)}): {', '.join(only)}", file=out)
    for note in cmp.notes:
        print(f"note: {note}", file=out)
    for note in cmp.corrected.notes if cmp.corrected is not None else ():
        print(f"note (corrected difference): {note}", file=out)


def print_leaderboard(board: Leaderboard, out: TextIO) -> None:
    """The leaderboard as a table: rank, agent, value with interval, P(rank 1), P(rank 2), ..."""
    metric = board.metric if board.k is None else f"{board.metric}@{board.k}"
    print(f"leaderboard by {metric} over {board.n_tasks} shared tasks", file=out)
    heads = " ".join(f"P(#{r + 1})" for r in range(len(board.rows)))
    print(f"{'rank':>4}  {'agent':<24} {'value':>6}  {'interval':<16} {heads}", file=out)
    for row in board.rows:
        ci = "" if row.ci is None else f"[{row.ci[0]:.3f}, {row.ci[1]:.3f}]"
        probs = " ".join(f"{p:>6.3f}" for p in row.rank_probabilities)
        print(f"{row.rank or '-':>4}  {row.agent:<24} {_three_places(row.value):>6}  {ci:<16} {probs}", file=out)


def run_compare(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run the ``compare`` command; returns the exit code."""
    settings_from_args(args, 0.7)  # a typo in the settings must not cost judge calls
    if args.leaderboard:
        if args.b is not None:
            raise SettingsError("--leaderboard", "ranks the assistants of one run", args.b, "drop B")
        if args.labels:  # the leaderboard has no corrected reading: labels given here would be dropped unsaid
            raise SettingsError(
                "--labels", "corrects the difference of two runs; the leaderboard ranks by the judge's verdicts",
                args.labels[0], "drop --labels, or compare two assistants with --assistants X,Y",
            )  # fmt: skip
        result, _, _ = _open(args.a, args, stderr, {}, [])
        names = [p.strip() for p in args.assistants.split(",")] if args.assistants else None
        board = leaderboard_of(result, settings_from_args(args, result.recommended_threshold), names)
        if args.json:
            json.dump(board.model_dump(mode="json"), stdout, ensure_ascii=False)
            stdout.write("\n")
        else:
            print_leaderboard(board, stdout)
        return EXIT_OK
    labels = labels_from_args(args, stderr)  # a bad --labels file costs no judge call, as in evaluate
    a, b = _sides(args, stderr, labels)
    if labels:  # every label accounted for: matched on A, on B, or named as matching neither
        for line in labels_on_sides(labels, a, b).lines(a.label, b.label):
            print(line, file=stderr)
    for side in (a, b):
        if _nothing_scored(side.result):
            print(f"error: nothing could be scored in {side.label}: fix the judge or choose another", file=stderr)
            return EXIT_NOTHING_SCORED
    comparison = compare_sides(a, b)
    if args.json:
        json.dump(comparison.to_json(), stdout, ensure_ascii=False)
        stdout.write("\n")
    else:
        print_comparison(comparison, stdout)
    if args.fail_if_worse:
        failures = worse_than_baseline(comparison, args.fail_if_worse)
        for failure in failures:
            print(f"gate failed: {failure}", file=stderr)
        if failures:
            return EXIT_GATE
        print(f"gate passed: {gate_passed(comparison, args.fail_if_worse)}", file=stderr)
    return EXIT_OK
