"""Orchestration: judge once (:func:`evaluate`), aggregate many times (:func:`aggregate`).

``evaluate`` is the only expensive step: it loads, judges every interaction through the judge
runner (cache included) and scores tool use (weight-independent components). ``aggregate``
(:mod:`agentic_core.analysis.aggregate`, re-exported here as the README's API promises) applies every
slider setting with numpy over the stored arrays and never calls a judge.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd
import pyarrow as pa

from agentic_core.agentic_metrics import METRIC_NAMES, AgenticMetrics
from agentic_core.analysis.aggregate import Aggregate, aggregate
from agentic_core.columnar.columns import InteractionColumns, columns_of, count_cut
from agentic_core.columnar.item_counts import count_distinct_items
from agentic_core.common.frame_columns import ResultCols
from agentic_core.common.gc_control import gc_paused
from agentic_core.data.labels import HumanLabel
from agentic_core.data.schemas import Conversation
from agentic_core.engines import check_engine
from agentic_core.errors import DataError
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_paths, paths_of
from agentic_core.judges.base import Judge, JudgeItem, ProgressFn, Verdict, capabilities, item_key
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.monitor import RunCancelled, RunMonitor
from agentic_core.judges.runner import CacheMode, JudgeRun, run_judge_sync
from agentic_core.judges.score_runner import judges_scores_only, run_score_judge_sync
from agentic_core.judges.spec import JudgeSpecBase, judge_spec
from agentic_core.result import EvaluationResult

__all__ = [
    "Aggregate", "DataInput", "EvaluationResult", "add_agentic_metrics", "aggregate", "assemble", "evaluate",
    "judge_items",
]

DataInput = LoadReport | Sequence[Conversation] | str | Path | Sequence[str | Path]
LabelsInput = str | Path | Sequence[HumanLabel] | None
"""Human labels given beside the data: a labels file's path (CSV / JSONL / JSON), or the labels themselves."""


def _as_conversations(data: DataInput) -> tuple[Sequence[Conversation], LoadReport | None]:
    paths = paths_of(data)
    if isinstance(data, LoadReport):
        report = data
    elif paths is not None:
        report = load_paths(paths)
    else:
        items = cast(Sequence[object], data)  # neither a report nor paths (paths_of said so)
        convs = [c for c in items if isinstance(c, Conversation)]
        if len(convs) != len(items):
            raise DataError(
                "dataset",
                "must be a load report, file paths, or Conversation objects (not a mix)",
                [type(d).__name__ for d in items][:5],
                "pass one kind of input",
            )
        if not convs:
            raise DataError("dataset", "must hold at least one conversation", [], "load a file with conversations")
        return convs, None
    report.raise_if_empty()
    return report.conversations, report


MAX_JUDGED_CHARS = 20_000
"""Judges read at most this many characters of a query, answer or ground truth (about 4,000 words).

A 10 MB answer once cost 2 GB of memory in the offline judge (millions of token objects) in a
server shared by every session; longer texts are cut here, with a marker the judge can see, and
the run says how many were cut.
"""


def _judged_text(text: str) -> str:
    if len(text) <= MAX_JUDGED_CHARS:
        return text
    cut = f" [... cut: {len(text):,} characters, the judge read the first {MAX_JUDGED_CHARS:,}]"
    return text[:MAX_JUDGED_CHARS] + cut


def judge_items(conversations: Sequence[Conversation]) -> list[JudgeItem]:
    """The items :func:`evaluate` sends to the judge, one per interaction in order.

    Texts longer than :data:`MAX_JUDGED_CHARS` are cut (see there). For estimates before a run:
    the same items as the run itself. (A judge that reads only scores is given their scores
    instead: :func:`~agentic_core.judges.score_runner.run_score_judge_sync`.)
    """
    return _items(columns_of(conversations))


def _items(columns: InteractionColumns) -> list[JudgeItem]:
    texts = [columns.text(name) for name in ("query", "answer", "ground_truth")]
    if count_cut(columns, MAX_JUDGED_CHARS):
        texts = [[_judged_text(t) for t in column] for column in texts]
    with gc_paused():  # a million small objects: the collector would rescan the heap over and over
        return list(map(JudgeItem, *texts, columns.scores()))


def _distinct_item_count(columns: InteractionColumns) -> int:
    """How many distinct items :func:`judge_items` would make (without making them when no text is cut)."""
    if count_cut(columns, MAX_JUDGED_CHARS):  # items hold cut texts: count those exactly
        return len({item_key(i) for i in _items(columns)})
    return count_distinct_items(columns)


def evaluate(
    data: DataInput,
    judge: Judge | JudgeSpecBase | str | None = None,
    *,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    progress: ProgressFn | None = None,
    monitor: RunMonitor | None = None,
    metrics: str | Sequence[str] | None = None,
    goal_judge: str | None = None,
    engine: str = "local",
    ray_address: str | None = None,
    labels: LabelsInput = None,
    **judge_options: Any,
) -> EvaluationResult:
    """Judge every interaction once and score tool use.

    Args:
        data: A :class:`LoadReport`, conversations, or one or more file paths.
        judge: A judge object, a spec (``LLMSpec(provider="groq", model=...)``, see
            :mod:`agentic_core.judges.spec`), or a registry name (``learned`` by default) with its options in
            ``judge_options``.
        cache: The persistent judge cache (the default location when ``None`` and the mode is
            not ``off``; only cacheable judges use it).
        cache_mode: ``use``, ``refresh`` or ``off``.
        progress: Called as ``progress(done, total)`` while judging.
        monitor: Watches the run from another thread (progress, rate, ETA, partial verdicts) and
            can cancel it (:class:`~agentic_core.judges.monitor.RunCancelled` is raised then;
            what was judged stays in the cache).
        metrics: Seed 004's agentic metrics to compute too (``tool_call_accuracy``,
            ``topic_adherence``, ``goal_accuracy``, a comma-separated string or ``all``); stored on
            ``result.agentic`` (see :mod:`agentic_core.agentic_metrics.compute`).
        goal_judge: The offline judge of goal accuracy with reference (``lexical``, the default, ``hybrid``
            or ``embedding``); the LLM judge judges goals itself.
        engine: ``local`` (this process) or ``ray``: the judge's calls and tool scoring run on Ray
            Data workers, the cache stays on this machine, the result is the same number for number
            (see :mod:`agentic_core.engines.ray_engine`; needs ``pip install -r requirements-ray.txt``).
        ray_address: With ``engine="ray"``: ``None`` starts or joins a local Ray, ``"auto"`` joins the
            one ``ray start --head`` started here, ``"ray://host:10001"`` a cluster.
        labels: Human labels beside the data (issue 37): a labels file's path (``session_id``, optional
            ``assistant_id`` / ``qa_id``, ``label``) or a list of :class:`~agentic_core.data.labels.HumanLabel`;
            kept on ``result.labels`` (read before judging: a bad file costs no judge call). ``aggregate(result)
            .corrected`` then gives the headline corrected for the judge's errors; the data's own ``human_label``
            values count without this.
        **judge_options: The options of the judge ``judge`` names (the fields of its spec,
            :func:`~agentic_core.judges.spec.judge_spec`); on Ray, each worker rebuilds the judge from the spec.

    Returns:
        The evaluation result, ready for :func:`aggregate`.

    Raises:
        DataError: no valid conversation, or a labels file that cannot be read (its line named).
        JudgeConfigError: the judge cannot be built, or Ray is not installed (``engine="ray"``).
        SettingsError: an unknown ``engine``.
    """
    start = time.perf_counter()
    given = _labels_of(labels)
    chosen = _spec_or_judge(judge, judge_options)
    on_ray = None
    if check_engine(engine, ray_address) == "ray":
        from agentic_core.engines.ray_engine import prepare_on_ray

        # Ray takes the per-record work; the run below is the local one, with Ray's data and judge.
        on_ray = prepare_on_ray(data, chosen, ray_address)
        data, chosen = on_ray.data, on_ray.judge
    conversations, report = _as_conversations(data)
    judge = chosen.build() if isinstance(chosen, JudgeSpecBase) else chosen

    if cache is None and cache_mode != "off" and judge.cacheable:
        cache = JudgeCache()
    # Columns once: a list of conversations (not a loaded report) has them built on each call,
    # tool scoring included.
    with gc_paused():
        columns = columns_of(conversations)
    # Offline judges are bounded CPU work: pause the collector during it too. LLM runs can
    # last minutes and create cyclic garbage (asyncio), so the collector stays on for them.
    scores_only = judges_scores_only(judge)  # the dataset judge: its scores, not a million items
    with gc_paused(not capabilities(judge).calls_llm):
        if scores_only:
            run = run_score_judge_sync(
                judge, columns.score, _distinct_item_count(columns), progress=progress, monitor=monitor
            )
        else:
            run = run_judge_sync(
                judge, _items(columns), cache=cache, cache_mode=cache_mode, progress=progress, monitor=monitor
            )
    # A judge that read no text had none cut.
    cut = 0 if scores_only else count_cut(columns, MAX_JUDGED_CHARS)
    if cut:
        run.warnings.append(
            f"{cut:,} interaction(s) have a query, answer or ground truth longer than {MAX_JUDGED_CHARS:,} characters: "
            f"the judge read the first {MAX_JUDGED_CHARS:,} of each (marked in the text it was given); the full "
            "texts are kept in the results."
        )
    with gc_paused():
        result = _assemble(
            conversations, columns, run, float(judge.recommended_threshold), report, time.perf_counter()
        )
    if on_ray is not None and on_ray.in_memory:
        result.load_report = None  # conversations handed over in memory have none locally either
    if metrics:  # on the driver, with the judge itself (not its Ray-backed stand-in)
        metric_judge = judge if on_ray is None else on_ray.local
        add_agentic_metrics(
            result, metric_judge, metrics=metrics, cache=cache, cache_mode=cache_mode, goal_judge=goal_judge,
            monitor=monitor,
        )
    result.labels = given
    result.elapsed_s = time.perf_counter() - start
    return result


def _spec_or_judge(judge: Judge | JudgeSpecBase | str | None, options: dict[str, Any]) -> Judge | JudgeSpecBase:
    """A judge object as it is; a name with its options, or a spec, validated once (built by the caller, and on
    Ray by each worker too)."""
    if judge is None or isinstance(judge, str | JudgeSpecBase):
        return judge_spec(judge, **options)
    return judge


def _labels_of(labels: LabelsInput) -> list[HumanLabel]:
    """The labels given to :func:`evaluate`: read from a file's path, or as they are."""
    if labels is None:
        return []
    if isinstance(labels, str | Path):
        from agentic_core.io.labels_file import read_labels_path

        return read_labels_path(labels).labels
    return [HumanLabel.model_validate(label) for label in labels]


def assemble(
    conversations: Sequence[Conversation],
    run: JudgeRun,
    recommended_threshold: float,
    report: LoadReport | None = None,
) -> EvaluationResult:
    """Build the evaluation result from conversations and their verdicts: tool scoring and the tables.

    What :func:`evaluate` does after judging; also how a stored run is reopened (its verdicts come
    from the store, so no judge is called). The tables are built from the conversations' columns
    (:mod:`agentic_core.columnar.columns`): a loaded report's were built (tool scoring included) while its
    file streamed; a list's are built here (tool scoring takes about a second per 100k
    interactions).

    Args:
        conversations: The evaluated conversations, in order.
        run: The judge run, one verdict per interaction in conversation order.
        recommended_threshold: The judge's recommended answer threshold.
        report: The load report, when there is one.

    Returns:
        The result, ready for :func:`aggregate`.

    Raises:
        DataError: the verdicts do not match the interactions one to one.
    """
    start = time.perf_counter()
    with gc_paused():
        columns = columns_of(conversations)
        return _assemble(conversations, columns, run, recommended_threshold, report, start)


_STR = pd.StringDtype("pyarrow", na_value=np.nan)
"""pandas' ``str`` dtype (Arrow-backed): what a list of Python strings becomes in a frame."""


def _text_column(columns: InteractionColumns, name: str) -> pd.Series:
    """One text column as pandas' Arrow-backed ``str``, sharing the columns' buffers."""
    return pd.Series(pd.arrays.ArrowStringArray(columns.texts[name], dtype=_STR), copy=False)


def verdict_columns(verdicts: Sequence[Verdict]) -> dict[str, pd.Series | np.ndarray | list[Any]]:
    """The frame's judge columns (:attr:`ResultCols.VERDICT`), one row per verdict.

    Each distinct verdict object is read once and spread to every row: repeated items share one
    verdict, and so do equal scores of the dataset judge, so a million rows hold a few thousand
    objects, and reading each row's five fields, then turning a million strings into an Arrow
    column, was most of assembling such a run. Each column's type is what pandas makes of the
    distinct values (text, or ``object`` where every value is ``None``), as it would of all the rows.

    Args:
        verdicts: One verdict per interaction, in row order.

    Returns:
        Column name -> values, for a frame (or to replace another run's verdicts in one).
    """
    n = len(verdicts)
    if not n:
        return {
            ResultCols.SCORE: np.zeros(0),
            ResultCols.JUDGE_STATUS: [],
            ResultCols.JUDGE_REASONING: [],
            ResultCols.JUDGE_ERROR: [],
            ResultCols.JUDGE_PROBABILITY: np.zeros(0),
        }
    codes, _ = pd.factorize(np.fromiter(map(id, verdicts), dtype=np.int64, count=n))
    first = np.empty(int(codes.max()) + 1, dtype=np.int64)
    first[codes[::-1]] = np.arange(n - 1, -1, -1, dtype=np.int64)  # each object's first row
    distinct = [verdicts[i] for i in first.tolist()]

    def spread(values: list[Any]) -> pd.Series:
        return pd.Series(values).take(codes).reset_index(drop=True)

    return {
        ResultCols.SCORE: np.array([np.nan if v.score is None else v.score for v in distinct], dtype=float)[codes],
        ResultCols.JUDGE_STATUS: spread([v.status for v in distinct]),
        ResultCols.JUDGE_REASONING: spread([v.reasoning for v in distinct]),
        ResultCols.JUDGE_ERROR: spread([v.error for v in distinct]),
        # The judge's calibrated P(correct), NaN where it has none; an abstention keeps its
        # probability here while its score stays NaN (unscored, never 0 or 1).
        ResultCols.JUDGE_PROBABILITY: np.array(
            [np.nan if v.probability is None else v.probability for v in distinct], dtype=float
        )[codes],
    }


def _assemble(
    conversations: Sequence[Conversation],
    columns: InteractionColumns,
    run: JudgeRun,
    recommended_threshold: float,
    report: LoadReport | None,
    start: float,
) -> EvaluationResult:
    sizes = columns.sizes
    n = int(sizes.sum())
    conv_index = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    starts = np.cumsum(sizes) - sizes
    positions = np.arange(n, dtype=np.int64) - np.repeat(starts, sizes)
    if len(run.verdicts) != n:
        raise DataError(
            "verdicts",
            f"must hold one verdict per interaction ({n})",
            len(run.verdicts),
            "judge the same conversations the verdicts belong to",
        )

    components = columns.tool_components
    tool_arrays = columns.tool_arrays

    task_keys_per_conv = columns.task_keys
    codes, uniques = pd.factorize(pd.Series(task_keys_per_conv, dtype="object"), sort=True)
    session_ids = list(columns.session_ids)
    verdicts = run.verdicts

    def per_interaction(values: list[str]) -> pd.Series | list[str]:
        # Arrow's take: the per-conversation strings repeated per row without a Python object each.
        if not len(conv_index):
            return []
        repeated = pa.chunked_array([pa.array(values, type=pa.large_string()).take(conv_index)])
        return pd.Series(pd.arrays.ArrowStringArray(repeated, dtype=_STR), copy=False)

    task_key = pd.Categorical.from_codes(codes[conv_index], categories=uniques) if len(conv_index) else []
    frame = pd.DataFrame(
        {
            ResultCols.CONV: conv_index,
            ResultCols.POSITION: positions,
            ResultCols.SESSION_ID: per_interaction(session_ids),
            ResultCols.ASSISTANT_ID: per_interaction(columns.assistant_ids),
            # Codes into the distinct keys, not a copy per row: a key joins every qa_id of its
            # conversation, so a copy per row grows with the square of the conversation's length.
            ResultCols.TASK_KEY: task_key,
            ResultCols.QA_ID: _text_column(columns, ResultCols.QA_ID),
            ResultCols.QUERY: _text_column(columns, ResultCols.QUERY),
            ResultCols.ANSWER: _text_column(columns, ResultCols.ANSWER),
            ResultCols.GROUND_TRUTH: _text_column(columns, ResultCols.GROUND_TRUTH),
            **verdict_columns(verdicts),
            ResultCols.TOOL_APPLICABLE: tool_arrays["applicable"],
        }
    )
    # The component columns are "tool_" + the component's name in tool_arrays.
    for column in ResultCols.TOOL_COMPONENTS:
        frame[column] = tool_arrays[column.removeprefix("tool_")]
    return EvaluationResult(
        conversations=conversations,
        interactions=frame,
        tool_components=components,
        judge_run=run,
        recommended_threshold=recommended_threshold,
        load_report=report,
        elapsed_s=time.perf_counter() - start,
        conv_index=conv_index,
        task_codes=np.asarray(codes, dtype=np.int64),
        task_keys=[str(u) for u in uniques],
        session_ids=session_ids,
        tool_arrays=tool_arrays,
        columns=columns,
    )


def add_agentic_metrics(
    result: EvaluationResult,
    judge: Judge | None = None,
    *,
    metrics: str | Iterable[str] | None = METRIC_NAMES,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    goal_judge: str | None = None,
    monitor: RunMonitor | None = None,
) -> AgenticMetrics:
    """Compute the agentic metrics of an evaluated run and store them on it (``result.agentic``).

    For a run evaluated without them (the page's compute button): the answers are not judged again.
    Also the last step of ``evaluate(metrics=...)``, on either engine: a ``monitor`` cancelled by then
    stops the run here (:class:`~agentic_core.judges.monitor.RunCancelled`), before any metric call.
    """
    from agentic_core.agentic_metrics.compute import compute_agentic_metrics  # deferred: keeps `import` light

    if monitor is not None and monitor.cancel_requested:
        raise RunCancelled(
            "run", "was cancelled before the agentic metrics", "judging finished",
            "run again: the verdicts are in the cache, so only the metrics are computed",
        )
    result.agentic = compute_agentic_metrics(result.conversations, judge, metrics=metrics, cache=cache,
                                             cache_mode=cache_mode, goal_judge=goal_judge)
    return result.agentic
