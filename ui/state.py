"""Session state of the dashboard: the active dataset, the active run, memoised aggregates.

App data lives under non-widget session keys (widget state can be dropped on page switches);
widget values are read through the keys in :mod:`ui.controls`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from agentic_core import EvaluationResult, evaluate
from agentic_core.analysis import Aggregate, aggregate
from agentic_core.io import DEFAULT_SAMPLE, SAMPLES, LoadReport, load_paths, load_sample
from agentic_core.judges import DEFAULT_JUDGE
from agentic_core.runs import RunTags
from agentic_core.settings import AggregateSettings
from ui import streamlit_internals
from ui.format_defaults import apply_format_defaults
from ui.memo import forget, session_memo

DATA_KEY = "_active_data"
RUN_KEY = "_active_run"
MEMO_KEY = "_aggregate_memo"
# Aggregates kept per session (one per settings combination): a slider dragged back and forth
# reuses them; each holds per-conversation and per-interaction tables, so a few, not a dozen.
_MEMO_SIZE = 4


@dataclass
class ActiveData:
    """The dataset the user is working on."""

    name: str
    report: LoadReport
    source: str  # "sample", "upload" or "file"


@dataclass
class ActiveRun:
    """An evaluation of the active data by one judge."""

    data_name: str
    result: EvaluationResult
    judge_label: str
    created_at: float = field(default_factory=time.time)
    stored_id: str | None = None  # its id in the run history, once stored
    revision: int = 0  # raised when a human override changes what the aggregates count
    tags: RunTags | None = None  # the tags, note and metadata given on the Run page, stored with the run

    @property
    def run_id(self) -> str:
        """Identifies the run's current state for memoisation (changes with its overrides)."""
        return f"{self.data_name}:{self.judge_label}:{self.created_at}:{self.revision}"


# Overrides for the first run (benchmarks, tests, a team's own default data):
# AGENTIC_DEFAULT_DATA=path/to/file.jsonl and AGENTIC_DEFAULT_JUDGE=dataset|lexical|...
ENV_DATA = "AGENTIC_DEFAULT_DATA"
ENV_JUDGE = "AGENTIC_DEFAULT_JUDGE"


def _first_run_choice() -> tuple[str, str | None, str]:
    """(display name, data path or None for the built-in sample, judge name)."""
    path = os.environ.get(ENV_DATA)
    judge = os.environ.get(ENV_JUDGE) or DEFAULT_JUDGE
    if path:
        return Path(path).name, path, judge
    return SAMPLES[DEFAULT_SAMPLE].title, None, judge


@st.cache_resource(show_spinner="Evaluating the dataset with the offline judge...", max_entries=8)
def _evaluate_first(path: str | None, judge_name: str) -> tuple[LoadReport, EvaluationResult]:
    # Shared by all sessions and read-only: aggregate() never mutates a result. The judge cache
    # makes this a disk read after the first start (start.sh warms it).
    report = load_paths([path]) if path else load_sample(DEFAULT_SAMPLE)
    return report, evaluate(report, judge_name)


def get_data() -> ActiveData | None:
    """The active dataset, if any."""
    return st.session_state.get(DATA_KEY)


def set_data(data: ActiveData) -> None:
    """Make ``data`` the active dataset (the run of another dataset stays until replaced).

    The settings its format needs are preselected (:mod:`ui.format_defaults`).
    """
    st.session_state[DATA_KEY] = data
    apply_format_defaults(data.report)


def get_run() -> ActiveRun | None:
    """The active run, if any."""
    return st.session_state.get(RUN_KEY)


def set_run(run: ActiveRun) -> None:
    """Make ``run`` the active run and drop memoised aggregates of the previous one."""
    st.session_state[RUN_KEY] = run
    forget(MEMO_KEY)


def load_sample_data(name: str) -> ActiveData:
    """Load a built-in sample and make it the active dataset."""
    data = ActiveData(name=SAMPLES[name].title, report=load_sample(name), source="sample")
    set_data(data)
    return data


_SCRIPT = threading.local()


@contextmanager
def running_via_app() -> Iterator[None]:
    """Mark the current script run as going through dashboard.py (wrap ``page.run()`` in it)."""
    _SCRIPT.via_app = True
    try:
        yield
    finally:
        _SCRIPT.via_app = False


def _leave_legacy_multipage_mode() -> None:
    """Rerun through dashboard.py if Streamlit ran this page file on its own.

    Streamlit keeps a process in its legacy ``pages/`` mode until the first ``st.navigation``
    call; the very first session of a server opened on a sub-page URL (a shared link like
    ``/tools?k=5``) therefore runs the page file alone, without dashboard.py's page config,
    navigation and sidebar. Then, and only then, turn the flag off and rerun, so dashboard.py runs
    and resolves the same URL. (An internal flag: :mod:`ui.streamlit_internals` switches this off
    with another Streamlit release.)
    """
    if getattr(_SCRIPT, "via_app", False):
        return
    if streamlit_internals.leave_legacy_pages_mode():
        st.rerun()


def ensure_run() -> ActiveRun:
    """The active run; on a first visit, the default sample evaluated by the default judge."""
    _leave_legacy_multipage_mode()
    run = get_run()
    if run is None:
        name, path, judge = _first_run_choice()
        report, result = _evaluate_first(path, judge)
        if get_data() is None:
            set_data(ActiveData(name=name, report=report, source="sample" if path is None else "file"))
        run = ActiveRun(data_name=name, result=result, judge_label=result.judge_identity.label())
        set_run(run)
    return run


def get_aggregate(run: ActiveRun, settings: AggregateSettings) -> Aggregate:
    """Aggregate ``run`` under ``settings``, memoised per session (a few recent settings)."""
    return session_memo(
        MEMO_KEY, (run.run_id, settings.model_dump_json()), lambda: aggregate(run.result, settings), size=_MEMO_SIZE
    )


def is_evaluated(data: ActiveData, run: ActiveRun) -> bool:
    """Whether ``run`` evaluated ``data`` (the same load, or the same built-in sample)."""
    same_load = run.result.load_report is data.report
    return same_load or (data.source == "sample" and run.data_name == data.name)
