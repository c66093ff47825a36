"""The Uncertainty page's view model, on a real aggregate (no Streamlit)."""

from __future__ import annotations

import pytest

from agentic_core.analysis import Aggregate, PosteriorView, posterior_view, rank_tasks
from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.samples import load_sample
from agentic_core.settings import AggregateSettings
from ui import views


@pytest.fixture(scope="module")
def support() -> tuple[Aggregate, PosteriorView]:
    """The support sample (30 tasks, 8 attempts each) at K = 3, population target."""
    result = evaluate(load_sample("support"), "dataset", cache_mode="off")
    agg = aggregate(result, AggregateSettings(k=3, unit="task"))
    return agg, posterior_view(agg)


def test_the_plot_keeps_the_ends_and_says_how_many_are_left_out(support: tuple[Aggregate, PosteriorView]) -> None:
    _, post = support
    assert post.tasks is not None
    ranking = rank_tasks(post.tasks, "pass_at_k")
    plot = views.task_plot(ranking, 5, 3)
    assert len(plot.shown) == len(plot.labels) == len(plot.hover) == 10
    assert plot.separator == 5
    n = len(ranking.ranked)
    assert plot.caption == (
        f"The 5 worst and 5 best of {n:,} tasks by posterior mean pass@3 (the {n - 10:,} in between are left out "
        "of the plot; the table lists all)."
    )
    # Labels carry the rank in the whole list, so the best end starts at n - 4.
    assert plot.labels[0].startswith("1. ") and plot.labels[5].startswith(f"{n - 4}. ")
    first = plot.shown.iloc[0]
    assert plot.hover[0] == f"{first['group']}<br>{first['c']} of {first['n']} attempts correct"
    whole = views.task_plot(ranking, n, 3)
    assert whole.separator is None and whole.caption == f"All {n:,} tasks, worst first by posterior mean pass@3."


def test_long_task_keys_are_cut_in_labels_only(support: tuple[Aggregate, PosteriorView]) -> None:
    _, post = support
    assert post.tasks is not None
    tasks = post.tasks.assign(group=[f"{'x' * 50}-{i}" for i in range(len(post.tasks))])
    ranking = rank_tasks(tasks, "success_rate")
    label = views.task_plot(ranking, 3, 3).labels[0]
    assert label.endswith("…") and len(label.split(". ", 1)[1]) == 40
    assert views.task_table(ranking.ranked)["task"].str.len().min() > 50


def test_the_table_lists_every_ranked_task_with_intervals(support: tuple[Aggregate, PosteriorView]) -> None:
    _, post = support
    assert post.tasks is not None
    ranked = rank_tasks(post.tasks, "success_rate").ranked
    table = views.task_table(ranked)
    assert len(table) == len(ranked)
    assert table["p_mean"].is_monotonic_increasing
    assert {"shrunk", "shrunk_ci"} <= set(table.columns)  # 30 tasks: the population model is there
    low, high = ranked["pass_pow_k_ci_low"].iloc[0], ranked["pass_pow_k_ci_high"].iloc[0]
    assert table["pow_ci"].iloc[0] == f"[{low:.1%}, {high:.1%}]"
    without = views.task_table(ranked.drop(columns=["shrunk_p", "shrunk_p_low", "shrunk_p_high"]))
    assert "shrunk" not in without.columns


def test_panels_follow_the_evidence(support: tuple[Aggregate, PosteriorView]) -> None:
    _, post = support
    measured = views.posterior_panels(post, 0.4, measured=True)
    assert [p.key for p in measured] == ["unc_post_p", "unc_post_at", "unc_post_pow"]
    assert [p.target for p in measured] == [None, None, 0.4]
    assert measured[1].title == "pass@3" and measured[1].mean == post.point.pass_at_k
    assert [p.key for p in views.posterior_panels(post, 0.4, measured=False)] == ["unc_post_p"]


def test_the_target_sentence_names_what_the_numbers_are_for(support: tuple[Aggregate, PosteriorView]) -> None:
    agg, post = support
    assert post.population
    assert views.target_sentence(post, agg, agg.settings).startswith("**Target: the task population.** The 30 tasks")
    assert views.uses_the_prior(post, agg)  # unit task: the per-task posteriors use it
    these = aggregate(
        evaluate(load_sample("support"), "dataset", cache_mode="off"),
        AggregateSettings(k=3, unit="task", target="these-tasks", prior_a=0.5, prior_b=0.5),
    )
    sentence = views.target_sentence(posterior_view(these), these, these.settings)
    assert sentence.startswith("**Target: these tasks.** Each value is the mean over exactly these 30 tasks")
    assert "Beta(0.5, 0.5)" in sentence


def test_rank_labels_name_the_k() -> None:
    assert views.rank_label("pass_pow_k", 7) == "pass^7"
    assert views.rank_label("success_rate", 7) == "success rate p"


def test_the_notes_say_where_the_numbers_come_from(support: tuple[Aggregate, PosteriorView]) -> None:
    agg, post = support
    note = views.draws_note(post, agg.settings)
    assert f"histograms show {len(post.samples.p):,} draws (seed {agg.settings.seed})" in note
    assert ("Observed (no model, no prior)" in note) == (post.point.observed_success_rate is not None)
    assert post.tasks is not None
    ranking = rank_tasks(post.tasks, "pass_pow_k")
    caption = views.table_caption(ranking, 3, agg.settings)
    assert caption.startswith(f"{len(ranking.ranked):,} tasks, worst first by posterior mean pass^3.")
    assert "Beta(1 + c, 1 + n − c)" in caption
