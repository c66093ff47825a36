"""The hierarchical Beta-Binomial model (agentic_core.stats.hierarchical): BDA3's reference, the grid, shrinkage."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agentic_core.stats import dataset_curve, posterior_samples
from agentic_core.stats.counts import distinct_pairs
from agentic_core.stats.hierarchical import (
    BOUND_TOLERANCE,
    HyperPosterior,
    _box,
    _grid,
    _weights,
    hyper_posterior,
    population_summary,
    posterior_on_grid,
    shrunk_tasks,
    spread_quantiles,
)

# Rat tumour data (Tarone 1982), Gelman et al., Bayesian Data Analysis 3rd ed., Table 5.1, the 71
# experiments as used in BDA3 section 5.3 (and PyMC's "Hierarchical Binomial Model: Rat Tumor
# Example", which reproduces them): y rats with tumours out of n.
RAT_Y = [0] * 14 + [1] * 8 + [2] * 9 + [1, 5, 2, 5, 3, 2, 7, 7, 3, 3, 2, 9, 10, 4, 4, 4, 4, 4, 4, 4, 10, 4, 4, 4, 5]
RAT_Y += [11, 12, 5, 5, 6, 5, 6, 6, 6, 6, 16, 15, 15, 9, 4]
RAT_N = [20, 20, 20, 20, 20, 20, 20, 19, 19, 19, 19, 18, 18, 17, 20, 20, 20, 20, 19, 19, 18, 18, 25, 24, 23, 20]
RAT_N += [20, 20, 20, 20, 20, 10, 49, 19, 46, 27, 17, 49, 47, 20, 20, 13, 48, 50, 20, 20, 20, 20, 20, 20, 20, 48]
RAT_N += [19, 19, 19, 22, 46, 49, 20, 20, 23, 19, 22, 20, 20, 20, 52, 46, 47, 24, 14]


def test_rat_tumour_hyperparameters_match_bda3() -> None:
    assert len(RAT_Y) == len(RAT_N) == 71
    pairs = distinct_pairs(np.array(RAT_N), np.array(RAT_Y))
    post = hyper_posterior(pairs, np.array([1]), 0.95)
    # BDA3 section 5.3: posterior means E(alpha | y) ~ 2.4, E(beta | y) ~ 14.3 (one decimal, as printed),
    # and the mode of p(log(alpha/beta), log(alpha+beta) | y) at about (-1.79, 2.74) (BDA3 Figure 5.3;
    # PyMC's rat-tumour notebook finds the same point on its grid).
    assert post.weight @ post.alpha == pytest.approx(2.4, abs=0.05)
    assert post.weight @ post.beta == pytest.approx(14.3, abs=0.1)
    density = post.weight / np.outer(np.diff(post.u_edges), np.diff(post.v_edges)).ravel()
    mode = int(np.argmax(density))
    assert math.log(post.alpha[mode] / post.beta[mode]) == pytest.approx(-1.79, abs=0.03)
    assert math.log(post.alpha[mode] + post.beta[mode]) == pytest.approx(2.74, abs=0.05)
    # The population mean tumour rate alpha / (alpha + beta): about 0.14 (BDA3: 14%).
    summary = population_summary(post, np.array([1]), 0.95)
    assert summary["p"][0, 0] == pytest.approx(0.144, abs=0.003)


def test_the_grid_is_refined_until_the_bounds_are_stable() -> None:
    pairs = distinct_pairs(np.array(RAT_N), np.array(RAT_Y))
    ks = np.array([1, 2, 3])
    post = hyper_posterior(pairs, ks, 0.95)
    # Every cell split in four: the grid's own refinement, one step further.
    u = np.sort(np.concatenate([post.u_edges, (post.u_edges[:-1] + post.u_edges[1:]) / 2]))
    v = np.sort(np.concatenate([post.v_edges, (post.v_edges[:-1] + post.v_edges[1:]) / 2]))
    finer = posterior_on_grid(pairs, u, v, False)
    ours, reference = population_summary(post, ks, 0.95), population_summary(finer, ks, 0.95)
    for name in ("pass_at", "pass_pow", "p"):
        assert np.max(np.abs(ours[name] - reference[name])) < 2 * BOUND_TOLERANCE


def test_the_located_box_holds_the_mass() -> None:
    pairs = distinct_pairs(np.array(RAT_N), np.array(RAT_Y))
    wide = (-12.0, 12.0, -7.0, 15.0)
    alpha, beta = _grid(*wide, 48)
    box = _box(alpha, beta, _weights(alpha, beta, pairs), 48, wide)
    assert box[0] < -1.79 < box[1] and box[2] < 2.74 < box[3]
    assert box[1] - box[0] < 6 and box[3] - box[2] < 12  # much smaller than the search range


def test_spread_quantiles_of_uniform_cells() -> None:
    # Two cells of equal weight spread on [0, 1] and [1, 3]: the mixture's median is 1, its 75% point 2.
    q = spread_quantiles(np.array([0.0, 1.0]), np.array([1.0, 3.0]), np.array([0.5, 0.5]), np.array([0.5, 0.75]))
    assert q == pytest.approx([1.0, 2.0])


def test_population_and_these_tasks_differ_as_they_should() -> None:
    # Many tasks, few attempts each, U-shaped difficulty: the population interval is wider (it also
    # covers which tasks were drawn), and its point is not pulled towards 0.5 by a uniform prior.
    rng = np.random.default_rng(3)
    n = np.full(30, 4)
    c = rng.binomial(4, rng.beta(0.5, 0.5, 30))
    [population] = dataset_curve(n, c, [3], mode="bayesian", target="population")
    [these] = dataset_curve(n, c, [3], mode="bayesian", target="these-tasks")
    assert population.interval_method == "hierarchical-grid"
    assert these.interval_method in ("monte-carlo", "cornish-fisher")
    width = lambda ci: ci[1] - ci[0]  # noqa: E731
    assert width(population.pass_pow_k_ci) > width(these.pass_pow_k_ci)
    observed = float(np.mean([math.comb(x, 3) / math.comb(4, 3) for x in c]))
    assert abs(population.pass_pow_k - observed) < abs(these.pass_pow_k - observed)


def test_shrinkage_moves_tasks_with_few_attempts_most() -> None:
    n = np.array([2] * 10 + [40] * 10)
    c = np.array([2] * 5 + [0] * 5 + [20] * 10)
    pairs = distinct_pairs(n, c)
    post = hyper_posterior(pairs, np.array([1]), 0.95)
    shrunk = shrunk_tasks(post, pairs, 0.95, 4000, np.random.SeedSequence(1))
    observed = pairs.c / pairs.n
    moved = np.abs(shrunk["mean"] - observed)
    # 2 of 2 and 0 of 2 move far towards the middle; 20 of 40 stays near 0.5.
    assert moved[pairs.n == 2].min() > 0.2
    assert moved[pairs.n == 40].max() < 0.05
    assert np.all(shrunk["low"] <= shrunk["mean"]) and np.all(shrunk["mean"] <= shrunk["high"])


def test_all_or_nothing_tasks_are_flagged_as_truncated() -> None:
    [point] = dataset_curve([4] * 12, [0] * 6 + [4] * 6, [2], mode="bayesian")
    assert any("all-right or all-wrong" in note for note in point.notes)


def test_population_draws_agree_with_the_exact_summary() -> None:
    n, c = RAT_N, RAT_Y
    samples = posterior_samples(n, c, [2], n_samples=20_000, seed=3)
    assert samples.method == "hierarchical-grid"
    ks = np.array([1, 2])
    exact = population_summary(hyper_posterior(distinct_pairs(np.array(n), np.array(c)), ks, 0.95), ks, 0.95)
    mean, exact_low, exact_high = exact["pass_pow"][:, 1]
    assert samples.pass_pow_k[:, 0].mean() == pytest.approx(mean, abs=5e-4)
    low, high = np.quantile(samples.pass_pow_k[:, 0], [0.025, 0.975])
    assert low == pytest.approx(exact_low, abs=1.5e-3)
    assert high == pytest.approx(exact_high, abs=1.5e-3)
    # The curve's point is the model's mean; its interval holds the model's (issue 30 widens it to
    # hold the Bayesian bootstrap's too).
    [point] = dataset_curve(n, c, [2], mode="bayesian")
    assert point.pass_pow_k == pytest.approx(mean, abs=1e-12)
    assert point.pass_pow_k_ci is not None
    assert point.pass_pow_k_ci[0] <= exact_low + 1e-12 and exact_high - 1e-12 <= point.pass_pow_k_ci[1]


def _reference_summary(post: HyperPosterior, ks: np.ndarray, level: float) -> dict[str, np.ndarray]:
    """The summary as it was first written: point-major tables, every quantity and bound computed afresh."""
    def values(alpha: np.ndarray, beta: np.ndarray) -> dict[str, np.ndarray]:
        steps = np.arange(int(ks.max()), dtype=np.float64)
        total = alpha[:, None] + beta[:, None] + steps
        miss = np.cumprod((beta[:, None] + steps) / total, axis=1)
        hit = np.cumprod((alpha[:, None] + steps) / total, axis=1)
        return {"pass_at": 1.0 - miss[:, ks - 1], "pass_pow": hit[:, ks - 1], "p": (alpha / (alpha + beta))[:, None]}

    uu, vv = np.meshgrid(post.u_edges, post.v_edges, indexing="ij")
    mean_p = 1.0 / (1.0 + np.exp(-uu.ravel()))
    side = post.cells + 1
    order = np.argsort(post.weight)
    mass = np.ones(post.weight.size, dtype=bool)
    mass[order[np.cumsum(post.weight[order]) <= 1e-9]] = False
    weight = post.weight[mass] / post.weight[mass].sum()
    tail = (1.0 - level) / 2.0
    corner_values = values(mean_p * np.exp(vv.ravel()), (1.0 - mean_p) * np.exp(vv.ravel()))
    out = {}
    for name, centre in values(post.alpha, post.beta).items():
        grid = corner_values[name].reshape(side, side, -1)
        corners = np.stack([grid[:-1, :-1], grid[1:, :-1], grid[:-1, 1:], grid[1:, 1:]])
        low = corners.min(axis=0).reshape(-1, grid.shape[2])
        high = corners.max(axis=0).reshape(-1, grid.shape[2])
        qs = np.array([tail, 1 - tail])
        bounds = [spread_quantiles(low[mass, j], high[mass, j], weight, qs) for j in range(low.shape[1])]
        out[name] = np.vstack([(post.weight @ centre)[None, :], np.stack(bounds, axis=1)])
    return out


@pytest.mark.parametrize(
    ("tasks", "attempts", "shape", "ks"),
    [
        (30, 3, (0.5, 0.5), [1, 3]),
        (10, 8, (2.0, 5.0), [1, 2, 3, 4]),
        (100, 16, (0.5, 0.5), [2, 8, 16]),
        (7, 1, (1.0, 1.0), [1]),
    ],
)
def test_the_summary_is_the_straightforward_formula_to_the_last_bit(
    tasks: int, attempts: int, shape: tuple[float, float], ks: list[int]
) -> None:
    # The summary reads k-major tables and reuses the bounds the grid's refinement read (k = 1 and the largest k):
    # the same numbers, bit for bit, as computing every table and bound afresh (the coverage simulations and every
    # seeded figure stay exactly where they were). Levels and k sets in any order, after each other, on one grid.
    rng = np.random.default_rng(tasks * attempts)
    pairs = distinct_pairs(np.full(tasks, attempts), rng.binomial(attempts, rng.beta(*shape, tasks)))
    k_arr = np.array(ks)
    post = hyper_posterior(pairs, k_arr, 0.95)
    largest = np.array([int(k_arr.max())])
    for level, wanted in ((0.95, k_arr), (0.9, k_arr), (0.95, k_arr[::-1].copy()), (0.95, largest)):
        ours, reference = population_summary(post, wanted, level), _reference_summary(post, wanted, level)
        for name in reference:
            assert ours[name].tobytes() == reference[name].tobytes(), (name, level, wanted)
        one = population_summary(post, wanted, level, ("pass_pow",))
        assert list(one) == ["pass_pow"] and one["pass_pow"].tobytes() == reference["pass_pow"].tobytes()
