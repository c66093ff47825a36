"""The planner's limits: every number bounded, refused with the limit named, before anything is computed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core import plan_evaluation, rates_population
from agentic_core.errors import SettingsError
from agentic_core.stats.planner_bounds import MAX_ATTEMPTS, MAX_BETA, MIN_BETA, spread_limits
from agentic_core.stats.planner_variance import beta_population, pilot_population

POP = beta_population(1.0, 1.0)


@pytest.mark.parametrize(
    ("call", "place", "limit"),
    [
        # Each asked numpy for terabytes, or overflowed into NaN, before the limits.
        (lambda: plan_evaluation(POP, attempts=[10**12]), "attempts", "at most 1,000"),
        (lambda: plan_evaluation(POP, attempts=[10**8]), "attempts", "at most 1,000"),
        (lambda: plan_evaluation(POP, tasks=[10**10]), "tasks", "at most 1,000,000,000"),
        (lambda: plan_evaluation(POP, tasks=list(range(1, 300))), "tasks", "at most 200 values"),
        (lambda: plan_evaluation(POP, k=10**6), "k", "at most 1000"),
        (lambda: plan_evaluation(POP, k=2.0), "k", "whole number"),  # type: ignore[arg-type]
        (lambda: plan_evaluation(POP, prior=(float("nan"), 1.0)), "prior_a", "from 0.001 to 10000"),
        (lambda: plan_evaluation(POP, prior=(1.0, 1e308)), "prior_b", "from 0.001 to 10000"),
        (lambda: plan_evaluation(POP, prior=(1.0,)), "prior", "pair"),  # type: ignore[arg-type]
        (lambda: plan_evaluation(POP, unscored_share=1.0), "unscored share", "from 0 to 0.95"),
        (lambda: plan_evaluation(POP, unscored_share=float("nan")), "unscored share", "from 0 to 0.95"),
        (lambda: plan_evaluation(POP, interactions_per_attempt=1e9), "interactions per attempt", "at most 10,000"),
        (lambda: plan_evaluation(POP, interactions_per_attempt=0), "interactions per attempt", "positive"),
        (lambda: beta_population(1e308, 1e308), "task population Beta(a)", "from 0.001 to 10000"),
        (lambda: beta_population(1.0, float("inf")), "task population Beta(b)", "from 0.001 to 10000"),
        (lambda: rates_population(0.5, 1e-9), "spread of task difficulty", "from 0.003536 to 0.4995"),
        (lambda: rates_population(float("nan"), 0.1), "mean success rate", "strictly between 0 and 1"),
        (lambda: pilot_population([10**6, 10**6], [3, 4]), "pilot", "at most 1,000 attempts per task"),
    ],
)
def test_every_number_is_bounded(call, place: str, limit: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SettingsError) as info:
        call()
    assert info.value.place == place and limit in info.value.rule and info.value.fix


def test_the_limits_themselves_are_planned() -> None:
    plan = plan_evaluation(
        beta_population(MIN_BETA, MAX_BETA), attempts=[MAX_ATTEMPTS], tasks=[10**9], half_width=0.05, k=3
    )
    assert all(c.half_width is None or math.isfinite(c.half_width) for c in plan.cells)
    plan = plan_evaluation(beta_population(MAX_BETA, MAX_BETA), attempts=[1, MAX_ATTEMPTS], half_width=0.01)
    assert plan.cheapest_for_half_width is not None


@settings(max_examples=50, deadline=None)
@given(st.floats(1e-4, 1 - 1e-4), st.floats(0.0, 1.0))
def test_spreads_within_the_limits_make_beta_populations_within_the_limits(mean: float, where: float) -> None:
    low, high = spread_limits(mean)
    assert 0 < low < high < math.sqrt(mean * (1 - mean))
    pop = rates_population(mean, low + where * (high - low))
    assert min(pop.alpha[0], pop.beta[0]) >= MIN_BETA * (1 - 1e-9)
    assert max(pop.alpha[0], pop.beta[0]) <= MAX_BETA * (1 + 1e-9)
    assert pop.mean() == pytest.approx(mean, rel=1e-9)
    assert np.isfinite(plan_evaluation(pop, attempts=[2], tasks=[100]).cells[0].half_width or 0.0)


@pytest.mark.parametrize(
    ("keyword", "value"),
    [("half_width", "0.05"), ("difference", float("inf")), ("difference", 0.0), ("correlation", "high"),
     ("correlation", 1.5), ("half_width", float("nan"))],
)  # fmt: skip
def test_goals_are_finite_numbers_in_range(keyword: str, value: object) -> None:
    with pytest.raises(SettingsError) as info:
        plan_evaluation(POP, **{keyword: value})  # type: ignore[arg-type]
    assert info.value.place == keyword.replace("_", "-") and info.value.fix


def test_a_spread_an_ulp_past_the_limit_it_was_computed_from_is_the_limit() -> None:
    # Hypothesis found it: at this mean, low + 1.0 * (high - low) is one ulp above high.
    mean = 0.10597996101888639
    low, high = spread_limits(mean)
    spread = low + 1.0 * (high - low)
    assert spread > high
    assert rates_population(mean, spread).mean() == pytest.approx(mean, rel=1e-9)
    with pytest.raises(SettingsError):
        rates_population(mean, high * 1.001)  # past the limit by more than rounding: refused
