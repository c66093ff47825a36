"""The abstention band as a setting (issue 41): the documented verdicts at its edges, and re-deciding without a judge.

The fake judge (tests/band_fakes.py) writes the learned judge's rule out by hand, so the aggregate's band (the one
rule in agentic_core.common.passing) is checked against an independent statement of it; the counts below are worked
out by hand from the probabilities.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.analysis.abstention import band_verdicts, judge_band
from agentic_core.analysis.aggregate import aggregate
from agentic_core.common.frame_columns import InteractionCols
from agentic_core.common.passing import band_decides
from agentic_core.data.overrides import Override
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings
from tests.band_fakes import band_run

# Exactly the fitted band's edges (0.2, 0.8), exactly the threshold (0.5), and values just beside them.
EDGES = [0.2, 0.8, 0.5, 0.19, 0.81, 0.5000001, 0.0, 1.0]


@pytest.fixture(scope="module")
def edges() -> EvaluationResult:
    return band_run(EDGES)


def _column(agg: object, name: str) -> list[object]:
    return agg.interactions[name].tolist()  # type: ignore[attr-defined]


def test_band_rule_at_its_edges() -> None:
    # Edges inclusive: p == low and p == high are decided; strictly inside abstains; NaN never decides.
    assert band_decides(0.2, 0.2, 0.8) and band_decides(0.8, 0.2, 0.8)
    assert not band_decides(0.2000001, 0.2, 0.8) and not band_decides(0.7999999, 0.2, 0.8)
    assert not band_decides(math.nan, 0.2, 0.8)
    # Width 0 never abstains, even at the band's own point.
    assert band_decides(np.array([0.0, 0.3, 0.5, 0.50001, 1.0]), 0.5, 0.5).all()
    assert band_decides(np.array([0.2, 0.5, np.nan]), 0.2, 0.8).tolist() == [True, False, False]


def test_default_band_gives_the_judges_verdicts_at_the_edges(edges: EvaluationResult) -> None:
    agg = aggregate(edges, make_settings(threshold=0.5))
    # 0.2 and 0.8 are decided (edges inclusive): 0.2 incorrect, 0.8 correct; 0.5 and 0.5000001 are inside.
    assert _column(agg, InteractionCols.UNCERTAIN) == [False, False, True, False, False, True, False, False]
    assert _column(agg, InteractionCols.CORRECT) == [False, True, False, False, True, False, False, True]
    assert agg.counts.unscored_interactions == agg.counts.uncertain_interactions == 2
    assert agg.counts.correct_interactions == 3
    # The fitted band given as a setting is the same band.
    explicit = aggregate(edges, make_settings(threshold=0.5, abstain_band=(0.2, 0.8)))
    assert explicit.interactions.equals(agg.interactions) and explicit.counts == agg.counts


def test_width_zero_never_abstains_and_the_threshold_decides_at_its_own_value(edges: EvaluationResult) -> None:
    agg = aggregate(edges, make_settings(threshold=0.5, abstain_band=(0.5, 0.5)))
    assert agg.counts.unscored_interactions == agg.counts.uncertain_interactions == 0
    # Scored by their probability: p == threshold passes (0.5), as does 0.5000001; 0.2, 0.19 and 0.0 fail.
    assert _column(agg, InteractionCols.CORRECT) == [False, True, True, False, True, True, False, True]
    assert _column(agg, InteractionCols.SCORE) == pytest.approx(EDGES)


def test_a_wider_band_abstains_on_its_old_edges(edges: EvaluationResult) -> None:
    agg = aggregate(edges, make_settings(threshold=0.5, abstain_band=(0.19, 0.81)))
    # 0.2 and 0.8 are now strictly inside; 0.19 and 0.81 are the new (inclusive) edges.
    assert _column(agg, InteractionCols.UNCERTAIN) == [True, True, True, False, False, True, False, False]
    assert agg.counts.unscored_interactions == 4
    unscored = agg.interactions[InteractionCols.UNSCORED].to_numpy()
    assert np.isnan(agg.interactions[InteractionCols.SCORE].to_numpy()[unscored]).all()


def test_the_threshold_at_the_upper_edge_passes_it(edges: EvaluationResult) -> None:
    agg = aggregate(edges, make_settings(threshold=0.8))
    assert _column(agg, InteractionCols.CORRECT)[:2] == [False, True]  # 0.8 reaches 0.8


def test_the_band_moves_the_unscored_bounds_and_the_rates(edges: EvaluationResult) -> None:
    fitted = aggregate(edges, make_settings(threshold=0.5))
    never = aggregate(edges, make_settings(threshold=0.5, abstain_band=(0.5, 0.5)))
    assert fitted.unscored is not None and fitted.unscored.unscored_interactions == 2
    assert never.unscored is None  # nothing is left unscored
    # Conversations (one interaction each): fitted 3 correct of 6 scored; never abstaining 5 of 8.
    assert fitted.success_rate.observed == pytest.approx(3 / 6)
    assert never.success_rate.observed == pytest.approx(5 / 8)


def test_items_without_a_probability_keep_their_verdict() -> None:
    result = band_run([0.5, None, 0.9])
    agg = aggregate(result, make_settings(threshold=0.5, abstain_band=(0.0, 1.0)))
    # The band (0, 1) abstains on every probability strictly inside; the item without one keeps its score 1.0.
    assert _column(agg, InteractionCols.UNCERTAIN) == [True, False, True]
    assert _column(agg, InteractionCols.CORRECT) == [False, True, False]
    assert agg.counts.unscored_interactions == 2


def test_a_persons_verdict_wins_over_the_band(edges: EvaluationResult) -> None:
    from dataclasses import replace

    overridden = replace(edges, overrides={2: Override(row=2, correct=True)})  # 0.5: uncertain under the fitted band
    agg = aggregate(overridden, make_settings(threshold=0.5))
    assert _column(agg, InteractionCols.UNCERTAIN)[2] is False and _column(agg, InteractionCols.CORRECT)[2] is True
    wide = aggregate(overridden, make_settings(threshold=0.5, abstain_band=(0.0, 1.0)))
    assert _column(wide, InteractionCols.CORRECT)[2] is True and not _column(wide, InteractionCols.UNSCORED)[2]


def test_a_judge_without_probabilities_is_untouched_by_any_band() -> None:
    result = evaluate(load_sample("seeds"), "dataset", cache_mode="off")
    plain = aggregate(result, make_settings())
    banded = aggregate(result, make_settings(abstain_band=(0.0, 1.0)))
    assert plain.interactions.equals(banded.interactions) and plain.counts == banded.counts
    assert judge_band(result) == (None, False)


def test_the_learned_judge_records_its_band_and_the_setting_reproduces_its_verdicts() -> None:
    from agentic_core.judges.offline.learned import load_models

    result = evaluate(load_sample("support"), "learned")  # the shipped verdicts answer it
    models, _, _ = load_models()
    fitted = result.judge_run.fitted_band
    assert fitted is not None and fitted.edges in {(m.low, m.high) for m in models.values()}
    by_judge = aggregate(result, make_settings(threshold=0.5))
    by_setting = aggregate(result, make_settings(threshold=0.5, abstain_band=fitted.edges))
    assert by_judge.interactions.equals(by_setting.interactions)
    statuses = result.interactions["judge_status"].to_numpy()
    assert by_judge.counts.uncertain_interactions == int((statuses == "uncertain").sum()) > 0


def test_a_run_stored_without_its_band_gets_one_that_gives_its_verdicts(edges: EvaluationResult) -> None:
    from dataclasses import replace

    old = replace(edges, judge_run=edges.judge_run.model_copy(update={"fitted_band": None}))
    band, inferred = judge_band(old)
    assert inferred and band is not None
    # The decided probabilities nearest the abstentions (0.5, 0.5000001): 0.2 below, 0.8 above.
    assert band.edges == (0.2, 0.8)
    assert aggregate(old, make_settings(abstain_band=band.edges)).interactions.equals(aggregate(old).interactions)


probabilities = st.lists(st.floats(0, 1), min_size=1, max_size=40)
edges_pair = st.tuples(st.floats(0, 1), st.floats(0, 1)).map(lambda t: (min(t), max(t)))


@given(probabilities, edges_pair, edges_pair)
def test_widening_the_band_never_decides_more_items(
    ps: list[float], a: tuple[float, float], b: tuple[float, float]
) -> None:
    narrow = a
    wide = (min(a[0], b[0]), max(a[1], b[1]))  # contains the narrow band
    p = np.asarray(ps)
    score = np.where(band_decides(p, 0.5, 0.5), p, np.nan)
    s_narrow, u_narrow = band_verdicts(score, p, narrow)
    s_wide, u_wide = band_verdicts(score, p, wide)
    decided_wide = ~np.isnan(s_wide)
    assert not (decided_wide & np.isnan(s_narrow)).any()  # every item the wide band decides, the narrow one does
    assert u_wide.sum() >= u_narrow.sum()


@settings(max_examples=25, deadline=None)
@given(edges_pair, edges_pair)
def test_widening_the_band_never_scores_more_interactions(a: tuple[float, float], b: tuple[float, float]) -> None:
    result = _WIDENING
    wide = (min(a[0], b[0]), max(a[1], b[1]))
    narrow_agg = aggregate(result, make_settings(abstain_band=a, k=1))
    wide_agg = aggregate(result, make_settings(abstain_band=wide, k=1))
    assert wide_agg.counts.unscored_interactions >= narrow_agg.counts.unscored_interactions
    assert wide_agg.counts.scored_conversations <= narrow_agg.counts.scored_conversations


_WIDENING = band_run([i / 20 for i in range(21)])


# Six tasks of three attempts, one interaction each; the fake's band (0.2, 0.8) abstains on 0.5 and 0.6.
TASKS = [[0.9, 0.5, 0.1], [0.9, 0.9, 0.6], [0.1, 0.1, 0.5], [0.9, 0.9, 0.9], [0.5, 0.6, 0.1], [0.1, 0.9, 0.1]]


@pytest.mark.parametrize(
    ("mode", "target"),
    [("frequentist", "population"), ("frequentist", "these-tasks"), ("bayesian", "population"),
     ("bayesian", "these-tasks")],
)  # fmt: skip
def test_the_unscored_bounds_are_the_curves_points_with_every_attempt_scored(mode: str, target: str) -> None:
    from agentic_core import stats
    from tests.band_fakes import BandJudge
    from tests.datasets import conv, convs

    records = []
    for t, attempts in enumerate(TASKS):
        for a, p in enumerate(attempts):
            records.append(conv(f"t{t}a{a}", [p], task=f"task{t}"))
    result = evaluate(convs(records), BandJudge(), cache_mode="off")
    agg = aggregate(result, make_settings(threshold=0.5, k=2, unit="task", mode=mode, target=target))
    assert agg.unscored is not None and agg.unscored.unscored_interactions == 5
    # By hand: per task, attempts decided correct (>= 0.8), and those plus the abstentions (0.5, 0.6).
    n = np.full(len(TASKS), 3)
    correct = np.array([sum(p >= 0.8 for p in ps) for ps in TASKS])
    with_unsure = np.array([sum(p >= 0.8 or 0.2 < p < 0.8 for p in ps) for ps in TASKS])
    for c, bound in ((correct, agg.unscored.as_incorrect), (with_unsure, agg.unscored.as_correct)):
        # The curve as the settings compute it, with their own 4000 draws: the points never depend on the draws.
        point = stats.dataset_curve(n, c, [2], mode=mode, target=target)[0]  # type: ignore[arg-type]
        assert (bound.success_rate, bound.pass_at_k, bound.pass_pow_k) == (
            point.success_rate, point.pass_at_k, point.pass_pow_k
        )


def test_the_explorer_says_what_the_band_decided() -> None:
    from agentic_core.report.explorer import conversation_detail

    result = band_run([0.5, 0.9])  # 0.5: the judge abstains; 0.9: it decides
    never = aggregate(result, make_settings(threshold=0.5, abstain_band=(0.5, 0.5)))
    decided = conversation_detail(result, never, 0)[0]
    assert decided.judge_score == 0.5 and "the abstention band set decides it" in decided.verdict
    wide = aggregate(result, make_settings(threshold=0.5, abstain_band=(0.0, 1.0)))
    dropped = conversation_detail(result, wide, 1)[0]
    assert dropped.judge_score is None and "abstained" in dropped.verdict
    assert "uncertain under the abstention band set: P(correct) 0.900" in dropped.verdict
