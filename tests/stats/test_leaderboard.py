"""The leaderboard of three or more agents: order, intervals, and each agent's probability of each rank."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.errors import SettingsError
from agentic_core.stats.leaderboard import leaderboard, rank_probabilities


def test_rank_probabilities_share_ties_and_sum_to_one() -> None:
    draws = np.array([[0.9, 0.5, 0.5], [0.2, 0.8, 0.5]])
    probs = rank_probabilities(draws)
    # Draw 1: agent 0 first, 1 and 2 tie for ranks 2-3; draw 2: 1, 2, 0.
    assert probs[0] == pytest.approx([0.5, 0.0, 0.5])
    assert probs[1] == pytest.approx([0.5, 0.25, 0.25])
    assert probs[2] == pytest.approx([0.0, 0.75, 0.25])
    assert probs.sum(axis=1) == pytest.approx(np.ones(3))
    assert probs.sum(axis=0) == pytest.approx(np.ones(3))


@pytest.mark.parametrize("mode", ["frequentist", "bayesian"])
def test_clearly_different_agents_are_ranked_with_confidence(mode: str) -> None:
    rng = np.random.default_rng(4)
    n = [np.full(40, 3)] * 3
    c = [rng.binomial(3, p, 40) for p in (0.2, 0.5, 0.85)]
    board = leaderboard(n, c, ["weak", "middle", "strong"], metric="pass_pow_k", k=2, mode=mode)  # type: ignore[arg-type]
    assert [r.agent for r in board.rows] == ["strong", "middle", "weak"]
    assert [r.rank for r in board.rows] == [1, 2, 3]
    assert board.k == 2 and board.n_tasks == 40
    for r in board.rows:
        assert r.ci is not None and r.value is not None and r.ci[0] <= r.value <= r.ci[1]
        assert sum(r.rank_probabilities) == pytest.approx(1.0)
    assert board.rows[0].rank_probabilities[0] > 0.95


def test_identical_agents_are_equally_likely_to_hold_each_rank() -> None:
    c = np.array([1, 0, 2, 3, 1, 2])
    board = leaderboard([np.full(6, 3)] * 2, [c, c], ["x", "y"])
    for row in board.rows:
        assert row.rank == 1
        assert row.rank_probabilities == pytest.approx((0.5, 0.5))


def test_bad_requests_are_refused() -> None:
    with pytest.raises(SettingsError, match="metric"):
        leaderboard([[1]] * 2, [[1]] * 2, ["a", "b"], metric="accuracy")
    with pytest.raises(SettingsError, match="two or more different agents"):
        leaderboard([[1]] * 2, [[1]] * 2, ["a", "a"])
