"""AppTest of the Uncertainty page, driven by widget keys (offline: the dataset judge, a temporary cache)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import beta as beta_dist
from streamlit.testing.v1 import AppTest

from agentic_core.evaluate import aggregate, evaluate
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.settings import AggregateSettings
from tests.pages.conftest import OpenApp

APP = Path(__file__).parents[2] / "dashboard.py"
PAGE = "pages/uncertainty.py"


@pytest.fixture
def uapp(open_app: OpenApp) -> Callable[[str | None], AppTest]:
    """Open the Uncertainty page on the default sample (or the sample named), dataset judge, K = 3."""

    def opened(data: str | None = None) -> AppTest:
        at = open_app(PAGE, data)
        at.select_slider(key="k").set_value(3).run()
        assert not at.exception
        return at

    return opened


def metric(at: AppTest, prefix: str) -> tuple[str, str]:
    """(value, delta) of the metric whose label starts with ``prefix``."""
    found = [m for m in at.metric if m.label.startswith(prefix)]
    assert len(found) == 1, [m.label for m in at.metric]
    return found[0].value, found[0].delta


def interval(text: str) -> tuple[float, float]:
    """``[57.4%, 66.6%]`` -> ``(0.574, 0.666)``."""
    m = re.fullmatch(r"\[([\d.]+)%, ([\d.]+)%\]", text)
    assert m, text
    return float(m.group(1)) / 100, float(m.group(2)) / 100


def percent(text: str) -> float:
    """``26.0%`` -> 0.26; ``< 0.1%`` -> 0.0; ``> 99.9%`` -> 1.0."""
    if text.startswith("<"):
        return 0.0
    if text.startswith(">"):
        return 1.0
    return float(text.rstrip("%")) / 100


def tasks_frame(at: AppTest) -> pd.DataFrame | None:
    frames = [d.value for d in at.dataframe if "p_mean" in d.value.columns]
    assert len(frames) <= 1
    return frames[0] if frames else None


def chart_keys(at: AppTest) -> list[str]:
    return [p.proto.id.rsplit("-", 1)[-1] for p in at.get("plotly_chart")]


def travel_counts() -> tuple[int, int]:
    """(n, c) of the travel sample's single conversation group, from the core, not the page."""
    result = evaluate(load_sample("travel"), "dataset", cache_mode="off")
    agg = aggregate(result, AggregateSettings(threshold=round(result.recommended_threshold, 2)))
    assert agg.unit == "conversation"
    return int(agg.groups["n"].iloc[0]), int(agg.groups["c"].iloc[0])


def test_default_run_renders_posteriors_and_one_row_per_task(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    assert [m.label for m in at.metric] == ["Success rate p", "pass@3", "pass^3", "P(pass^3 > 0.50)"]
    for label in ("Success rate p", "pass@3", "pass^3"):
        value, delta = metric(at, label)
        low, high = interval(delta)
        assert low <= percent(value) <= high
    planner = ["unc_planner_chart"]  # the planner section (ui/planner_view.py) sits before the per-task charts
    assert chart_keys(at) == ["unc_post_p", "unc_post_at", "unc_post_pow", *planner, "unc_forest", "unc_shrinkage"]
    tasks = tasks_frame(at)
    assert tasks is not None
    task_ids = {json.loads(line)["task_id"] for line in SAMPLES["support"].path.read_text().splitlines() if line}
    assert set(tasks["task"]) == task_ids
    # Worst first by posterior mean of the success rate.
    assert tasks["p_mean"].is_monotonic_increasing
    assert (tasks["n"] == 8).all()


def test_travel_sample_shows_exact_beta_interval_and_no_per_task_section(
    uapp: Callable[[str | None], AppTest],
) -> None:
    at = uapp("travel")
    n, c = travel_counts()
    low, high = interval(metric(at, "Success rate p")[1])
    assert low == pytest.approx(beta_dist.ppf(0.025, 1 + c, 1 + n - c), abs=6e-4)
    assert high == pytest.approx(beta_dist.ppf(0.975, 1 + c, 1 + n - c), abs=6e-4)
    assert tasks_frame(at) is None
    assert "unc_forest" not in chart_keys(at)
    assert any("Per-task posteriors need the unit of trial **task**" in i.value for i in at.info)


def test_changing_the_prior_changes_the_interval(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp("travel")
    n, c = travel_counts()
    uniform = metric(at, "Success rate p")[1]
    at.radio(key="prior").set_value("jeffreys").run()
    assert not at.exception
    jeffreys = metric(at, "Success rate p")[1]
    assert jeffreys != uniform
    assert interval(jeffreys)[0] == pytest.approx(beta_dist.ppf(0.025, 0.5 + c, 0.5 + n - c), abs=6e-4)
    at.radio(key="prior").set_value("custom").run()
    at.number_input(key="prior_a").set_value(20.0).run()
    assert not at.exception
    custom = metric(at, "Success rate p")[1]
    assert interval(custom)[0] > interval(uniform)[0]  # a strong prior towards success moves it up
    assert interval(custom)[0] == pytest.approx(beta_dist.ppf(0.025, 20 + c, 1 + n - c), abs=6e-4)


def test_changing_the_prior_changes_per_task_intervals(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    before = tasks_frame(at)
    at.radio(key="prior").set_value("jeffreys").run()
    after = tasks_frame(at)
    assert before is not None and after is not None
    merged = before.merge(after, on="task", suffixes=("_u", "_j"))
    assert len(merged) == len(before)
    assert (merged["p_ci_u"] != merged["p_ci_j"]).any()
    assert metric(at, "pass^3")[1] != ""


def test_changing_the_target_changes_the_probability(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp("travel")
    # One attempt per task measures no pass^3 (issue 25) unless every conversation is declared an attempt at
    # one task: the unit 'conversation' chosen by hand.
    assert metric(at, "pass^3")[0] == "not measured"
    at.selectbox(key="unit").set_value("conversation").run()
    n, c = travel_counts()
    shown = {}
    for target in (0.5, 0.1, 0.05):
        at.slider(key="pow_target").set_value(target).run()
        assert not at.exception
        value, _ = metric(at, "P(pass^3 >")
        assert [m.label for m in at.metric][-1] == f"P(pass^3 > {target:.2f})"
        shown[target] = percent(value)
    # One group: exact, P(p^3 > t) = Beta(1 + c, 1 + n - c).sf(t ** (1/3)).
    for target, prob in shown.items():
        assert prob == pytest.approx(beta_dist.sf(target ** (1 / 3), 1 + c, 1 + n - c), abs=1e-3)
    assert shown[0.05] > shown[0.1] > shown[0.5]


def test_target_on_many_tasks_is_monotone(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    probs = []
    for target in (0.6, 0.36, 0.2):
        at.slider(key="pow_target").set_value(target).run()
        probs.append(percent(metric(at, "P(pass^3 >")[0]))
    assert probs[0] < probs[1] < probs[2]
    assert 0.0 < probs[1] < 1.0


def test_unit_conversation_hides_per_task_section(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    assert tasks_frame(at) is not None
    at.selectbox(key="unit").set_value("conversation").run()
    assert not at.exception
    assert tasks_frame(at) is None
    assert "unc_forest" not in chart_keys(at)
    assert any("the unit here is **conversation**" in i.value for i in at.info)


def test_frequentist_mode_explains_and_can_switch_to_bayesian(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    assert at.selectbox(key="mode").value == "frequentist"  # the default
    note = [i.value for i in at.info if "These posteriors are Bayesian" in i.value]
    assert note and "BCa bootstrap" in note[0] and "task population" in note[0]
    posteriors = [m.delta for m in at.metric[:3]]
    at.button(key="unc_switch_bayes").click().run()
    assert not at.exception
    assert at.selectbox(key="mode").value == "bayesian"
    assert not [i for i in at.info if "These posteriors are Bayesian" in i.value]
    # The posteriors are the same Bayesian ones whatever the app's mode.
    assert [m.delta for m in at.metric[:3]] == posteriors


def test_population_and_these_tasks_targets_and_the_shrinkage(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    text = " ".join(m.value for m in at.markdown)
    assert "Target: the task population" in text and "hierarchical model" in text
    tasks = tasks_frame(at)
    assert tasks is not None and tasks["shrunk"].between(0, 1).all()
    # Every support task has 8 attempts: the population model pulls each towards the population mean,
    # so the spread of the shrunk rates is smaller than the spread of the observed ones.
    assert tasks["shrunk"].std() < tasks["observed"].std()
    population = metric(at, "pass^3")[1]
    at.radio(key="target").set_value("these-tasks").run()
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "Target: these tasks" in text
    these = metric(at, "pass^3")[1]
    width = lambda ci: interval(ci)[1] - interval(ci)[0]  # noqa: E731
    assert width(population) > width(these)  # the population interval also covers which tasks were drawn


def test_rank_and_forest_size(uapp: Callable[[str | None], AppTest]) -> None:
    at = uapp(None)
    at.selectbox(key="unc_rank_by").set_value("pass_pow_k").run()
    tasks = tasks_frame(at)
    assert tasks is not None and tasks["pow_mean"].is_monotonic_increasing
    assert any(c.value.startswith("All 30 tasks") for c in at.caption)
    at.slider(key="unc_forest_n").set_value(5).run()
    assert not at.exception
    assert any("The 5 worst and 5 best of 30 tasks" in c.value for c in at.caption)
    still = tasks_frame(at)
    assert still is not None and len(still) == 30  # the table still lists every task
