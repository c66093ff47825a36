"""Tests of the stats input validation: counts (agentic_core.stats.counts) and k (agentic_core.settings.check_k)."""

from __future__ import annotations

import numpy as np
import pytest

from agentic_core.errors import SettingsError
from agentic_core.settings import check_k
from agentic_core.stats import (
    dataset_curve,
    pass_at_k,
    pass_at_k_array,
)


@pytest.mark.parametrize("bad", [0, -1, 2.5, 3.0, True, False, "3", None])
def test_invalid_k_is_a_settings_error(bad: object) -> None:
    with pytest.raises(SettingsError, match=r"^k: must be a whole number >= 1") as info:
        check_k(bad)
    assert "Fix:" in str(info.value)
    with pytest.raises(SettingsError):
        pass_at_k(10, 7, bad)  # type: ignore[arg-type]
    with pytest.raises(SettingsError):
        dataset_curve([10], [7], [1, bad], mode="bayesian")  # type: ignore[list-item]


def test_check_k_accepts_numpy_integers() -> None:
    assert check_k(np.int64(4)) == 4


@pytest.mark.parametrize(
    ("n", "c", "place"),
    [(5, 6, "c"), (-1, 0, "n"), (5, -1, "c"), (5.0, 2, "n"), (5, True, "c"), ("5", 2, "n")],
)
def test_invalid_counts_are_settings_errors(n: object, c: object, place: str) -> None:
    with pytest.raises(SettingsError, match=rf"^{place}"):
        pass_at_k(n, c, 1)  # type: ignore[arg-type]


def test_invalid_count_arrays_name_the_group() -> None:
    with pytest.raises(SettingsError, match=r"^c\[2\]: must be at most n\[2\] = 3"):
        dataset_curve([5, 5, 3], [1, 2, 4], [1], mode="bayesian")
    with pytest.raises(SettingsError, match=r"^n\[1\]"):
        pass_at_k_array([5, 2.5], [1, 1], 1)
    with pytest.raises(SettingsError, match=r"^n\[0\]"):
        pass_at_k_array([-1], [0], 1)
    with pytest.raises(SettingsError, match=r"^n"):
        pass_at_k_array(np.array([True, False]), [0, 0], 1)
    with pytest.raises(SettingsError, match="one count per group"):
        pass_at_k_array([5, 5], [1], 1)
