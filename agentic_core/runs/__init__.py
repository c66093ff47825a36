"""Run history: every evaluation stored, reopened without a judge, exported and imported as one file.

:mod:`~agentic_core.runs.payload` defines the run document (what a run is, its version and
upgrades); :mod:`~agentic_core.runs.store` keeps runs in SQLite (:class:`RunStore`); :mod:`~agentic_core.runs.trends`
reads stored runs as a trend; :mod:`~agentic_core.runs.parts` holds the parts of live runs (OTLP traces judged as
they arrive).
"""

from agentic_core.runs.parts import receiving
from agentic_core.runs.payload import PAYLOAD_VERSION, LiveSource, RunMeta, RunPayload, from_payload, to_payload
from agentic_core.runs.store import RunStore, RunStoreError, age_text, default_runs_path, new_run_id
from agentic_core.runs.trends import ReopenedRuns, TrendPoint, run_trend

__all__ = [
    "PAYLOAD_VERSION", "LiveSource", "ReopenedRuns", "RunMeta", "RunPayload", "RunStore", "RunStoreError", "TrendPoint",
    "age_text", "default_runs_path", "from_payload", "new_run_id", "receiving", "run_trend", "to_payload",
]  # fmt: skip
