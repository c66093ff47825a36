"""The success rate does not move with K (issue 30).

Dropping the groups with fewer than K attempts from the curve used to change the groups behind the
success rate too (0.54 at K = 1, 0.55 at K = 3 on the same data). The success rate uses every group
with an attempt; the curve's own points keep their exclusions and name them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.stats import dataset_curve

MODES = [
    ("frequentist", "population"),
    ("frequentist", "these-tasks"),
    ("bayesian", "population"),
    ("bayesian", "these-tasks"),
]


@pytest.mark.parametrize(("mode", "target"), MODES)
def test_success_rate_is_the_same_at_every_k(mode: str, target: str) -> None:
    # Two short tasks (1 and 2 attempts): K = 3 leaves them out of the curve, not of the success rate.
    n = np.array([1, 2, 5, 5, 5, 4, 6])
    c = np.array([1, 2, 1, 3, 0, 2, 5])
    at_one = dataset_curve(n, c, [1], mode=mode, target=target, seed=3)[0]  # type: ignore[arg-type]
    at_three = dataset_curve(n, c, [1, 2, 3], mode=mode, target=target, seed=3)  # type: ignore[arg-type]
    for point in at_three:
        assert point.success_rate == pytest.approx(at_one.success_rate, abs=1e-12)
        assert point.success_rate_ci == pytest.approx(at_one.success_rate_ci, abs=1e-12)
        assert point.observed_success_rate == pytest.approx(at_one.observed_success_rate, abs=1e-12)
    if mode == "frequentist":
        # Every task with an attempt: the mean of c / n over the 7 tasks.
        assert at_one.success_rate == pytest.approx(float(np.mean(c / n)))
        assert at_three[-1].n_excluded == 2  # the curve still names the tasks it leaves out


def test_success_rate_is_kept_when_k_leaves_no_task_in_the_curve() -> None:
    [point] = dataset_curve([2, 2], [1, 2], [5], mode="frequentist")
    assert point.pass_at_k is None and point.n_groups == 0
    assert point.success_rate == pytest.approx(0.75)
    assert point.success_rate_ci is not None and point.success_rate_ci[0] <= 0.75 <= point.success_rate_ci[1]


@settings(max_examples=25, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(1, 6), st.integers(0, 6)), min_size=2, max_size=8),
    k_max=st.integers(2, 7),
    mode=st.sampled_from(["frequentist", "bayesian"]),
)
def test_success_rate_never_depends_on_k(pairs: list[tuple[int, int]], k_max: int, mode: str) -> None:
    n = np.array([a for a, _ in pairs])
    c = np.minimum(np.array([b for _, b in pairs]), n)
    base = dataset_curve(n, c, [1], mode=mode, target="these-tasks", seed=1)[0]  # type: ignore[arg-type]
    for point in dataset_curve(n, c, list(range(1, k_max + 1)), mode=mode, target="these-tasks", seed=1):  # type: ignore[arg-type]
        assert point.success_rate == pytest.approx(base.success_rate, abs=1e-12)
        assert point.success_rate_ci == pytest.approx(base.success_rate_ci, abs=1e-12)
