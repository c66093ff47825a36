"""AppTest of the planner section (ui/planner_view.py) on the Uncertainty and Compare pages."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.io.samples import DEFAULT_SAMPLE, load_sample
from agentic_core.stats.planner import plan_evaluation
from agentic_core.stats.planner_variance import TaskPopulation, rates_population
from tests.pages.conftest import OpenApp


def planner_frame(at: AppTest, key: str) -> pd.DataFrame:
    frames = [d.value for d in at.dataframe if "judge_calls" in d.value.columns]
    assert len(frames) == 1, key
    return frames[0]


def chart_keys(at: AppTest) -> list[str]:
    return [p.proto.id.rsplit("-", 1)[-1] for p in at.get("plotly_chart")]


def test_uncertainty_page_plans_from_the_run_as_pilot(open_app: OpenApp) -> None:
    at = open_app("pages/uncertainty.py")
    assert at.radio(key="unc_planner_source").value == "pilot"
    table = planner_frame(at, "unc_planner")
    assert "unc_planner_chart" in chart_keys(at)
    reachable = table.dropna(subset=["tasks"])
    assert not reachable.empty and reachable["cheapest"].sum() == 1
    # Calls are tasks x attempts x interactions per attempt, never fewer than tasks x attempts.
    assert (reachable["judge_calls"] >= reachable["tasks"] * reachable["attempts"]).all()
    before = reachable["tasks"].tolist()
    at.number_input(key="unc_planner_goal").set_value(0.1).run()
    assert not at.exception
    after = planner_frame(at, "unc_planner").dropna(subset=["tasks"])["tasks"].tolist()
    assert len(after) == len(before) and all(a < b for a, b in zip(after, before, strict=True))  # wider goal


def test_assumed_rates_give_the_core_numbers(open_app: OpenApp) -> None:
    at = open_app("pages/uncertainty.py")
    at.radio(key="unc_planner_source").set_value("rates").run()
    at.number_input(key="unc_planner_mean").set_value(0.6).run()
    at.number_input(key="unc_planner_spread").set_value(0.2).run()
    at.number_input(key="unc_planner_k").set_value(2).run()
    assert not at.exception
    table = planner_frame(at, "unc_planner")
    expected = plan_evaluation(
        rates_population(0.6, 0.2), k=2, attempts=[2], half_width=0.05, mode="frequentist"
    ).for_half_width
    assert expected is not None
    assert int(table.loc[table["attempts"] == 2, "tasks"].iloc[0]) == expected[0].tasks


def test_the_spread_is_bounded_by_the_mean(open_app: OpenApp) -> None:
    at = open_app("pages/uncertainty.py")
    at.radio(key="unc_planner_source").set_value("rates").run()
    at.number_input(key="unc_planner_mean").set_value(0.9).run()
    # A Beta population's sd is below sqrt(mean (1 - mean)) = 0.3 at mean 0.9: the box stops short of it.
    assert at.number_input(key="unc_planner_spread").max == pytest.approx(0.295)


@pytest.mark.parametrize("page", ["pages/compare.py"])
def test_compare_page_plans_the_power_of_a_comparison(open_app: OpenApp, page: str) -> None:
    at = open_app(page)
    assert not at.exception
    table = planner_frame(at, "compare_planner")
    assert "compare_planner_chart" in chart_keys(at)
    reachable = table.dropna(subset=["tasks"])
    assert not reachable.empty
    before = reachable["tasks"].tolist()
    at.number_input(key="compare_planner_power").set_value(0.95).run()
    assert not at.exception
    after = planner_frame(at, "compare_planner").dropna(subset=["tasks"])["tasks"].tolist()
    assert all(a > b for a, b in zip(after, before, strict=True))  # more power needs more tasks


def test_bayesian_these_tasks_plans_need_fewer_tasks(open_app: OpenApp) -> None:
    # The section follows the sidebar's mode and target: "these tasks" leaves out the spread between
    # tasks, so every number of attempts needs fewer tasks than for the population.
    at = open_app("pages/uncertainty.py")
    at.selectbox(key="mode").set_value("bayesian").run()
    population = planner_frame(at, "unc_planner").dropna(subset=["tasks"]).set_index("attempts")["tasks"]
    at.radio(key="target").set_value("these-tasks").run()
    assert not at.exception
    these = planner_frame(at, "unc_planner").dropna(subset=["tasks"]).set_index("attempts")["tasks"]
    common = population.index.intersection(these.index)
    assert len(common) >= 3 and (these[common] < population[common]).all()


def planner_caption(at: AppTest) -> str:
    texts = [c.value for c in at.caption if "The same on the command line" in c.value]
    assert len(texts) == 1
    return texts[0]


def test_the_plan_counts_judge_calls_left_unscored(open_app: OpenApp) -> None:
    at = open_app("pages/uncertainty.py")
    at.radio(key="unc_planner_source").set_value("rates").run()
    at.number_input(key="unc_planner_mean").set_value(0.6).run()
    at.number_input(key="unc_planner_spread").set_value(0.2).run()
    at.number_input(key="unc_planner_k").set_value(2).run()
    at.number_input(key="unc_planner_unscored").set_value(0.3).run()
    assert not at.exception
    table = planner_frame(at, "unc_planner")
    # An attempt is a conversation: scored only when all of its interactions are.
    conversations = load_sample(DEFAULT_SAMPLE).conversations
    calls = sum(len(c.conversation) for c in conversations) / len(conversations)
    expected = plan_evaluation(
        rates_population(0.6, 0.2), k=2, attempts=[2], half_width=0.05, unscored_share=0.3,
        interactions_per_attempt=calls,
    ).for_half_width  # fmt: skip
    assert expected is not None
    assert int(table.loc[table["attempts"] == 2, "tasks"].iloc[0]) == expected[0].tasks
    assert "30% of judge calls expected unscored (given)" in planner_caption(at)


def test_the_comparison_states_how_agent_b_is_modelled(open_app: OpenApp) -> None:
    at = open_app("pages/compare.py")
    assert "Agent B is modelled as agent A" in planner_caption(at)
    before = planner_frame(at, "compare_planner").dropna(subset=["tasks"])["tasks"].tolist()
    at.radio(key="compare_planner_b_model").set_value("rates").run()
    at.number_input(key="compare_planner_b_mean").set_value(0.7).run()
    at.number_input(key="compare_planner_b_spread").set_value(0.05).run()
    assert not at.exception
    assert "Agent B's tasks as described: assumed mean 0.7, spread 0.05" in planner_caption(at)
    after = planner_frame(at, "compare_planner").dropna(subset=["tasks"])["tasks"].tolist()
    assert after != before


def test_the_planner_says_how_many_human_labels_reach_the_half_width(open_app: OpenApp) -> None:
    # Issue 37: next to tasks x attempts, the labels the corrected estimate needs, from stated agreement (no labels).
    from agentic_core.stats import labels_needed

    at = open_app("pages/uncertainty.py")
    at.number_input(key="unc_planner_goal").set_value(0.1).run()
    assert not at.exception
    box = " ".join(m.value for m in at.markdown if "labelled tasks" in m.value or "Even labelling" in m.value)
    assert box, [m.value for m in at.markdown]
    assert at.number_input(key="unc_planner_labels_sens").value == 0.8  # stated: the sample has no labels
    table = planner_frame(at, "unc_planner").dropna(subset=["tasks"])
    best = table[table["cheapest"]].iloc[0]
    unscored = float(at.number_input(key="unc_planner_unscored").value or 0.0)
    k = int(at.number_input(key="unc_planner_k").value or 1)
    plan = labels_needed(
        sensitivity=0.8, specificity=0.8, tasks=int(best["tasks"]), half_width=0.1, abstention_rate=unscored,
        population=_pilot_population(), attempts=int(best["attempts"]), metric="pass^k",
        k=min(k, int(best["attempts"])),
    )  # fmt: skip
    expected = f"**{plan.labels:,} labelled tasks**" if plan.labels is not None else "Even labelling all"
    assert expected in box
    at.number_input(key="unc_planner_labels_sens").set_value(0.95).run()
    at.number_input(key="unc_planner_labels_spec").set_value(0.95).run()
    better = " ".join(m.value for m in at.markdown if "labelled tasks" in m.value)
    assert better != box  # a better judge needs fewer labels


def _pilot_population() -> TaskPopulation:
    from agentic_core.analysis.aggregate import aggregate
    from agentic_core.common.frame_columns import GroupCols
    from agentic_core.evaluate import evaluate
    from agentic_core.settings import make_settings
    from agentic_core.stats import pilot_population

    agg = aggregate(evaluate(load_sample(DEFAULT_SAMPLE), "dataset", cache_mode="off"), make_settings())
    return pilot_population(agg.groups[GroupCols.N], agg.groups[GroupCols.C], "this run")
