"""The Compare page's view model: labels, the delta chart's rows and the tables, decided without Streamlit.

``pages/compare.py`` reads its widgets, computes the comparison with
:func:`agentic_core.analysis.compare_sides` (or the leaderboard) and renders what these return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from agentic_core.analysis import RunComparison
from agentic_core.stats import Leaderboard, MetricComparison, describe_method
from ui.format import ci_text, pct, prob_text

COMPARE_SOURCES = {"runs": "Two stored runs", "assistants": "Two assistants of the current run"}
COMPARED_METRICS = {"success_rate": "success rate", "pass_at_k": "pass@k", "pass_pow_k": "pass^k"}
CHANGE_LABELS = {"fixed": "fixed in B", "broken": "broken in B"}


def metric_label(row: MetricComparison) -> str:
    """A compared metric's name with its k (``pass@5``), tool dimensions as ``tool: selection``."""
    name = COMPARED_METRICS.get(row.metric, row.metric.replace("tool_", "tool: "))
    return name.replace("k", str(row.k)) if row.k is not None and row.metric != "success_rate" else name


@dataclass(frozen=True)
class DeltaRows:
    """The rows of a B - A chart: only metrics that have a delta and an interval, in their order."""

    rows: list[MetricComparison]
    labels: list[str]
    deltas: list[float]
    lows: list[float]
    highs: list[float]

    def __bool__(self) -> bool:
        return bool(self.rows)


def delta_rows(metrics: Sequence[MetricComparison]) -> DeltaRows:
    """The metrics a delta chart can draw (a delta and its interval), with their labels and bounds."""
    ready = [(m, m.delta, m.delta_ci) for m in metrics if m.delta is not None and m.delta_ci is not None]
    return DeltaRows(
        rows=[m for m, _, _ in ready],
        labels=[metric_label(m) for m, _, _ in ready],
        deltas=[d for _, d, _ in ready],
        lows=[ci[0] for _, _, ci in ready],
        highs=[ci[1] for _, _, ci in ready],
    )


def pass_hover(rows: Sequence[MetricComparison]) -> list[str]:
    """The pass metrics' hover text: both values and P(B > A), "not given" where there is none (no difference)."""
    return [
        f"A {pct(m.a)}, B {pct(m.b)}, P(B > A) {'not given' if m.p_b_better is None else prob_text(m.p_b_better)}"
        for m in rows
    ]


def tool_hover(rows: Sequence[MetricComparison]) -> list[str]:
    """The tool dimensions' hover text: per-task means over how many tasks."""
    return [f"A {m.a:.2f}, B {m.b:.2f}, over {m.n_tasks} tasks" for m in rows]


def delta_words(delta: float | None) -> str:
    """A success-rate difference in points (``+4.2 pts``), or ``n/a``."""
    return "n/a" if delta is None else f"{delta * 100:+.1f} pts"


def side_labels(a: str, b: str) -> tuple[str, str]:
    """The two sides' labels: their names, marked (A) and (B) when both sides are the same one."""
    return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")


def flipped_table(cmp: RunComparison) -> pd.DataFrame:
    """The flipped tasks (mostly wrong in one side, mostly right in the other) with each side's correct attempts."""
    flipped = cmp.flipped()
    return pd.DataFrame(
        {
            "task": [t.task for t in flipped],
            "change": [CHANGE_LABELS[t.change] for t in flipped],
            "A correct": [f"{t.a_c}/{t.a_n}" for t in flipped],
            "B correct": [f"{t.b_c}/{t.b_n}" for t in flipped],
        }
    )


def unpaired_table(cmp: RunComparison) -> pd.DataFrame:
    """The tasks only one side attempted, with the side that did."""
    unpaired = cmp.unpaired()
    return pd.DataFrame(
        {
            "task": [t.task for t in unpaired],
            "only in": [cmp.a_label if t.change == "only_a" else cmp.b_label for t in unpaired],
        }
    )


def leaderboard_table(board: Leaderboard) -> tuple[pd.DataFrame, list[str]]:
    """The leaderboard's table (rank, assistant, value, interval, P(rank r) per rank) and its probability columns."""
    probs = {
        f"P(rank {r + 1})": [row.rank_probabilities[r] if row.rank_probabilities else None for row in board.rows]
        for r in range(len(board.rows))
    }
    table = pd.DataFrame(
        {
            "rank": [row.rank for row in board.rows],
            "assistant": [row.agent for row in board.rows],
            "value": [pct(row.value) for row in board.rows],
            "interval": [ci_text(row.ci) for row in board.rows],
            **probs,
        }
    )
    return table, list(probs)


def leaderboard_caption(board: Leaderboard, metric: str) -> str:
    """What the leaderboard ranks by, over how many tasks, and how the rank probabilities were made."""
    what = COMPARED_METRICS[metric] + ("" if board.k is None else f" at k = {board.k}")
    return (
        f"Ranked by {what} over the {board.n_tasks} tasks every assistant attempted. The probability of each rank: "
        f"{describe_method(board.p_method)}."
    )
