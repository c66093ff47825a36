"""Selective accuracy under the abstention band in force (issue 41): the judge's point moves with the band."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agentic_core.analysis.selective import run_selective_accuracy
from agentic_core.data.overrides import Override
from tests.band_fakes import band_run

# The fake judge's band is (0.2, 0.8): 0.3, 0.5 and 0.7 are abstained on.
P = [0.1, 0.3, 0.5, 0.7, 0.9]
PEOPLE = [False, True, True, False, True]  # by hand: the judge's verdicts at 0.5 are F F T T T


def _labelled() -> object:
    result = band_run(P)
    # People's verdicts as overrides (what the page reads first); they do not touch the band's count here,
    # which reads the probabilities of every labelled interaction.
    return replace(result, overrides={i: Override(row=i, correct=c) for i, c in enumerate(PEOPLE)})


def test_the_judges_point_follows_the_band() -> None:
    result = _labelled()
    fitted = run_selective_accuracy(result)  # type: ignore[arg-type]
    assert fitted is not None
    _, own = fitted
    # The fitted band abstains on 0.3, 0.5, 0.7; of 0.1 (F vs F) and 0.9 (T vs T) both agree.
    assert (own.n_abstained, own.n_given, own.accuracy) == (3, 2, 1.0)
    narrow = run_selective_accuracy(result, (0.45, 0.55))  # type: ignore[arg-type]
    assert narrow is not None
    _, own = narrow
    # Abstains on 0.5 alone; of the other four, 0.3 (F vs T) and 0.7 (T vs F) disagree: 2 of 4.
    assert (own.n_abstained, own.n_given) == (1, 4) and own.accuracy == pytest.approx(0.5)


def test_the_cut_is_the_threshold() -> None:
    result = _labelled()
    at = run_selective_accuracy(result, (0.5, 0.5), cut=0.8)  # type: ignore[arg-type]
    assert at is not None
    curve, own = at
    # Verdicts at 0.8: F F F F T against F T T F T: 3 of 5 agree.
    assert own.n_abstained == 0 and own.accuracy == pytest.approx(3 / 5)
    assert curve["accuracy"].iloc[0] == pytest.approx(3 / 5)
