"""Selective accuracy against coverage (issue 24 item 1), checked by hand on ten items."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agentic_core.analysis.selective import (
    ABSTAIN_SHARES,
    own_abstention_point,
    run_selective_accuracy,
    selective_accuracy,
)
from agentic_core.errors import DataError

# Ten labelled items. The verdict is "correct" at P >= 0.5:     1    0    1     0     1    0    1     1     0    1
P = [0.9, 0.1, 0.55, 0.45, 0.8, 0.3, 0.52, 0.95, 0.05, 0.6]
HUMAN = [1, 0, 0, 1, 1, 0, 1, 1, 0, 0]
# Agreement per item:                                           T    T    F     F     T    T    T     T     T    F
# Nearest 0.5 first (distance, ties in item order): item 6 (0.02), 2 (0.05), 3 (0.05), 9 (0.10), 5 (0.20), 4 (0.30), ...
BY_HAND = {  # share abstained -> (accuracy on the rest, given)
    0.0: (7 / 10, 10),
    0.05: (6 / 9, 9),  # 0.5 item: halves round up, so item 6 (agreeing) goes
    0.1: (6 / 9, 9),
    0.15: (6 / 8, 8),  # 1.5 items -> 2: item 2 (disagreeing) goes too
    0.2: (6 / 8, 8),
    0.3: (6 / 7, 7),  # item 3 (disagreeing)
    0.4: (6 / 6, 6),  # item 9 (disagreeing): every disagreement was near 0.5
    0.5: (5 / 5, 5),
    0.6: (4 / 4, 4),
}


def test_the_curve_by_hand() -> None:
    frame = selective_accuracy(P, HUMAN)
    assert list(frame["abstained_share"]) == list(ABSTAIN_SHARES) and ABSTAIN_SHARES[-1] == 0.6
    rows = frame.set_index("abstained_share")
    for share, (accuracy, given) in BY_HAND.items():
        row = rows.loc[share]
        assert row["accuracy"] == pytest.approx(accuracy), share
        assert (row["n_given"], row["n_abstained"]) == (given, 10 - given)
        assert row["coverage"] == pytest.approx(given / 10)


def test_items_without_a_probability_or_a_label_are_left_out() -> None:
    frame = selective_accuracy([*P, np.nan, 0.99], [*HUMAN, 1, np.nan])
    assert frame["n_given"].iloc[0] == 10 and frame["accuracy"].iloc[0] == pytest.approx(0.7)


def test_grades_count_as_correct_at_one_half() -> None:
    graded = [0.9 if h else 0.2 for h in HUMAN]
    assert selective_accuracy(P, graded)["accuracy"].tolist() == selective_accuracy(P, HUMAN)["accuracy"].tolist()


def test_the_judges_own_abstentions_are_one_point() -> None:
    uncertain = [i in (2, 3, 6) for i in range(10)]  # the band 0.45 .. 0.55
    point = own_abstention_point(P, HUMAN, uncertain)
    assert (point.coverage, point.n_given, point.n_abstained) == (0.7, 7, 3)
    assert point.accuracy == pytest.approx(6 / 7)  # item 9 is the one disagreement left
    none_given = own_abstention_point(P, HUMAN, [True] * 10)
    assert none_given.accuracy is None and none_given.coverage == 0.0


def test_nothing_labelled_is_an_error_that_says_what_to_do() -> None:
    with pytest.raises(DataError, match="human_label"):
        selective_accuracy([0.5, 0.7], [np.nan, np.nan])
    with pytest.raises(DataError, match="one human verdict per probability"):
        selective_accuracy([0.5], [1, 0])


def test_a_run_without_probabilities_has_no_curve() -> None:
    from agentic_core.evaluate import evaluate
    from tests.abstaining import AbstainingJudge, records

    data = records(6)
    for i, record in enumerate(data):
        for j, turn in enumerate(record["conversation"]):
            turn["human_label"] = (i + j) % 2
    assert run_selective_accuracy(evaluate(data_convs(data), "dataset", cache_mode="off")) is None
    result = evaluate(data_convs(data), AbstainingJudge(), cache_mode="off")
    found = run_selective_accuracy(result)
    assert found is not None
    curve, point = found
    assert curve["n_given"].iloc[0] == result.n_interactions
    assert point.n_abstained == int((result.interactions["judge_status"] == "uncertain").sum()) > 0
    assert not math.isnan(curve["accuracy"].iloc[0])


def data_convs(data: list[dict]) -> list:  # type: ignore[type-arg]
    from agentic_core.data.schemas import Conversation

    return [Conversation.model_validate(r) for r in data]
