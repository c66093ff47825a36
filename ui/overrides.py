"""Human overrides made in the Explorer: kept with the run in the history, counted by every aggregate.

Marking an answer correct or incorrect replaces the judge's verdict on it (see
:mod:`agentic_core.data.overrides`). The run's result gets a new overrides table (a copy: the first
run's result is shared by every session and never changed), the run's revision goes up so the
memoised aggregates are made again, and the run history records it: a run not stored yet (the
built-in sample shown at first) is stored then, with its overrides.
"""

from __future__ import annotations

import dataclasses
import logging

import pandas as pd

from agentic_core import AgenticError, EvaluationResult
from agentic_core.common import ResultCols
from agentic_core.data import Override
from ui.runs import run_store, store_error, store_run
from ui.state import ActiveRun

log = logging.getLogger(__name__)


def _replace(run: ActiveRun, overrides: dict[int, Override]) -> None:
    run.result = dataclasses.replace(run.result, overrides=overrides)
    run.revision += 1


def _persist(run: ActiveRun, change: str, row: int, override: Override | None) -> str | None:
    """Record the change in the history; returns a warning when it could not be recorded."""
    if run.stored_id is None:
        return store_run(run)  # stored now, with its overrides
    store = run_store()
    if store is None:
        return f"The {change} is kept in this session only: {store_error()}"
    try:
        if override is None:
            store.clear_override(run.stored_id, row)
        else:
            store.set_override(run.stored_id, override)
    except (AgenticError, OSError) as exc:
        log.error("recording an override failed: %s", exc)
        return f"The {change} is kept in this session only: the run history could not record it ({exc})."
    return None


def mark(run: ActiveRun, row: int, correct: bool, note: str) -> str | None:
    """Mark interaction ``row`` of the active run correct or incorrect, with a note.

    Returns:
        A warning to show when the history could not record it (it still counts in this session).
    """
    override = Override(row=row, correct=correct, note=note.strip())
    _replace(run, {**run.result.overrides, row: override})
    return _persist(run, "verdict", row, override)


def clear(run: ActiveRun, row: int) -> str | None:
    """Remove the person's verdict on interaction ``row`` (the judge's counts again).

    Returns:
        A warning to show when the history could not record it.
    """
    if row not in run.result.overrides:
        return None
    _replace(run, {r: o for r, o in run.result.overrides.items() if r != row})
    return _persist(run, "cleared verdict", row, None)


def overrides_table(result: EvaluationResult) -> pd.DataFrame:
    """The run's overrides, one row each: ``row``, ``session_id``, ``qa_id``, ``verdict``, ``judge_score``, ``note``."""
    rows = sorted(result.overrides)
    frame = result.interactions
    return pd.DataFrame(
        {
            "row": rows,
            "session_id": [frame[ResultCols.SESSION_ID].iat[r] for r in rows],
            "qa_id": [frame[ResultCols.QA_ID].iat[r] for r in rows],
            "verdict": ["correct" if result.overrides[r].correct else "incorrect" for r in rows],
            "judge_score": [frame[ResultCols.SCORE].iat[r] for r in rows],
            "note": [result.overrides[r].note for r in rows],
        }
    )
