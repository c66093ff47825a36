"""``evaluate``'s options for seed 004's agentic metrics, and their lines in the human-readable output."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from agentic_core.agentic_metrics.results import DEFAULT_GOAL_JUDGE, GOAL_JUDGES, METRIC_NAMES, AgenticView
from agentic_core.agentic_metrics.tool_call_accuracy import TOOL_CALL_ORDERS
from agentic_core.agentic_metrics.topic_adherence import TOPIC_MODES, TOPIC_VARIANTS
from agentic_core.report.documents import SummaryDocument


def add_metric_options(ev: argparse.ArgumentParser) -> None:
    """Add ``--metrics``, ``--tool-call-order``, ``--topic-mode``, ``--topic-variant`` and ``--goal-judge``."""
    m = ev.add_argument_group("agentic metrics (seed 004)")
    m.add_argument(
        "--metrics",
        default=None,
        help=f"also compute these, comma-separated: {', '.join(METRIC_NAMES)} (or all); topic adherence and "
        "goal accuracy use the LLM judge with --judge llm, else offline approximations",
    )
    m.add_argument("--tool-call-order", choices=list(TOOL_CALL_ORDERS), default="strict",
                   help="tool call accuracy: strict (Ragas' default, calls in the reference's order) or flexible "
                   "(default: strict)")
    m.add_argument("--topic-mode", choices=list(TOPIC_MODES), default="f1",
                   help="topic adherence as precision, recall or f1 (default: f1)")
    m.add_argument("--topic-variant", choices=list(TOPIC_VARIANTS), default="workbench",
                   help="workbench counts correct refusals of off-topic queries; ragas gives Ragas' numbers "
                   "(default: workbench)")
    m.add_argument("--goal-judge", choices=list(GOAL_JUDGES), default=None,
                   help="goal accuracy with reference, offline: the judge that scores the outcome against the "
                   f"reference (default: {DEFAULT_GOAL_JUDGE}, whichever offline --judge ran; hybrid and embedding "
                   "are MiniLM-bound, about 300 conversations/s uncached); with --judge llm the LLM judges goals")


def view_from_args(args: argparse.Namespace) -> AgenticView:
    """The selectors the options ask for."""
    return AgenticView(order=args.tool_call_order, mode=args.topic_mode, variant=args.topic_variant)


def _stat_text(stat: dict[str, Any] | None, key: str = "mean") -> str:
    if not stat or stat.get(key) is None:
        return "n/a"
    ci = stat.get("ci")
    interval = f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else ""
    return f"{stat[key]:.3f}{interval} (n={stat['n']})"


def print_agentic(doc: SummaryDocument, out: TextIO) -> None:
    """The agentic metrics' lines of the human-readable output (nothing when they were not computed)."""
    block = doc.get("agentic_metrics")
    if not block:
        return
    print("\nagentic metrics:", file=out)
    unscored = block.get("unscored", {})
    if "tool_call_accuracy" in block["metrics"]:
        print(f"  tool call accuracy ({block['order']}, Ragas): {_stat_text(block['tool_call_accuracy'])}", file=out)
    if "topic_adherence" in block["metrics"]:
        approx = ", approximate" if block["topic_approximate"] else ""
        print(f"  topic adherence ({block['mode']}, {block['variant']}{approx}): "
              f"{_stat_text(block['topic_adherence'])}; counts {block['topic_counts']}", file=out)
    if "goal_accuracy" in block["metrics"]:
        goal = block["goal_accuracy"]
        by = f" (judge: {block['goal_judge']})" if block.get("goal_judge") else ""
        print(f"  goal accuracy{by}: {_stat_text(goal, 'rate')}; graded {_stat_text(block['goal_graded'])}",
              file=out)
    for name, (missing, reason) in unscored.items():
        if missing:
            print(f"  {name}: {missing} conversation(s) unscored ({reason})", file=out)
