"""Each public statistics function validates its k values once, however many curves it computes inside."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from agentic_core.stats import counts, posterior
from agentic_core.stats.compare import compare_counts
from agentic_core.stats.curve import dataset_curve
from agentic_core.stats.leaderboard import leaderboard
from agentic_core.stats.posterior import posterior_samples, prob_pass_pow_exceeds

N = [4, 4, 4, 3, 5, 4]
C_A = [1, 2, 4, 0, 3, 2]
C_B = [2, 2, 3, 1, 5, 4]
C_C = [0, 1, 4, 3, 2, 1]


@pytest.fixture
def k_checks(monkeypatch: pytest.MonkeyPatch) -> Counter[Any]:
    """Counts every call of the k rule (settings.check_k) by value, wherever the statistics call it."""
    seen: Counter[Any] = Counter()
    real = counts.check_k

    def counting(k: object, place: str = "k", maximum: int | None = None) -> int:
        seen[k if isinstance(k, int) else repr(k)] += 1
        return real(k, place, maximum)

    for module in (counts, posterior):
        monkeypatch.setattr(module, "check_k", counting)
    return seen


def test_a_comparison_validates_each_k_once(k_checks: Counter[Any]) -> None:
    compare_counts(N, C_A, N, C_B, [1, 2, 3], n_samples=200, mode="frequentist")
    assert dict(k_checks) == {1: 1, 2: 1, 3: 1}, "not again inside the per-agent curves"


def test_a_bayesian_comparison_validates_each_k_once(k_checks: Counter[Any]) -> None:
    compare_counts(N, C_A, N, C_B, [2, 3], n_samples=200, mode="bayesian")
    assert dict(k_checks) == {2: 1, 3: 1}


def test_a_leaderboard_validates_k_once(k_checks: Counter[Any]) -> None:
    leaderboard([N, N, N], [C_A, C_B, C_C], ["a", "b", "c"], metric="pass_pow_k", k=2, n_samples=200)
    assert dict(k_checks) == {2: 1}, "three agents, one validation"


def test_the_curve_and_the_posterior_validate_each_k_once(k_checks: Counter[Any]) -> None:
    dataset_curve(N, C_A, [1, 2, 3], mode="frequentist", n_samples=200)
    posterior_samples(N, C_A, [2, 3], n_samples=200)
    assert dict(k_checks) == {1: 1, 2: 2, 3: 2}  # one call each for each function


def test_the_probability_of_exceeding_validates_k_once(k_checks: Counter[Any]) -> None:
    prob_pass_pow_exceeds(N, C_A, 2, 0.5, population=False, n_samples=200)
    assert dict(k_checks) == {2: 1}


def test_the_numbers_are_those_of_the_validating_path() -> None:
    # The joint draws now skip re-validation: the per-agent curves must equal dataset_curve's own.
    result = compare_counts(N, C_A, N, C_B, [2], n_samples=300, seed=7)
    own = {
        side: dataset_curve(N, c, [2], mode="frequentist", seed=7, n_samples=300)[0]
        for side, c in (("a", C_A), ("b", C_B))
    }
    rows = {row.metric: row for row in result.metrics}
    assert rows["pass_pow_k"].a == pytest.approx(own["a"].pass_pow_k)
    assert rows["pass_pow_k"].b == pytest.approx(own["b"].pass_pow_k)


def test_an_invalid_k_is_still_refused_by_every_entry() -> None:
    from agentic_core.errors import SettingsError

    with pytest.raises(SettingsError, match=r"ks\[1\]"):
        compare_counts(N, C_A, N, C_B, [1, 0], n_samples=200)
    with pytest.raises(SettingsError, match="whole number"):
        leaderboard([N, N], [C_A, C_B], ["a", "b"], metric="pass_at_k", k=2.5, n_samples=200)  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="whole number"):
        prob_pass_pow_exceeds(N, C_A, -1, 0.5)
