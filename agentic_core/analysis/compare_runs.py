"""Compare two evaluated runs, or two assistants of one run, task by task (docs/compare.md).

A *side* is an :class:`~agentic_core.result.EvaluationResult` under some settings, optionally
restricted to one ``assistant_id``. Its conversations are grouped by task (``task_id``, else the
tuple of the questions' ``qa_id`` s: :meth:`~agentic_core.data.schemas.Conversation.task_key`); a task's n is
its scored attempts and c its fully correct ones, exactly as the aggregate counts them (threshold,
tool requirement, unscored handling and human overrides included). Tasks both sides attempted are
*paired* and compared with :func:`~agentic_core.stats.compare.compare_counts` (success rate, pass@k
and pass^k for k = 1..K) and, per tool dimension, with
:func:`~agentic_core.stats.compare.compare_task_means` on the per-task means. Tasks only one side
attempted are listed, never dropped silently. A paired task *flipped* when most of its attempts were
correct on one side and not on the other. :func:`leaderboard_of` ranks three or more assistants.

pass@k and pass^k at a k the paired tasks do not measure (fewer than half of them have k attempts on
both sides: :func:`~agentic_core.analysis.k_evidence.k_evidence`) have no number: their rows keep their
place with ``None`` values, the sentence saying why among the notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict

from agentic_core.analysis.aggregate import aggregate, resolve_k, task_attempts, tool_overall
from agentic_core.analysis.compare_corrected import CorrectedComparison, corrected_comparison
from agentic_core.analysis.k_evidence import KEvidence, k_evidence
from agentic_core.common.frame_columns import PASS_METRICS, ConversationCols, InteractionCols, ResultCols
from agentic_core.common.wording import plural
from agentic_core.errors import DataError
from agentic_core.result import EvaluationResult
from agentic_core.settings import DIMENSIONS, AggregateSettings
from agentic_core.stats.compare import (
    JSON_FIELDS,
    MetricComparison,
    PairedComparison,
    compare_counts,
    compare_task_means,
)
from agentic_core.stats.leaderboard import Leaderboard, leaderboard

TOOL_METRICS = tuple(f"tool_{name}" for name in (*DIMENSIONS, "overall"))
"""Names of the tool-dimension rows (per-task means of each dimension, then of the overall score)."""

Change = Literal["fixed", "broken", "same", "only_a", "only_b", "unscored"]
"""What happened to a task from A to B (see :class:`TaskChange`)."""

SAME_VERDICTS_TEXT = (
    "A and B have the same verdicts: on every task the same attempts are correct, so every difference is 0 (its "
    "frequentist interval [0, 0]) and P(B > A) is not given, since neither side is ahead"
)
"""What every face says of a comparison whose sides have the same verdicts (:attr:`RunComparison.same_verdicts`)."""


@dataclass(frozen=True)
class Side:
    """One side of a comparison.

    Attributes:
        result: The evaluated run.
        settings: The aggregation settings (threshold, tool requirement, ... and the statistics, read
            from side A for both).
        label: Its name on screen and in messages (a run's name, an assistant id, ``A``).
        assistant: Only this ``assistant_id``'s conversations, or ``None`` for all of them.
        run_id: Its stored run id, if any (for links into the Explorer).
    """

    result: EvaluationResult
    settings: AggregateSettings = field(default_factory=AggregateSettings)
    label: str = "A"
    assistant: str | None = None
    run_id: str | None = None


class TaskChange(BaseModel):
    """One task's results on both sides.

    Attributes:
        task: The task key.
        a_n: A's scored attempts (0 when A did not attempt it).
        a_c: A's fully correct attempts.
        b_n: B's scored attempts.
        b_c: B's fully correct attempts.
        a_rate: A's success rate on it, or ``None``.
        b_rate: B's success rate on it, or ``None``.
        delta: b_rate - a_rate, or ``None``.
        change: ``fixed`` (most attempts wrong in A, most right in B), ``broken`` (the reverse),
            ``same``, ``only_a`` / ``only_b`` (attempted by one side), ``unscored`` (no scored attempt on
            a side).
        a_sessions: A's conversations of this task (session ids).
        b_sessions: B's conversations of this task.
    """

    model_config = ConfigDict(frozen=True)

    task: str
    a_n: int
    a_c: int
    b_n: int
    b_c: int
    a_rate: float | None
    b_rate: float | None
    delta: float | None
    change: Change
    a_sessions: tuple[str, ...] = ()
    b_sessions: tuple[str, ...] = ()


class ComparisonDocument(TypedDict):
    """``compare --json`` (:meth:`RunComparison.to_json`): its keys are a public contract."""

    a: str
    b: str
    k: int
    mode: str
    level: float
    n_paired_tasks: int
    n_excluded_tasks: int
    excluded_reason: str | None
    metrics: list[dict[str, Any]]
    tasks: list[dict[str, Any]]
    notes: list[str]
    same_verdicts: bool
    k_evidence: dict[str, Any]
    """Added: whether the paired tasks measure pass@K / pass^K (null rows beyond ``measured_up_to``, and why)."""
    corrected_difference: dict[str, Any] | None
    """Added (issue 37): B - A of the success rate corrected with human labels (null when neither run has one)."""


class RunComparison(BaseModel):
    """B compared with A over their paired tasks.

    Attributes:
        a_label: A's name.
        b_label: B's name.
        k: The largest k compared.
        paired: The statistics of the pass metrics (success rate, pass@k, pass^k).
        tools: One row per tool dimension and the overall tool score (only those that apply).
        tasks: Every task: paired ones first (flipped first), then A's and B's own.
        notes: Things to know when reading the numbers.
        k_evidence: Whether the paired tasks' attempts (the fewer of the two sides) measure pass@K / pass^K;
            the pass rows beyond its ``measured_up_to`` have ``None`` values.
        corrected: The success rate's difference corrected for the judge with human labels on shared tasks
            (:mod:`agentic_core.analysis.compare_corrected`), ``None`` when neither run has a label.
    """

    model_config = ConfigDict(frozen=True)

    a_label: str
    b_label: str
    k: int
    paired: PairedComparison
    tools: tuple[MetricComparison, ...]
    tasks: tuple[TaskChange, ...]
    k_evidence: KEvidence
    notes: tuple[str, ...] = ()
    corrected: CorrectedComparison | None = None

    @property
    def same_verdicts(self) -> bool:
        """Both sides have the same attempts and the same correct ones on every task, and nothing is unpaired.

        Then there is no difference to weigh (:data:`SAME_VERDICTS_TEXT`): every face says so instead of a
        zero difference, and the CI gate cannot find B worse.
        """
        return bool(self.tasks) and all(
            t.change not in ("only_a", "only_b") and (t.a_n, t.a_c) == (t.b_n, t.b_c) for t in self.tasks
        )

    @property
    def metrics(self) -> tuple[MetricComparison, ...]:
        """Every compared metric: the pass metrics, then the tool dimensions."""
        return (*self.paired.metrics, *self.tools)

    def flipped(self) -> list[TaskChange]:
        """The tasks that flipped (fixed or broken)."""
        return [t for t in self.tasks if t.change in ("fixed", "broken")]

    def unpaired(self) -> list[TaskChange]:
        """The tasks only one side attempted."""
        return [t for t in self.tasks if t.change in ("only_a", "only_b")]

    def to_json(self) -> ComparisonDocument:
        """The ``compare --json`` document: ``metrics`` rows, ``tasks`` rows and a few facts about both.

        ``same_verdicts`` (added in issue 36) is :attr:`same_verdicts`; ``corrected_difference`` (issue 37) is
        :attr:`corrected` as JSON, or null.
        """
        return {
            "a": self.a_label,
            "b": self.b_label,
            "k": self.k,
            "mode": self.paired.mode,
            "level": self.paired.level,
            "n_paired_tasks": self.paired.n_tasks,
            "n_excluded_tasks": self.paired.n_excluded,
            "excluded_reason": self.paired.excluded_reason,
            "metrics": [m.model_dump(mode="json", include=set(JSON_FIELDS)) for m in self.metrics],
            "tasks": [t.model_dump(mode="json") for t in self.tasks],
            "notes": list(self.notes),
            "same_verdicts": self.same_verdicts,
            "k_evidence": self.k_evidence.model_dump(mode="json"),
            "corrected_difference": None if self.corrected is None else self.corrected.as_json(),
        }


def side_tasks(side: Side) -> pd.DataFrame:
    """Per task of one side: ``n``, ``c``, ``sessions`` and the per-task mean of each tool metric.

    Raises:
        DataError: the side has no conversation (of its assistant).
    """
    result, settings = side.result, side.settings
    agg = aggregate(result, settings)
    conv = agg.conversations
    everyone = side.assistant is None
    keep = np.ones(len(conv), dtype=bool) if everyone else (conv[ConversationCols.ASSISTANT_ID] == side.assistant)
    keep = np.asarray(keep, dtype=bool)
    if not keep.any():
        known = sorted(set(result.assistant_ids()))
        raise DataError(
            side.label,
            "has no conversation" + ("" if side.assistant is None else f" of assistant {side.assistant!r}"),
            side.assistant,
            f"pick one of the run's assistants: {', '.join(known)}" if known else "evaluate some data first",
            show=side.assistant is not None,
        )
    out = task_attempts(conv[keep])
    # Tool metrics: mean over the side's applicable interactions of each task.
    arrays = result.tool_arrays
    rows = np.flatnonzero(keep[result.conv_index] & arrays["applicable"])
    columns = {
        ResultCols.TOOL_SELECTION: arrays["selection_ignore_extra" if settings.ignore_extra_tools else "selection"],
        ResultCols.TOOL_PARAMETERS: arrays["parameters"],
        ResultCols.TOOL_SEQUENCE: arrays["sequence"],
        ResultCols.TOOL_UTILIZATION: arrays["utilization"],
        InteractionCols.TOOL_OVERALL: tool_overall(result, settings),
    }
    tasks = conv[ConversationCols.TASK_KEY].astype(str).to_numpy()[result.conv_index[rows]]
    tool = pd.DataFrame({name: values[rows] for name, values in columns.items()}).groupby(tasks).mean()
    return out.join(tool, how="left")


def _change(a_n: int, a_c: int, b_n: int, b_c: int) -> Change:
    """A paired task's change: it passes on a side when most (more than half) of its attempts are correct."""
    if a_n == 0 or b_n == 0:
        return "unscored"
    a_pass, b_pass = 2 * a_c > a_n, 2 * b_c > b_n
    if a_pass == b_pass:
        return "same"
    return "fixed" if b_pass else "broken"


def _task_rows(ta: pd.DataFrame, tb: pd.DataFrame) -> list[TaskChange]:
    """Every task of either side, paired ones first (flipped first), then A's own, then B's own."""
    rows = []
    for task in sorted(set(ta.index) | set(tb.index)):
        in_a, in_b = task in ta.index, task in tb.index
        a_n, a_c = (int(ta.at[task, "n"]), int(ta.at[task, "c"])) if in_a else (0, 0)
        b_n, b_c = (int(tb.at[task, "n"]), int(tb.at[task, "c"])) if in_b else (0, 0)
        a_rate = a_c / a_n if a_n else None
        b_rate = b_c / b_n if b_n else None
        change: Change = _change(a_n, a_c, b_n, b_c) if in_a and in_b else ("only_a" if in_a else "only_b")
        rows.append(
            TaskChange(
                task=str(task), a_n=a_n, a_c=a_c, b_n=b_n, b_c=b_c, a_rate=a_rate, b_rate=b_rate,
                delta=None if a_rate is None or b_rate is None else b_rate - a_rate, change=change,
                a_sessions=tuple(ta.at[task, "sessions"]) if in_a else (),
                b_sessions=tuple(tb.at[task, "sessions"]) if in_b else (),
            )
        )  # fmt: skip
    rank = {"fixed": 0, "broken": 0, "same": 1, "unscored": 1, "only_a": 2, "only_b": 3}
    return sorted(rows, key=lambda r: rank[r.change])


def compare_sides(a: Side, b: Side) -> RunComparison:
    """Compare side B with side A over their paired tasks.

    The statistics (mode, estimator, prior, level, seed, draws, K) are side A's settings; K = ``auto``
    is resolved on the paired tasks' attempts of both sides. Each side's pass decisions use its own
    settings (e.g. its own judge's threshold).

    Args:
        a: The baseline.
        b: The candidate: delta = B - A, P(B > A).

    Returns:
        The comparison.

    Raises:
        DataError: a side has no conversation, or the sides share no task.
    """
    ta, tb = side_tasks(a), side_tasks(b)
    paired = ta.index.intersection(tb.index).sort_values()
    if paired.empty:
        raise DataError(
            f"{a.label} and {b.label}",
            "share no task (tasks are matched by task_id, else by the questions' qa_id values)",
            f"{plural(len(ta), 'task')} and {plural(len(tb), 'task')}",
            "compare runs of the same dataset, or give the conversations task_id values",
        )
    s = a.settings
    n_a, c_a = ta.loc[paired, "n"].to_numpy(np.int64), ta.loc[paired, "c"].to_numpy(np.int64)
    n_b, c_b = tb.loc[paired, "n"].to_numpy(np.int64), tb.loc[paired, "c"].to_numpy(np.int64)
    k, _ = resolve_k(np.minimum(n_a, n_b), s)
    stats_options: dict[str, Any] = {"level": s.ci_level, "seed": s.seed, "n_samples": s.n_samples}
    pairs = compare_counts(
        n_a, c_a, n_b, c_b, list(range(1, k + 1)), mode=s.mode, estimator=s.estimator, prior=s.prior, **stats_options
    )
    evidence = k_evidence(np.minimum(n_a, n_b), k, s.mode, s.estimator)
    pairs = _measured_rows(pairs, evidence)
    tools = []
    for name in TOOL_METRICS:
        x, y = ta.loc[paired, name].to_numpy(float), tb.loc[paired, name].to_numpy(float)
        if (~np.isnan(x) & ~np.isnan(y)).any():
            tools.append(compare_task_means(x, y, metric=name, **stats_options))
    tasks = _task_rows(ta, tb)
    notes = list(pairs.notes)
    only_a = sum(t.change == "only_a" for t in tasks)
    only_b = sum(t.change == "only_b" for t in tasks)
    if only_a or only_b:
        notes.append(
            f"{plural(only_a, 'task')} only in {a.label} and {plural(only_b, 'task')} only in {b.label} are not "
            "compared (listed with the tasks)"
        )
    if pairs.excluded_reason:
        notes.append(pairs.excluded_reason)
    if not evidence.measured:
        notes.append(evidence.sentence)
    if s.target != "population":
        notes.append("a comparison is always about the task population: the target setting does not apply to it")
    if tools and s.mode == "bayesian":
        notes.append("tool dimensions are compared with the paired bootstrap in either mode (they are not pass counts)")
    corrected = corrected_comparison(
        a.result, a.settings, b.result, b.settings, assistant_a=a.assistant, assistant_b=b.assistant
    )
    comparison = RunComparison(
        a_label=a.label, b_label=b.label, k=k, paired=pairs, tools=tuple(tools), tasks=tuple(tasks),
        notes=tuple(dict.fromkeys(notes)), k_evidence=evidence, corrected=corrected,
    )  # fmt: skip
    if comparison.same_verdicts:  # said first, in every face that prints the notes
        return comparison.model_copy(update={"notes": (SAME_VERDICTS_TEXT, *comparison.notes)})
    return comparison


def _measured_rows(pairs: PairedComparison, evidence: KEvidence) -> PairedComparison:
    """The comparison with no number for pass@k / pass^k at a k the paired tasks do not measure."""
    if evidence.measured:
        return pairs
    blank = dict.fromkeys(("a", "b", "delta", "delta_ci", "p_b_better", "a_ci", "b_ci"))
    rows = tuple(
        m.model_copy(update=blank) if m.metric in PASS_METRICS[1:] and (m.k or 1) > evidence.measured_up_to else m
        for m in pairs.metrics
    )
    return pairs.model_copy(update={"metrics": rows})



def leaderboard_of(
    result: EvaluationResult,
    settings: AggregateSettings,
    assistants: list[str] | None = None,
    metric: str = "success_rate",
    k: int | None = None,
) -> Leaderboard:
    """Rank the assistants of one run over the tasks every one of them attempted.

    Args:
        result: The evaluated run.
        settings: Aggregation settings (statistics included).
        assistants: Which assistants (default: all of the run's).
        metric: ``success_rate``, ``pass_at_k`` or ``pass_pow_k``.
        k: The k of pass@k / pass^k (default: K = ``auto`` resolved on the shared tasks, else the setting).

    Raises:
        DataError: fewer than two assistants, no task they all attempted, or pass@k / pass^k asked at a k
            their shared tasks do not measure (too few attempts per task).
    """
    names = assistants or sorted(set(result.assistant_ids()))
    if len(names) < 2:
        raise DataError("assistants", "a leaderboard needs two or more assistants", names, "evaluate several agents")
    tables = [side_tasks(Side(result, settings, label=name, assistant=name)) for name in names]
    shared = tables[0].index
    for table in tables[1:]:
        shared = shared.intersection(table.index)
    if shared.empty:
        raise DataError("assistants", "attempted no task in common", names, "evaluate them on the same tasks")
    shared = shared.sort_values()
    n = [t.loc[shared, "n"].to_numpy(np.int64) for t in tables]
    c = [t.loc[shared, "c"].to_numpy(np.int64) for t in tables]
    fewest = np.min(np.stack(n), axis=0)
    if k is None:
        k, _ = resolve_k(fewest, settings)
    evidence = k_evidence(fewest, k, settings.mode, settings.estimator)
    if metric in PASS_METRICS[1:] and not evidence.measured:
        raise DataError(
            f"the leaderboard by {metric} at k = {k}", f"is not measured: {evidence.reason.rstrip('.')}", None,
            "rank by the success rate, or evaluate every assistant several times on each task", show=False,
        )  # fmt: skip
    return leaderboard(
        n, c, names, metric=metric, k=k, mode=settings.mode, estimator=settings.estimator, prior=settings.prior,
        level=settings.ci_level, seed=settings.seed, n_samples=settings.n_samples,
    )  # fmt: skip
