"""The planner's human labels: how many labelled tasks give the corrected estimate the target half-width.

Drawn under the planner's tasks x attempts answer (:mod:`ui.planner_view`); the numbers are
:func:`agentic_core.stats.labels_needed`'s, with the judge's agreement measured on the run's labels when it has
them (``Aggregate.corrected``), else stated here, and the judge's abstention rate (the share of calls expected
back unscored).
"""

from __future__ import annotations

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import Aggregate
from agentic_core.settings import AggregateSettings
from agentic_core.stats import Requirement, TaskPopulation, labels_needed
from ui.format import md_text

MIN_TASKS = 20  # the corrected estimate needs 20 labelled tasks (stats.corrected_curve's minimum)


def _agreement(agg: Aggregate, key: str) -> tuple[float, float, str]:
    """(sensitivity, specificity, where they come from): measured on the run's labels, else stated."""
    reading = agg.corrected
    if reading is not None and reading.sensitivity is not None and reading.specificity is not None:
        words = f"measured on this run's {reading.n_labelled:,} labelled conversations"
        return reading.sensitivity, reading.specificity, words
    left, right = st.columns(2)
    stated = " (stated: this run has no labels)"
    sens = left.number_input("Judge sensitivity", 0.5, 1.0, 0.8, 0.01, key=f"{key}_sens",
                             help="Share of right answers the judge passes" + stated)  # fmt: skip
    spec = right.number_input("Judge specificity", 0.5, 1.0, 0.8, 0.01, key=f"{key}_spec",
                              help="Share of wrong answers the judge fails" + stated)  # fmt: skip
    return float(sens), float(spec), "stated (this run has no human labels yet)"


def render_label_plan(
    agg: Aggregate,
    settings: AggregateSettings,
    population: TaskPopulation,
    best: Requirement | None,
    *,
    metric: str,
    k: int,
    half_width: float,
    abstention: float,
    key: str,
) -> None:
    """The human labels that reach ``half_width`` for the planner's cheapest tasks x attempts."""
    st.markdown("**Human labels for the corrected estimate**")
    sens, spec, source = _agreement(agg, key)
    if best is None or best.tasks is None:
        st.caption("No tasks x attempts reach the target: no label plan.")
        return
    if best.tasks < MIN_TASKS:
        st.caption(f"The corrected estimate needs at least {MIN_TASKS} tasks; the plan has {best.tasks}.")
        return
    k_ = min(k, best.attempts)
    try:
        plan = labels_needed(
            sensitivity=sens,
            specificity=spec,
            tasks=best.tasks,
            half_width=half_width,
            abstention_rate=min(abstention, 0.99),
            population=population,
            attempts=best.attempts,
            metric=metric if k_ > 1 else "success rate",  # type: ignore[arg-type]
            k=k_,
            target=settings.target,
            level=settings.ci_level,
        )
    except AgenticError as exc:
        st.error(md_text(exc))
        return
    name = metric.replace("k", str(k_)) if k_ > 1 else "the success rate"
    with st.container(key=f"{key}_labels"):
        if plan.labels is None:
            st.markdown(
                f"Even labelling all **{best.tasks:,} tasks** gives ±{plan.half_width:.1%} for {name}: the judge's "
                f"errors cost more than ±{half_width:.1%} allows."
            )
        else:
            st.markdown(
                f"**{plan.labels:,} labelled tasks** (of {best.tasks:,} × {best.attempts} attempts) give the corrected "
                f"{name} ±{plan.half_width:.1%}; the labels alone would give ±{plan.half_width_labels_only:.1%}."
            )
        st.caption(
            f"Judge sensitivity {sens:.2f} and specificity {spec:.2f}, {source}; abstains on {abstention:.0%} of "
            f"calls. The judge alone would be off by {plan.judge_bias:+.1%} on average, which its own interval "
            "ignores. Label them in the **Review queue**. "
            + " ".join(md_text(note[:1].upper() + note[1:] + ".") for note in plan.notes)
        )
