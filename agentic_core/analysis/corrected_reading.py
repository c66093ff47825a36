"""The headline corrected for the judge's errors by human labels: what every face shows beside the judge-only one.

:func:`corrected_reading` turns one aggregation (its interaction table, under the settings' threshold, band
and tool rules) and a run's human labels into the inputs of :func:`agentic_core.stats.corrected_curve`:

- **the judge's value of each conversation** (P(every interaction right)): per interaction 1 / 0 for a verdict
  (the answer reaches the threshold and, when the settings require it, tool use is correct), the judge's
  probability for an item it abstained on, nothing (NaN) for a judge failure; per conversation their product,
  0 when any interaction is 0 whatever the others say. A person's override is *not* the judge: the judge's
  own verdict is what the labels correct;
- **the human label of each conversation**: a label on the whole conversation, else 0 when one of its labelled
  interactions is wrong, 1 when every interaction is labelled right, nothing when only some are labelled right;
- **the design**: labels from the review queue say how their items were drawn; labels from the data or a file do
  not, and are read as a uniform random sample of tasks (every face says so).

Nothing is silently dropped: a label that matches no conversation of the run, or names a session id shared by
several conversations without an assistant id, is counted and named in :attr:`CorrectedReading.unmatched`.
Labels never re-judge: adding one re-aggregates (this module reads the aggregation's columns).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict

from agentic_core import stats
from agentic_core.common.frame_columns import InteractionCols, ResultCols
from agentic_core.common.wording import plural
from agentic_core.data.labels import HumanLabel
from agentic_core.stats.corrected_models import Design

if TYPE_CHECKING:
    import pandas as pd

    from agentic_core.analysis.k_evidence import KEvidence
    from agentic_core.result import EvaluationResult
    from agentic_core.settings import AggregateSettings, Unit

_UNMATCHED_SHOWN = 5


class Aggregated(Protocol):
    """What this module reads of an :class:`~agentic_core.analysis.aggregate.Aggregate`.

    A protocol rather than the class: the aggregation imports this module (``Aggregate.corrected``), so naming the
    class here would tie the two modules in a circle.
    """

    settings: AggregateSettings
    unit: Unit
    k: int
    k_evidence: KEvidence
    interactions: pd.DataFrame


class CorrectedValue(BaseModel):
    """One metric corrected for the judge: the estimate and its interval (``None`` when not computable).

    Attributes:
        estimate: The corrected value, or ``None`` (too few labels, or the data does not measure it).
        ci: ``(low, high)`` at the settings' level, or ``None``.
        labels_only: The same metric from the labels alone (lambda = 0), for comparison.
        labels_only_ci: Its interval.
    """

    model_config = ConfigDict(frozen=True)

    estimate: float | None
    ci: tuple[float, float] | None
    labels_only: float | None = None
    labels_only_ci: tuple[float, float] | None = None


class CorrectedReading(BaseModel):
    """The headline corrected with human labels, with what it rests on.

    Attributes:
        k: The K of pass@K / pass^K (the aggregation's).
        success_rate: The corrected success rate.
        pass_at_k: The corrected pass@K (``None`` when the data does not measure K: one attempt per task).
        pass_pow_k: The corrected pass^K (likewise).
        method: How the numbers were made, in words (estimator, design, interval).
        design: ``tasks`` or ``attempts``: how the labelled items were drawn.
        design_said: Whether the labels themselves say how they were drawn (queue labels do; data and file
            labels do not, and are read as a random sample of tasks).
        n_labels: Label records given (before matching).
        n_labelled: Conversations with a human label.
        n_labelled_tasks: Tasks the estimate's labels rest on.
        n_conversations: Conversations of the run (every one counts, none left out).
        n_tasks: Tasks of the run.
        sensitivity: The judge's measured sensitivity on the labels (share of right items it passes).
        sensitivity_ci: Its Wilson interval.
        specificity: The judge's measured specificity (share of wrong items it fails).
        specificity_ci: Its Wilson interval.
        unmatched: How many labels match no conversation (or an ambiguous one) of the run.
        unmatched_examples: A few of them, as ``session_id[/assistant_id][#qa_id]`` and why.
        notes: What to know when reading the numbers.
        curve: The whole corrected curve (k = 1 and K) from :func:`agentic_core.stats.corrected_curve`.
    """

    model_config = ConfigDict(frozen=True)

    k: int
    success_rate: CorrectedValue
    pass_at_k: CorrectedValue | None
    pass_pow_k: CorrectedValue | None
    method: str
    design: Design
    design_said: bool
    n_labels: int
    n_labelled: int
    n_labelled_tasks: int
    n_conversations: int
    n_tasks: int
    sensitivity: float | None
    sensitivity_ci: tuple[float, float] | None
    specificity: float | None
    specificity_ci: tuple[float, float] | None
    unmatched: int = 0
    unmatched_examples: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    curve: stats.CorrectedCurve | None = None

    def as_json(self) -> dict[str, Any]:
        """The ``corrected`` block of ``evaluate --json``, ``runs show --json`` and the endpoint's response.

        Per metric (``success_rate``, ``pass_at_k``, ``pass_pow_k``; null when not measured) its ``estimate``,
        ``ci``, ``labels_only`` and ``labels_only_ci``; then ``k``, ``method``, ``design``, ``design_said``, the
        label counts, the judge's ``sensitivity`` / ``specificity`` with their intervals, ``notes`` and the
        ``unmatched`` labels (with ``unmatched_examples``). Built here once, so every face prints the same.
        """
        document = self.model_dump(mode="json", exclude={"curve"})
        for metric in ("success_rate", "pass_at_k", "pass_pow_k"):
            value = document[metric]
            if value is not None:
                document[metric] = {key: value[key] for key in ("estimate", "ci", "labels_only", "labels_only_ci")}
        return document

    def summary(self) -> str:
        """One line: ``corrected with N human labels on T tasks``, and the judge's measured agreement."""
        agree = ""
        if self.sensitivity is not None and self.specificity is not None:
            agree = f"; judge sensitivity {self.sensitivity:.2f}, specificity {self.specificity:.2f}"
        return (
            f"corrected with {plural(self.n_labelled, 'human label')} on {plural(self.n_labelled_tasks, 'task')} "
            f"({self.design} design{'' if self.design_said else ', assumed random'}){agree}"
        )


def data_labels(result: EvaluationResult) -> list[HumanLabel]:
    """The ``human_label`` values the data itself carries, as labels of source ``data`` (design not said)."""
    human, _ = result.human_values()
    if not any(v is not None for v in human):
        return []
    frame = result.interactions
    sessions = frame[ResultCols.SESSION_ID].astype(str).tolist()
    assistants = frame[ResultCols.ASSISTANT_ID].astype(str).tolist()
    qa_ids = frame[ResultCols.QA_ID].astype(str).tolist()
    ambiguous = _ambiguous_sessions(result)
    return [
        HumanLabel(
            session_id=sessions[row],
            assistant_id=assistants[row] if sessions[row] in ambiguous else None,
            qa_id=qa_ids[row],
            label=1 if value else 0,
            source="data",
            design="unknown",
            labelled_at=0.0,
        )
        for row, value in enumerate(human)
        if value is not None
    ]


def merged_labels(*groups: Iterable[HumanLabel]) -> list[HumanLabel]:
    """Labels from several places, one per item: a later group, then a later label, replaces an earlier one."""
    chosen: dict[tuple[str, str, str], HumanLabel] = {}
    for group in groups:
        for label in sorted(group, key=lambda lab: lab.labelled_at):
            chosen[label.key] = label
    return list(chosen.values())


def run_labels(result: EvaluationResult) -> list[HumanLabel]:
    """A run's labels: the data's own ``human_label`` values, then the stored ones (which replace them)."""
    return merged_labels(data_labels(result), result.labels)


def _ambiguous_sessions(result: EvaluationResult) -> set[str]:
    seen: set[str] = set()
    twice: set[str] = set()
    for sid in result.session_ids:
        (twice if sid in seen else seen).add(sid)
    return twice


def judge_values(result: EvaluationResult, agg: Aggregated) -> np.ndarray:
    """Per conversation, the judge's P(every interaction right) under the settings; NaN for a judge failure."""
    rows = agg.interactions
    settings = agg.settings
    score = rows[InteractionCols.SCORE].to_numpy(dtype=float)
    probability = rows[InteractionCols.JUDGE_PROBABILITY].to_numpy(dtype=float)
    tool_ok = np.ones(len(rows), dtype=bool)
    if settings.require_tool_correctness:
        applicable = result.tool_arrays["applicable"].astype(bool)
        tool_ok = ~applicable | rows[InteractionCols.TOOL_CORRECT].to_numpy(dtype=bool)
    # The threshold's verdict as the aggregation decided it (its passes_threshold column): one rule, one home.
    passes = rows[InteractionCols.PASSES_THRESHOLD].to_numpy(dtype=bool)
    value = np.where(np.isfinite(score), passes.astype(float), probability)
    value = np.where(tool_ok, value, 0.0)  # wrong tool use fails the interaction whatever the answer
    conv = result.conv_index
    n_conv = result.n_conversations
    zero = np.bincount(conv, weights=value == 0.0, minlength=n_conv) > 0
    missing = np.bincount(conv, weights=np.isnan(value), minlength=n_conv) > 0
    with np.errstate(divide="ignore"):
        logs = np.where(np.isfinite(value) & (value > 0.0), np.log(np.where(value > 0.0, value, 1.0)), 0.0)
    product = np.exp(np.bincount(conv, weights=logs, minlength=n_conv))
    return np.where(zero, 0.0, np.where(missing, np.nan, product))


class MatchedLabels(BaseModel):
    """Per conversation of a run, its human label (NaN when none), inclusion probability and design, and the
    labels that match nothing.

    ``label_conv`` and ``label_why`` go label by label (in the order given): the conversation each label matched
    (-1 for none) and why it matched none (``""`` when it matched), for a face that reports labels against two
    runs (``compare --labels``).
    """

    human: list[float]
    inclusion_by_conv: list[float]
    designs: list[str]
    unmatched: int
    unmatched_examples: list[str]
    partial: int
    label_conv: list[int] = []
    label_why: list[str] = []


def label_name(label: HumanLabel) -> str:
    """A label's item as the unmatched examples name it: ``session_id[/assistant_id][#qa_id]``."""
    name = label.session_id + (f"/{label.assistant_id}" if label.assistant_id else "")
    return name + (f"#{label.qa_id}" if label.qa_id else "")


def match_labels(result: EvaluationResult, labels: Sequence[HumanLabel]) -> MatchedLabels:
    """Each label to its conversation (and interaction); per conversation, its human label (NaN when none)."""
    n_conv = result.n_conversations
    by_session: dict[str, list[int]] = {}
    for i, sid in enumerate(result.session_ids):
        by_session.setdefault(sid, []).append(i)
    assistants = result.assistant_ids()
    frame = result.interactions
    qa_ids = frame[ResultCols.QA_ID].astype(str).to_numpy()
    starts, ends = result.conversation_bounds()
    whole = np.full(n_conv, np.nan)
    wrong = np.zeros(n_conv, dtype=bool)
    right_rows = np.zeros(len(frame), dtype=bool)
    inclusion = np.full(n_conv, np.nan)
    designs = [""] * n_conv
    unmatched: list[str] = []
    label_conv = [-1] * len(labels)
    label_why = [""] * len(labels)
    for i, label in enumerate(labels):
        convs = by_session.get(label.session_id, [])
        if label.assistant_id is not None:
            convs = [c for c in convs if assistants[c] == label.assistant_id]
        if len(convs) != 1:
            label_why[i] = (
                "no such conversation" if not convs else "session id of several conversations: give assistant_id"
            )
            unmatched.append(f"{label_name(label)} ({label_why[i]})")
            continue
        c = convs[0]
        if label.qa_id is None:
            whole[c] = float(label.label)
        else:
            hits = np.flatnonzero(qa_ids[starts[c] : ends[c]] == label.qa_id)
            if hits.size == 0:
                label_why[i] = "no interaction with this qa_id in the conversation"
                unmatched.append(f"{label_name(label)} ({label_why[i]})")
                continue
            if label.label:
                right_rows[starts[c] + hits] = True
            else:
                wrong[c] = True
        label_conv[i] = c
        if label.inclusion is not None:
            inclusion[c] = label.inclusion
        designs[c] = designs[c] or label.design
    n_right = np.bincount(result.conv_index, weights=right_rows, minlength=n_conv)
    n_rows = ends - starts
    from_rows = np.where(wrong, 0.0, np.where(n_right == n_rows, 1.0, np.nan))
    human = np.where(np.isfinite(whole), whole, from_rows)
    partial = int(np.sum(np.isnan(human) & (n_right > 0)))
    return MatchedLabels(
        human=human.tolist(),
        inclusion_by_conv=inclusion.tolist(),
        designs=designs,
        unmatched=len(unmatched),
        unmatched_examples=unmatched[:_UNMATCHED_SHOWN],
        partial=partial,
        label_conv=label_conv,
        label_why=label_why,
    )


def labels_design(
    matched: MatchedLabels, task_codes: np.ndarray, n_tasks: int
) -> tuple[Design, np.ndarray | None, bool, list[str]]:
    """The design the labelled conversations were drawn by, the inclusion probabilities, whether it was said."""
    human = np.asarray(matched.human)
    labelled = np.flatnonzero(np.isfinite(human))
    said = {matched.designs[i] for i in labelled}
    notes: list[str] = []
    if said == {"random-attempts"}:
        pi = np.asarray(matched.inclusion_by_conv)
        return "attempts", (pi if np.isfinite(pi[labelled]).all() and labelled.size else None), True, notes
    if said == {"uncertain-first"}:
        per_task = np.full(n_tasks, np.nan)
        pi = np.asarray(matched.inclusion_by_conv)
        per_task[task_codes[labelled]] = pi[labelled]
        if np.isfinite(per_task[task_codes[labelled]]).all():
            return "tasks", per_task, True, notes
        notes.append("some 'uncertain first' labels carry no inclusion probability: read as a uniform sample")
        return "tasks", None, True, notes
    if said == {"random-tasks"}:
        return "tasks", None, True, notes
    if len(said) > 1:
        notes.append(
            "the labels come from different designs (" + ", ".join(sorted(said)) + "): read together as a uniform "
            "random sample of tasks; label from one queue design for an unbiased estimate"
        )
        return "tasks", None, False, notes
    if labelled.size:
        notes.append(
            "the labels do not say how their items were chosen (data or file): read as a uniform random sample of "
            "tasks; a hand-picked set of labels biases the corrected estimate"
        )
    return "tasks", None, False, notes


def _value(point: stats.CorrectedPoint, labels_only: stats.CorrectedPoint, metric: str) -> CorrectedValue:
    return CorrectedValue(
        estimate=getattr(point, metric),
        ci=getattr(point, f"{metric}_ci"),
        labels_only=getattr(labels_only, metric),
        labels_only_ci=getattr(labels_only, f"{metric}_ci"),
    )


def corrected_reading(
    result: EvaluationResult, agg: Aggregated, labels: Sequence[HumanLabel] | None = None
) -> CorrectedReading | None:
    """The aggregation's headline corrected for the judge's errors with human labels.

    Args:
        result: The evaluated run.
        agg: Its aggregation under the settings (threshold, band, tools, K, mode, target, level).
        labels: The run's labels; ``None`` reads the data's own ``human_label`` values and ``result.labels``.

    Returns:
        The :class:`CorrectedReading`, or ``None`` when there is no label at all.
    """
    if labels is None:
        labels = run_labels(result)
    if not labels:
        return None
    matched = match_labels(result, labels)
    task_level = agg.unit == "task"
    n_conv = result.n_conversations
    task_codes = result.task_codes.astype(np.int64) if task_level else np.arange(n_conv, dtype=np.int64)
    n_tasks = len(result.task_keys) if task_level else n_conv
    design, inclusion, said, notes = labels_design(matched, task_codes, n_tasks)
    if not task_level:
        notes.append("no task has 2 or more attempts: every conversation is its own task (k = 1 only)")
    measured = agg.k_evidence.measured and task_level and agg.k > 1
    ks = [1, agg.k] if measured else [1]
    settings = agg.settings
    curve = stats.corrected_curve(
        judge_values(result, agg),
        np.asarray(matched.human),
        task_codes,
        ks,
        design=design,
        inclusion=inclusion,
        mode=settings.mode,
        target=settings.target,
        level=settings.ci_level,
        seed=settings.seed,
    )
    if matched.partial:
        notes.append(
            f"{plural(matched.partial, 'conversation')} with only some interactions labelled right: not counted as "
            "labelled (label every interaction, or the whole conversation)"
        )
    if matched.unmatched:
        notes.append(f"{plural(matched.unmatched, 'label')} matched no conversation of the run (see unmatched)")
    first, last = curve.points[0], curve.points[-1]
    only_first, only_last = curve.human_only[0], curve.human_only[-1]
    return CorrectedReading(
        k=agg.k,
        success_rate=_value(first, only_first, "success_rate"),
        pass_at_k=_value(last, only_last, "pass_at_k") if measured else None,
        pass_pow_k=_value(last, only_last, "pass_pow_k") if measured else None,
        method=curve.method,
        design=curve.design,
        design_said=said,
        n_labels=len(labels),
        n_labelled=curve.n_labelled,
        n_labelled_tasks=curve.n_labelled_tasks,
        n_conversations=n_conv,
        n_tasks=curve.n_tasks,
        sensitivity=curve.agreement.sensitivity,
        sensitivity_ci=curve.agreement.sensitivity_ci,
        specificity=curve.agreement.specificity,
        specificity_ci=curve.agreement.specificity_ci,
        unmatched=matched.unmatched,
        unmatched_examples=tuple(matched.unmatched_examples),
        notes=(*notes, *curve.notes),
        curve=curve,
    )
