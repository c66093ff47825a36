"""Tests of the flat PPI++ mean (agentic_core.stats.ppi) against ppi-python, value for value (issue 37).

ppi-python 0.2.3 (a dev dependency) is the reference: ``ppi_mean_pointestimate`` and ``ppi_mean_ci`` with
``lam=None`` (power-tuned, clipped to [0, 1]). The product never imports it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.errors import SettingsError
from agentic_core.stats.corrected import corrected_curve
from agentic_core.stats.ppi import ppi_mean, tuned_lambda

ppi_py = pytest.importorskip("ppi_py")


def _flat(seed: int, n: int, big_n: int, mean: float, sens: float, spec: float, soft: float):
    """Labels, and a judge with this sensitivity / specificity that gives a probability on a share ``soft``."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n + big_n) < mean).astype(float)
    verdict = np.where(y == 1, rng.random(y.size) < sens, rng.random(y.size) >= spec).astype(float)
    judge = np.where(rng.random(y.size) < soft, rng.random(y.size), verdict)
    return y[:n], judge[:n], judge[n:]


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # ppi-python, constant predictions
@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 400),
    big_n=st.integers(2, 2000),
    mean=st.floats(0.05, 0.95),
    sens=st.floats(0.5, 1.0),
    spec=st.floats(0.5, 1.0),
    soft=st.sampled_from([0.0, 0.3, 1.0]),
    level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
    weighted=st.booleans(),
)
def test_ppi_mean_equals_ppi_python(
    seed: int, n: int, big_n: int, mean: float, sens: float, spec: float, soft: float, level: float, weighted: bool
) -> None:
    y, yhat, yhat_u = _flat(seed, n, big_n, mean, sens, spec, soft)
    rng = np.random.default_rng(seed + 1)
    w = rng.random(n) + 0.1 if weighted else None
    w_u = rng.random(big_n) + 0.1 if weighted else None
    ours = ppi_mean(y, yhat, yhat_u, level=level, weights=w, weights_unlabelled=w_u)
    if np.ptp(np.concatenate([yhat, yhat_u])) == 0:
        # Every prediction equal: ppi-python divides 0 by 0 (or rounding noise by rounding noise); lambda = 0 here.
        assert ours.lam == 0.0
        return
    point = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, yhat, yhat_u, w=w, w_unlabeled=w_u)))
    low, high = ppi_py.ppi_mean_ci(y, yhat, yhat_u, alpha=1 - level, w=w, w_unlabeled=w_u)
    assert ours.estimate == pytest.approx(point, rel=1e-9, abs=1e-12)
    assert ours.ci[0] == pytest.approx(float(low[0]), rel=1e-9, abs=1e-12)
    assert ours.ci[1] == pytest.approx(float(high[0]), rel=1e-9, abs=1e-12)
    assert 0.0 <= ours.lam <= 1.0


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1010, 2500),
    big_n=st.integers(1010, 5000),
    mean=st.floats(0.25, 0.75),
    sens=st.floats(0.6, 0.95),
    spec=st.floats(0.6, 0.95),
    soft=st.sampled_from([0.0, 0.3]),
)
def test_corrected_curve_on_flat_data_is_ppi_python_where_it_does_not_adjust(
    seed: int, n: int, big_n: int, mean: float, sens: float, spec: float, soft: float
) -> None:
    # Regime without small-sample adjustment: Welch's degrees of freedom >= 1000 (n, N > 1000 guarantee it) and
    # the judge errs often enough that its observed disagreement outweighs the pseudo-observations' share
    # t^2/4 / (n - 1), about 0.001 here (sens, spec <= 0.95).
    y, yhat, yhat_u = _flat(seed, n, big_n, mean, sens, spec, soft)
    judge = np.concatenate([yhat, yhat_u])
    human = np.concatenate([y, np.full(big_n, np.nan)])
    order = np.random.default_rng(seed).permutation(n + big_n)  # labelled items anywhere in the run
    curve = corrected_curve(judge[order], human[order], np.arange(n + big_n), [1], design="tasks")
    assert curve.exact_ppi
    point = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, yhat, yhat_u)))
    low, high = ppi_py.ppi_mean_ci(y, yhat, yhat_u, alpha=0.05)
    [p] = curve.points
    assert p.success_rate == pytest.approx(point, rel=1e-9)
    assert p.success_rate_ci == pytest.approx((float(low[0]), float(high[0])), rel=1e-9)
    # pass@1 and pass^1 are the success rate on flat data.
    assert p.pass_at_k == p.pass_pow_k == p.success_rate
    assert curve.design == "tasks" and curve.n_labelled == n and curve.n_labelled_tasks == n


def test_a_hand_computed_example() -> None:
    # Worked by hand (PPI, Angelopoulos et al. 2023, eq. for the mean with lambda = 1):
    # Y = [1, 0, 1, 1], Yhat = [1, 0, 0, 1] -> rectifier Y - Yhat = [0, 0, 1, 0], mean 1/4, variance
    # (divisor 4) 3/16; Yhat_u = [1, 1, 0, 0, 1, 0] -> mean 1/2, variance 1/4.
    # estimate = 1/2 + 1/4 = 3/4; se^2 = (1/4)/6 + (3/16)/4 = 1/24 + 3/64 = 17/192.
    result = ppi_mean([1, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 0, 1, 0], lam=1.0, level=0.95)
    z = 1.959963984540054  # Phi^-1(0.975)
    assert result.estimate == pytest.approx(0.75, rel=1e-12)
    assert result.std_error == pytest.approx(math.sqrt(17 / 192), rel=1e-12)
    assert result.ci == pytest.approx((0.75 - z * math.sqrt(17 / 192), 0.75 + z * math.sqrt(17 / 192)), rel=1e-12)
    # lambda = 0 is the labels alone: mean 3/4, variance (divisor 4) 3/16 over 4 items.
    alone = ppi_mean([1, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 0, 1, 0], lam=0.0)
    assert alone.estimate == pytest.approx(0.75) and alone.std_error == pytest.approx(math.sqrt(3 / 64))


def test_tuned_lambda_by_hand() -> None:
    # PPI++ (arXiv:2311.01453, eq. for the mean): lambda = Cov_n(Y, Yhat) / ((1 + n/N) Var_{n+N}(Yhat)).
    # Y = [1, 0, 1, 1], Yhat = [1, 0, 0, 1]: Cov (divisor 4) = E[Y Yhat] - E[Y] E[Yhat] = 1/2 - 3/4 * 1/2 = 1/8.
    # All 10 predictions [1, 0, 0, 1, 1, 1, 0, 0, 1, 0]: five ones, Var (divisor 9) = 10 * 1/4 / 9 = 5/18.
    # lambda = (1/8) / ((1 + 4/6) * 5/18) = (1/8) / (25/54) = 27/100.
    ones = np.ones
    y, yhat, yhat_u = np.array([1.0, 0, 1, 1]), np.array([1.0, 0, 0, 1]), np.array([1.0, 1, 0, 0, 1, 0])
    assert tuned_lambda(y, yhat, yhat_u, ones(4), ones(6)) == pytest.approx(0.27, rel=1e-12)


def test_constant_predictions_give_lambda_zero_and_no_unlabelled_means_labels_only() -> None:
    result = ppi_mean([1, 0, 1], [0.5, 0.5, 0.5], [0.5, 0.5])
    assert result.lam == 0.0 and result.estimate == pytest.approx(2 / 3)
    alone = ppi_mean([1, 0, 1], [1, 0, 1], [])
    assert alone.lam == 0.0 and alone.N == 0 and alone.estimate == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("kwargs", "place"),
    [
        ({"y": [1, 0], "yhat": [1], "yhat_unlabelled": [1]}, "yhat"),
        ({"y": [], "yhat": [], "yhat_unlabelled": [1]}, "y"),
        ({"y": [1, float("nan")], "yhat": [1, 0], "yhat_unlabelled": [1]}, "y[1]"),
        ({"y": [1, 0], "yhat": [1, 0], "yhat_unlabelled": [1], "level": 1.5}, "level"),
        ({"y": [1, 0], "yhat": [1, 0], "yhat_unlabelled": [1], "lam": float("inf")}, "lam"),
        ({"y": [1, 0], "yhat": [1, 0], "yhat_unlabelled": [1], "weights": [1.0]}, "weights"),
    ],
)
def test_bad_inputs_are_settings_errors_naming_the_place(kwargs: dict[str, object], place: str) -> None:
    with pytest.raises(SettingsError) as info:
        ppi_mean(**kwargs)  # type: ignore[arg-type]
    assert info.value.place == place
