"""The statistical keywords of a comparison and a leaderboard: declared once, checked once, none dropped."""

from __future__ import annotations

import pytest

from agentic_core.errors import SettingsError
from agentic_core.stats.compare import compare_counts
from agentic_core.stats.leaderboard import leaderboard

N = [4, 4, 4, 3, 5, 4]
C_A = [1, 2, 4, 0, 3, 2]
C_B = [2, 2, 3, 1, 5, 4]


def test_an_unknown_keyword_is_named_not_dropped() -> None:
    with pytest.raises(SettingsError, match="target: is not an option of a comparison"):
        compare_counts(N, C_A, N, C_B, 1, target="these-tasks", n_samples=200)  # type: ignore[call-arg]
    with pytest.raises(SettingsError, match="levle: is not an option"):
        leaderboard([N, N], [C_A, C_B], ["a", "b"], levle=0.9)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("option", "value", "place"),
    [
        ("mode", "bayes", "mode"),
        ("estimator", "x", "estimator"),
        ("prior", (0.0, 1.0), "prior"),
        ("level", 1.5, "ci_level"),
        ("seed", 0.5, "seed"),
        ("n_samples", 3, "n_samples"),
    ],
)
def test_each_option_is_checked(option: str, value: object, place: str) -> None:
    with pytest.raises(SettingsError, match=place):
        compare_counts(N, C_A, N, C_B, 1, **{option: value})  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match=place):
        leaderboard([N, N], [C_A, C_B], ["a", "b"], **{option: value})  # type: ignore[arg-type]


def test_the_defaults_are_the_documented_ones() -> None:
    given = compare_counts(N, C_A, N, C_B, 1, n_samples=200)
    spelled = compare_counts(
        N, C_A, N, C_B, 1, mode="frequentist", estimator="unbiased", prior=(1.0, 1.0), level=0.95, seed=0, n_samples=200
    )
    assert given == spelled
    assert (given.mode, given.estimator, given.level) == ("frequentist", "unbiased", 0.95)
