"""Golden export files of the seed examples with the dataset judge and fixed settings.

Golden files live in tests/golden/. Regenerate them only on purpose:
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/report/test_golden.py`` (then review the diff).
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from agentic_core.analysis.aggregate import aggregate
from agentic_core.report import (
    export_bytes,
    summary,
)
from agentic_core.result import EvaluationResult
from agentic_core.settings import make_settings

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"


GOLDEN_SETTINGS: dict[str, dict[str, Any]] = {
    "default": {},
    "bayesian_these_tasks": {"threshold": 0.7, "k": 3, "mode": "bayesian", "target": "these-tasks"},
    "frequentist_conversation": {
        "threshold": 0.9,
        "k": 2,
        "unit": "conversation",
        "mode": "frequentist",
        "estimator": "plug-in",
        "tool_threshold": 0.8,
    },
}


VOLATILE = ("tool_version",)  # changes with every release, not with the numbers
# Monte Carlo sums differ in the last bits between CPUs (vectorised float reductions); the golden
# files pin the numbers to 12 significant digits, far below any difference that matters.
SIGNIFICANT = 12


def _stable(value: Any) -> Any:
    """``value`` with every float rounded to :data:`SIGNIFICANT` significant digits."""
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT}g}")
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _check_golden(path: Path, text: str) -> None:
    if UPDATE_GOLDEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}: run with UPDATE_GOLDEN=1 once and review it"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs (UPDATE_GOLDEN=1 regenerates it)"


@pytest.mark.parametrize("name", sorted(GOLDEN_SETTINGS))
def test_golden_seed_summary(seeds: EvaluationResult, name: str) -> None:
    agg = aggregate(seeds, make_settings(**GOLDEN_SETTINGS[name]))
    doc = _stable({k: v for k, v in summary(seeds, agg).items() if k not in VOLATILE})
    _check_golden(GOLDEN / f"seed_summary_{name}.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def test_golden_seed_interactions_csv(seeds: EvaluationResult) -> None:
    agg = aggregate(seeds, make_settings(**GOLDEN_SETTINGS["default"]))
    _check_golden(GOLDEN / "seed_interactions_default.csv", export_bytes(seeds, agg, "interactions").decode())


def _golden(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((GOLDEN / f"seed_summary_{name}.json").read_text(encoding="utf-8"))
    return doc


# sample_data/seed_examples.json, scores by task (threshold 0.7): q1_math 0.92 0.88 0.90 (3 of 3),
# q2_capital 0.97 0.93 0.95 (3 of 3), q3_weather 0.91 0.18 0.35 (1 of 3), and two one-attempt
# tasks from seed 001 (0.95 and 0.90 in one conversation; 0.97): 1 of 1 each.
SEED_TASKS = [(3, 3), (3, 3), (3, 1), (1, 1), (1, 1)]


def test_golden_default_agrees_with_values_worked_out_by_hand() -> None:
    doc = _golden("default")
    # Defaults: frequentist, unbiased, unit auto -> task, K auto: only k = 1 is supported by 90% of
    # the 5 tasks (2 have a single attempt), so the curve is pass@1 = mean of c/n.
    assert (doc["unit"], doc["k"]) == ("task", 1)
    assert doc["statistics"]["mode"] == "frequentist" and doc["statistics"]["target"] == "population"
    [point] = doc["curve"]
    mean = float(sum(Fraction(c, n) for n, c in SEED_TASKS) / len(SEED_TASKS))
    assert point["pass_at_k"] == pytest.approx(mean, abs=1e-11) == point["pass_pow_k"]
    assert doc["conversation_success_rate"]["rate"] == pytest.approx(mean, abs=1e-11)
    assert doc["conversation_success_rate"]["observed"] == pytest.approx(9 / 11, abs=1e-11)
    low, high = point["pass_at_k_ci"]
    assert low <= mean <= high and point["interval_method"] == "bca-bootstrap"


def test_golden_bayesian_these_tasks_agrees_with_values_worked_out_by_hand() -> None:
    doc = _golden("bayesian_these_tasks")
    assert doc["unit"] == "task"
    assert doc["counts"]["conversations"] == 11 and doc["counts"]["correct_conversations"] == 9
    # Bayesian, uniform prior: per task p ~ Beta(1 + c, 1 + n - c); E[p^k] = prod_{i<k} (a+i)/(a+b+i)
    # (docs/statistics.md), averaged over the 5 tasks. Exact fractions, independent of the code.
    tasks = SEED_TASKS

    def moment(a: int, b: int, k: int) -> Fraction:
        out = Fraction(1)
        for i in range(k):
            out *= Fraction(a + i, a + b + i)
        return out

    for point in doc["curve"]:
        k = point["k"]
        pow_k = sum(moment(1 + c, 1 + n - c, k) for n, c in tasks) / len(tasks)
        at_k = sum(1 - moment(1 + n - c, 1 + c, k) for n, c in tasks) / len(tasks)
        assert point["pass_pow_k"] == pytest.approx(float(pow_k), abs=1e-11)
        assert point["pass_at_k"] == pytest.approx(float(at_k), abs=1e-11)
        assert point["n_groups"] == 5 and point["n_excluded"] == 0


def test_golden_frequentist_conversation_agrees_with_values_worked_out_by_hand() -> None:
    # Threshold 0.9: q1_math 0.92 / 0.88 / 0.90 -> 2, q2_capital -> 3, q3_weather 0.91 -> 1, the two
    # seed-001 conversations (0.95 and 0.90; 0.97) -> 2: 8 of 11 conversations fully correct.
    doc = _golden("frequentist_conversation")
    assert doc["counts"]["correct_conversations"] == 8 and doc["counts"]["scored_conversations"] == 11
    p = Fraction(8, 11)
    # Plug-in (seed 003): pass@k = 1 - (1 - p)^k, pass^k = p^k, over all conversations as one group.
    for point in doc["curve"]:
        k = point["k"]
        assert point["pass_at_k"] == pytest.approx(float(1 - (1 - p) ** k), abs=1e-12)
        assert point["pass_pow_k"] == pytest.approx(float(p**k), abs=1e-12)
    # Wilson (1927) score interval for 8/11 at 95% (z = 1.959963984540054), written out.
    z, n = 1.959963984540054, 11
    centre = (float(p) + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(float(p * (1 - p)) / n + z * z / (4 * n * n))
    rate = doc["conversation_success_rate"]
    assert rate["rate"] == pytest.approx(8 / 11) and rate["observed"] == pytest.approx(8 / 11)
    assert rate["ci"] == pytest.approx([centre - half, centre + half], abs=1e-11)
    # k = 1 through the Wilson bounds: pass@1 = pass^1 = p, interval the same.
    first = doc["curve"][0]
    assert first["pass_at_k_ci"] == pytest.approx([centre - half, centre + half], abs=1e-11)
