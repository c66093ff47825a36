"""The options of ``compare`` and of the CI gate (``evaluate --fail-under``), and the gate's exit.

Kept apart from :mod:`agentic_core.cli.compare_command` so that the parser can import it without
importing the commands (which import the parser's exit codes).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from agentic_core.analysis.gate import GATE_METRICS, WORSE_CONFIDENCE, below_bounds, parse_bounds, parse_gate_metrics
from agentic_core.cli.label_options import COMPARE_LABELS_HELP, add_label_options
from agentic_core.errors import SettingsError

if TYPE_CHECKING:
    from agentic_core.analysis.aggregate import Aggregate

EXIT_GATE = 4
"""Exit code of a failed gate (``--fail-under``, ``--fail-if-worse``); 2, 3 and 5 mean other things."""

# Option groups of ``evaluate`` that ``compare`` takes as they are (same flags, defaults and help).
_SHARED_GROUPS = ("judge", "aggregation")


def _argparse_type(parse: Callable[[str, str], Any], flag: str) -> Callable[[str], Any]:
    """An argparse ``type`` from a parser raising SettingsError: a bad value is a usage error, before judging."""

    def convert(text: str) -> Any:
        try:
            return parse(text, flag)
        except SettingsError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def add_gate_options(evaluate: argparse.ArgumentParser) -> None:
    """Add ``--fail-under`` and ``--fail-under-lower`` to the ``evaluate`` command."""
    gate = evaluate.add_argument_group("CI gate")
    gate.add_argument(
        "--fail-under",
        metavar="BOUNDS",
        type=_argparse_type(parse_bounds, "--fail-under"),
        help=f"exit {EXIT_GATE} when a metric is below its bound, e.g. success_rate=0.8,pass_pow_k=0.5 (metrics: "
        f"{', '.join(GATE_METRICS)}; pass@k / pass^k at the run's K)",
    )
    gate.add_argument(
        "--fail-under-lower",
        action="store_true",
        help="check the lower bound of each metric's interval instead of its point estimate",
    )


def add_compare_parser(sub: argparse._SubParsersAction, evaluate: argparse.ArgumentParser) -> None:
    """Register ``compare`` (with ``evaluate``'s judge and aggregation options) on the subparsers."""
    cmp = sub.add_parser(
        "compare",
        formatter_class=evaluate.formatter_class,  # the shared options' help is printed as evaluate prints it
        help="compare two runs (data files or stored run ids), or two assistants of one run, task by task",
        description="Compare B with A over the tasks both attempted: each metric's a, b, delta = b - a, an interval "
        "for delta and P(B > A); the tasks that flipped; the tasks only one side attempted.",
    )
    cmp.add_argument("a", metavar="A", help="the baseline: a data file (judged here) or a stored run id (runs list)")
    cmp.add_argument("b", metavar="B", nargs="?", help="the candidate (omit it to compare two assistants of A)")
    cmp.add_argument(
        "--assistants",
        metavar="X,Y",
        help="compare assistant X (of A) with assistant Y (of B, or of A when B is omitted)",
    )
    cmp.add_argument(
        "--leaderboard",
        action="store_true",
        help="with one run of three or more assistants: rank them (value, interval, probability of each rank)",
    )
    cmp.add_argument("--runs-path", help="run history file (default: $AGENTIC_RUNS_PATH or the user data folder)")
    for group in evaluate._action_groups:
        if group.title in _SHARED_GROUPS:
            shared = cmp.add_argument_group(group.title)
            for action in group._group_actions:
                shared._add_action(action)
    labels = cmp.add_argument_group("human labels")
    add_label_options(labels, COMPARE_LABELS_HELP)
    out = cmp.add_argument_group("output and CI gate")
    out.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    out.add_argument(
        "--fail-if-worse",
        metavar="METRICS",
        type=_argparse_type(parse_gate_metrics, "--fail-if-worse"),
        help=f"exit {EXIT_GATE} when B is worse than A on any of these metrics at family-wise confidence "
        f"{WORSE_CONFIDENCE:g} (Holm over the metrics: a re-run of the same agent fails at most "
        f"{1 - WORSE_CONFIDENCE:.0%} of the time), e.g. success_rate,pass_pow_k (pass_pow_k@3 for another k; all "
        "for every metric)",
    )
    out.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def fail_under_exit(args: argparse.Namespace, agg: Aggregate, stderr: TextIO) -> int:
    """``evaluate``'s gate: ``EXIT_GATE`` with one line per failing metric on stderr, else 0."""
    bounds = getattr(args, "fail_under", None)
    if not bounds:
        return 0
    failures = below_bounds(agg, bounds, lower=bool(getattr(args, "fail_under_lower", False)))
    for failure in failures:
        print(f"gate failed: {failure}", file=stderr)
    return EXIT_GATE if failures else 0
