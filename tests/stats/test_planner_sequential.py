"""The early-stopping rule: boundaries against the published tables, decisions, its error rate, errors."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.errors import SettingsError
from agentic_core.stats.planner_sequential import sequential_bounds, sequential_decision


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
