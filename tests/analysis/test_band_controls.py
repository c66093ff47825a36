"""What the threshold and the band can change on a run, said beside them (issue 41), and the holdout's figures."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agentic_core.analysis.band_controls import band_controls
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.judges.offline.holdout import HOLDOUT_PATH, holdout_figures, holdout_pairs
from tests.band_fakes import BandJudge, band_run
from tests.datasets import conv, convs

# Decided at or below 0.15 and at or above 0.85 (the fake's band is (0.2, 0.8)); 0.5 and 0.6 abstained on.
SPARSE = [0.1, 0.15, 0.5, 0.6, 0.85, 0.9]


def test_the_threshold_inside_an_empty_gap_says_so_and_names_the_gap() -> None:
    controls = band_controls(band_run(SPARSE), 0.5, None)
    assert not controls.threshold_moves
    # Every threshold above 0.15 and up to 0.85 gives the same verdicts; the two abstentions lie in the gap.
    assert "between 0.15 and 0.85" in controls.threshold_note
    assert "above 0.15 and up to 0.85" in controls.threshold_note
    assert "abstains on 2 interactions" in controls.threshold_note
    assert controls.uncertain == 2 and controls.fitted == (0.2, 0.8) and controls.band == (0.2, 0.8)


def test_the_threshold_beside_a_decided_score_moves_and_says_nothing() -> None:
    controls = band_controls(band_run(SPARSE), 0.85, None)  # one step up fails 0.85
    assert controls.threshold_moves and controls.threshold_note == ""


def test_narrowing_the_band_makes_the_threshold_live() -> None:
    # Width 0 at 0.5: 0.5 and 0.6 are decided too, and one step up from 0.6 (0.61) fails 0.6.
    controls = band_controls(band_run(SPARSE), 0.6, (0.5, 0.5))
    assert controls.threshold_moves and controls.uncertain == 0


def test_the_gap_is_named_with_edges_rounded_inwards() -> None:
    # 0.9351 printed as 0.94 would name a threshold (0.94) that fails it.
    controls = band_controls(band_run([0.1, 0.9351]), 0.5, None)
    assert "above 0.10 and up to 0.93" in controls.threshold_note


def test_a_judge_of_0_or_1_says_no_threshold_above_0_matters() -> None:
    result = evaluate(convs([conv("a", [0.0, 1.0]), conv("b", [1.0])]), "dataset", cache_mode="off")
    controls = band_controls(result, 0.7, None)
    assert not controls.threshold_moves
    assert "gives only the scores 0 and 1" in controls.threshold_note
    assert not controls.has_band and "gives no probability" in controls.band_note


def test_one_step_of_either_edge_changing_nothing_is_said() -> None:
    controls = band_controls(band_run(SPARSE), 0.5, (0.3, 0.7))
    assert not controls.band_moves
    assert "the probabilities the judge abstains on run from 0.50 to 0.60" in controls.band_note
    live = band_controls(band_run(SPARSE), 0.5, (0.5, 0.7))  # 0.5 is on the lower edge: one step up abstains
    assert live.band_moves


def test_a_threshold_outside_the_band_is_said() -> None:
    controls = band_controls(band_run(SPARSE), 0.95, None)
    assert "lies above the band" in controls.band_note and "count as incorrect" in controls.band_note


def test_the_cascade_says_the_band_cannot_send_anything_to_the_llm() -> None:
    result = band_run([0.1, None, 0.9, None], BandJudge(kind="cascade"))
    controls = band_controls(result, 0.5, None)
    assert controls.with_probability == 2 and controls.without_probability == 2
    assert "offline judge decided" in controls.band_note and "sends nothing to the LLM" in controls.band_note


def test_overridden_interactions_are_no_controls_business() -> None:
    from dataclasses import replace

    from agentic_core.data.overrides import Override

    result = band_run(SPARSE)
    overridden = replace(result, overrides={2: Override(row=2, correct=True), 3: Override(row=3, correct=False)})
    controls = band_controls(overridden, 0.5, None)
    assert controls.uncertain == 0 and controls.with_probability == 4
    assert "abstains on" not in controls.threshold_note


@pytest.mark.parametrize("band", [(0.0683, 0.9317), (0.2, 0.8), (0.5, 0.5), (0.07, 0.93)])
def test_holdout_figures_match_the_fit_scripts_own_count(band: tuple[float, float]) -> None:
    # The fit script's `selective` (its own code, which printed the holdout row of RESULTS.md) on the same pairs.
    pairs = holdout_pairs("embedding")
    assert pairs is not None
    p, labels = pairs
    from scripts import fit_learned_judge

    abstained, accuracy = fit_learned_judge.selective(p, labels.astype(float), band)
    figures = holdout_figures("embedding", band, 0.5)
    fresh = HOLDOUT_PATH.parents[4] / "sample_data" / "judge_holdout_v2.jsonl"  # every pair of the fresh holdout
    assert figures is not None and figures.pairs == len(p) == len(fresh.read_text().splitlines())
    assert figures.abstained == pytest.approx(abstained) and figures.accuracy == pytest.approx(accuracy)


def test_a_holdout_file_for_another_model_file_gives_no_figures(tmp_path: object) -> None:
    from pathlib import Path

    stale = Path(str(tmp_path)) / "holdout.json"
    raw = json.loads(HOLDOUT_PATH.read_text())
    stale.write_text(json.dumps({**raw, "model_sha256": "0" * 64}))
    assert holdout_pairs("embedding", stale) is None
    assert holdout_pairs("no-such-model") is None


def test_the_learned_judge_says_what_its_band_costs_and_buys_on_the_holdout() -> None:
    result = evaluate(load_sample("support"), "learned")
    controls = band_controls(result, 0.5, None)
    fitted = result.judge_run.fitted_band
    assert fitted is not None and fitted.holdout is not None
    figures = holdout_figures(fitted.holdout, fitted.edges, 0.5)
    assert figures is not None and figures.accuracy is not None
    assert f"abstains on {figures.abstained:.0%} and is right on {figures.accuracy:.0%}" in controls.holdout_note
    # The complaint, now said beside the slider: the threshold does nothing inside the fitted band.
    assert not controls.threshold_moves and "No decided score lies between" in controls.threshold_note
    assert np.isfinite(figures.abstained)
