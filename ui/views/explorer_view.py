"""The Explorer's view model: the words, badges and styled tables of the list and the drill-down.

No Streamlit here: the page reads its widgets, calls these and renders what they return. The row
arithmetic and the verdict proposed to a person are the core's (:mod:`agentic_core.report`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from agentic_core.common import ExplorerCols
from agentic_core.data import Override
from agentic_core.report import STATUSES, ConversationFacts, InteractionDetail, highlight
from ui.format import md_text, pct

STATUS_BADGES = {
    "incorrect": ":red-badge[incorrect]",
    "unscored": ":gray-badge[unscored]",
    "correct": ":green-badge[correct]",
}
DIFF_LABELS = {  # plain text: emoji do not render in every browser's table canvas
    "match": "match",
    "parameter mismatch": "PARAMETER MISMATCH",
    "missing": "MISSING",
    "extra": "EXTRA",
    "optional, not called": "optional, not called",
}
DIFF_COLORS = {
    "parameter mismatch": "background-color: rgba(255, 170, 0, 0.18)",
    "missing": "background-color: rgba(214, 39, 40, 0.16)",
    "extra": "background-color: rgba(31, 119, 180, 0.14)",
}
DIFF_COLUMNS = [
    "diff",
    "expected_call",
    "used_call",
    "agreement",
    "mismatches",
    "expected_parameters",
    "used_parameters",
    "result",
]
"""The expected-vs-used table's columns, in the order the drill-down shows them."""
HIGHLIGHT_CSS = (
    "<style>.xq mark{background:rgba(255,200,0,.45);color:inherit;padding:0 1px}"
    ".xq{white-space:pre-wrap;font-size:.9rem}"
    ".xq ins{background:rgba(46,160,67,.22);text-decoration:none}"
    ".xq del{background:rgba(214,39,40,.22)}"
    ".xq ins.salient,.xq del.salient{outline:1px solid currentColor}</style>"
)


def styled_diff(diff: pd.DataFrame) -> Any:
    """The expected-vs-used table with its labels in capitals where they differ and a colour per kind of row."""
    shown = diff.assign(diff=diff["diff"].map(lambda d: DIFF_LABELS.get(d, d)))

    def colour(row: pd.Series) -> list[str]:
        css = DIFF_COLORS.get(diff.at[row.name, "diff"], "")
        return [css] * len(row)

    return shown.style.apply(colour, axis=1).format({"agreement": lambda x: "" if pd.isna(x) else f"{x:.0%}"})


def highlighted(text: str, term: str) -> str | None:
    """``text`` as escaped HTML with the search's matches marked, or ``None`` when the term is not in it."""
    if not (term and text and term.lower() in text.lower()):
        return None
    # Escaped HTML, so the data's text never becomes markup or Markdown.
    return f'{HIGHLIGHT_CSS}<div class="xq" title="search matches">{highlight(text, term)}</div>'


@dataclass(frozen=True)
class InteractionView:
    """One interaction of the drill-down, in words.

    Attributes:
        heading: Turn, qa_id and status badge.
        verdict: The verdict that counts (a person's replaces the judge's).
        judge: What the judge said (uncertain, failed, its reasoning), a paragraph a line; empty for nothing.
        tool: The tool scores' line, or ``None`` when tool correctness does not apply.
        tool_reasoning: Why the tool scores are what they are ("" without tools).
    """

    heading: str
    verdict: str
    judge: tuple[str, ...]
    tool: str | None
    tool_reasoning: str


def interaction_view(detail: InteractionDetail, override: Override | None) -> InteractionView:
    """The words of one interaction of the drill-down under the current settings and the person's verdict."""
    heading = f"**Turn {detail.position + 1}** · {md_text(detail.qa_id)} · {STATUS_BADGES[detail.status]}"
    if override is not None:
        note = f" — {md_text(override.note)}" if override.note else ""
        marked = "correct" if override.correct else "incorrect"
        verdict = f"**Verdict:** :violet-badge[marked {marked} by hand] (replaces the judge's){note}"
    else:
        verdict = f"**Verdict:** {detail.verdict}"
    judge: tuple[str, ...] = ()
    if detail.judge_score is None and detail.judge_status == "uncertain":
        judge = (f"**Judge uncertain** (unscored, never 0 or 1): {md_text(detail.judge_error or 'uncertain')}",)
        if detail.judge_reasoning:
            judge += (f"**Judge reasoning:** {md_text(detail.judge_reasoning)}",)
    elif detail.judge_score is None:
        judge = (f"**Judge failure:** {md_text(detail.judge_error or 'no score was returned')}",)
    elif detail.judge_reasoning:
        judge = (f"**Judge reasoning** ({detail.judge_status}): {md_text(detail.judge_reasoning)}",)
    tool = detail.tool
    if tool is None or detail.tool_diff is None:
        return InteractionView(heading, verdict, judge, None, "")
    overall = "undefined" if tool.overall_correctness is None else f"{tool.overall_correctness:.2f}"
    utilization = "not assessable" if tool.result_utilization is None else f"{tool.result_utilization:.2f}"
    badge = ":green-badge[tool use correct]" if tool.is_correct else ":red-badge[tool use below threshold]"
    line = (
        f"**Tool calls: expected vs used** — {badge}"
        f"  \nselection {_score(tool.tool_selection_correct)} · parameters {_score(tool.parameter_accuracy)} · "
        f"sequence {_score(tool.sequence_correct)} · utilization {utilization} · **overall {overall}**"
    )
    return InteractionView(heading, verdict, judge, line, f"**Tool reasoning:** {md_text(tool.reasoning)}")


def _score(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def facts_line(facts: ConversationFacts) -> str:
    """The drill-down's line under the heading: status, row, task, interactions correct, pass@K."""
    parts = [
        STATUS_BADGES[facts.status],
        f"row {facts.row}",
        f"task {md_text(facts.task_key)}",
        f"{facts.correct} of {facts.total} interactions correct",
    ]
    if facts.pass_at_k is not None:
        parts.append(f"per-conversation pass@{facts.k} {pct(facts.pass_at_k)} (over its interactions)")
    return " · ".join(parts)


def about_line(facts: ConversationFacts) -> str:
    """The conversation's context and language, "" when it has neither."""
    about = [
        md_text(facts.context) if facts.context else "",
        f"language: {md_text(facts.language)}" if facts.language else "",
    ]
    return " · ".join(x for x in about if x)


def list_caption(shown: int, total: int, by_status: dict[str, int]) -> str:
    """How many conversations the list shows, and how many the run has per status."""
    return (
        f"Showing **{shown:,}** of {total:,} conversations. In the run: "
        + ", ".join(f"{by_status.get(s, 0):,} {s}" for s in STATUSES)
        + "."
    )


def empty_message(statuses: Iterable[str], in_use: Iterable[str]) -> str:
    """Why the list is empty and what to do: no status selected, or the filters in use hide everything."""
    if not list(statuses):
        return "Select at least one status to list conversations."
    hiding = "; ".join(md_text(f) for f in in_use)
    return f"No conversation matches these filters ({hiding}). Clear the search or a filter, or select more statuses."


def conversation_labels(table: pd.DataFrame) -> dict[int, str]:
    """Each listed conversation's label in the picker: session, assistant and status (by row)."""
    col = ExplorerCols
    labels = (table[col.SESSION_ID] + " · " + table[col.ASSISTANT_ID] + " — " + table[col.STATUS]).tolist()
    return dict(zip(table[col.ROW].tolist(), labels, strict=True))


def turn_label(detail: InteractionDetail) -> str:
    """An interaction in the verdict form's picker."""
    return f"Turn {detail.position + 1} · {detail.qa_id} ({detail.status})"


def override_line(row: int, qa_id: str, override: Override) -> str:
    """One of the person's verdicts in the list of them."""
    note = f" — {md_text(override.note)}" if override.note else ""
    return f"Row {row} · {md_text(qa_id)} · marked {'correct' if override.correct else 'incorrect'}{note}"
