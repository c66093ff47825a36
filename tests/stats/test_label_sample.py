"""The review queue's draws (agentic_core/stats/label_sample.py): probabilities, stability, and unbiasedness.

The unbiasedness check is a small version of benchmarks/bench_label_queue.py: over many seeded queue draws the
mean corrected success rate is within Monte Carlo error of the run's known truth, and the same labels read without
their inclusion probabilities are not (so the check can fail).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.stats.label_sample import capped_inclusion, draw_tasks
from benchmarks.bench_label_queue import make_run, simulate


@given(
    st.lists(st.floats(0.01, 100.0), min_size=1, max_size=60),
    st.floats(0.05, 1.0),
)
@settings(max_examples=200, deadline=None)
def test_capped_inclusion_sums_to_the_size_and_stays_proportional(weights: list[float], share: float) -> None:
    w = np.asarray(weights)
    size = share * w.size
    pi = capped_inclusion(w, size)
    assert pi.sum() == pytest.approx(size, rel=1e-9, abs=1e-9)
    assert np.all((pi > 0) & (pi <= 1.0 + 1e-12))
    free = pi < 1.0 - 1e-12
    if free.sum() >= 2:  # below the cap, pi is proportional to the weight
        ratio = pi[free] / w[free]
        assert np.allclose(ratio, ratio[0])
    # A capped task never has a smaller weight than an uncapped one.
    if free.any() and (~free).any():
        assert w[~free].min() >= w[free].max() - 1e-9


def test_capped_inclusion_by_hand() -> None:
    # Weights 1, 1, 8, size 2: 8/10 * 2 = 1.6 > 1, so the third is certain and the other two share 1: 0.5 each.
    assert capped_inclusion([1.0, 1.0, 8.0], 2.0).tolist() == pytest.approx([0.5, 0.5, 1.0])
    assert capped_inclusion([1.0, 3.0], 2.0).tolist() == [1.0, 1.0]


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(SettingsError):
        capped_inclusion([1.0, 0.0], 1.0)
    with pytest.raises(SettingsError):
        draw_tasks(10, 11, 0)
    with pytest.raises(SettingsError):
        draw_tasks(0, 1, 0)


def test_the_same_seed_draws_the_same_queue_and_a_larger_queue_extends_it() -> None:
    a, b = draw_tasks(50, 20, 7), draw_tasks(50, 20, 7)
    assert a == b and len(set(a.tasks)) == 20 and not a.weighted
    assert draw_tasks(50, 30, 7).tasks[:20] == a.tasks  # asking for more labels only appends tasks
    assert draw_tasks(50, 20, 8).tasks != a.tasks
    w = np.linspace(0.25, 1.25, 50)
    assert draw_tasks(50, 20, 7, w) == draw_tasks(50, 20, 7, w)


def test_the_weighted_draw_takes_each_task_with_its_probability() -> None:
    w = np.array([0.25] * 30 + [1.25] * 10)
    pi = capped_inclusion(w, 12.0)
    hits = np.zeros(w.size)
    draws = 2000
    for seed in range(draws):
        hits[list(draw_tasks(w.size, 12, seed, w).tasks)] += 1
    freq = hits / draws
    se = np.sqrt(pi * (1 - pi) / draws)
    assert np.all(np.abs(freq - pi) < 4.5 * se + 1e-9)


def test_uncertain_first_stays_unbiased_and_ignoring_its_weights_does_not() -> None:
    # Hard tasks are the uncertain ones: the weighted draw over-samples failures, so only 1/pi keeps it unbiased.
    run = make_run(tasks=150, attempts=2, sensitivity=0.8, specificity=0.6, seed=3)
    weighted = simulate(run, size=30, draws=150, design="uncertain-first")
    assert abs(weighted["bias"]) < 4 * weighted["se"] + 0.005
    ignored = simulate(run, size=30, draws=150, design="uncertain-first", use_weights=False)
    assert abs(ignored["bias"]) > 6 * ignored["se"]
    uniform = simulate(run, size=30, draws=150, design="random-tasks")
    assert abs(uniform["bias"]) < 4 * uniform["se"] + 0.005
