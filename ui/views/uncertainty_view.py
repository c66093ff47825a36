"""The Uncertainty page's view model: what each section says and draws, decided without Streamlit.

The page reads its widgets, calls these functions and renders what they return. The ranking rule
itself is the core's (:func:`agentic_core.analysis.rank_tasks`); here are the words, the colours and
the rows of the figures and the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from agentic_core.analysis import Aggregate, PosteriorView, RankMetric, TaskRanking
from agentic_core.common import GroupCols, ShrinkageCols
from agentic_core.settings import AggregateSettings
from agentic_core.stats import describe_method
from ui.charts import AT_COLOR, P_COLOR, POW_COLOR
from ui.format import ci_text, pct

RANK_LABELS: dict[RankMetric, str] = {
    "success_rate": "success rate p",
    "pass_at_k": "pass@K",
    "pass_pow_k": "pass^K",
}
RANK_COLORS: dict[RankMetric, str] = {"success_rate": P_COLOR, "pass_at_k": AT_COLOR, "pass_pow_k": POW_COLOR}
UNIT_GROUP = {"task": "task", "conversation": "pool of conversations", "interaction": "conversation"}
LABEL_CHARS = 40  # a longer task key is cut in the plots' labels (the table keeps it whole)


def rank_label(metric: RankMetric, k: int) -> str:
    """The words for ranking by ``metric`` at this K (``pass@3``)."""
    return RANK_LABELS[metric].replace("K", str(k))


def target_sentence(post: PosteriorView, agg: Aggregate, settings: AggregateSettings) -> str:
    """What the dataset-level posterior is about: one group, the task population, or exactly these tasks."""
    group_word = UNIT_GROUP[agg.unit]
    n_groups = post.samples.n_groups
    level = settings.ci_level
    prior = f"Beta({settings.prior_a:g}, {settings.prior_b:g})"
    if n_groups == 1:
        scope = (
            f"one {group_word} of {int(agg.groups['n'].sum()):,} attempts"
            if agg.unit == "conversation"
            else f"one {group_word}"
        )
        return (
            f"Each value is for {scope}, with a {prior} prior (with one group the task population and these tasks "
            f"coincide). The shaded band is the {level:.0%} equal-tailed credible interval, the line the posterior "
            "mean."
        )
    if post.population:
        return (
            f"**Target: the task population.** The {n_groups:,} {group_word}s are treated as a sample of the tasks "
            "the agent will face: each task's success probability comes from a Beta(α, β) population whose α and β "
            "are learnt from all tasks (the hierarchical model of BDA3 section 5.3). Each value is the population's "
            f"mean; the shaded band is its {level:.0%} credible interval, the line the posterior mean."
        )
    return (
        f"**Target: these tasks.** Each value is the mean over exactly these {n_groups:,} {group_word}s, each with "
        f"its own {prior} posterior; the shaded band is the {level:.0%} credible interval, the line the posterior "
        "mean."
    )


def uses_the_prior(post: PosteriorView, agg: Aggregate) -> bool:
    """Whether the prior applies to something shown (the population model learns its own)."""
    return not post.population or post.samples.n_groups == 1 or agg.unit == "task"


def draws_note(post: PosteriorView, settings: AggregateSettings) -> str:
    """Where the intervals come from, how many draws the histograms show, and the observed share."""
    point = post.point
    notes = [
        f"Intervals from {describe_method(point.interval_method)}; histograms show {len(post.samples.p):,} draws "
        f"(seed {settings.seed}), so their edges can differ slightly from the exact bounds."
    ]
    if point.observed_success_rate is not None:
        notes.append(
            f"Observed (no model, no prior): mean c/n {pct(point.observed_success_rate)}; the posterior mean is "
            "pulled towards the population (or the prior) most where tasks have few attempts."
        )
    return " ".join(notes)


@dataclass(frozen=True)
class PosteriorPanel:
    """One histogram of posterior draws: what it shows, its widget key and an optional target line."""

    draws: np.ndarray
    ci: tuple[float, float] | None
    mean: float | None
    title: str
    color: str
    key: str
    target: float | None = None


def posterior_panels(post: PosteriorView, pow_target: float, measured: bool) -> list[PosteriorPanel]:
    """The success rate's histogram, and pass@K's and pass^K's when K attempts were measured.

    Args:
        post: The posterior view at the aggregate's K.
        pow_target: The pass^K target, drawn as a line on its histogram.
        measured: Whether the data has repeated attempts (else pass@K and pass^K are not shown).
    """
    point, samples, k = post.point, post.samples, post.k
    col = samples.ks.index(k)
    panels = [
        PosteriorPanel(samples.p, point.success_rate_ci, point.success_rate, "Success rate p", P_COLOR, "unc_post_p")
    ]
    if measured:
        panels.append(
            PosteriorPanel(
                samples.pass_at_k[:, col], point.pass_at_k_ci, point.pass_at_k, f"pass@{k}", AT_COLOR, "unc_post_at"
            )
        )
        panels.append(
            PosteriorPanel(
                samples.pass_pow_k[:, col],
                point.pass_pow_k_ci,
                point.pass_pow_k,
                f"pass^{k}",
                POW_COLOR,
                "unc_post_pow",
                pow_target,
            )
        )
    return panels


@dataclass(frozen=True)
class TaskPlot:
    """The tasks a forest plot shows, with their labels, hover lines and the caption saying what is left out."""

    shown: pd.DataFrame
    separator: int | None
    labels: list[str]
    hover: list[str]
    caption: str


def task_plot(ranking: TaskRanking, per_end: int, k: int) -> TaskPlot:
    """The worst and best ``per_end`` tasks of ``ranking`` (or all), labelled by rank and key.

    Raises:
        SettingsError: ``per_end`` below 1.
    """
    shown, separator = ranking.ends(per_end)
    n_tasks = len(ranking.ranked)
    label = rank_label(ranking.metric, k)
    if separator is None:
        caption = f"All {n_tasks:,} tasks, worst first by posterior mean {label}."
    else:
        caption = (
            f"The {per_end} worst and {per_end} best of {n_tasks:,} tasks by posterior mean {label} "
            f"(the {n_tasks - 2 * per_end:,} in between are left out of the plot; the table lists all)."
        )
    ranks = shown.index.to_numpy() + 1
    keys = shown[GroupCols.GROUP].astype(str).tolist()
    labels = [
        f"{r}. {key if len(key) <= LABEL_CHARS else key[: LABEL_CHARS - 1] + '…'}"
        for r, key in zip(ranks, keys, strict=True)
    ]
    hover = [
        f"{key}<br>{c} of {n} attempts correct"
        for key, n, c in zip(keys, shown[GroupCols.N].tolist(), shown[GroupCols.C].tolist(), strict=True)
    ]
    return TaskPlot(shown=shown, separator=separator, labels=labels, hover=hover, caption=caption)


def _intervals(low: pd.Series, high: pd.Series) -> list[str]:
    return [ci_text((lo, hi)) for lo, hi in zip(low, high, strict=True)]


def task_table(ranked: pd.DataFrame) -> pd.DataFrame:
    """Every ranked task's row of the table: attempts, observed share, each posterior mean with its interval.

    The population-model columns (``shrunk``, ``shrunk_ci``) are there when the ranking has them.
    """
    g = GroupCols
    table = pd.DataFrame(
        {
            "task": ranked[g.GROUP].astype(str),
            "n": ranked[g.N],
            "c": ranked[g.C],
            "observed": ranked[g.OBSERVED_SUCCESS_RATE],
            "p_mean": ranked[g.SUCCESS_RATE],
            "p_ci": _intervals(ranked[g.SUCCESS_RATE_CI_LOW], ranked[g.SUCCESS_RATE_CI_HIGH]),
            "at_mean": ranked[g.PASS_AT_K],
            "at_ci": _intervals(ranked[g.PASS_AT_K_CI_LOW], ranked[g.PASS_AT_K_CI_HIGH]),
            "pow_mean": ranked[g.PASS_POW_K],
            "pow_ci": _intervals(ranked[g.PASS_POW_K_CI_LOW], ranked[g.PASS_POW_K_CI_HIGH]),
        }
    )
    if has_shrinkage(ranked):
        table["shrunk"] = ranked[ShrinkageCols.SHRUNK_P].to_numpy()
        table["shrunk_ci"] = _intervals(ranked[ShrinkageCols.SHRUNK_P_LOW], ranked[ShrinkageCols.SHRUNK_P_HIGH])
    return table


def has_shrinkage(ranked: pd.DataFrame) -> bool:
    """Whether the per-task table carries the population model's numbers (two or more scored tasks)."""
    return ShrinkageCols.SHRUNK_P in ranked.columns


def table_caption(ranking: TaskRanking, k: int, settings: AggregateSettings) -> str:
    """How the task table is ordered and where each of its columns comes from."""
    return (
        f"{len(ranking.ranked):,} tasks, worst first by posterior mean {rank_label(ranking.metric, k)}. The p, "
        f"pass@{k} and pass^{k} columns use each task's own Beta({settings.prior_a:g} + c, {settings.prior_b:g} + "
        "n − c) posterior (exact); the population-model columns come from the hierarchical model (seeded draws "
        "for the bounds)."
    )
