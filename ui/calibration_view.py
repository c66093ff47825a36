"""What the Calibration page calibrates: the active run when it has human verdicts, else the labelled sample.

A first visit shows the active run (the default sample), which has no human labels; the page then
shows the built-in labelled sample judged by the same offline judge as the first run (shared by
every session, like the first run, and answered by the shipped verdicts), so it works at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from agentic_core import EvaluationResult, evaluate
from agentic_core.analysis import Calibration, calibrate_run, has_human_verdicts
from agentic_core.io import SAMPLES, LoadReport, load_sample
from agentic_core.judges import DEFAULT_JUDGE
from ui.memo import session_memo
from ui.state import ENV_JUDGE, ActiveData, ActiveRun, set_data, set_run

LABELLED_SAMPLE = "labelled"
MEMO_KEY = "_calibration_memo"


@dataclass(frozen=True)
class CalibrationSource:
    """The evaluation the page calibrates.

    Attributes:
        name: The data's name.
        result: The evaluation.
        judge_label: Its judge.
        active: Whether it is the active run (else the labelled sample, shown instead).
        signature: Identifies its current state (its overrides included) for memoisation.
        report: The load report of the labelled sample (``None`` for the active run).
    """

    name: str
    result: EvaluationResult
    judge_label: str
    active: bool
    signature: str
    report: LoadReport | None = None


@st.cache_resource(show_spinner="Judging the labelled sample with the offline judge...", max_entries=4)
def _labelled_sample(judge_name: str) -> tuple[LoadReport, EvaluationResult]:
    # Shared and read-only, like the first run: the shipped verdicts answer the default judge.
    report = load_sample(LABELLED_SAMPLE)
    return report, evaluate(report, judge_name)


def calibration_source(run: ActiveRun) -> CalibrationSource:
    """The active run when it has human verdicts (labels, grades or overrides), else the labelled sample."""
    if has_human_verdicts(run.result):
        return CalibrationSource(run.data_name, run.result, run.judge_label, True, run.run_id)
    judge = os.environ.get(ENV_JUDGE) or DEFAULT_JUDGE
    report, result = _labelled_sample(judge)
    label = result.judge_identity.label()
    return CalibrationSource(SAMPLES[LABELLED_SAMPLE].title, result, label, False, f"sample:{label}", report)


def source_calibration(source: CalibrationSource, threshold: float) -> tuple[Calibration, pd.DataFrame]:
    """:func:`~agentic_core.analysis.calibration.calibrate_run`, memoised per session (source and threshold).

    Raises:
        DataError: nothing has both a human verdict and a judge score.
    """
    return session_memo(
        MEMO_KEY, (source.signature, round(threshold, 6)), lambda: calibrate_run(source.result, threshold), size=4
    )


def open_source_as_run(source: CalibrationSource) -> None:
    """Make the labelled sample the active data and run (no judge is called: it is judged already)."""
    if source.report is None:
        return
    set_data(ActiveData(name=source.name, report=source.report, source="sample"))
    set_run(ActiveRun(data_name=source.name, result=source.result, judge_label=source.judge_label))


MATRIX_COLUMNS = {"human correct": True, "human incorrect": False}
"""The confusion matrix table's columns (rows: judge correct, judge incorrect)."""


def matrix_cell(selected: Any) -> str | None:
    """The cell (``tp``, ``fp``, ``fn``, ``tn``) of a clicked confusion-matrix cell, ``None`` for the label column.

    Args:
        selected: A cell of the table's selection event: ``(row position, column name)``.
    """
    try:
        row, column = int(selected[0]), str(selected[1])
    except (TypeError, ValueError, IndexError):
        return None
    if column not in MATRIX_COLUMNS or row not in (0, 1):
        return None
    judge, human = row == 0, MATRIX_COLUMNS[column]
    return ("tp" if human else "fp") if judge else ("fn" if human else "tn")
