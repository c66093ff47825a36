"""The exact sign-flip test of paired differences: is their sum further from 0 than chance signs make it?

When two agents do equally well, each task's difference B - A is as likely to be +x as -x. Given the sizes
|d_i|, every pattern of signs is then equally likely, so the two-sided P of the observed sum S is the share
of the 2^m sign patterns whose sum is at least as far from 0: exact for any such distribution of differences
(heavy tails, few distinct values, many zeros), where the t statistic's normal model is not. With differences
of 0 and +-1 it is the exact McNemar (sign) test.

Computed exactly: by enumeration for up to :data:`ENUMERATE` non-zero differences, else on the lattice that
the differences share (the unbiased pass@k / pass^k estimates of n attempts are multiples of 1 / C(n, k)) by
convolving the distribution of the sum, group by group of equal sizes. Differences on no small lattice get a
seeded Monte Carlo P, (1 + hits) / (1 + draws), which is itself a valid P for any number of draws.
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

ENUMERATE = 16
"""Up to this many non-zero differences, all 2^m sign patterns are counted."""
MAX_LATTICE = 1 << 22
"""The largest sum (in lattice steps) whose distribution is convolved exactly."""
MC_DRAWS = 1 << 15
"""Sign patterns drawn when the differences share no small lattice."""
_MAX_DENOMINATOR = 1 << 20
_CHUNK = 1 << 12


def _lattice(sizes: NDArray[np.float64]) -> int | None:
    """The smallest L (up to :data:`MAX_LATTICE`) making every size times L a whole number, else ``None``."""
    scale = 1
    for value in np.unique(sizes):
        frac = Fraction(float(value)).limit_denominator(_MAX_DENOMINATOR)
        if abs(float(frac) - value) > 1e-12 * max(1.0, float(value)):
            return None
        scale = scale * frac.denominator // math.gcd(scale, frac.denominator)
        if scale > MAX_LATTICE:
            return None
    return scale


def _subset_sums(steps: NDArray[np.int64]) -> NDArray[np.float64]:
    """P(sum of the steps picked = s) for s = 0..total, each step picked with probability 1/2."""
    # Imported here: scipy.stats and scipy.signal take most of a second to import, for every process that loads the
    # statistics (the command line, each dashboard server), while only a sign-flip test with many values needs them.
    from scipy.signal import fftconvolve
    from scipy.stats import binom

    pmf = np.ones(1)
    values, counts = np.unique(steps, return_counts=True)
    for value, count in zip(values.tolist(), counts.tolist(), strict=True):
        kernel = np.zeros(value * count + 1)
        kernel[:: value] = binom.pmf(np.arange(count + 1), count, 0.5)
        small = min(pmf.size, kernel.size) <= 64
        pmf = np.convolve(pmf, kernel) if small else np.clip(fftconvolve(pmf, kernel), 0.0, None)
    return np.asarray(pmf / pmf.sum())


def sign_flip_p(differences: NDArray[np.float64] | list[float]) -> float:
    """The exact two-sided sign-flip P of the sum of paired differences (1.0 when all are 0).

    Args:
        differences: One difference per task (B - A).

    Returns:
        P(|sum of the differences with random signs| >= |observed sum|).
    """
    d = np.asarray(differences, dtype=np.float64).ravel()
    sizes = np.abs(d[d != 0.0])
    if sizes.size == 0:
        return 1.0
    observed = abs(float(d.sum()))
    tolerance = 1e-9 * float(sizes.sum())
    if sizes.size <= ENUMERATE:
        signs = 1 - 2 * ((np.arange(1 << sizes.size)[:, None] >> np.arange(sizes.size)) & 1)
        return float(np.mean(np.abs(signs @ sizes) >= observed - tolerance))
    scale = _lattice(sizes)
    if scale is not None:
        steps = np.rint(sizes * scale).astype(np.int64)
        total = int(steps.sum())
        if total <= MAX_LATTICE and np.unique(steps).size * total <= 64 * MAX_LATTICE:
            # Sum with signs = 2 x (sum of the steps with a + sign) - total.
            pmf = _subset_sums(steps)
            far = np.abs(2 * np.arange(total + 1) - total) >= round(observed * scale)
            return float(min(1.0, pmf[far].sum()))
    # Seeded by the differences themselves: the same differences always get the same P.
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(sizes.tobytes()).digest()[:8], "little"))
    whole, hits = float(sizes.sum()), 0
    width = -(-sizes.size // 8)
    for start in range(0, MC_DRAWS, _CHUNK):
        rows = min(_CHUNK, MC_DRAWS - start)
        # One random bit per task and pattern: the sizes given a + sign; the signed sum is 2 x theirs - total.
        bits = np.unpackbits(np.frombuffer(rng.bytes(rows * width), dtype=np.uint8).reshape(rows, width), axis=1)
        plus = bits[:, : sizes.size].astype(np.float64) @ sizes
        hits += int(np.count_nonzero(np.abs(2.0 * plus - whole) >= observed - tolerance))
    return (1 + hits) / (1 + MC_DRAWS)
