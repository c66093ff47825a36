"""Run history: every evaluation stored, reopened without a judge, exported and imported as one file.

:mod:`~agentic_core.runs.payload` defines the run document (what a run is, its version and
upgrades); :mod:`~agentic_core.runs.store` keeps runs in SQLite (:class:`RunStore`); :mod:`~agentic_core.runs.trends`
reads stored runs as a trend; :mod:`~agentic_core.runs.run_tags` holds a run's tags, note and metadata and their
rules, :mod:`~agentic_core.runs.run_filter` finds and groups runs by them; :mod:`~agentic_core.runs.parts` holds the
parts of live runs (OTLP traces judged as they arrive).
"""

from agentic_core.common.wording import age_text
from agentic_core.runs.parts import receiving
from agentic_core.runs.payload import (
    PAYLOAD_VERSION,
    LiveSource,
    RunMeta,
    RunPayload,
    from_payload,
    new_run_id,
    to_payload,
)
from agentic_core.runs.run_filter import RunFilter, RunGrouping, groupings, known_metadata, known_tags
from agentic_core.runs.run_tags import (
    LIMITS,
    RESOURCE_META_PREFIX,
    RESOURCE_NOTE,
    RESOURCE_TAGS,
    SUGGESTED_KEYS,
    ResourceTags,
    RunTags,
    TagEdit,
    TagPlaces,
    parse_meta_pairs,
    tags_from_resource,
)
from agentic_core.runs.store import RunStore, RunStoreError, default_runs_path
from agentic_core.runs.trends import ReopenedRuns, TrendPoint, run_trend

__all__ = [
    "LIMITS", "PAYLOAD_VERSION", "RESOURCE_META_PREFIX", "RESOURCE_NOTE", "RESOURCE_TAGS", "SUGGESTED_KEYS",
    "LiveSource", "ReopenedRuns", "ResourceTags", "RunFilter", "RunGrouping", "RunMeta", "RunPayload", "RunStore",
    "RunStoreError", "RunTags", "TagEdit", "TagPlaces", "TrendPoint", "age_text", "default_runs_path", "from_payload",
    "groupings", "known_metadata", "known_tags", "new_run_id", "parse_meta_pairs", "receiving", "run_trend",
    "tags_from_resource", "to_payload",
]  # fmt: skip
