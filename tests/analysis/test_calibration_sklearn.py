"""Calibration's ROC AUC and Cohen's kappa agree with scikit-learn's (issue 38: scoring from scikit-learn).

The product computes both itself (the runtime never imports scikit-learn, a dev dependency); these property tests
hold its numbers to ``sklearn.metrics.roc_auc_score`` and ``cohen_kappa_score`` on any labelled scores, ties and
unscored items included.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from agentic_core.analysis.calibration import calibrate
from agentic_core.common.passing import reaches

# Scores on a coarse grid, so ties (which both count half in the AUC) are common; NaN is an unscored item.
SCORE = st.one_of(st.sampled_from([i / 20 for i in range(21)]), st.just(math.nan))
PAIRS = st.lists(st.tuples(SCORE, st.sampled_from([0.0, 1.0, math.nan])), min_size=2, max_size=60)


def _kept(pairs: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    scores = np.array([s for s, _ in pairs])
    human = np.array([h for _, h in pairs])
    keep = ~np.isnan(scores) & ~np.isnan(human)
    return scores[keep], human[keep].astype(int)


@given(pairs=PAIRS, threshold=st.sampled_from([0.0, 0.25, 0.5, 0.7, 0.95, 1.0]))
def test_auc_and_kappa_are_scikit_learns(pairs: list[tuple[float, float]], threshold: float) -> None:
    scores, human = _kept(pairs)
    assume(len(set(human.tolist())) == 2)  # both need a person's "correct" and "incorrect"
    result = calibrate([s for s, _ in pairs], [h for _, h in pairs], threshold)
    assert result.auc == pytest.approx(roc_auc_score(human, scores), abs=1e-12)
    judged = reaches(scores, threshold).astype(int)
    assert result.at_threshold.kappa == pytest.approx(cohen_kappa_score(human, judged), abs=1e-12)
    assert result.at_threshold.accuracy == pytest.approx(float((judged == human).mean()), abs=1e-12)


def test_a_worked_example_against_scikit_learn() -> None:
    # One fixed case with ties at the threshold, so a failure names numbers a reader can check by hand.
    scores = [0.9, 0.7, 0.7, 0.4, 0.2, 0.7, 0.1, 0.95]
    human = [1, 1, 0, 1, 0, 1, 0, 1]
    result = calibrate(scores, human, 0.7)
    assert result.auc == pytest.approx(roc_auc_score(human, scores))
    assert result.at_threshold.kappa == pytest.approx(cohen_kappa_score(human, [int(s >= 0.7) for s in scores]))
