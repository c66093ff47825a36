"""Counts of attempts per group: validation, and the distinct (n, c) pairs everything is computed on.

Vocabulary: a *group* is one unit of trial (a task, the whole set of conversations, or one
conversation's interactions) with ``n`` attempts of which ``c`` are correct. Computations run over
the *distinct* (n, c) pairs with their multiplicities, in sorted order, and random streams are
seeded from the data's content: so shuffling or renaming the groups never changes a number, and the
cost grows with the number of distinct pairs, not of groups.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from agentic_core.errors import SettingsError
from agentic_core.settings import check_k, check_seed

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

# Elements per temporary array in chunked loops: keeps memory bounded (2 MB of float64) whatever
# the number of groups, k or draws.
CHUNK = 1 << 18


def check_ks(ks: int | Sequence[int] | ArrayLike, place: str = "ks") -> IntArray:
    """Validate a list of k values; return them sorted and without duplicates."""
    items = [ks] if isinstance(ks, (int, np.integer)) else list(np.asarray(ks, dtype=object).ravel())
    if not items:
        raise SettingsError(place, "must hold at least one k", ks, "give k values such as 1..10")
    values = sorted({check_k(k, f"{place}[{i}]") for i, k in enumerate(items)})
    return np.asarray(values, dtype=np.int64)


def _check_count(value: object, place: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise SettingsError(
            place, "must be a whole number >= 0", value, "pass counts of attempts as integers"
        )
    if int(value) < 0:
        raise SettingsError(
            place, "must be a whole number >= 0", value, "pass counts of attempts as integers"
        )
    return int(value)


def check_counts(n: object, c: object) -> tuple[int, int]:
    n_ = _check_count(n, "n")
    c_ = _check_count(c, "c")
    if c_ > n_:
        raise SettingsError(
            "c", f"must be at most n = {n_} (correct attempts are among the attempts)", c_, "check the counts"
        )
    return n_, c_


def _as_count_array(values: ArrayLike, place: str) -> IntArray:
    arr = np.asarray(values)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise SettingsError(
            place,
            "must be a one-dimensional array of counts",
            f"shape {arr.shape}",
            "pass one count per group",
        )
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype.kind not in "iuf":
        # bools and objects: a True must not silently count as one attempt.
        raise SettingsError(
            place, "must hold whole numbers >= 0", arr.dtype.name, "pass an integer array of counts"
        )
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise SettingsError(
                f"{place}[{i}]", "must be a whole number >= 0", float(arr[i]), "pass integer counts"
            )
    out = arr.astype(np.int64)
    negative = out < 0
    if negative.any():
        i = int(np.flatnonzero(negative)[0])
        raise SettingsError(f"{place}[{i}]", "must be a whole number >= 0", int(out[i]), "pass counts >= 0")
    return out


def check_count_arrays(n: ArrayLike, c: ArrayLike) -> tuple[IntArray, IntArray]:
    n_arr = _as_count_array(n, "n")
    c_arr = _as_count_array(c, "c")
    if n_arr.shape != c_arr.shape:
        raise SettingsError(
            "c",
            f"must have one count per group, like n ({n_arr.size} groups)",
            f"{c_arr.size} counts",
            "pass arrays of the same length",
        )
    over = c_arr > n_arr
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise SettingsError(
            f"c[{i}]",
            f"must be at most n[{i}] = {int(n_arr[i])}",
            int(c_arr[i]),
            "check the counts of that group",
        )
    return n_arr, c_arr



@dataclass(frozen=True)
class DistinctPairs:
    """Distinct (n, c) pairs in sorted order, their multiplicities, and the map back to groups."""

    n: IntArray
    c: IntArray
    m: IntArray
    inverse: IntArray


def distinct_pairs(n: IntArray, c: IntArray) -> DistinctPairs:
    if n.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return DistinctPairs(empty, empty, empty, empty)
    width = int(c.max()) + 1
    if int(n.max()) < (1 << 31) and width < (1 << 31):
        # One int64 key per group sorts exactly like (n, c) and is much faster than unique(axis=0).
        key = n * width + c
        uniq, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
        return DistinctPairs(uniq // width, uniq % width, counts.astype(np.int64), inverse.astype(np.int64))
    pairs = np.stack([n, c], axis=1)
    uniq2, inverse, counts = np.unique(pairs, axis=0, return_inverse=True, return_counts=True)
    return DistinctPairs(uniq2[:, 0], uniq2[:, 1], counts.astype(np.int64), inverse.reshape(-1).astype(np.int64))


def content_seed(tag: int, seed: int, *arrays: IntArray) -> np.random.SeedSequence:
    """A SeedSequence from the seed and the *content* of canonical (sorted) arrays.

    Hashing content rather than positions is what makes a number independent of data order.
    """
    digest = hashlib.blake2b(digest_size=16)
    for arr in arrays:
        digest.update(np.ascontiguousarray(arr, dtype=np.int64).tobytes())
        digest.update(b"|")
    return np.random.SeedSequence([tag, seed, int.from_bytes(digest.digest(), "little")])


def seed_entropy(seed: object) -> int:
    """A validated seed as numpy's SeedSequence needs it: non-negative (reduced mod 2**64)."""
    return check_seed(seed) % (1 << 64)
