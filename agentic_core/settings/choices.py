"""The kinds of values settings take: units, estimators, modes, dimensions, priors, interval levels.
"""

from __future__ import annotations

from typing import Literal

Unit = Literal["task", "conversation", "interaction"]
UnitChoice = Literal["auto", "task", "conversation", "interaction"]
Estimator = Literal["unbiased", "plug-in"]
Mode = Literal["frequentist", "bayesian"]
Interface = Literal["cli", "ui"]

DIMENSIONS: tuple[str, str, str, str] = ("selection", "parameters", "sequence", "utilization")
UNIT_DESCRIPTIONS: dict[str, str] = {
    "task": "task: attempts at the same task are grouped; pass@k per task, averaged over tasks",
    "conversation": "conversation: every conversation is one attempt at a single task (n = conversations)",
    "interaction": "interaction: per conversation, its interactions are the attempts (seed-003 compatibility)",
}
"""Each resolved unit of trial in one sentence (exports, the command line's text output)."""
PRIORS: dict[str, tuple[float, float]] = {"uniform": (1.0, 1.0), "jeffreys": (0.5, 0.5)}
"""Named Beta priors (a, b)."""
CI_LEVELS: tuple[float, ...] = (0.8, 0.9, 0.95, 0.99)
"""Interval levels offered as presets (any level strictly between 0 and 1 is valid)."""
K_MAX = 1000
N_SAMPLES_RANGE = (100, 200_000)
