"""The kinds of values settings take: units, targets, estimators, modes, dimensions, priors, levels.
"""

from __future__ import annotations

from typing import Literal

Unit = Literal["task", "conversation", "interaction"]
UnitChoice = Literal["auto", "task", "conversation", "interaction"]
Estimator = Literal["unbiased", "plug-in"]
Mode = Literal["frequentist", "bayesian"]
Target = Literal["population", "these-tasks"]
KChoice = int | Literal["auto"]
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
TARGET_DESCRIPTIONS: dict[str, str] = {
    "population": "the task population: the evaluated tasks are a sample of the tasks the agent will face, "
    "and the interval is for the mean over that population",
    "these-tasks": "these tasks: the mean over exactly the evaluated tasks; only their finite attempts are "
    "uncertain",
}
"""Each target in one sentence (what an interval is an interval for)."""
K_MAX = 1000
"""The largest K any interface accepts (the command line, the Python API, the endpoint): a bound on work
(the curve is computed for k = 1..K), far above any attempt count a run holds."""
K_AUTO_MAX = 20
"""The largest K that ``k = "auto"`` picks."""
K_DASHBOARD_MAX = K_AUTO_MAX
"""The largest K the dashboard offers (its K slider, and a shared link's ``k=``), deliberately below
:data:`K_MAX`: the slider has one stop per K, which stays usable up to about twenty stops. It is
:data:`K_AUTO_MAX` so that every K ``"auto"`` picks is a stop the slider can show; larger K is for the
command line and the Python API."""
K_AUTO_SUPPORT = 0.9
"""``k = "auto"`` picks the largest k that at least this share of groups supports (n >= k)."""
N_SAMPLES_RANGE = (100, 200_000)
