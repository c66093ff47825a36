"""Orchestration: judge once (:func:`evaluate`), aggregate many times (:func:`aggregate`).

``evaluate`` is the only expensive step: it loads, judges every interaction through the judge
runner (cache included) and scores tool use (weight-independent components). ``aggregate``
(:mod:`agentic_core.aggregate`, re-exported here as the README's API promises) applies every
slider setting with numpy over the stored arrays and never calls a judge.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from agentic_core.aggregate import Aggregate, aggregate
from agentic_core.errors import DataError
from agentic_core.gc_control import gc_paused
from agentic_core.io.load_report import LoadReport
from agentic_core.io.loader import load_paths
from agentic_core.judges.base import Judge, JudgeItem, ProgressFn
from agentic_core.judges.cache import JudgeCache
from agentic_core.judges.runner import CacheMode, JudgeRun, run_judge_sync
from agentic_core.result import EvaluationResult
from agentic_core.schemas import Conversation
from agentic_core.tools import components_matrix, score_tools

__all__ = ["Aggregate", "DataInput", "EvaluationResult", "aggregate", "assemble", "evaluate", "judge_items"]

DataInput = LoadReport | Sequence[Conversation] | str | Path | Sequence[str | Path]


def _as_conversations(data: DataInput) -> tuple[list[Conversation], LoadReport | None]:
    if isinstance(data, LoadReport):
        report = data
    elif isinstance(data, (str, Path)):
        report = load_paths([data])
    elif isinstance(data, Sequence) and data and all(isinstance(d, (str, Path)) for d in data):
        report = load_paths([d for d in data if isinstance(d, (str, Path))])
    else:
        convs = [c for c in data if isinstance(c, Conversation)]
        if len(convs) != len(data):
            raise DataError(
                "dataset",
                "must be a load report, file paths, or Conversation objects (not a mix)",
                [type(d).__name__ for d in data][:5],
                "pass one kind of input",
            )
        if not convs:
            raise DataError("dataset", "must hold at least one conversation", [], "load a file with conversations")
        return convs, None
    report.raise_if_empty()
    return list(report.conversations), report


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
    the same items as the run itself.
    """
    return [
        JudgeItem(_judged_text(i.query), _judged_text(i.assistant), _judged_text(i.ground_truth_assistant), i.score)
        for c in conversations
        for i in c.conversation
    ]


def _cut_texts(conversations: Sequence[Conversation]) -> int:
    """How many interactions have a text longer than :data:`MAX_JUDGED_CHARS`."""
    return sum(
        1
        for c in conversations
        for i in c.conversation
        if max(len(i.query), len(i.assistant), len(i.ground_truth_assistant)) > MAX_JUDGED_CHARS
    )


def evaluate(
    data: DataInput,
    judge: Judge | str | None = None,
    *,
    cache: JudgeCache | None = None,
    cache_mode: CacheMode = "use",
    progress: ProgressFn | None = None,
    metrics: str | Sequence[str] | None = None,
    goal_judge: str | None = None,
    **judge_options: Any,
) -> EvaluationResult:
    """Judge every interaction once and score tool use.

    Args:
        data: A :class:`LoadReport`, conversations, or one or more file paths.
        judge: A judge, or a registry name (``hybrid`` by default).
        cache: The persistent judge cache (the default location when ``None`` and the mode is
            not ``off``; only cacheable judges use it).
        cache_mode: ``use``, ``refresh`` or ``off``.
        progress: Called as ``progress(done, total)`` while judging.
        metrics: Seed 004's agentic metrics to compute too (``tool_call_accuracy``,
            ``topic_adherence``, ``goal_accuracy``, a comma-separated string or ``all``); stored on
            ``result.agentic`` (see :mod:`agentic_core.agentic_metrics.compute`).
        goal_judge: The offline judge of goal accuracy with reference (``lexical``, the default, ``hybrid``
            or ``embedding``); the LLM judge judges goals itself.
        **judge_options: Passed to the registry when ``judge`` is a name.

    Returns:
        The evaluation result, ready for :func:`aggregate`.

    Raises:
        DataError: no valid conversation.
        JudgeConfigError: the judge cannot be built.
    """
    from agentic_core.judges.registry import DEFAULT_JUDGE, build_judge

    start = time.perf_counter()
    conversations, report = _as_conversations(data)
    if judge is None or isinstance(judge, str):
        judge = build_judge(judge or DEFAULT_JUDGE, **judge_options)

    items = judge_items(conversations)
    if cache is None and cache_mode != "off" and judge.cacheable:
        cache = JudgeCache()
    # Offline judges are bounded CPU work: pause the collector during it too. LLM runs can
    # last minutes and create cyclic garbage (asyncio), so the collector stays on for them.
    with gc_paused(judge.identity.kind != "llm"):
        run = run_judge_sync(judge, items, cache=cache, cache_mode=cache_mode, progress=progress)
    cut = _cut_texts(conversations)
    if cut:
        run.warnings.append(
            f"{cut:,} interaction(s) have a query, answer or ground truth longer than {MAX_JUDGED_CHARS:,} characters: "
            f"the judge read the first {MAX_JUDGED_CHARS:,} of each (marked in the text it was given); the full "
            "texts are kept in the results."
        )
    result = assemble(conversations, run, float(judge.recommended_threshold), report)
    if metrics:
        from agentic_core.agentic_metrics.compute import compute_agentic_metrics

        result.agentic = compute_agentic_metrics(
            conversations, judge, metrics=metrics, cache=cache, cache_mode=cache_mode, goal_judge=goal_judge
        )
    result.elapsed_s = time.perf_counter() - start
    return result


def assemble(
    conversations: list[Conversation],
    run: JudgeRun,
    recommended_threshold: float,
    report: LoadReport | None = None,
) -> EvaluationResult:
    """Build the evaluation result from conversations and their verdicts: tool scoring and the tables.

    What :func:`evaluate` does after judging; also how a stored run is reopened (its verdicts come
    from the store, so no judge is called). Tool scoring is deterministic and takes about a second
    per 100k interactions.

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
    sizes = np.fromiter((len(c.conversation) for c in conversations), dtype=np.int64, count=len(conversations))
    conv_index = np.repeat(np.arange(len(conversations), dtype=np.int64), sizes)
    positions = np.concatenate([np.arange(s, dtype=np.int64) for s in sizes]) if len(sizes) else sizes
    interactions = [i for c in conversations for i in c.conversation]
    if len(run.verdicts) != len(interactions):
        raise DataError(
            "verdicts",
            f"must hold one verdict per interaction ({len(interactions)})",
            len(run.verdicts),
            "judge the same conversations the verdicts belong to",
        )

    with gc_paused():
        components = [score_tools(i.agentic, i.ground_truth_agentic, i.assistant) for i in interactions]
    tool_arrays = components_matrix(components)

    task_keys_per_conv = [c.task_key() for c in conversations]
    codes, uniques = pd.factorize(pd.Series(task_keys_per_conv, dtype="object"), sort=True)
    session_ids = [c.session_id for c in conversations]
    verdicts = run.verdicts

    def per_interaction(values: list[str]) -> np.ndarray | list[str]:
        return np.asarray(values, dtype=object)[conv_index] if len(conv_index) else []

    frame = pd.DataFrame(
        {
            "conv": conv_index,
            "position": positions,
            "session_id": per_interaction(session_ids),
            "assistant_id": per_interaction([c.assistant_id for c in conversations]),
            "task_key": per_interaction(task_keys_per_conv),
            "qa_id": [i.qa_id for i in interactions],
            "query": [i.query for i in interactions],
            "answer": [i.assistant for i in interactions],
            "ground_truth": [i.ground_truth_assistant for i in interactions],
            "score": np.array([np.nan if v.score is None else v.score for v in verdicts], dtype=float),
            "judge_status": [v.status for v in verdicts],
            "judge_reasoning": [v.reasoning for v in verdicts],
            "judge_error": [v.error for v in verdicts],
            "tool_applicable": tool_arrays["applicable"],
        }
    )
    for name in ("selection", "selection_ignore_extra", "parameters", "sequence", "utilization"):
        frame[f"tool_{name}"] = tool_arrays[name]
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
    )
