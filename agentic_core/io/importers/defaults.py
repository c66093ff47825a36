"""The defaults each imported format needs, stated by the format, read by the pages and the CLI.

The workbench's defaults suit seed data with reference answers. Other formats grade differently:
tau-bench's reward is the grade of a whole trajectory and its ground-truth actions are only the
writes that change the database (read-only lookups are not in them), so the default answer judge
and the extra-call penalty both contradict the benchmark, and its pass^k is computed per task over
the task's trials. :func:`format_defaults` says, for a loaded report, which judge, extra-call policy
and unit of trial its format needs and why: in one sentence a page shows next to the preselected
choice, and choice by choice (:attr:`FormatDefaults.reasons`) for the command line, which applies
them to the options not given (the user can still change each).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agentic_core.io.importers.formats import FORMAT_LABELS
from agentic_core.io.load_report import LoadReport
from agentic_core.settings.choices import UnitChoice

GRADE_JUDGE = "dataset"
"""The judge of a format whose scores are its own grades (when every interaction has one)."""
FORMAT_SETTINGS: tuple[str, ...] = ("judge", "ignore_extra_tools", "unit")
"""The choices a format may state, in the order they are said (a judge name, then settings' field names)."""


@dataclass(frozen=True)
class FormatNeeds:
    """What one format states about its data.

    Attributes:
        score_is_grade: The format's ``score`` is the benchmark's own grade (the dataset judge reads it).
        grade_words: What that score is, in the format's words.
        ignore_extra_tools: Extra calls are not mistakes in this format (``None``: no statement).
        extra_words: Why, in words.
        unit: The unit of trial the format's own statistics use (``None``: no statement).
        unit_words: Why, in words.
    """

    score_is_grade: bool
    grade_words: str = ""
    ignore_extra_tools: bool | None = None
    extra_words: str = ""
    unit: UnitChoice | None = None
    unit_words: str = ""


FORMAT_NEEDS: dict[str, FormatNeeds] = {
    "tau-bench": FormatNeeds(
        score_is_grade=True,
        grade_words="each trial's reward (tau-bench grades the final database state, and most trials have no "
        "reference answer to compare with)",
        ignore_extra_tools=True,
        extra_words="its ground-truth actions list only the calls that change the database, so read-only "
        "lookups are not mistakes",
        unit="task",
        unit_words="tau-bench's pass^k is computed per task over its trials",
    ),
    "inspect": FormatNeeds(score_is_grade=True, grade_words="each sample's score from the log's first scorer"),
    "openai": FormatNeeds(score_is_grade=True, grade_words="the traces' own 'score'"),
    "ragas": FormatNeeds(score_is_grade=False),
}
"""Each importer's statement (formats not listed state nothing: the workbench's defaults apply)."""

_WHERE_CHANGED = {
    "judge": "the judge on Run",
    "ignore_extra_tools": "*Ignore extra calls* on Tools",
    "unit": "*Unit of trial* in the sidebar",
}
"""Where the dashboard changes each choice (the page sentence's last words)."""


class FormatDefaults(BaseModel):
    """The defaults a loaded report's format needs.

    Attributes:
        format: The format every file was read as.
        judge: The judge to preselect (``None``: keep the workbench's default).
        ignore_extra_tools: The extra-call policy to preselect (``None``: keep the setting).
        unit: The unit of trial to preselect (``None``: keep the setting).
        sentence: Why, in one sentence for the page next to the preselected choice.
        reasons: Why, choice by choice (keys of :data:`FORMAT_SETTINGS`; only the choices stated).
    """

    model_config = ConfigDict(frozen=True)

    format: str
    judge: str | None = None
    ignore_extra_tools: bool | None = None
    unit: UnitChoice | None = None
    sentence: str
    reasons: dict[str, str] = Field(default_factory=dict)

    def stated(self) -> dict[str, str | bool]:
        """The choices this format states, by name (:data:`FORMAT_SETTINGS` order; unstated ones left out)."""
        values = {name: getattr(self, name) for name in FORMAT_SETTINGS}
        return {name: value for name, value in values.items() if value is not None}


def format_defaults(report: LoadReport) -> FormatDefaults | None:
    """The judge, extra-call policy and unit ``report``'s format needs, or ``None`` when it states none.

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
    judge = GRADE_JUDGE if needs.score_is_grade and len(scores) and not np.isnan(scores).any() else None
    reasons: dict[str, str] = {}
    parts = []
    if judge is not None:
        reasons["judge"] = f"the Dataset scores judge reads {needs.grade_words}"
        parts.append(f"the Dataset scores judge, which reads {needs.grade_words}")
    if needs.ignore_extra_tools is not None:
        reasons["ignore_extra_tools"] = needs.extra_words
        parts.append(f"extra tool calls {'ignored' if needs.ignore_extra_tools else 'counted'}: {needs.extra_words}")
    if needs.unit is not None:
        reasons["unit"] = needs.unit_words
        parts.append(f"the unit of trial '{needs.unit}': {needs.unit_words}")
    if not parts:
        return None
    places = [where for name, where in _WHERE_CHANGED.items() if name in reasons]
    sentence = (
        f"This data is {FORMAT_LABELS[fmt]}, so it is preselected with " + "; and ".join(parts) + ". Change "
        f"{'it' if len(parts) == 1 else 'any of them'} if your data differs ({', '.join(places)})."
    )
    return FormatDefaults(
        format=fmt,
        judge=judge,
        ignore_extra_tools=needs.ignore_extra_tools,
        unit=needs.unit,
        sentence=sentence,
        reasons=reasons,
    )

