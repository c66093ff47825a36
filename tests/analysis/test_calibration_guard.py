"""The calibration guard: "use it" only for the active run's labels, enough of both verdicts; its uncertainty."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.analysis.calibration import calibrate
from agentic_core.analysis.calibration_guard import (
    MIN_PER_VERDICT,
    best_threshold,
    run_threshold_advice,
    threshold_advice,
)


def test_one_label_is_not_enough() -> None:
    advice = threshold_advice([0.4], [1.0], labels_of_this_run=True)
    assert not advice.allowed
    assert (advice.n_human_correct, advice.n_human_incorrect) == (1, 0)
    assert f"at least {MIN_PER_VERDICT}" in advice.reason and "10 more incorrect" in advice.reason
    assert advice.threshold_interval is None and advice.uncertainty == ""


def separable(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    human = np.repeat([1.0, 0.0], n)
    scores = np.concatenate([rng.uniform(0.6, 1.0, n), rng.uniform(0.0, 0.5, n)])
    return scores, human


def test_enough_labels_of_this_run_are_allowed_with_an_interval() -> None:
    scores, human = separable(MIN_PER_VERDICT)
    advice = threshold_advice(scores, human, labels_of_this_run=True)
    assert advice.allowed and advice.reason == ""
    assert advice.threshold_interval is not None and advice.kappa_interval is not None
    low, high = advice.threshold_interval
    assert 0.0 <= low <= high <= 1.0
    assert advice.kappa_interval[1] <= 1.0
    assert "resamples" in advice.uncertainty
    # The same labels give the same interval (seeded).
    assert threshold_advice(scores, human, labels_of_this_run=True) == advice


def test_labels_of_another_run_are_never_applied() -> None:
    scores, human = separable(50)
    advice = threshold_advice(scores, human, labels_of_this_run=False)
    assert not advice.allowed and "not the active run's" in advice.reason
    assert advice.threshold_interval is not None  # its uncertainty is still shown


def test_one_short_of_the_minimum_is_refused() -> None:
    scores, human = separable(MIN_PER_VERDICT)
    advice = threshold_advice(scores[1:], human[1:], labels_of_this_run=True)
    assert not advice.allowed and "1 more correct" in advice.reason


def test_noisy_labels_give_a_wider_threshold_range() -> None:
    scores, human = separable(40)
    noisy = human.copy()
    noisy[::3] = 1 - noisy[::3]
    clean = threshold_advice(scores, human, labels_of_this_run=True).kappa_interval
    rough = threshold_advice(scores, noisy, labels_of_this_run=True).kappa_interval
    assert clean is not None and rough is not None
    assert rough[1] - rough[0] > clean[1] - clean[0]


@pytest.mark.parametrize("seed", range(5))
def test_best_threshold_matches_calibrate(seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = np.round(rng.uniform(0, 1, 60), 2)
    human = (rng.uniform(0, 1, 60) < scores).astype(float)
    cal = calibrate(scores, human, 0.5)
    assert best_threshold(scores, human >= 0.5) == pytest.approx((cal.suggested_threshold, cal.at_suggested.kappa))


def test_the_built_in_labelled_sample() -> None:
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import SAMPLES, load_sample

    name = next(key for key in SAMPLES if "label" in key)
    result = evaluate(load_sample(name), "dataset", cache_mode="off")
    assert not run_threshold_advice(result, labels_of_this_run=False).allowed
