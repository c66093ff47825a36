"""Uncertainty: posterior distributions of the success rate, pass@K and pass^K, per dataset and per task."""

from __future__ import annotations

import logging

import pandas as pd
import streamlit as st

from agentic_core.analysis.k_evidence import k_evidence
from agentic_core.analysis.uncertainty import posterior_view
from agentic_core.errors import AgenticError
from agentic_core.stats import describe_method
from ui.cards import card, kpi, kpi_row
from ui.charts import AT_COLOR, POW_COLOR, fit_x_range, forest_figure, posterior_figure, shrinkage_figure
from ui.controls import prior_controls, set_value, settings_or_error, sidebar_controls
from ui.format import ci_text, md_text, pct, prob_text
from ui.guide import how_to_read
from ui.memo import session_memo
from ui.planner_view import render_planner
from ui.state import ensure_run, get_aggregate
from ui.theme import show_chart

log = logging.getLogger(__name__)

MEMO_KEY = "_uncertainty_memo"
_MEMO_SIZE = 8
P_COLOR = "#2ca02c"
RANK_LABELS = {
    "success_rate": "success rate p",
    "pass_at_k": "pass@K",
    "pass_pow_k": "pass^K",
}
UNIT_GROUP = {"task": "task", "conversation": "pool of conversations", "interaction": "conversation"}


def switch_to_bayesian() -> None:
    """Button callback: make the whole app Bayesian (the sidebar's Mode)."""
    set_value("mode", "bayesian")


run = ensure_run()
sidebar_controls(run)

st.title("Uncertainty")
how_to_read("uncertainty")
st.caption(f"{md_text(run.data_name)} — judged by {md_text(run.judge_label)}")

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
col = samples.ks.index(k)
group_word = UNIT_GROUP[agg.unit]
n_groups = samples.n_groups

st.subheader(f"Posterior of the dataset-level numbers at K = {k}")
if n_groups == 1:
    scope = (
        f"one {group_word} of {int(agg.groups['n'].sum()):,} attempts"
        if agg.unit == "conversation"
        else f"one {group_word}"
    )
    st.markdown(
        f"Each value is for {scope}, with a Beta({settings.prior_a:g}, {settings.prior_b:g}) prior (with one "
        f"group the task population and these tasks coincide). The shaded band is the {level:.0%} equal-tailed "
        "credible interval, the line the posterior mean."
    )
elif post.population:
    st.markdown(
        f"**Target: the task population.** The {n_groups:,} {group_word}s are treated as a sample of the tasks "
        "the agent will face: each task's success probability comes from a Beta(α, β) population whose α and β "
        "are learnt from all tasks (the hierarchical model of BDA3 section 5.3). Each value is the population's "
        f"mean; the shaded band is its {level:.0%} credible interval, the line the posterior mean."
    )
else:
    st.markdown(
        f"**Target: these tasks.** Each value is the mean over exactly these {n_groups:,} {group_word}s, each with "
        f"its own Beta({settings.prior_a:g}, {settings.prior_b:g}) posterior; the shaded band is the {level:.0%} "
        "credible interval, the line the posterior mean."
    )
if not post.population or n_groups == 1 or agg.unit == "task":
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
evidence = session_memo(
    "_unc_k_evidence", (run.run_id, settings.model_dump_json()), lambda: k_evidence(run.result, agg)
)
if evidence.measured:
    kpi(
        row,
        f"pass@{k}",
        point.pass_at_k,
        point.pass_at_k_ci,
        help=f"Posterior mean of the probability that at least one of {k} attempts is correct.",
    )
    kpi(
        row,
        f"pass^{k}",
        point.pass_pow_k,
        point.pass_pow_k_ci,
        help=f"Posterior mean of the probability that all {k} attempts are correct.",
    )
    card(
        row,
        f"P(pass^{k} > {pow_target:.2f})",
        prob_text(prob),
        help="Posterior probability that pass^K exceeds the target"
        + (
            " (exact)."
            if n_groups == 1 or post.population
            else f" (share of {settings.n_samples:,} seeded posterior draws)."
        ),
    )
else:
    # One attempt per task says nothing about K attempts: no posterior a reader would take as measured.
    for name in (f"pass@{k}", f"pass^{k}"):
        card(row, name, "not measured", help=evidence.sentence, delta="pass@1 only")
    with st.container(key="uncertainty_k_not_measured"):
        st.warning(evidence.sentence)

fig_cols = st.columns(3)
for column, draws, ci, mean, title, color, key, line in (
    (fig_cols[0], samples.p, point.success_rate_ci, point.success_rate, "Success rate p", P_COLOR, "unc_post_p", None),
    (
        fig_cols[1],
        samples.pass_at_k[:, col],
        point.pass_at_k_ci,
        point.pass_at_k,
        f"pass@{k}",
        AT_COLOR,
        "unc_post_at",
        None,
    ),
    (
        fig_cols[2],
        samples.pass_pow_k[:, col],
        point.pass_pow_k_ci,
        point.pass_pow_k,
        f"pass^{k}",
        POW_COLOR,
        "unc_post_pow",
        float(pow_target),
    ),
):
    if key != "unc_post_p" and not evidence.measured:
        continue
    figure = posterior_figure(draws, ci, mean, title, color, target=line)
    show_chart(fit_x_range(figure, draws, () if line is None else (line,)), key=key, where=column)
notes = [
    f"Intervals from {describe_method(point.interval_method)}; histograms show "
    f"{len(samples.p):,} draws (seed {settings.seed}), so their edges can differ slightly from the exact bounds."
]
if point.observed_success_rate is not None:
    notes.append(
        f"Observed (no model, no prior): mean c/n {pct(point.observed_success_rate)}; the posterior mean is pulled "
        "towards the population (or the prior) most where tasks have few attempts."
    )
st.caption(" ".join(notes))
if point.n_excluded:
    st.warning(f"{point.excluded_reason}.")
for note in point.notes:
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

tasks = post.tasks
defined = tasks[tasks["defined"]]
n_undefined = len(tasks) - len(defined)
rank_by = st.selectbox(
    "Rank tasks by",
    list(RANK_LABELS),
    format_func=lambda m: RANK_LABELS[m].replace("K", str(k)),
    key="unc_rank_by",
    help="Worst first: lowest posterior mean, then lowest upper bound.",
)
ranked = defined.sort_values([rank_by, f"{rank_by}_ci_high", "group"], kind="stable").reset_index(drop=True)
metric_label = RANK_LABELS[rank_by].replace("K", str(k))
color = {"success_rate": P_COLOR, "pass_at_k": AT_COLOR, "pass_pow_k": POW_COLOR}[rank_by]

n_tasks = len(ranked)
per_end = st.slider(
    "Tasks to plot at each end",
    3,
    50,
    value=15,
    key="unc_forest_n",
    help="The forest plot shows this many worst and best tasks; all tasks are in the table below.",
)
if n_tasks <= 2 * per_end:
    shown = ranked
    separator = None
    st.caption(f"All {n_tasks:,} tasks, worst first by posterior mean {metric_label}.")
else:
    shown = pd.concat([ranked.head(per_end), ranked.tail(per_end)])
    separator = per_end
    st.caption(
        f"The {per_end} worst and {per_end} best of {n_tasks:,} tasks by posterior mean {metric_label} "
        f"(the {n_tasks - 2 * per_end:,} in between are left out of the plot; the table lists all)."
    )
ranks = shown.index.to_numpy() + 1
keys = shown["group"].astype(str).tolist()
labels = [f"{r}. {key if len(key) <= 40 else key[:39] + '…'}" for r, key in zip(ranks, keys, strict=True)]
hover = [
    f"{key}<br>{c} of {n} attempts correct"
    for key, n, c in zip(keys, shown["n"].tolist(), shown["c"].tolist(), strict=True)
]
show_chart(
    forest_figure(
        labels,
        shown[rank_by].to_numpy(),
        shown[f"{rank_by}_ci_low"].to_numpy(),
        shown[f"{rank_by}_ci_high"].to_numpy(),
        f"{metric_label}: posterior mean and {level:.0%} credible interval per task",
        color,
        hover=hover,
        separator_after=separator,
    ),
    key="unc_forest",
)


def _interval_column(frame: pd.DataFrame, name: str) -> list[str]:
    return [ci_text((lo, hi)) for lo, hi in zip(frame[f"{name}_ci_low"], frame[f"{name}_ci_high"], strict=True)]


shrinkage = "shrunk_p" in ranked.columns
if shrinkage:
    st.subheader("Shrinkage towards the population")
    st.caption(
        "Each task's observed success rate (hollow) and its success probability under the population model "
        "(filled): a task with few attempts is pulled most towards the population mean. These are the same "
        f"tasks as in the plot above ({len(shown):,} of {n_tasks:,})."
    )
    population_mean = post.point.success_rate if post.population else None
    show_chart(
        shrinkage_figure(
            labels,
            shown["observed_success_rate"].to_numpy(),
            shown["shrunk_p"].to_numpy(),
            shown["n"].to_numpy(),
            population_mean,
        ),
        key="unc_shrinkage",
    )

table = pd.DataFrame(
    {
        "task": ranked["group"].astype(str),
        "n": ranked["n"],
        "c": ranked["c"],
        "observed": ranked["observed_success_rate"],
        "p_mean": ranked["success_rate"],
        "p_ci": _interval_column(ranked, "success_rate"),
        "at_mean": ranked["pass_at_k"],
        "at_ci": _interval_column(ranked, "pass_at_k"),
        "pow_mean": ranked["pass_pow_k"],
        "pow_ci": _interval_column(ranked, "pass_pow_k"),
    }
)
if shrinkage:
    table["shrunk"] = ranked["shrunk_p"].to_numpy()
    table["shrunk_ci"] = [
        ci_text((lo, hi)) for lo, hi in zip(ranked["shrunk_p_low"], ranked["shrunk_p_high"], strict=True)
    ]
ci_label = f"{level:.0%} credible interval"
st.dataframe(
    table,
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
st.caption(
    f"{n_tasks:,} tasks, worst first by posterior mean {metric_label}. The p, pass@{k} and pass^{k} columns use "
    f"each task's own Beta({settings.prior_a:g} + c, {settings.prior_b:g} + n − c) posterior (exact); the "
    "population-model columns come from the hierarchical model (seeded draws for the bounds)."
)
if n_undefined:
    st.warning(
        f"{n_undefined:,} task(s) have no scored attempt (every attempt is unscored: a judge failure or an "
        "abstention) and are not listed; "
        "toggle *Count unscored as incorrect* in the sidebar to include them."
    )
