"""Run history: every evaluation stored, reopened without a judge, exported and imported as one file.

:mod:`~agentic_core.runs.payload` defines the run document (what a run is, its version and
upgrades); :mod:`~agentic_core.runs.store` keeps runs in SQLite (:class:`RunStore`).
"""

from agentic_core.runs.payload import PAYLOAD_VERSION, RunMeta, RunPayload, from_payload, to_payload
from agentic_core.runs.store import RunStore, RunStoreError, age_text, default_runs_path, new_run_id

__all__ = [
    "PAYLOAD_VERSION",
    "RunMeta",
    "RunPayload",
    "RunStore",
    "RunStoreError",
    "age_text",
    "default_runs_path",
    "from_payload",
    "new_run_id",
    "to_payload",
]
