"""Tests of agentic_core.stats.interpretation: seed 001's labels and their explanations."""

from __future__ import annotations

import pytest

from agentic_core.errors import SettingsError
from agentic_core.stats import (
    explain_label,
    interpret,
)


@pytest.mark.parametrize(
    ("at", "pw", "label"),
    [
        (0.951, 0.701, "reliable"),
        (1.0, 1.0, "reliable"),
        (0.95, 0.99, "functional"),  # pass@K must be > 0.95, not >=
        (0.96, 0.70, "functional"),  # pass^K must be > 0.70
        (0.96, 0.50, "functional"),  # between 0.50 and 0.70
        (0.96, 0.4999, "inconsistent"),
        (0.99, 0.0, "inconsistent"),
        (0.70, 0.0, "functional"),  # needs_improvement is < 0.70
        (0.6999, 0.6, "needs_improvement"),
        (0.0, 0.0, "needs_improvement"),
    ],
)
def test_interpretation_boundaries(at: float, pw: float, label: str) -> None:
    assert interpret(at, pw) == label
    text = explain_label(label, at, pw, 3)
    assert text.lower().startswith(label.replace("_", " "))
    assert "pass@3" in text
    assert explain_label(label).lower().startswith(label.replace("_", " "))


def test_explain_label_shows_enough_digits_near_a_threshold() -> None:
    assert "0.950400 > 0.95" in explain_label("reliable", 0.9504, 0.9, 5)


def test_explain_label_rejects_unknown_or_contradicted_labels() -> None:
    with pytest.raises(SettingsError, match=r"^label"):
        explain_label("great")
    with pytest.raises(SettingsError, match="needs_improvement"):
        explain_label("reliable", 0.5, 0.1, 3)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), None, "0.9"])
def test_interpret_rejects_non_probabilities(bad: object) -> None:
    with pytest.raises(SettingsError):
        interpret(bad, 0.5)  # type: ignore[arg-type]
