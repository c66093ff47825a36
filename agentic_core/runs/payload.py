"""A run as one self-contained document: what the store keeps and what ``runs export`` writes.

A run is everything needed to show its results again without calling a judge: the conversations
as evaluated (seed format), one verdict per interaction, the judge run's identity and accounting,
the judge's recommended threshold, and the human overrides. Reopening validates the conversations
again (so a run stored by an older version meets today's rules, or is reported), scores tool use
again (deterministic) and takes the verdicts as they were.

The document carries :data:`PAYLOAD_VERSION`; :func:`upgrade` brings older documents up to date and
refuses newer ones with the reason.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from pydantic import BaseModel, Field

from agentic_core.common.gc_control import gc_paused
from agentic_core.data.labels import HumanLabel
from agentic_core.data.overrides import Override
from agentic_core.data.schemas import Conversation
from agentic_core.errors import DataError
from agentic_core.judges.base import JudgeIdentity, Verdict
from agentic_core.judges.runner import JudgeRun
from agentic_core.result import EvaluationResult
from agentic_core.runs.run_tags import RunTags
from agentic_core.version import __version__

PAYLOAD_FORMAT = "agentic-workbench-run"
PAYLOAD_VERSION = 1
"""Version of the run document; raised when its shape changes (with a step in :func:`upgrade`)."""


class LiveSource(BaseModel):
    """Where a live run's conversations come from: traces sent to ``agentic-eval serve`` as they happen.

    Attributes:
        source: How they came (``otlp``: OTLP/HTTP at ``POST /v1/traces``).
        service: The sending service's ``service.name`` (its OpenTelemetry resource).
        day: The UTC day the run collects (``2026-11-24``): one live run per service, judge and day.
        updated_at: When conversations were last added (seconds since the epoch).
    """

    source: str = "otlp"
    service: str
    day: str
    updated_at: float


class RunMeta(BaseModel):
    """What describes a run in lists: its id, name, data, judge and time.

    Attributes:
        id: The run's id (stable; used on the command line and in links).
        name: A name people give it (defaults to the data and the judge).
        created_at: When it was evaluated (seconds since the epoch).
        data_name: The name of the data (file names, or a sample's title).
        data_fingerprint: SHA-256 of the conversations as evaluated: the same data gives the same value.
        judge: The judge's identity (never a key).
        n_conversations: Conversations evaluated.
        n_interactions: Interactions evaluated.
        app_version: The workbench version that made the run.
        tags: Its tags (sorted; :mod:`~agentic_core.runs.run_tags` has the rules), empty when none.
        note: Its note.
        metadata: Its free metadata (string key -> string value: agent_version, model, prompt_hash, ...).
        live: For a live run (conversations added as their traces arrive, see :mod:`agentic_core.live`): where
            they come from and when it last grew; ``None`` for a run judged at once. An optional addition: runs
            without it stay as they were.
    """

    id: str
    name: str
    created_at: float
    data_name: str
    data_fingerprint: str
    judge: JudgeIdentity
    n_conversations: int
    n_interactions: int
    app_version: str = __version__
    # Added after version 1 of the document, with defaults: a run stored or exported before has none.
    tags: list[str] = Field(default_factory=list)
    note: str = ""
    metadata: dict[str, str] = Field(default_factory=dict)

    @property
    def run_tags(self) -> RunTags:
        """Its tags, note and metadata as one value."""
        return RunTags(tags=tuple(self.tags), note=self.note, metadata=self.metadata)
    live: LiveSource | None = None


class RunPayload(BaseModel):
    """A whole run, as stored and exported.

    Attributes:
        format: Always :data:`PAYLOAD_FORMAT` (a file of another kind is refused by name).
        version: :data:`PAYLOAD_VERSION` of the writer.
        meta: The run's description.
        conversations: The conversations as evaluated (seed format, fields as given).
        verdicts: One per interaction, in order.
        judge_run: The judge run's accounting without its verdicts (counts, cache, tokens, warnings).
        recommended_threshold: The judge's recommended answer threshold.
        overrides: Human overrides.
        settings: The aggregation settings the run was reported with (``evaluate``'s options), if
            any; ``None`` means the defaults with the judge's threshold.
        agentic: Seed 004's agentic metrics as computed (``None`` when they were not); an optional
            addition, so documents without it stay version 1.
        labels: Human labels given beside the data (review queue, labels file, endpoint request; issue 37), kept
            in the store's own table and carried by run files; an optional addition (version 1 still). The data's
            own ``human_label`` values travel with the conversations.
    """

    format: str = PAYLOAD_FORMAT
    version: int = PAYLOAD_VERSION
    meta: RunMeta
    conversations: list[dict[str, Any]]
    verdicts: list[Verdict]
    judge_run: dict[str, Any]
    recommended_threshold: float
    overrides: list[Override] = Field(default_factory=list)
    settings: dict[str, Any] | None = None
    agentic: dict[str, Any] | None = None
    labels: list[HumanLabel] = Field(default_factory=list)


def conversation_dicts(conversations: Sequence[Conversation]) -> list[dict[str, Any]]:
    """The conversations as plain seed-format dicts (only the fields that were given)."""
    return [c.model_dump(mode="json", exclude_unset=True) for c in conversations]


def fingerprint(dicts: list[dict[str, Any]]) -> str:
    """SHA-256 of conversations in a canonical JSON form (key order and spacing do not matter)."""
    digest = hashlib.sha256()
    for record in dicts:
        digest.update(orjson.dumps(record, option=orjson.OPT_SORT_KEYS))
        digest.update(b"\n")
    return digest.hexdigest()


def to_payload(
    result: EvaluationResult,
    run_id: str,
    name: str,
    data_name: str,
    settings: dict[str, Any] | None = None,
    tags: RunTags | None = None,
) -> RunPayload:
    """The run document of an evaluation result.

    Args:
        result: What :func:`~agentic_core.evaluate.evaluate` returned.
        run_id: The id to give the run.
        name: Its name.
        data_name: The name of the data it was made on.
        settings: The aggregation settings it was reported with (JSON form), if any.
        tags: Its tags, note and metadata (validated by :meth:`RunTags.checked`), if any.
    """
    dicts = conversation_dicts(result.conversations)
    accounting = result.judge_run.model_dump(mode="json", exclude={"verdicts"})
    return RunPayload(
        meta=RunMeta(
            id=run_id,
            name=name,
            created_at=time.time(),
            data_name=data_name,
            data_fingerprint=fingerprint(dicts),
            judge=result.judge_identity,
            n_conversations=result.n_conversations,
            n_interactions=result.n_interactions,
            **(tags or RunTags()).fields(),
        ),
        conversations=dicts,
        verdicts=list(result.judge_run.verdicts),
        judge_run=accounting,
        recommended_threshold=result.recommended_threshold,
        overrides=sorted(result.overrides.values(), key=lambda o: o.row),
        settings=settings,
        agentic=result.agentic.model_dump(mode="json") if result.agentic is not None else None,
        labels=list(result.labels),
    )


def upgrade(document: dict[str, Any], place: str) -> dict[str, Any]:
    """Bring a run document of an older version up to :data:`PAYLOAD_VERSION`.

    Raises:
        DataError: not a run document, or one written by a newer version.
    """
    if document.get("format") != PAYLOAD_FORMAT:
        raise DataError(
            place,
            f"is not a workbench run (its 'format' is not {PAYLOAD_FORMAT!r})",
            document.get("format"),
            "import a file written by 'runs export' or the History page's download",
        )
    version = document.get("version")
    if not isinstance(version, int) or version < 1:
        raise DataError(place, "has no valid run document version", version, "export the run again")
    if version > PAYLOAD_VERSION:
        raise DataError(
            place,
            f"was written by a newer workbench (run document version {version}; this one reads up to "
            f"{PAYLOAD_VERSION})",
            document.get("meta", {}).get("app_version"),
            "upgrade the workbench to open it",
        )
    # Version 1 is the first; later versions add their steps here, oldest first.
    return document


def from_payload(payload: RunPayload) -> EvaluationResult:
    """Reopen a stored run: conversations validated again, tool use scored again, verdicts as stored.

    Raises:
        DataError: the stored conversations no longer validate, or the verdicts do not match them.
    """
    from agentic_core.evaluate import assemble
    from agentic_core.io.loader import load_records

    report = load_records(payload.conversations, f"run {payload.meta.id}")
    if report.skipped:
        first = report.errors[0].message() if report.errors else "see the load report"
        raise DataError(
            f"run {payload.meta.id}",
            f"holds {len(report.skipped)} conversation(s) this version cannot read",
            first,
            "open it with the version that made it and export the data again",
        )
    accounting = {**payload.judge_run, "verdicts": payload.verdicts, "identity": payload.meta.judge}
    run = JudgeRun.model_validate(accounting)
    result = assemble(report.conversations, run, payload.recommended_threshold, report)
    result.overrides = {o.row: o for o in payload.overrides if o.row < result.n_interactions}
    result.labels = list(payload.labels)  # every one, matched or not: the corrected reading names the unmatched
    if payload.agentic is not None:
        from agentic_core.agentic_metrics.results import AgenticMetrics

        agentic = AgenticMetrics.model_validate(payload.agentic)
        if len(agentic.conversations) == result.n_conversations:
            result.agentic = agentic
    return result


def new_run_id() -> str:
    """A short, sortable, unguessable id such as ``20261124-081502-3f9a``."""
    return f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"


def new_payload(
    result: EvaluationResult,
    data_name: str,
    *,
    run_id: str | None = None,
    name: str | None = None,
    settings: dict[str, Any] | None = None,
    tags: RunTags | None = None,
) -> RunPayload:
    """The run document of an evaluation: a new id unless given, named after its data and judge by default."""
    label = result.judge_identity.label()
    with gc_paused():  # see packing.py
        return to_payload(result, run_id or new_run_id(), name or f"{data_name} · {label}", data_name, settings, tags)
