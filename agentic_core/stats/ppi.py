"""Prediction-powered inference for a mean (PPI++): labels correct a predictor's bias.

n items carry a gold label Y and a prediction Yhat; N more carry only a prediction. For any fixed
lambda the estimate

    theta(lambda) = lambda * mean(Yhat_unlabelled) + mean(Y - lambda * Yhat)

is unbiased for E[Y] when the labelled items are a random sample (Angelopoulos, Bates, Fannjiang,
Jordan and Zrnic, "Prediction-powered inference", Science 382, 2023: lambda = 1). Its variance is
lambda^2 Var(Yhat) / N + Var(Y - lambda Yhat) / n; PPI++ (Angelopoulos, Duchi and Zrnic,
arXiv:2311.01453, 2023) picks the lambda that minimises it, estimated from the data:

    lambda = Cov_n(Y, Yhat) / ((1 + n / N) Var_{n+N}(Yhat)),   clipped to [0, 1]

(lambda = 0 is the labels alone; a useless predictor earns lambda near 0, a perfect one near 1).
The interval is the normal one, estimate +- z sqrt(lambda^2 s^2(Yhat_u) / N + s^2(Y - lambda Yhat) / n).

:func:`ppi_mean` reproduces ``ppi_py.ppi_mean_pointestimate`` and ``ppi_py.ppi_mean_ci`` (ppi-python
0.2.3, ``lam=None``: power-tuned, ``clip=True``) value for value, including its conventions: the
tuning is done around the lambda = 1 estimate, the variances of the interval divide by the count
(numpy's default ``ddof=0``) and ``np.cov``'s (``ddof=1``) is used for Var_{n+N}(Yhat). Weights, when
given, are normalised to sum to the count, as ppi-python does. Where ppi-python divides by zero
(every prediction equal, or no unlabelled item) this module says what it does instead: lambda = 0.

The task-level corrected curve (:mod:`agentic_core.stats.corrected`) builds on these functions.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from pydantic import BaseModel, ConfigDict

from agentic_core.errors import SettingsError
from agentic_core.settings import check_level
from agentic_core.stats import kernels
from agentic_core.stats.counts import FloatArray


class PPIMean(BaseModel):
    """A prediction-powered mean with its interval.

    Attributes:
        estimate: The estimate theta(lambda).
        ci: ``(low, high)`` at ``level`` (normal interval; not clipped).
        lam: The lambda used (power-tuned unless given).
        n: Labelled items.
        N: Unlabelled items.
        level: The interval's level.
        std_error: sqrt(imputed variance + rectifier variance).
        method: How it was computed, in words.
    """

    model_config = ConfigDict(frozen=True)

    estimate: float
    ci: tuple[float, float]
    lam: float
    n: int
    N: int
    level: float
    std_error: float
    method: str


def _vector(values: ArrayLike, place: str, *, allow_empty: bool = False) -> FloatArray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise SettingsError(place, "must be a one-dimensional array of numbers", f"shape {arr.shape}", "pass a vector")
    if arr.size == 0 and not allow_empty:
        raise SettingsError(place, "must hold at least one value", 0, "pass the labelled items' values")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise SettingsError(f"{place}[{i}]", "must be a finite number", float(arr[i]), "drop or impute it first")
    return arr


def _ppi_weights(values: ArrayLike | None, size: int, place: str) -> FloatArray:
    """ppi-python's convention: weights rescaled to sum to the number of items (None: all ones)."""
    if values is None:
        return np.ones(size)
    w = _vector(values, place, allow_empty=True)
    if w.size != size or (w < 0).any() or (size and w.sum() <= 0):
        raise SettingsError(place, f"must hold {size} non-negative weights, not all 0", w.size, "one weight per item")
    return w / w.sum() * size if size else w


def tuned_lambda(y: FloatArray, yhat: FloatArray, yhat_u: FloatArray, w: FloatArray, w_u: FloatArray) -> float:
    """PPI++'s power-tuned lambda for a mean, clipped to [0, 1] (ppi-python's ``_calc_lam_glm``).

    Args:
        y: Labels of the labelled items.
        yhat: Predictions of the labelled items.
        yhat_u: Predictions of the unlabelled items.
        w: Normalised weights of the labelled items.
        w_u: Normalised weights of the unlabelled items.

    Returns:
        lambda in [0, 1]; 0 where every prediction is the same or there is no unlabelled item (the
        formula's denominator is 0 there, or rounding noise: the predictions carry no information).
    """
    n, big_n = y.size, yhat_u.size
    if big_n == 0 or n == 0 or np.ptp(np.concatenate([yhat, yhat_u])) == 0:
        return 0.0
    # The tuning is centred on the lambda = 1 estimate, as in ppi-python.
    centre = float(np.mean(w_u * yhat_u) + np.mean(w * (y - yhat)))
    grads = w * (y - centre)
    grads_hat = w * (yhat - centre)
    grads_hat_u = w_u * (yhat_u - centre)
    cov = 2.0 * float(np.sum((grads - grads.mean()) * (grads_hat - grads_hat.mean()))) / n
    both = np.concatenate([grads_hat, grads_hat_u])
    var = float(np.var(both, ddof=1)) if both.size > 1 else 0.0
    if not var > 0.0:
        return 0.0
    lam = cov / (2.0 * (1.0 + n / big_n) * var)
    return min(max(lam, 0.0), 1.0)


def ppi_mean(
    y: ArrayLike,
    yhat: ArrayLike,
    yhat_unlabelled: ArrayLike,
    *,
    level: float = 0.95,
    lam: float | None = None,
    weights: ArrayLike | None = None,
    weights_unlabelled: ArrayLike | None = None,
) -> PPIMean:
    """The PPI++ estimate of a mean and its normal interval (equal to ppi-python's ``ppi_mean_ci``).

    theta = mean(w_u lambda Yhat_u) + mean(w (Y - lambda Yhat)),
    se^2 = s^2(w_u lambda Yhat_u) / N + s^2(w (Y - lambda Yhat)) / n (variances with divisor the count),
    interval theta +- z_{(1+level)/2} se.

    Args:
        y: Labels (e.g. a human's 1/0) of the n labelled items.
        yhat: The predictor's values (e.g. a judge's verdict or probability) for the same items.
        yhat_unlabelled: The predictor's values for the N unlabelled items.
        level: Confidence level in (0, 1) (ppi-python's ``alpha`` is 1 - level).
        lam: A fixed lambda (1: plain PPI; 0: the labels alone); ``None`` tunes it (PPI++).
        weights: Optional weights of the labelled items.
        weights_unlabelled: Optional weights of the unlabelled items.

    Returns:
        The :class:`PPIMean`.

    Raises:
        SettingsError: non-finite values, mismatched lengths, no labelled item, a bad level or
            lambda.
    """
    lvl = check_level(level, "level")
    y_ = _vector(y, "y")
    yhat_ = _vector(yhat, "yhat")
    if yhat_.size != y_.size:
        raise SettingsError("yhat", f"must have one prediction per label ({y_.size})", yhat_.size, "align the arrays")
    yhat_u = _vector(yhat_unlabelled, "yhat_unlabelled", allow_empty=True)
    w = _ppi_weights(weights, y_.size, "weights")
    w_u = _ppi_weights(weights_unlabelled, yhat_u.size, "weights_unlabelled")
    if lam is None:
        lam_ = tuned_lambda(y_, yhat_, yhat_u, w, w_u)
        how = "power-tuned"
    else:
        if not isinstance(lam, (int, float)) or isinstance(lam, bool) or not math.isfinite(lam):
            raise SettingsError("lam", "must be a finite number or None", lam, "give e.g. 1.0, or None to tune it")
        lam_ = float(lam)
        how = "given"
    n, big_n = y_.size, yhat_u.size
    imputed = w_u * (lam_ * yhat_u)
    rectifier = w * (y_ - lam_ * yhat_)
    estimate = float((imputed.mean() if big_n else 0.0) + rectifier.mean())
    var = float(rectifier.var()) / n + (float(imputed.var()) / big_n if big_n else 0.0)
    se = math.sqrt(var)
    half = kernels.z_of(lvl) * se
    return PPIMean(
        estimate=estimate,
        ci=(estimate - half, estimate + half),
        lam=lam_,
        n=n,
        N=big_n,
        level=lvl,
        std_error=se,
        method=f"PPI++ mean, {how} lambda = {lam_:.3f}, normal interval",
    )
