"""The planner's labels (issue 37 §3): for each way the plan reaches its half-width, the human labels the corrected
estimate needs to reach it too, given the judge's agreement and how often it abstains.

A pure function over a :class:`~agentic_core.stats.planner.Plan`: for each of its ``for_half_width`` requirements
(the fewest tasks at n attempts), :func:`~agentic_core.stats.label_plan.labels_needed` on those tasks and attempts,
with the plan's population (mean and spread), metric, k, target and level. Its coverage and the half-widths it
promises are checked by simulation (``benchmarks/bench_ppi_coverage.py``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from agentic_core.errors import SettingsError
from agentic_core.stats.corrected_intervals import MIN_LABELLED
from agentic_core.stats.label_plan import LabelPlan, labels_needed
from agentic_core.stats.planner import Plan


class PlanLabelRow(BaseModel):
    """Labels for one (tasks, attempts) choice of the plan.

    Attributes:
        attempts: Attempts per task n.
        tasks: Tasks T the plan needs at n for its half-width (at least :data:`MIN_LABELLED`).
        plan: What :func:`labels_needed` says (``labels`` None: even labelling every task does not reach it).
    """

    model_config = ConfigDict(frozen=True)

    attempts: int
    tasks: int
    plan: LabelPlan


class PlanLabels(BaseModel):
    """The labels the plan needs for its half-width with the corrected estimate.

    Attributes:
        sensitivity: The judge's sensitivity assumed.
        specificity: Its specificity.
        abstention_rate: Share of attempts it abstains on (1 - the plan's scored attempt share).
        agreement: Where the agreement comes from, in words.
        rows: One per reachable ``for_half_width`` requirement.
        notes: What to know.
    """

    model_config = ConfigDict(frozen=True)

    sensitivity: float
    specificity: float
    abstention_rate: float
    agreement: str
    rows: list[PlanLabelRow]
    notes: tuple[str, ...] = ()


def plan_labels(plan: Plan, *, sensitivity: float, specificity: float, agreement: str) -> PlanLabels | None:
    """Human labels each half-width requirement of ``plan`` needs (``None`` when the plan has no half-width goal).

    Args:
        plan: The planner's answer (with ``half_width``).
        sensitivity: The judge's P(says right | right), measured on labels or stated.
        specificity: Its P(says wrong | wrong).
        agreement: Where the two come from, in words (said with the numbers).

    Raises:
        SettingsError: a sensitivity or specificity outside [0, 1].
    """
    if plan.half_width is None or plan.for_half_width is None:
        return None
    abstain = min(max(1.0 - plan.scored_attempt_share, 0.0), 1.0)
    metric = "success rate" if plan.k == 1 else plan.metric
    rows, notes = [], []
    for need in plan.for_half_width:
        if need.tasks is None:
            continue
        tasks = max(need.tasks, MIN_LABELLED)
        try:
            label_plan = labels_needed(
                sensitivity=sensitivity, specificity=specificity, tasks=tasks, half_width=plan.half_width,
                abstention_rate=abstain, success_rate=plan.mean_success, spread=plan.spread, attempts=need.attempts,
                metric=metric, k=plan.k, target=plan.target, level=plan.level,
            )  # fmt: skip
        except SettingsError as err:
            if err.place in ("sensitivity", "specificity"):
                raise
            notes.append(f"n = {need.attempts}: {err.rule}")
            continue
        rows.append(PlanLabelRow(attempts=need.attempts, tasks=tasks, plan=label_plan))
    return PlanLabels(
        sensitivity=sensitivity, specificity=specificity, abstention_rate=abstain, agreement=agreement, rows=rows,
        notes=tuple(notes),
    )  # fmt: skip
