"""The review queue: which items a person labels, in which order, so the corrected headline stays unbiased.

A queue is drawn from the run's tasks (:mod:`agentic_core.stats.label_sample`), never hand-picked:

- ``random-tasks`` (the default): a seeded random sample of tasks, every attempt (and every interaction) of a
  drawn task queued; its labels say ``design="random-tasks"``;
- ``uncertain-first``: a weighted Poisson sample favouring tasks whose items the judge left without a verdict;
  each label carries its task's inclusion probability (``design="uncertain-first"``, ``inclusion=pi``), and
  the corrected estimate weights it by 1 / pi.

Its size is what the label planner (:func:`agentic_core.stats.labels_needed`) asks for to reach a half-width,
never below the 20 labelled tasks a corrected value needs. The judge's agreement it plans with is measured on
the labels given *outside* the queue (data, file), else stated (sensitivity and specificity 0.8 by default):
labels given in the queue never resize it, so the queue (and the probabilities its labels carry) stays the same
as a person labels, and on every reload for the same seed. Items already labelled are not asked again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core import stats
from agentic_core.analysis.corrected_reading import CorrectedReading, corrected_reading, data_labels, merged_labels
from agentic_core.common.frame_columns import GroupCols, InteractionCols, ResultCols
from agentic_core.common.wording import plural
from agentic_core.data.labels import HumanLabel
from agentic_core.errors import AgenticError, SettingsError
from agentic_core.stats.corrected_intervals import MIN_LABELLED
from agentic_core.stats.label_sample import draw_tasks

if TYPE_CHECKING:
    from agentic_core.analysis.aggregate import Aggregate
    from agentic_core.result import EvaluationResult

QueueDesign = Literal["random-tasks", "uncertain-first"]
QUEUE_DESIGNS: dict[QueueDesign, str] = {
    "random-tasks": "Random tasks (default)",
    "uncertain-first": "Uncertain first (weighted by 1 / inclusion probability)",
}
DEFAULT_SENSITIVITY = 0.8
"""The judge's sensitivity the queue plans with when no label outside the queue measures it."""
DEFAULT_SPECIFICITY = 0.8
"""Likewise its specificity."""
DEFAULT_HALF_WIDTH = 0.05
"""The half-width the queue's size aims at unless another is asked for."""
UNCERTAIN_FLOOR = 0.25
"""An uncertain-first weight is this plus the task's share of items without a verdict: a task with every item
undecided is five times as likely to be drawn as one with none, and every task keeps a chance (pi > 0)."""


class QueueSize(BaseModel):
    """How many tasks the queue holds, and why.

    Attributes:
        tasks: Tasks queued (the expected number for the weighted design).
        planned: What the label planner asked for (None: even every task does not reach the half-width).
        half_width: The target half-width.
        expected_half_width: The half-width the planner expects with ``tasks`` labelled tasks.
        sensitivity: The judge's sensitivity planned with.
        specificity: Its specificity planned with.
        measured: Whether they were measured on labels given outside the queue (else stated).
        abstention_rate: The share of interactions the judge left without a verdict.
        total_tasks: Tasks of the run.
        reason: The size in words.
    """

    model_config = ConfigDict(frozen=True)

    tasks: int
    planned: int | None
    half_width: float
    expected_half_width: float | None
    sensitivity: float
    specificity: float
    measured: bool
    abstention_rate: float
    total_tasks: int
    reason: str


class QueueItem(BaseModel):
    """One item to label: an interaction of a conversation of a drawn task.

    Attributes:
        position: Its place in the queue (0-based).
        row: The interaction's row in the run's interaction table.
        conversation: Its conversation's row.
        task: The task key.
        session_id: The conversation's session id.
        assistant_id: Its assistant id when the session id alone is ambiguous, else None.
        qa_id: The interaction's ``qa_id``.
        inclusion: The task's inclusion probability (uncertain first), else None.
        label: The label given (1 / 0), or None when not labelled yet.
    """

    model_config = ConfigDict(frozen=True)

    position: int
    row: int
    conversation: int
    task: str
    session_id: str
    assistant_id: str | None
    qa_id: str | None
    inclusion: float | None
    label: int | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        """The :attr:`HumanLabel.key` a label on this item has."""
        return (self.session_id, self.assistant_id or "", self.qa_id or "")


class LabelQueue(BaseModel):
    """The queue: its design, seed, size and items, with the labels given so far.

    Attributes:
        design: ``random-tasks`` or ``uncertain-first``.
        seed: The seed the draw used.
        size: Why it holds that many tasks.
        tasks: The drawn task keys, in queue order.
        items: Every interaction of every drawn task, in queue order.
    """

    model_config = ConfigDict(frozen=True)

    design: QueueDesign
    seed: int
    size: QueueSize
    tasks: tuple[str, ...]
    items: tuple[QueueItem, ...]

    @property
    def n_labelled(self) -> int:
        """Items of the queue with a label."""
        return sum(item.label is not None for item in self.items)

    @property
    def pending(self) -> list[QueueItem]:
        """Items not labelled yet, in queue order."""
        return [item for item in self.items if item.label is None]

    def progress(self) -> str:
        """``12 of 40 labelled``."""
        return f"{self.n_labelled:,} of {len(self.items):,} labelled"

    def design_sentence(self) -> str:
        """Which design is in use, in words."""
        if self.design == "random-tasks":
            return (
                f"Random tasks: {plural(len(self.tasks), 'task')} drawn at random (seed {self.seed}), every attempt "
                "queued. Labels in any order give an unbiased corrected estimate, even if you stop early."
            )
        return (
            f"Uncertain first: {plural(len(self.tasks), 'task')} drawn with probabilities favouring tasks the judge "
            f"could not decide (seed {self.seed}); each label carries its task's probability and the corrected "
            "estimate weights it by the inverse, so it stays unbiased once the whole queue is labelled."
        )


def _task_codes(result: EvaluationResult, agg: Aggregate) -> tuple[np.ndarray, list[str]]:
    """Per conversation its task code, and the task keys (each conversation its own task when no task repeats)."""
    if agg.unit == "task":
        return result.task_codes.astype(np.int64), list(result.task_keys)
    return np.arange(result.n_conversations, dtype=np.int64), list(result.session_ids)


def _undecided(result: EvaluationResult, agg: Aggregate) -> np.ndarray:
    """Per interaction: whether the judge gave no verdict under the settings (abstained or failed)."""
    del result
    return ~np.isfinite(agg.interactions[InteractionCols.SCORE].to_numpy(dtype=float))


def queue_weights(result: EvaluationResult, agg: Aggregate) -> np.ndarray:
    """Per task, the uncertain-first weight: :data:`UNCERTAIN_FLOOR` + its share of items without a verdict."""
    codes, keys = _task_codes(result, agg)
    per_row = codes[result.conv_index]
    undecided = np.bincount(per_row, weights=_undecided(result, agg), minlength=len(keys))
    rows = np.bincount(per_row, minlength=len(keys))
    return UNCERTAIN_FLOOR + undecided / np.maximum(rows, 1)


def _pilot(agg: Aggregate) -> stats.TaskPopulation | None:
    if agg.unit != "task" or len(agg.groups) < 2:
        return None
    try:
        return stats.pilot_population(agg.groups[GroupCols.N], agg.groups[GroupCols.C], "this run")
    except AgenticError:
        return None


def queue_size(
    result: EvaluationResult,
    agg: Aggregate,
    labels: Sequence[HumanLabel] | None = None,
    *,
    half_width: float = DEFAULT_HALF_WIDTH,
    sensitivity: float | None = None,
    specificity: float | None = None,
) -> QueueSize:
    """How many tasks to queue: the label planner's answer for ``half_width``, at least 20, at most every task.

    Args:
        result: The evaluated run.
        agg: Its aggregation (settings, unit, groups).
        labels: The run's labels (None: the data's and ``result.labels``); those from the queue are not used.
        half_width: The target half-width of the corrected success rate.
        sensitivity: A stated sensitivity (None: measured on the labels outside the queue, else 0.8).
        specificity: A stated specificity (likewise).

    Raises:
        SettingsError: a half-width, sensitivity or specificity outside its range.
    """
    if labels is None:
        labels = merged_labels(data_labels(result), result.labels)
    outside = [lab for lab in labels if lab.source != "queue"]
    reading = corrected_reading(result, agg, outside) if outside else None
    measured = reading is not None and reading.sensitivity is not None and reading.specificity is not None
    sens = sensitivity if sensitivity is not None else (reading.sensitivity if measured else None)  # type: ignore[union-attr]
    spec = specificity if specificity is not None else (reading.specificity if measured else None)  # type: ignore[union-attr]
    stated = sensitivity is not None or specificity is not None or not measured
    sens = DEFAULT_SENSITIVITY if sens is None else float(sens)
    spec = DEFAULT_SPECIFICITY if spec is None else float(spec)
    _, keys = _task_codes(result, agg)
    total = len(keys)
    calls = agg.counts.interactions
    abstain = agg.counts.unscored_interactions / calls if calls else 0.0
    floor = min(MIN_LABELLED, total)
    planned: int | None = None
    expected: float | None = None
    if total >= MIN_LABELLED:
        pilot = _pilot(agg)
        rate = agg.success_rate.value
        attempts = max(1, round(float(np.median(agg.groups[GroupCols.N])))) if pilot is not None else 1
        plan = stats.labels_needed(
            sensitivity=min(max(sens, 0.0), 1.0),
            specificity=min(max(spec, 0.0), 1.0),
            tasks=total,
            half_width=half_width,
            abstention_rate=min(abstain, 0.99),
            population=pilot,
            success_rate=None if pilot is not None else float(np.clip(rate if rate is not None else 0.5, 0.02, 0.98)),
            attempts=attempts,
            target=agg.settings.target,
            level=agg.settings.ci_level,
        )
        planned, expected = plan.labels, plan.half_width
    elif not 0.0 < half_width < 1.0:
        raise SettingsError("half_width", "must be a number in (0, 1)", half_width, "give e.g. 0.05")
    tasks = max(floor, planned if planned is not None else total)
    agreement = (
        f"sensitivity {sens:.2f} and specificity {spec:.2f} "
        + ("measured on the labels given outside the queue" if not stated else "stated")
    )
    if total < MIN_LABELLED:
        reason = (
            f"every task: the run has {plural(total, 'task')}, fewer than the {MIN_LABELLED} labelled "
            "tasks a corrected value needs"
        )
    elif planned is None:
        reason = f"every task: even labelling all {total:,} does not reach ±{half_width:.1%} (judge {agreement})"
    else:
        reason = (
            f"{plural(tasks, 'task')}: the planner's number for ±{half_width:.1%} with the judge's {agreement}"
            + (f" (at least the {MIN_LABELLED} a corrected value needs)" if tasks > planned else "")
        )
    return QueueSize(
        tasks=tasks,
        planned=planned,
        half_width=half_width,
        expected_half_width=expected,
        sensitivity=sens,
        specificity=spec,
        measured=not stated,
        abstention_rate=abstain,
        total_tasks=total,
        reason=reason,
    )


def _ambiguous(result: EvaluationResult) -> set[str]:
    seen: set[str] = set()
    twice: set[str] = set()
    for sid in result.session_ids:
        (twice if sid in seen else seen).add(sid)
    return twice


def label_queue(
    result: EvaluationResult,
    agg: Aggregate,
    labels: Sequence[HumanLabel] | None = None,
    *,
    design: QueueDesign = "random-tasks",
    seed: int = 0,
    size: QueueSize | None = None,
) -> LabelQueue:
    """Draw the review queue: the items to label, in a stable order, with the labels already given.

    Args:
        result: The evaluated run.
        agg: Its aggregation.
        labels: The run's labels (None: the data's and ``result.labels``); items they label count as done.
        design: ``random-tasks`` or ``uncertain-first``.
        seed: The draw's seed (the same seed, the same queue).
        size: The queue's size (None: :func:`queue_size` with its defaults).

    Raises:
        SettingsError: an unknown design, or a run without conversations.
    """
    if design not in QUEUE_DESIGNS:
        raise SettingsError("design", "must be 'random-tasks' or 'uncertain-first'", design, "pick one")
    if result.n_conversations == 0:
        raise SettingsError("run", "has no conversation to label", 0, "evaluate data with conversations first")
    if labels is None:
        labels = merged_labels(data_labels(result), result.labels)
    if size is None:
        size = queue_size(result, agg, labels)
    codes, keys = _task_codes(result, agg)
    weights = queue_weights(result, agg) if design == "uncertain-first" else None
    draw = draw_tasks(len(keys), min(size.tasks, len(keys)), seed, weights)
    given = {lab.key: lab.label for lab in labels}
    ambiguous = _ambiguous(result)
    assistants = result.assistant_ids()
    qa_ids = result.interactions[ResultCols.QA_ID].astype(str).tolist()
    starts, ends = result.conversation_bounds()
    by_task: dict[int, list[int]] = {}
    for conv, code in enumerate(codes.tolist()):
        by_task.setdefault(code, []).append(conv)
    items: list[QueueItem] = []
    for task in draw.tasks:
        for conv in by_task.get(task, []):
            sid = result.session_ids[conv]
            assistant = assistants[conv] if sid in ambiguous else None
            for row in range(int(starts[conv]), int(ends[conv])):
                qa = qa_ids[row] or None
                key = (sid, assistant or "", qa or "")
                whole = given.get((sid, assistant or "", ""))
                items.append(
                    QueueItem(
                        position=len(items),
                        row=row,
                        conversation=conv,
                        task=keys[task],
                        session_id=sid,
                        assistant_id=assistant,
                        qa_id=qa,
                        inclusion=draw.inclusion[task] if draw.weighted else None,
                        label=given.get(key, whole),
                    )
                )
    return LabelQueue(
        design=design, seed=seed, size=size, tasks=tuple(keys[t] for t in draw.tasks), items=tuple(items)
    )


def queue_label(queue: LabelQueue, item: QueueItem, label: int) -> HumanLabel:
    """The label a person gives ``item`` of ``queue`` (source ``queue``, the queue's design and probability)."""
    return HumanLabel(
        session_id=item.session_id,
        assistant_id=item.assistant_id,
        qa_id=item.qa_id,
        label=1 if label else 0,
        source="queue",
        design=queue.design,
        inclusion=item.inclusion,
    )


class LabelGain(BaseModel):
    """How much one more labelled task narrows the corrected interval of the success rate.

    Attributes:
        labelled_tasks: Tasks labelled so far.
        half_width_now: The corrected interval's half-width now (None before 20 labelled tasks).
        half_width_next: Its expected half-width with one more labelled task.
        sentence: Both in words.
    """

    model_config = ConfigDict(frozen=True)

    labelled_tasks: int
    half_width_now: float | None
    half_width_next: float | None
    sentence: str


def label_gain(reading: CorrectedReading | None, size: QueueSize) -> LabelGain:
    """How much each label narrows the interval, from the current corrected reading (else the plan).

    With m labelled tasks the corrected interval's width is dominated by the rectifier's variance over the
    labelled tasks, which falls as 1 / m: one more labelled task multiplies the half-width by about
    sqrt(m / (m + 1)).
    """
    m = reading.n_labelled_tasks if reading is not None else 0
    ci = reading.success_rate.ci if reading is not None else None
    if ci is None or m < 1:
        need = max(MIN_LABELLED - m, 0)
        planned = (
            f"; the plan expects ±{size.expected_half_width:.1%} with {plural(size.tasks, 'labelled task')}"
            if size.expected_half_width is not None
            else ""
        )
        return LabelGain(
            labelled_tasks=m,
            half_width_now=None,
            half_width_next=None,
            sentence=f"The corrected interval appears at {MIN_LABELLED} labelled tasks: "
            f"{plural(need, 'more task')} to label{planned}.",
        )
    now = (ci[1] - ci[0]) / 2.0
    nxt = now * math.sqrt(m / (m + 1.0))
    return LabelGain(
        labelled_tasks=m,
        half_width_now=now,
        half_width_next=nxt,
        sentence=f"Each labelled task narrows the interval: ±{now:.1%} now with {plural(m, 'labelled task')}, "
        f"about ±{nxt:.1%} with one more (−{(now - nxt) * 100:.2f} points).",
    )
