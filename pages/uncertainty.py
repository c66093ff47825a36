"""Uncertainty: posterior distributions of the success rate, pass@K and pass^K, per dataset and per task."""

from __future__ import annotations

import logging

import streamlit as st

from agentic_core import AgenticError
from agentic_core.analysis import RANK_METRICS, posterior_view, rank_tasks
from agentic_core.common import GroupCols, ShrinkageCols
from agentic_core.stats import describe_method
from ui import views
from ui.cards import card, kpi, kpi_row
from ui.charts import fit_x_range, forest_figure, posterior_figure, shrinkage_figure
from ui.controls import prior_controls, set_value, settings_or_error
from ui.format import md_text, prob_text
from ui.k_cards import pass_k_cards
from ui.memo import session_memo
from ui.page_head import page_head
from ui.planner_view import render_planner
from ui.state import get_aggregate
from ui.theme import show_chart

log = logging.getLogger(__name__)

MEMO_KEY = "_uncertainty_memo"
_MEMO_SIZE = 8


def switch_to_bayesian() -> None:
    """Button callback: make the whole app Bayesian (the sidebar's Mode)."""
    set_value("mode", "bayesian")


run = page_head("Uncertainty", "uncertainty")

settings = settings_or_error(run)
if settings is None:
    st.stop()
agg = get_aggregate(run, settings)
k = agg.k
level = settings.ci_level

if settings.mode == "frequentist":
    st.info(
        "**These posteriors are Bayesian**, shown although the app is in frequentist mode (the Overview shows "
        f"point estimates with intervals from {describe_method(agg.headline.interval_method)}). For the task "
        "population both answer the same question: how the agent would do on other tasks like these.",
        icon=":material/info:",
    )
    st.button("Switch the app to Bayesian mode", key="unc_switch_bayes", on_click=switch_to_bayesian)

try:
    post = session_memo(
        MEMO_KEY, (run.run_id, settings.model_dump_json()), lambda: posterior_view(agg), size=_MEMO_SIZE
    )
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()
except Exception as exc:  # an unexpected failure must not show a traceback
    log.exception("posterior computation failed")
    st.error(
        f"The posterior could not be computed ({type(exc).__name__}: {md_text(exc)}). Try other settings, or "
        "reload the page; if it persists, report it with the settings shown in the sidebar."
    )
    st.stop()

point = post.point
samples = post.samples
n_groups = samples.n_groups

st.subheader(f"Posterior of the dataset-level numbers at K = {k}")
st.markdown(views.target_sentence(post, agg, settings))
if views.uses_the_prior(post, agg):
    prior_controls()
    st.caption(
        "The prior is the belief about each task's success probability before seeing its attempts (used for "
        "these tasks, a single group and the per-task posteriors below; the population model learns its own). "
        "Uniform treats every rate as equally likely; Jeffreys puts more weight near 0 and 1."
    )

pow_target = st.slider(
    f"Target for pass^{k}",
    0.0,
    1.0,
    value=0.5,
    step=0.01,
    key="pow_target",
    help=f"The page reports the posterior probability that pass^{k} (all {k} attempts correct) exceeds this.",
    bind="query-params",
    persist_state="session",
)
try:
    prob = post.prob_pass_pow_exceeds(float(pow_target))
except AgenticError as exc:
    st.error(md_text(exc))
    st.stop()

row = kpi_row()
kpi(
    row,
    "Success rate p",
    point.success_rate,
    point.success_rate_ci,
    help="Posterior mean of the probability that an attempt is fully correct, with its credible interval.",
)
evidence = agg.k_evidence  # the core decides whether pass@K is measured
pass_k_cards(
    row,
    k,
    evidence,
    (
        point.pass_at_k,
        point.pass_at_k_ci,
        f"Posterior mean of the probability that at least one of {k} attempts is correct.",
    ),
    (point.pass_pow_k, point.pass_pow_k_ci, f"Posterior mean of the probability that all {k} attempts are correct."),
)
if evidence.measured:
    exact = n_groups == 1 or post.population
    card(
        row,
        f"P(pass^{k} > {pow_target:.2f})",
        prob_text(prob),
        help="Posterior probability that pass^K exceeds the target"
        + (" (exact)." if exact else f" (share of {settings.n_samples:,} seeded posterior draws)."),
    )
else:
    with st.container(key="uncertainty_k_not_measured"):
        st.warning(evidence.sentence)

fig_cols = st.columns(3)
for column, panel in zip(fig_cols, views.posterior_panels(post, float(pow_target), evidence.measured), strict=False):
    figure = posterior_figure(panel.draws, panel.ci, panel.mean, panel.title, panel.color, target=panel.target)
    also = () if panel.target is None else (panel.target,)
    show_chart(fit_x_range(figure, panel.draws, also), key=panel.key, where=column)
st.caption(views.draws_note(post, settings))
if point.n_excluded:
    st.warning(f"{point.excluded_reason}.")
for note in (n for n in point.notes if n != evidence.sentence):  # the K sentence is shown above
    st.warning(note[:1].upper() + note[1:] + ".")

render_planner(agg, settings, key="unc_planner")

st.subheader("Per-task posteriors")
if agg.unit != "task" or post.tasks is None:
    st.info(
        f"Per-task posteriors need the unit of trial **task** (repeated attempts at the same task); the unit "
        f"here is **{agg.unit}**. {agg.unit_reason[0].upper()}{agg.unit_reason[1:]}. If your conversations "
        "carry a `task_id` (or repeat the same questions), choose *task* as the Unit of trial in the sidebar.",
        icon=":material/info:",
    )
    st.stop()

rank_by = st.selectbox(
    "Rank tasks by",
    list(RANK_METRICS),
    format_func=lambda m: views.rank_label(m, k),
    key="unc_rank_by",
    help="Worst first: lowest posterior mean, then lowest upper bound.",
)
ranking = rank_tasks(post.tasks, rank_by)
ranked = ranking.ranked
metric_label = views.rank_label(ranking.metric, k)
n_tasks = len(ranked)
per_end = st.slider(
    "Tasks to plot at each end",
    3,
    50,
    value=15,
    key="unc_forest_n",
    help="The forest plot shows this many worst and best tasks; all tasks are in the table below.",
)
plot = views.task_plot(ranking, int(per_end), k)
st.caption(plot.caption)
shown = plot.shown
show_chart(
    forest_figure(
        plot.labels,
        shown[rank_by].to_numpy(),
        shown[f"{rank_by}_ci_low"].to_numpy(),
        shown[f"{rank_by}_ci_high"].to_numpy(),
        f"{metric_label}: posterior mean and {level:.0%} credible interval per task",
        views.RANK_COLORS[ranking.metric],
        hover=plot.hover,
        separator_after=plot.separator,
    ),
    key="unc_forest",
)

if views.has_shrinkage(ranked):
    st.subheader("Shrinkage towards the population")
    st.caption(
        "Each task's observed success rate (hollow) and its success probability under the population model "
        "(filled): a task with few attempts is pulled most towards the population mean. These are the same "
        f"tasks as in the plot above ({len(shown):,} of {n_tasks:,})."
    )
    population_mean = post.point.success_rate if post.population else None
    show_chart(
        shrinkage_figure(
            plot.labels,
            shown[GroupCols.OBSERVED_SUCCESS_RATE].to_numpy(),
            shown[ShrinkageCols.SHRUNK_P].to_numpy(),
            shown[GroupCols.N].to_numpy(),
            population_mean,
        ),
        key="unc_shrinkage",
    )

ci_label = f"{level:.0%} credible interval"
st.dataframe(
    views.task_table(ranked),
    hide_index=True,
    key="unc_tasks",
    column_config={
        "task": st.column_config.TextColumn("Task", help="task_id, or the task's ordered qa_ids"),
        "n": st.column_config.NumberColumn("Attempts n", help="Scored attempts (conversations)"),
        "c": st.column_config.NumberColumn("Correct c", help="Fully correct attempts"),
        "observed": st.column_config.NumberColumn("Observed c/n", format="percent"),
        "p_mean": st.column_config.NumberColumn("p (posterior mean)", format="percent"),
        "p_ci": st.column_config.TextColumn(f"p {ci_label}"),
        "at_mean": st.column_config.NumberColumn(f"pass@{k}", format="percent"),
        "at_ci": st.column_config.TextColumn(f"pass@{k} {ci_label}"),
        "pow_mean": st.column_config.NumberColumn(f"pass^{k}", format="percent"),
        "pow_ci": st.column_config.TextColumn(f"pass^{k} {ci_label}"),
        "shrunk": st.column_config.NumberColumn(
            "p (population model)",
            format="percent",
            help="The task's success probability under the hierarchical "
            "model: its own attempts and what the other tasks say about tasks like it.",
        ),
        "shrunk_ci": st.column_config.TextColumn(f"p (population model) {ci_label}"),
    },
)
st.caption(views.table_caption(ranking, k, settings))
if ranking.n_undefined:
    st.warning(
        f"{ranking.n_undefined:,} task(s) have no scored attempt (every attempt is unscored: a judge failure or an "
        "abstention) and are not listed; "
        "toggle *Count unscored as incorrect* in the sidebar to include them."
    )
