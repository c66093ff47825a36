"""The abstention band picked from labelled answers (issue 41): the suggestion, its guard, its range."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.analysis.band_advice import band_advice, suggest_band
from agentic_core.analysis.calibration_guard import MIN_PER_VERDICT
from agentic_core.common.passing import band_decides

# Verdicts at 0.5: incorrect, incorrect, incorrect, correct, correct, correct; people: 0 0 1 0 1 1.
# The two nearest 0.5 (distance 0.05 each, a tie) are the two the judge gets wrong.
P = [0.05, 0.1, 0.45, 0.55, 0.9, 0.95]
HUMAN = [0, 0, 1, 0, 1, 1]


def test_the_fewest_abstentions_that_reach_the_target() -> None:
    s = suggest_band(P, HUMAN, 0.5, 0.9)
    # Never abstaining agrees on 4 of 6 (0.667); abstaining on the tied pair nearest 0.5 agrees on 4 of 4.
    assert s.band is not None and s.abstained == pytest.approx(2 / 6) and s.accuracy == 1.0
    low, high = s.band
    assert band_decides(np.array(P), low, high).tolist() == [True, True, False, False, True, True]
    # The middle of the gap between the distances 0.05 and 0.4, at two decimals: h = 0.225 -> edges near 0.275, 0.725.
    assert 0.1 < low < 0.45 and 0.55 < high < 0.9 and round(low, 2) == low and round(high, 2) == high


def test_a_reachable_target_without_abstaining_suggests_a_band_of_width_0() -> None:
    s = suggest_band(P, HUMAN, 0.5, 0.6)
    assert s.band == (0.5, 0.5) and s.abstained == 0.0 and s.accuracy == pytest.approx(4 / 6)
    assert "never abstaining" in s.sentence.lower()


def test_an_unreachable_target_says_the_best_there_is() -> None:
    # People disagree with the surest verdicts: never abstaining agrees on 0.5 alone (1 of 3), abstaining on it
    # leaves the two wrong ones (0 of 2), and abstaining on all gives no verdict. No band reaches 90%.
    s = suggest_band([0.05, 0.95, 0.5], [1, 0, 1], 0.5, 0.9)
    assert s.band is None and s.best_accuracy == pytest.approx(1 / 3)
    assert "No band reaches 90%" in s.sentence


def test_ties_are_abstained_on_together() -> None:
    # 0.45 and 0.55 are equally near 0.5 (not quite, in binary): no band abstains on one without the other, so
    # 75% needs both (4 of 4) rather than 0.45 alone (4 of 5 would do, but is no band of the curve).
    s = suggest_band(P, HUMAN, 0.5, 0.75)
    assert s.abstained == pytest.approx(2 / 6) and s.accuracy == 1.0


def _labelled(n_ok: int, n_bad: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    human = np.array([1] * n_ok + [0] * n_bad, dtype=float)
    p = np.clip(np.where(human == 1, rng.beta(5, 2, len(human)), rng.beta(2, 5, len(human))), 0, 1)
    return p, human


def test_the_guard_is_the_thresholds() -> None:
    p, human = _labelled(MIN_PER_VERDICT - 1, 30)
    few = band_advice(p, human, 0.5, 0.8, labels_of_this_run=True)
    assert not few.allowed and f"at least {MIN_PER_VERDICT}" in few.reason and "1 more correct" in few.reason
    p, human = _labelled(40, 40)
    other = band_advice(p, human, 0.5, 0.8, labels_of_this_run=False)
    assert not other.allowed and "a band learned on other data" in other.reason
    own = band_advice(p, human, 0.5, 0.8, labels_of_this_run=True)
    assert own.allowed and own.reason == "" and own.suggestion.band is not None


def test_the_bootstrap_range_is_seeded_and_ordered() -> None:
    p, human = _labelled(40, 40, seed=3)
    a = band_advice(p, human, 0.5, 0.85, labels_of_this_run=True)
    b = band_advice(p, human, 0.5, 0.85, labels_of_this_run=True)
    assert a == b  # the same labels, the same range
    assert a.low_interval is not None and a.high_interval is not None and a.abstained_interval is not None
    assert 0 <= a.low_interval[0] <= a.low_interval[1] <= 0.5 <= a.high_interval[0] <= a.high_interval[1] <= 1
    assert "resamples" in a.uncertainty


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=30),
    st.sampled_from([0.3, 0.5, 0.7]),
    st.sampled_from([0.6, 0.8, 0.9, 1.0]),
)
def test_the_suggestion_reaches_the_target_with_the_fewest_abstentions(
    pairs: list[tuple[float, bool]], threshold: float, target: float
) -> None:
    p = np.array([x for x, _ in pairs])
    human = np.array([float(y) for _, y in pairs])
    s = suggest_band(p, human, threshold, target)
    # Independently: every band of the curve, by brute force over the distinct distances from the threshold.
    distance = np.round(np.abs(p - threshold), 12)  # equally near to 12 decimals: abstained on together
    best_abstained = None
    for h in [0.0, *sorted(set(distance.tolist())), np.inf]:
        given = (distance >= h) | (p == 0) | (p == 1)  # a band's edges lie in [0, 1] and decide 0 and 1
        if given.any() and (((p[given] >= threshold - 1e-9) == (human[given] == 1)).mean() >= target - 1e-12):
            best_abstained = 1 - given.mean()
            break
    if best_abstained is None:
        assert s.band is None
        return
    assert s.band is not None and s.accuracy is not None
    assert s.accuracy >= target - 1e-12
    assert s.abstained == pytest.approx(best_abstained)
