"""The early-stopping rule: boundaries against the published tables, decisions, its error rate, errors."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import stdtrit

from agentic_core.errors import SettingsError
from agentic_core.stats.planner_sequential import MIN_BATCH, nominal_levels, sequential_bounds, sequential_decision
from benchmarks.bench_sequential import DATA, error_rate


@pytest.mark.parametrize(
    ("looks", "kind", "constant"),
    [
        # Jennison and Turnbull (2000), Table 2.1 (Pocock C_P) and Table 2.3 (O'Brien-Fleming C_B),
        # two-sided alpha = 0.05, equal group sizes.
        (2, "pocock", 2.178),
        (3, "pocock", 2.289),
        (5, "pocock", 2.413),
        (2, "obrien-fleming", 1.977),
        (3, "obrien-fleming", 2.004),
        (5, "obrien-fleming", 2.040),
    ],
)
def test_boundaries_match_the_published_constants(looks: int, kind: str, constant: float) -> None:
    bounds = sequential_bounds(looks, 0.95, kind)  # type: ignore[arg-type]
    # The last look's boundary is the constant for both kinds; Monte Carlo error about 0.01.
    assert bounds[-1] == pytest.approx(constant, abs=0.012)
    if kind == "obrien-fleming":
        assert bounds[0] == pytest.approx(constant * looks**0.5, abs=0.012 * looks**0.5)
    else:
        assert len(set(bounds)) == 1


def test_one_look_is_the_fixed_test() -> None:
    assert sequential_bounds(1)[0] == pytest.approx(1.95996, abs=0.01)


def test_decisions() -> None:
    big = np.full(50, 0.3) + np.linspace(-0.01, 0.01, 50)
    assert sequential_decision(big, 1, 3) == "B better"
    assert sequential_decision(-big, 1, 3) == "A better"
    noise = np.array([0.1, -0.1, 0.2, -0.2, 0.05, -0.04])
    assert sequential_decision(noise, 1, 3) == "continue"
    assert sequential_decision(noise, 3, 3) == "no difference shown"


def test_error_rate_under_no_difference_is_the_level() -> None:
    # Per-task differences with mean 0: the rule, looked at 3 times, says "better" in about 5% of
    # comparisons (standard error of the share with 3000 comparisons: 0.004).
    rng = np.random.default_rng(11)
    sims, batch = 3000, 40
    decided = 0
    for _ in range(sims):
        d = rng.standard_t(5, 3 * batch)  # heavy tails, as per-task differences of pass^k have
        for look in (1, 2, 3):
            verdict = sequential_decision(d[: look * batch], look, 3)
            if verdict != "continue":
                break
        decided += verdict in ("A better", "B better")
    assert decided / sims == pytest.approx(0.05, abs=4 * (0.05 * 0.95 / sims) ** 0.5)


@pytest.mark.parametrize("batch", [2, 5, 30])
def test_one_look_with_a_batch_is_the_paired_t_test(batch: int) -> None:
    # One look of m tasks: the two-sided paired t test, whose bound is the t quantile on m - 1 degrees of freedom.
    assert sequential_bounds(1, 0.95, "pocock", batch)[0] == pytest.approx(float(stdtrit(batch - 1, 0.975)), rel=0.01)


def test_t_boundaries_approach_the_normal_ones_with_large_batches() -> None:
    for kind in ("obrien-fleming", "pocock"):
        normal = sequential_bounds(3, 0.95, kind)  # type: ignore[arg-type]
        t = sequential_bounds(3, 0.95, kind, 100_000)  # type: ignore[arg-type]
        assert t == pytest.approx(normal, abs=0.01)
        small = sequential_bounds(3, 0.95, kind, 4)  # type: ignore[arg-type]
        # Fewer degrees of freedom: heavier tails, higher bars at every look.
        assert all(s > n for s, n in zip(small, normal, strict=True))


def test_nominal_levels_are_each_looks_own_significance() -> None:
    levels = nominal_levels(3, 0.95, "pocock", 4)
    # Three looks share 5%: each alone is below it, together above it (the looks are correlated).
    assert all(0.0 < x < 0.05 for x in levels) and sum(levels) > 0.05
    assert levels == pytest.approx(nominal_levels(3, 0.95, "pocock"), abs=0.002)


@pytest.mark.parametrize(
    ("data", "batch", "kind", "before_at_least"),
    [
        # The CLI's own plan `plan --mean 0.6 --spread 0.25 --difference 0.3 --looks 10`: 4 tasks a look.
        ("pass^1, n=1 (mean 0.6, spread 0.25)", 4, "pocock", 0.09),
        ("normal", 2, "obrien-fleming", 0.15),
    ],
)
def test_small_batches_keep_the_error_rate(data: str, batch: int, kind: str, before_at_least: float) -> None:
    # A seeded small run of benchmarks/bench_sequential.py: a true null, 10 looks. The rule of main before
    # (z against normal boundaries) decided far more often than 5%; the t boundaries stay at or below it.
    sims = 4000
    d = DATA[data](np.random.default_rng(5), sims, 10 * batch)
    before = error_rate(d, 10, batch, kind, "before")  # type: ignore[arg-type]
    after = error_rate(d, 10, batch, kind, "after")  # type: ignore[arg-type]
    se = (0.05 * 0.95 / sims) ** 0.5
    assert before >= before_at_least
    assert after <= 0.05 + 3 * se
    if data == "normal":
        assert after == pytest.approx(0.05, abs=4 * se)  # exact for normal differences


def test_identical_differences_are_not_proof_by_themselves() -> None:
    # sd 0: no t. Four tasks all +0.5: a fair coin per sign gives P = 2^-3 = 0.125, far above any look's level.
    same = np.full(4, 0.5)
    assert sequential_decision(same, 1, 3) == "continue"
    assert sequential_decision(same, 2, 2) == "no difference shown"
    assert sequential_decision(np.zeros(6), 3, 3) == "no difference shown"
    # Twelve in a single look: P = 2^-11, below 5%: B is better.
    assert sequential_decision(np.full(12, 0.5), 1, 1) == "B better"
    assert sequential_decision(np.full(12, -0.25), 1, 1) == "A better"


def test_fewer_than_the_minimum_batch_is_refused() -> None:
    with pytest.raises(SettingsError) as info:
        sequential_bounds(10, 0.95, "pocock", MIN_BATCH - 1)
    assert info.value.place == "tasks per look" and str(MIN_BATCH) in info.value.rule
    with pytest.raises(SettingsError) as info:
        sequential_decision(np.arange(2 * MIN_BATCH - 1, dtype=float), 2, 3)
    assert info.value.place == "differences"


@pytest.mark.parametrize(
    ("call", "place"),
    [
        (lambda: sequential_bounds(0), "looks"),
        (lambda: sequential_bounds(3, 0.95, "haybittle"), "boundary"),  # type: ignore[arg-type]
        (lambda: sequential_decision(np.zeros(5), 4, 3), "look"),
        (lambda: sequential_decision(np.zeros(1), 1, 3), "differences"),
    ],
)
def test_errors_name_the_place(call, place: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SettingsError) as info:
        call()
    assert info.value.place == place and info.value.fix
