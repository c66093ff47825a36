"""Trends: the headline numbers of every stored run of one dataset, over time, with intervals.

Runs of the same dataset share a data fingerprint (:attr:`~agentic_core.runs.RunMeta.data_fingerprint`).
Each is reopened from the history (no judge is called) and aggregated again under the settings given,
so the points differ only by their verdicts and human overrides (the judge, its model, a re-run), never
by the settings they were first shown with.

Reopening is the slow part (reading the document, validating the conversations, scoring tool use), so
:class:`ReopenedRuns` keeps what it reopened: runs of one dataset have the same conversations, so after
the first only their verdicts are read and swapped in; overrides, which change after a run is made,
are read afresh every time.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from pydantic import Field

from agentic_core.analysis.aggregate import aggregate
from agentic_core.analysis.headline_numbers import HeadlineNumbers
from agentic_core.evaluate import verdict_columns
from agentic_core.judges.runner import JudgeRun
from agentic_core.result import EvaluationResult
from agentic_core.runs.payload import RunMeta
from agentic_core.runs.store import RunStore
from agentic_core.settings import AggregateSettings


class TrendPoint(HeadlineNumbers):
    """One stored run's headline under the given settings: the :class:`HeadlineNumbers` at its K, and these.

    Attributes:
        run_id: The stored run's id.
        name: Its name.
        created_at: When it was made (seconds since the epoch).
        judge: Its judge, in words.
        conversations: Conversations evaluated.
        tags: The run's tags (what :class:`~agentic_core.runs.run_filter.RunGrouping` splits a trend by).
        metadata: The run's metadata.
    """


    run_id: str
    name: str
    created_at: float
    judge: str
    conversations: int
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, str] = Field(default_factory=dict)


class ReopenedRuns:
    """Stored runs reopened once and kept (the most recently used ``size`` of them).

    A run's document never changes under its id (only its name, its overrides and its agentic
    metrics do, and none of them is kept here), so a run is read once; a run of a dataset already
    reopened takes that one's conversations and tool scores and reads only its own verdicts.

    Args:
        size: How many reopened runs to keep.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._runs: OrderedDict[tuple[str, float], EvaluationResult] = OrderedDict()
        self._datasets: dict[str, EvaluationResult] = {}
        self.points: OrderedDict[tuple[object, ...], TrendPoint] = OrderedDict()  # by run, overrides, settings
        self.reads = 0  # documents read from the store (for tests and measurements)

    def get(self, store: RunStore, meta: RunMeta) -> EvaluationResult:
        """The run as stored, without its overrides (:func:`run_trend` adds the current ones)."""
        key = (meta.id, meta.created_at)
        if key in self._runs:
            self._runs.move_to_end(key)
            return self._runs[key]
        self.reads += 1
        template = self._datasets.get(meta.data_fingerprint)
        if template is None:
            result = store.open(meta.id)
            result.overrides = {}
            self._datasets[meta.data_fingerprint] = result
        else:
            result = _with_verdicts(template, store, meta.id)
        self._runs[key] = result
        while len(self._runs) > self.size:
            self._runs.popitem(last=False)
        if len(self._datasets) > self.size:
            self._datasets.clear()
        return result

    def keep_point(self, key: tuple[object, ...], point: TrendPoint) -> None:
        """Keep one run's point under the settings and overrides it was computed with."""
        self.points[key] = point
        while len(self.points) > 4 * self.size:
            self.points.popitem(last=False)


def _with_verdicts(template: EvaluationResult, store: RunStore, run_id: str) -> EvaluationResult:
    """Another run of the template's dataset: its conversations and tool scores, this run's verdicts."""
    payload = store.payload(run_id)
    verdicts = payload.verdicts
    if len(verdicts) != template.n_interactions:  # not the same data after all: reopen it in full
        result = store.open(run_id)
        result.overrides = {}
        return result
    run = JudgeRun.model_validate({**payload.judge_run, "verdicts": verdicts, "identity": payload.meta.judge})
    return replace(
        template,
        # The same judge columns evaluate builds (ResultCols.VERDICT), in place of the template's.
        interactions=template.interactions.assign(**verdict_columns(verdicts)),
        judge_run=run,
        recommended_threshold=payload.recommended_threshold,
        overrides={},
        agentic=None,
    )


def runs_of_dataset(store: RunStore, fingerprint: str) -> list[RunMeta]:
    """The stored runs of one dataset (same data fingerprint), oldest first."""
    return sorted((m for m in store.runs() if m.data_fingerprint == fingerprint), key=lambda m: (m.created_at, m.id))


def run_trend(
    store: RunStore,
    fingerprint: str,
    settings: AggregateSettings | None = None,
    cache: ReopenedRuns | None = None,
) -> list[TrendPoint]:
    """The headline of every stored run of one dataset under ``settings``, oldest first.

    Args:
        store: The run history.
        fingerprint: The dataset's fingerprint (a run's ``data_fingerprint``).
        settings: The aggregation settings applied to every run (defaults when ``None``).
        cache: Runs already reopened (a fresh one when ``None``): pass the same one to redraw fast.

    Returns:
        One point per run; an empty list when no run has this fingerprint.

    Raises:
        RunStoreError: a run is damaged.
        DataError: a run's conversations no longer validate.
    """
    settings = settings or AggregateSettings()
    cache = cache or ReopenedRuns()
    metas = runs_of_dataset(store, fingerprint)
    overrides = store.overrides_by_run([m.id for m in metas])
    signature = settings.model_dump_json()
    points = []
    for meta in metas:
        key = (meta.id, meta.created_at, tuple((o.row, o.correct) for o in overrides.get(meta.id, [])), signature)
        known = cache.points.get(key)
        if known is not None:  # the name, tags and metadata may have changed since
            points.append(known.model_copy(update={"name": meta.name, "tags": meta.tags, "metadata": meta.metadata}))
            continue
        result = cache.get(store, meta)
        mine = {o.row: o for o in overrides.get(meta.id, []) if o.row < result.n_interactions}
        if mine:
            result = replace(result, overrides=mine)
        agg = aggregate(result, settings)
        points.append(
            TrendPoint.at(
                agg.headline,
                agg.k_evidence,  # one attempt per task: pass@K / pass^K not measured, and why
                run_id=meta.id,
                name=meta.name,
                created_at=meta.created_at,
                judge=meta.judge.label(),
                conversations=meta.n_conversations,
                tags=meta.tags,
                metadata=meta.metadata,
            )
        )
        cache.keep_point(key, points[-1])
    return points
