"""Complete live conversations judged and stored: the file importer's grouping and mapping, then ``evaluate``.

For each complete bucket (:mod:`agentic_core.live.pending`) its spans are read back from the spool as the file
importer reads a file's spans, grouped by the importer's :class:`~agentic_core.io.otel_spool.SpanSpool` and each
group mapped by :func:`~agentic_core.io.otel_import.map_conversation`, the reference file joined there: the
records are those the importer makes of the same spans. They are then validated (``load_records``), judged
once (``evaluate``, the server's judge and judge cache) and added to their service's live run of the day.

Nothing is dropped in silence: a conversation that cannot be mapped or validated is named in the server log and
counted in the live run's warnings (as the load report would count it), and its spans leave the spool then,
as a file's invalid records are skipped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from agentic_core.common.wording import plural
from agentic_core.errors import DataError
from agentic_core.evaluate import evaluate
from agentic_core.io.load_report import Issue
from agentic_core.io.loader import load_records
from agentic_core.io.otel_import import map_conversation
from agentic_core.io.otel_references import References
from agentic_core.io.otel_spans import Span
from agentic_core.io.otel_spool import SpanSpool
from agentic_core.judges.base import Judge
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CacheMode
from agentic_core.live.live_runs import LiveRuns
from agentic_core.live.pending import Bucket
from agentic_core.live.spool import LiveSpool
from agentic_core.runs.payload import LiveSource
from agentic_core.runs.run_tags import RunTags, tags_from_resource

log = logging.getLogger("agentic_core.live")

UNKNOWN_SERVICE = "unknown_service"
"""The service of spans whose resource names none (the SDKs' own default name)."""


def service_of(spans: list[Span]) -> str:
    """The service a conversation's spans come from: the first ``service.name`` given (a set one before the SDK's
    ``unknown_service`` default)."""
    names = [v for s in spans if isinstance(v := s.resource.get("service.name"), str) and v.strip()]
    return next((n for n in names if not n.startswith(UNKNOWN_SERVICE)), names[0] if names else UNKNOWN_SERVICE)


@dataclass
class _Service:
    """One service's conversations in a batch."""

    records: list[dict[str, Any]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    problems: list[Issue] = field(default_factory=list)  # conversations left out (errors)
    warnings: list[Issue] = field(default_factory=list)
    # The tags of the service's run, from the first resource that names it (agentic.run.* attributes,
    # service.version): a run started by this batch carries them.
    tags: RunTags | None = None
    refused: list[str] = field(default_factory=list)  # resource attributes refused by the tag rules, with why


@dataclass
class BatchOutcome:
    """What one batch did: conversations stored, and those left out (each named in the log).

    Attributes:
        stored: Conversations added to live runs.
        left_out: Conversations that could not be mapped, validated or judged.
        runs: The ids of the runs that grew.
    """

    stored: int = 0
    left_out: int = 0
    runs: list[str] = field(default_factory=list)


def _source(service: str) -> str:
    return f"live traces of {service}"


def _map_buckets(buckets: list[Bucket], spool: LiveSpool, references: References | None,
                 ) -> tuple[dict[str, _Service], list[tuple[list[str], int]]]:
    """The records of every bucket, by service; and what to remove from the spool once they are stored."""
    services: dict[str, _Service] = {}
    done: list[tuple[list[str], int]] = []
    for bucket in buckets:
        traces = sorted(bucket.traces)
        spans, upto = spool.spans(traces)
        done.append((traces, upto))
        grouping = SpanSpool(spill_from=1 << 62)  # one conversation's spans: held in memory
        for span in spans:
            grouping.append(span)
        groups = grouping.groups()
        for index, (key, positions) in enumerate(groups.items()):
            members = grouping.spans(positions)
            service = service_of(members)
            entry = services.setdefault(service, _Service())
            if entry.tags is None and members:
                found_tags = tags_from_resource(members[0].resource)
                entry.tags = found_tags.tags
                entry.refused.extend(str(problem) for problem in found_tags.problems)
            found = map_conversation(_source(service), index, key, members, service, lambda _: None,
                                     lambda _: None, references)
            entry.warnings.extend(found.rec.warnings + found.joined)
            if found.record is None:
                entry.problems.extend(found.rec.errors[:1])
                continue
            entry.records.append(found.record)
            entry.keys.append(bucket.key(spool.name))
    return services, done


def _notes(entry: _Service) -> list[str]:
    """The batch's left-out conversations and warnings, as one line each for the run's warnings."""
    notes = []
    if entry.problems:
        first = entry.problems[0].message(with_place=False)
        notes.append(f"Live: {plural(len(entry.problems), 'conversation')} received could not be evaluated "
                     f"(the server log names each); the first: {first}")
    if entry.warnings:
        first = entry.warnings[0].message(with_place=False)
        notes.append(f"Live: {plural(len(entry.warnings), 'mapping warning')}; the first: {first}")
    if entry.refused:
        notes.append(f"Live: {plural(len(entry.refused), 'resource attribute')} not kept as the run's tags; the "
                     f"first: {entry.refused[0]}")
    return notes


def judge_buckets(buckets: list[Bucket], spool: LiveSpool, runs: LiveRuns, judge: Judge, cache: JudgeCache | None,
                  cache_mode: CacheMode, references: References | None, now: float) -> BatchOutcome:
    """Judge complete buckets and add their conversations to their services' live runs (see the module).

    Args:
        buckets: The complete buckets.
        spool: Where their spans wait (removed once stored).
        runs: The live runs.
        judge: The server's judge.
        cache: The judge cache (``None``: not used).
        cache_mode: The cache mode.
        references: The golden set joined to each conversation, if any.
        now: The time (seconds since the epoch): its UTC day names the run.

    Returns:
        What the batch did.

    Raises:
        RunStoreError: The history cannot be written (the spans stay in the spool for the next attempt).
    """
    outcome = BatchOutcome()
    day = datetime.fromtimestamp(now, UTC).date().isoformat()
    services, done = _map_buckets(buckets, spool, references)
    for service, entry in services.items():
        for issue in entry.problems:
            log.warning("live conversation not evaluated: %s", issue.message())
        outcome.left_out += len(entry.problems)
        stored = runs.stored(service, day, entry.keys)
        kept = [(r, k) for r, k in zip(entry.records, entry.keys, strict=True) if k not in stored]
        if not kept:
            continue
        records, keys = [r for r, _ in kept], [k for _, k in kept]
        runs.unique_ids(service, day, records)
        report = load_records(records, _source(service), format="seed")
        for issue in report.errors:
            log.warning("live conversation not evaluated: %s", issue.message())
        entry.problems.extend(report.errors)
        outcome.left_out += len(report.skipped)
        try:
            result = evaluate(report, judge, cache=cache, cache_mode=cache_mode if cache is not None else "off")
        except DataError as exc:  # every record invalid: said above, nothing to add
            log.warning("live batch of %s not evaluated: %s", service, exc)
            continue
        result.judge_run.warnings.extend(_notes(entry))
        key_of = {r["session_id"]: k for r, k in zip(records, keys, strict=True)}
        live = LiveSource(service=service, day=day, updated_at=now)
        meta = runs.add(live, result, [key_of[c.session_id] for c in result.conversations], entry.tags)
        outcome.stored += result.n_conversations
        outcome.runs.append(meta.id)
    for traces, upto in done:
        spool.forget(traces, upto)
    return outcome
