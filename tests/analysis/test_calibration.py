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
    threshold_text,
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
    best = cal.at_suggested
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


def test_the_suggestion_is_the_middle_of_the_plateau_not_the_score_at_its_edge() -> None:
    # Issue 36: wrong answers score 0.02-0.06, right ones 0.94-0.96, so every threshold above 0.06 and up to
    # 0.94 separates them (kappa 1). The suggestion was 0.94, one answer's score at the plateau's edge: a
    # re-judged answer at 0.939 would fall to the other side. Its middle, 0.50, is the robust choice.
    scores = np.array([0.02, 0.04, 0.06, 0.94, 0.95, 0.96])
    human = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    cal = calibrate(scores, human, threshold=0.3)
    assert cal.suggested_range == (0.06, 0.94)
    assert cal.suggested_threshold == 0.5
    assert cal.at_suggested.kappa == pytest.approx(1.0)
    assert cal.at_suggested.confusion == Confusion(tp=3, fp=0, fn=0, tn=3)
    assert cal.suggestion == (
        "every threshold above 0.06 and up to 0.94 gives the highest kappa (1.000); suggested: the middle, 0.50"
    )


def test_a_narrow_plateau_is_suggested_with_the_digits_that_keep_it_inside() -> None:
    # The highest kappa only for thresholds above 0.041 and up to 0.0594 (the labelled sample's shape
    # under the learned judge): 0.05 is inside; the sentence's ends are rounded inwards.
    scores = np.array([0.0407, 0.0594, 0.01, 0.9376, 0.95, 0.97])
    human = np.array([0.0, 1.0, 0.0, 1.0, 1.0, 1.0])
    cal = calibrate(scores, human, threshold=0.5)
    assert cal.suggested_range == (0.0407, 0.0594) and cal.suggested_threshold == 0.05
    assert "above 0.041 and up to 0.059" in cal.suggestion
    narrow = calibrate(np.array([0.351, 0.3512, 0.9]), np.array([0.0, 1.0, 1.0]), threshold=0.5)
    assert narrow.suggested_range == (0.351, 0.3512) and narrow.suggested_threshold == 0.3511
    assert narrow.at_suggested.kappa == pytest.approx(1.0)
    assert threshold_text(narrow.suggested_threshold) == "0.3511" and threshold_text(0.5) == "0.50"


def test_one_kind_of_label_makes_every_threshold_a_plateau() -> None:
    cal = calibrate([0.9, 0.1], [1.0, 1.0], threshold=0.5)
    assert cal.suggested_range == (0.0, 1.0) and cal.suggested_threshold == 0.5
    assert cal.suggestion.startswith("every threshold from 0.00 up to 1.00")


@given(
    st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=30),
    st.floats(0, 1),
)
def test_the_sweep_is_a_step_that_takes_its_value_from_the_right(rows: list[tuple[float, bool]], t: float) -> None:
    # What the sweep chart draws (Plotly's "vh"): a threshold t agrees as the first sweep point at or above it.
    # And the suggestion: inside its range, with the highest kappa of the sweep.
    scores = np.array([s for s, _ in rows])
    human = np.array([1.0 if h else 0.0 for _, h in rows])
    cal = calibrate(scores, human, threshold=t)
    right = next(p for p in cal.sweep if p.threshold >= t - 1e-9)
    assert cal.at_threshold.confusion == right.confusion
    low, high = cal.suggested_range
    assert low <= cal.suggested_threshold <= high
    assert cal.at_suggested.kappa == pytest.approx(max(p.kappa for p in cal.sweep), abs=1e-12)
    # Every threshold strictly inside the range gives that kappa too.
    inside = calibrate(scores, human, threshold=(low + high) / 2 if high > low else low)
    assert inside.at_threshold.kappa == pytest.approx(cal.at_suggested.kappa, abs=1e-12)


class _UnsureJudge:
    """An offline judge that abstains on every item (uncertain, unscored, with a probability)."""

    cacheable = False
    recommended_threshold = 0.5

    def __init__(self) -> None:
        from agentic_core.judges.base import JudgeIdentity

        self.identity = JudgeIdentity(kind="unsure-test", params={"version": 1})

    async def ajudge(self, items, progress=None):  # type: ignore[no-untyped-def]
        from agentic_core.judges.base import uncertain_verdict

        return [uncertain_verdict(0.5, "test features, P(correct) 0.50", "inside the band") for _ in items]


def test_a_judge_unsure_of_every_label_is_not_told_to_fix_a_model_key_or_server() -> None:
    """Issue 36: an offline judge that abstained everywhere has no key or base_url to check."""
    from agentic_core.analysis.calibration import calibrate_run
    from agentic_core.errors import DataError
    from agentic_core.evaluate import evaluate
    from agentic_core.io.samples import SAMPLES

    result = evaluate(SAMPLES["labelled"].path, _UnsureJudge(), cache_mode="off")
    with pytest.raises(DataError) as caught:
        calibrate_run(result, 0.5)
    text = str(caught.value)
    assert "scored none of the" in text and "unsure of every labelled answer" in text
    assert "base_url" not in text and "the key" not in text
