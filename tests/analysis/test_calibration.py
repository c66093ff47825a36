"""Judge against human labels: kappa, ROC AUC, the sweep and the suggested threshold."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_core.analysis.calibration import (
    Confusion,
    calibrate,
    cohen_kappa,
    human_verdicts,
    reliability_bins,
    roc_auc,
)
from agentic_core.errors import DataError


def test_kappa_reference_value() -> None:
    # Wikipedia, "Cohen's kappa", simple example: 20 yes-yes, 5 yes-no, 10 no-yes, 15 no-no:
    # p_o = 0.7, p_e = 0.5, kappa = 0.4.
    assert cohen_kappa(Confusion(tp=20, fp=5, fn=10, tn=15)) == pytest.approx(0.4)
    # Perfect agreement is 1; a judge that passes everything agrees only by chance: 0.
    assert cohen_kappa(Confusion(tp=9, fp=0, fn=0, tn=1)) == pytest.approx(1.0)
    assert cohen_kappa(Confusion(tp=9, fp=1, fn=0, tn=0)) == pytest.approx(0.0)


@given(
    st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=2, max_size=40).filter(
        lambda rows: len({h for _, h in rows}) == 2
    )
)
def test_auc_equals_the_pairwise_definition(rows: list[tuple[float, bool]]) -> None:
    scores = np.array([s for s, _ in rows])
    human = np.array([h for _, h in rows])
    pos, neg = scores[human], scores[~human]
    brute = np.mean([1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg])
    assert roc_auc(scores, human) == pytest.approx(brute)


def test_human_scores_fill_in_where_there_is_no_label() -> None:
    verdicts = human_verdicts([1, None, 0, None], [None, 0.8, 0.9, 0.2])
    assert verdicts.tolist() == [1.0, 1.0, 0.0, 0.0]
    assert np.isnan(human_verdicts([None], [None])[0])


def test_the_suggested_threshold_maximises_kappa_not_accuracy() -> None:
    # 90% of the answers are right; the judge scores wrong ones 0.6 and right ones 0.8.
    scores = np.array([0.8] * 18 + [0.6] * 2)
    human = np.array([1.0] * 18 + [0.0] * 2)
    cal = calibrate(scores, human, threshold=0.5)
    assert cal.at_threshold.accuracy == pytest.approx(0.9) and cal.at_threshold.kappa == pytest.approx(0.0)
    assert 0.6 < cal.suggested_threshold <= 0.8
    best = next(p for p in cal.sweep if p.threshold == cal.suggested_threshold)
    assert best.kappa == pytest.approx(1.0) and best.confusion == Confusion(tp=18, fp=0, fn=0, tn=2)
    assert cal.auc == pytest.approx(1.0)
    assert cal.roc[0][0] == 0.0 and cal.roc[-1] == (1.0, 1.0)


def test_unlabelled_and_unscored_interactions_are_left_out() -> None:
    cal = calibrate([0.9, np.nan, 0.1, 0.7], [1.0, 1.0, np.nan, 0.0], threshold=0.5)
    assert cal.n_labelled == 2 and cal.n_human_correct == 1
    assert any("only 2 labelled" in n for n in cal.notes)
    with pytest.raises(DataError, match="human_label"):
        calibrate([0.5], [np.nan], threshold=0.5)


def test_reliability_bins_cover_every_score_once() -> None:
    scores = np.array([0.0, 0.05, 0.55, 0.99, 1.0])
    human = np.array([False, False, True, True, True])
    bins = reliability_bins(scores, human, bins=10)
    assert sum(b.n for b in bins) == 5
    assert bins[0].n == 2 and bins[-1].n == 2 and bins[5].human_correct_rate == 1.0
