"""Session state of the dashboard: the active dataset, the active run, memoised aggregates.

App data lives under non-widget session keys (widget state can be dropped on page switches);
widget values are read through the keys in :mod:`ui.controls`.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

import streamlit as st

from agentic_core.evaluate import Aggregate, EvaluationResult, aggregate, evaluate
from agentic_core.io.loader import LoadReport
from agentic_core.io.samples import DEFAULT_SAMPLE, SAMPLES, load_sample
from agentic_core.judges.registry import DEFAULT_JUDGE
from agentic_core.settings import AggregateSettings

DATA_KEY = "_active_data"
RUN_KEY = "_active_run"
MEMO_KEY = "_aggregate_memo"
_MEMO_SIZE = 12


@dataclass
class ActiveData:
    """The dataset the user is working on."""

    name: str
    report: LoadReport
    source: str  # "sample" or "upload"


@dataclass
class ActiveRun:
    """An evaluation of the active data by one judge."""

    data_name: str
    result: EvaluationResult
    judge_label: str
    created_at: float = field(default_factory=time.time)

    @property
    def run_id(self) -> str:
        """Identifies the run for memoisation (stable for the life of the run)."""
        return f"{self.data_name}:{self.judge_label}:{self.created_at}"


@st.cache_resource(show_spinner="Evaluating the built-in sample with the offline judge...", max_entries=8)
def _evaluate_sample(name: str, judge_name: str) -> EvaluationResult:
    # Shared by all sessions and read-only: aggregate() never mutates a result. The judge cache
    # makes this a disk read after the first start (start.sh warms it).
    return evaluate(load_sample(name), judge_name)


def get_data() -> ActiveData | None:
    """The active dataset, if any."""
    return st.session_state.get(DATA_KEY)


def set_data(data: ActiveData) -> None:
    """Make ``data`` the active dataset (the run of another dataset stays until replaced)."""
    st.session_state[DATA_KEY] = data


def get_run() -> ActiveRun | None:
    """The active run, if any."""
    return st.session_state.get(RUN_KEY)


def set_run(run: ActiveRun) -> None:
    """Make ``run`` the active run and drop memoised aggregates of the previous one."""
    st.session_state[RUN_KEY] = run
    st.session_state[MEMO_KEY] = OrderedDict()


def load_sample_data(name: str) -> ActiveData:
    """Load a built-in sample and make it the active dataset."""
    data = ActiveData(name=SAMPLES[name].title, report=load_sample(name), source="sample")
    set_data(data)
    return data


def ensure_run() -> ActiveRun:
    """The active run; on a first visit, the default sample evaluated by the default judge."""
    run = get_run()
    if run is None:
        if get_data() is None:
            load_sample_data(DEFAULT_SAMPLE)
        result = _evaluate_sample(DEFAULT_SAMPLE, DEFAULT_JUDGE)
        run = ActiveRun(
            data_name=SAMPLES[DEFAULT_SAMPLE].title, result=result, judge_label=result.judge_identity.label()
        )
        set_run(run)
    return run


def get_aggregate(run: ActiveRun, settings: AggregateSettings) -> Aggregate:
    """Aggregate ``run`` under ``settings``, memoised per session (a few recent settings)."""
    memo: OrderedDict[tuple[str, str], Aggregate] = st.session_state.setdefault(MEMO_KEY, OrderedDict())
    key = (run.run_id, settings.model_dump_json())
    agg = memo.get(key)
    if agg is None:
        agg = aggregate(run.result, settings)
        memo[key] = agg
        while len(memo) > _MEMO_SIZE:
            memo.popitem(last=False)
    else:
        memo.move_to_end(key)
    return agg
