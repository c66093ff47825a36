"""The defaults each imported format needs, stated by the format, read by the pages and the CLI.

The workbench's defaults suit seed data with reference answers. Other formats grade differently:
tau-bench's reward is the grade of a whole trajectory and its ground-truth actions are only the
writes that change the database (read-only lookups are not in them), so the default answer judge
and the extra-call penalty both contradict the benchmark. :func:`format_defaults` says, for a
loaded report, which judge and which extra-call policy its format needs and why, in one sentence
a page shows next to the preselected choice (the user can still change both).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core.io.importers.formats import FORMAT_LABELS
from agentic_core.io.load_report import LoadReport


@dataclass(frozen=True)
class FormatNeeds:
    """What one format states about its data.

    Attributes:
        score_is_grade: The format's ``score`` is the benchmark's own grade (the dataset judge reads it).
        grade_words: What that score is, in the format's words.
        ignore_extra_tools: Extra calls are not mistakes in this format (``None``: no statement).
        extra_words: Why, in words.
    """

    score_is_grade: bool
    grade_words: str = ""
    ignore_extra_tools: bool | None = None
    extra_words: str = ""


FORMAT_NEEDS: dict[str, FormatNeeds] = {
    "tau-bench": FormatNeeds(
        score_is_grade=True,
        grade_words="each trial's reward (tau-bench grades the final database state, and most trials have no "
        "reference answer to compare with)",
        ignore_extra_tools=True,
        extra_words="its ground-truth actions list only the calls that change the database, so read-only "
        "lookups are not mistakes",
    ),
    "inspect": FormatNeeds(score_is_grade=True, grade_words="each sample's score from the log's first scorer"),
    "openai": FormatNeeds(score_is_grade=True, grade_words="the traces' own 'score'"),
    "ragas": FormatNeeds(score_is_grade=False),
}
"""Each importer's statement (formats not listed state nothing: the workbench's defaults apply)."""


class FormatDefaults(BaseModel):
    """The defaults a loaded report's format needs.

    Attributes:
        format: The format every file was read as.
        judge: The judge to preselect (``None``: keep the workbench's default).
        ignore_extra_tools: The extra-call policy to preselect (``None``: keep the setting).
        sentence: Why, in one sentence for the page next to the preselected choice.
    """

    model_config = ConfigDict(frozen=True)

    format: str
    judge: str | None = None
    ignore_extra_tools: bool | None = None
    sentence: str


def format_defaults(report: LoadReport) -> FormatDefaults | None:
    """The judge and extra-call policy ``report``'s format needs, or ``None`` when it states none.

    The dataset judge is chosen only when every interaction carries a score (a format whose scores
    are optional, such as OpenAI traces, states nothing for a file without them).

    Args:
        report: A load report (its :attr:`~agentic_core.io.load_report.LoadReport.formats`).

    Returns:
        The defaults with the sentence saying why, or ``None`` (seed data, mixed formats, nothing stated).
    """
    formats = set(report.formats.values())
    if len(formats) != 1 or not report.conversations:
        return None
    fmt = formats.pop()
    needs = FORMAT_NEEDS.get(fmt)
    if needs is None:
        return None
    scores = report.conversations.columns.score
    judge = "dataset" if needs.score_is_grade and len(scores) and not np.isnan(scores).any() else None
    parts = []
    if judge is not None:
        parts.append(f"the Dataset scores judge, which reads {needs.grade_words}")
    if needs.ignore_extra_tools is not None:
        parts.append(f"extra tool calls {'ignored' if needs.ignore_extra_tools else 'counted'}: {needs.extra_words}")
    if not parts:
        return None
    sentence = (
        f"This data is {FORMAT_LABELS[fmt]}, so it is preselected with " + "; and ".join(parts) + ". Change "
        "either if your data differs (the judge on Run, *Ignore extra calls* on Tools)."
    )
    return FormatDefaults(format=fmt, judge=judge, ignore_extra_tools=needs.ignore_extra_tools, sentence=sentence)
