"""The planner's section on the Uncertainty and Compare pages: how many tasks and attempts the next run needs.

One render function, :func:`render_planner`; the numbers are
:func:`agentic_core.stats.planner.plan_evaluation`'s (the same as ``python -m agentic_core plan``),
with the current run as the pilot when it has tasks with attempts, else assumed rates. The share of judge
calls expected back unscored starts at this run's own; a comparison's agent B is A shifted by the difference
unless described, and the plan says which.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agentic_core import AgenticError
from agentic_core.analysis import Aggregate
from agentic_core.common import GroupCols
from agentic_core.judges import DEFAULT_JUDGE, expected_unscored_share
from agentic_core.settings import AggregateSettings
from agentic_core.stats import (
    DEFAULT_ATTEMPTS,
    MAX_UNSCORED,
    Plan,
    PlanMetric,
    Requirement,
    TaskPopulation,
    pilot_population,
    plan_evaluation,
    rates_population,
    spread_limits,
)
from ui.charts import GUIDE_COLOR
from ui.format import md_text
from ui.label_planner_view import render_label_plan
from ui.memo import session_memo
from ui.theme import show_chart

MEMO_KEY = "_planner_memo"
# The chart's task axis: 10 to 5,000 tasks, evenly on a log scale.
CHART_TASKS = tuple(sorted({int(t) for t in np.rint(np.geomspace(10, 5000, 40))}))
SOURCES = {"pilot": "This run as the pilot", "rates": "Assumed rates"}
AGENT_B = {"shifted": "A shifted by the difference", "rates": "Describe B's tasks"}
METRICS: dict[PlanMetric, str] = {
    "pass^k": "pass^K (every attempt succeeds)",
    "pass@k": "pass@K (some attempt succeeds)",
}
LINE_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf")


def _pilot(agg: Aggregate) -> TaskPopulation | None:
    """The run's tasks as a pilot (``None`` when its unit of trial is not the task or it has one task)."""
    if agg.unit != "task" or len(agg.groups) < 2:
        return None
    n, c = agg.groups[GroupCols.N], agg.groups[GroupCols.C]
    key = ("pilot", tuple(n), tuple(c))
    return session_memo(MEMO_KEY, key, lambda: pilot_population(n, c, "this run"))


def _population(agg: Aggregate, key: str) -> TaskPopulation | None:
    pilot = _pilot(agg)
    options = list(SOURCES) if pilot is not None else ["rates"]
    source = st.radio("Task population", options, format_func=SOURCES.get, key=f"{key}_source", horizontal=True)
    if source == "pilot" and pilot is not None:
        return pilot
    rate = agg.success_rate.value
    mean_default = float(np.clip(rate if rate is not None else 0.6, 0.05, 0.95))
    left, right = st.columns(2)
    return _rates(left, right, key, mean_default, "Mean success rate", "Over tasks")


def _rates(
    left: DeltaGenerator, right: DeltaGenerator, key: str, mean_default: float, label: str, help_text: str
) -> TaskPopulation | None:
    """A population from a mean and a spread; the spread's box stops where the core's limits do."""
    mean = left.number_input(label, 0.01, 0.99, round(mean_default, 2), 0.01, key=f"{key}_mean", help=help_text)
    top = float(np.sqrt(mean * (1 - mean)))
    low, high = spread_limits(float(mean))
    spread = right.number_input(
        "Spread of task difficulty (sd)",
        max(0.01, math.ceil(low * 1000) / 1000),
        min(round(top - 0.005, 3), math.floor(high * 1000) / 1000),
        round(min(0.25, top / 2), 2),
        0.01,
        key=f"{key}_spread",
        help="Standard deviation of the tasks' success rates: small, tasks are alike; near "
        f"{top:.2f}, each task nearly always passes or always fails",
    )
    try:
        return rates_population(float(mean), float(spread))
    except AgenticError as exc:
        st.error(md_text(exc))
        return None


def _unscored(agg: Aggregate, key: str) -> tuple[float, str]:
    """The share of judge calls expected back unscored: this run's own by default."""
    calls = agg.counts.interactions
    measured = agg.counts.unscored_interactions / calls if calls else 0.0
    share, words = expected_unscored_share(DEFAULT_JUDGE)
    value = st.number_input(
        "Judge calls expected unscored",
        0.0,
        MAX_UNSCORED,
        round(min(measured, MAX_UNSCORED), 2),
        0.01,
        format="%.2f",
        key=f"{key}_unscored",
        help=f"A share of judge calls. This run: {measured:.0%} came back unscored; {words} ({share:.0%}). An "
        "attempt with an unscored call is left out: the plan counts the attempts lost",
    )
    same = abs(float(value) - round(min(measured, MAX_UNSCORED), 2)) < 1e-9
    return float(value), (f"this run's own: {measured:.0%} of its judge calls" if same else "given")


def plan_mean(population: TaskPopulation | None) -> float:
    """The population's mean success rate (0.6 when there is none yet)."""
    return 0.6 if population is None else population.mean()


def _requirements_table(reqs: list[Requirement], plan: Plan, compare: bool) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "attempts": [r.attempts for r in reqs],
            "tasks": [r.tasks for r in reqs],
            "judge_calls": [r.judge_calls for r in reqs],
            "per_task_sd": [r.per_task_sd for r in reqs],
            "cheapest": [
                r == (plan.cheapest_for_difference if compare else plan.cheapest_for_half_width) for r in reqs
            ],
        }
    )


def planner_figure(plan: Plan, compare: bool) -> go.Figure:
    """Half-width (or power) against tasks, one line per number of attempts, with the goal as a guide."""
    fig = go.Figure()
    for i, n in enumerate(sorted({c.attempts for c in plan.cells})):
        cells = [c for c in plan.cells if c.attempts == n]
        ys = [c.power if compare else c.half_width for c in cells]
        if all(y is None for y in ys):
            continue
        fig.add_trace(
            go.Scatter(
                x=[c.tasks for c in cells],
                y=ys,
                mode="lines",
                name=f"n = {n}",
                line={"color": LINE_COLORS[i % len(LINE_COLORS)]},
            )
        )
    goal = plan.power if compare else plan.half_width
    if goal is not None:
        fig.add_hline(y=goal, line_dash="dot", line_color=GUIDE_COLOR, annotation_text="goal")
    fig.update_layout(
        xaxis={"title": "tasks T", "type": "log"},
        yaxis={"title": "power" if compare else "interval half-width", "tickformat": ".0%"},
        legend_title_text="attempts per task",
        height=360,
        margin={"t": 30},
    )
    return fig


def render_planner(agg: Aggregate, settings: AggregateSettings, *, key: str, compare: bool = False) -> None:
    """The planner section: goal inputs, the tasks each number of attempts needs (a table) and a chart.

    Args:
        agg: The current run's aggregate (the pilot, and the default rates).
        settings: The sidebar's settings (mode, target, estimator, prior, interval level).
        key: Prefix of the section's widget keys (one per page).
        compare: Plan a comparison of two agents (power to detect a difference) rather than a half-width.
    """
    title = "Plan the comparison: how many tasks and attempts?" if compare else "Plan the next run: tasks x attempts"
    with st.expander(title, expanded=False):
        population = _population(agg, key)
        left, mid, right = st.columns(3)
        metric = left.radio("Metric", list(METRICS), format_func=METRICS.get, key=f"{key}_metric")
        k = int(mid.number_input("K", 1, 20, int(agg.k), 1, key=f"{key}_k"))
        goal_help = "e.g. 0.05: detect 5 points" if compare else "e.g. 0.05: report the value within ±5 points"
        goal = right.number_input(
            "Difference to detect" if compare else "Target half-width",
            0.005,
            0.5,
            0.05,
            0.005,
            format="%.3f",
            key=f"{key}_goal",
            help=goal_help,
        )
        power, correlation, population_b = 0.8, 0.5, None
        if compare:
            a, b = st.columns(2)
            power = a.number_input("Power", 0.5, 0.99, 0.8, 0.05, key=f"{key}_power")
            correlation = b.number_input(
                "Correlation of the agents' per-task success",
                -1.0,
                1.0,
                0.5,
                0.1,
                key=f"{key}_corr",
                help="How far the tasks hard for A are hard for B; pairing by task gains through it",
            )
            model = st.radio(
                "Agent B's tasks", list(AGENT_B), format_func=AGENT_B.get, key=f"{key}_b_model", horizontal=True
            )
            if model == "rates":
                b_left, b_right = st.columns(2)
                population_b = _rates(
                    b_left, b_right, f"{key}_b", float(np.clip(plan_mean(population) + goal, 0.05, 0.95)),
                    "B's mean success rate", "Over tasks, for agent B",
                )  # fmt: skip
                if population_b is None:
                    return
        unscored, unscored_source = _unscored(agg, key)
        if population is None:
            return
        try:
            plan = plan_evaluation(
                population,
                metric=metric,
                k=k,
                mode=settings.mode,
                target=settings.target,
                estimator=settings.estimator,
                prior=(settings.prior_a, settings.prior_b),
                level=settings.ci_level,
                tasks=CHART_TASKS,
                attempts=DEFAULT_ATTEMPTS,
                half_width=None if compare else float(goal),
                difference=float(goal) if compare else None,
                power=float(power),
                correlation=float(correlation),
                population_b=population_b,
                interactions_per_attempt=agg.counts.interactions / max(agg.counts.conversations, 1),
                unscored_share=unscored,
                unscored_source=unscored_source,
            )
        except AgenticError as exc:
            st.error(md_text(exc))
            return
        reqs = (plan.for_difference if compare else plan.for_half_width) or []
        best = plan.cheapest_for_difference if compare else plan.cheapest_for_half_width
        name = plan.metric.replace("k", str(k))
        if best is not None:
            st.markdown(
                f"**Cheapest: {best.tasks:,} tasks × {best.attempts} attempts = {best.judge_calls:,} judge calls**"
                + (" for both agents" if compare else f" for {name} within ±{goal:.1%}")
                + f" ({settings.mode}, target {settings.target}, {settings.ci_level:.0%})."
            )
        st.dataframe(
            _requirements_table(reqs, plan, compare),
            hide_index=True,
            key=f"{key}_table",
            column_config={
                "attempts": st.column_config.NumberColumn("Attempts per task n"),
                "tasks": st.column_config.NumberColumn("Tasks needed T", help="Empty: unreachable at this n"),
                "judge_calls": st.column_config.NumberColumn("Judge calls", help="T × n × interactions per attempt"),
                "per_task_sd": st.column_config.NumberColumn("SD per task", format="%.3f"),
                "cheapest": st.column_config.CheckboxColumn("Cheapest"),
            },
        )
        show_chart(planner_figure(plan, compare), key=f"{key}_chart")
        if not compare:  # how many human labels correct the judge's errors to the same half-width (issue 37)
            render_label_plan(
                agg, settings, population, plan.cheapest_for_half_width, metric=metric, k=k,
                half_width=float(goal), abstention=unscored, key=f"{key}_labels",
            )  # fmt: skip
        st.caption(
            f"Population: {md_text(plan.population)} (mean success {plan.mean_success:.1%}, spread "
            f"{plan.spread:.3f}); {name} = {plan.value:.1%}. "
            + ("" if plan.agent_b is None else md_text(plan.agent_b[0].upper() + plan.agent_b[1:] + ". "))
            + " ".join(md_text(note[0].upper() + note[1:] + ".") for note in plan.notes)
            + " The same on the command line: `python -m agentic_core plan`."
        )
