"""Without Ray, ``engine="ray"`` says how to install it; an unknown engine or unpicklable judge is named.

These run with or without Ray installed: Ray's absence is simulated where it matters, and the one
check that needs Ray itself (its ``cloudpickle`` decides what can travel to a worker) is skipped
when Ray is not installed.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from agentic_core.errors import JudgeConfigError, SettingsError
from agentic_core.evaluate import evaluate
from tests.fakes import FakeJudge

SEEDS = Path(__file__).resolve().parents[2] / "sample_data" / "seed_examples.json"


def test_a_missing_ray_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    monkeypatch.setitem(sys.modules, "ray.data", None)
    with pytest.raises(JudgeConfigError, match=r"pip install -r requirements-ray\.txt") as caught:
        evaluate(SEEDS, "dataset", cache_mode="off", engine="ray")
    assert caught.value.place == "engine"


def test_an_unknown_engine_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="must be one of local, ray"):
        evaluate(SEEDS, "dataset", cache_mode="off", engine="spark")


def test_a_ray_address_without_the_ray_engine_is_not_ignored_silently() -> None:
    with pytest.raises(SettingsError, match="only used by the ray engine"):
        evaluate(SEEDS, "dataset", cache_mode="off", ray_address="auto")


def test_a_judge_that_cannot_be_pickled_is_asked_for_by_name() -> None:
    # Ray's cloudpickle is what tries to ship the judge: without Ray the run stops earlier, at the
    # install message (tested above), so this rule can only be seen with Ray installed.
    pytest.importorskip("ray", reason="the pickling check uses Ray's cloudpickle (pip install -r requirements-ray.txt)")
    judge = FakeJudge(0.5)
    judge.lock = threading.Lock()  # type: ignore[attr-defined]
    with pytest.raises(JudgeConfigError, match="pass the judge by name") as caught:
        evaluate(SEEDS, judge, cache_mode="off", engine="ray")
    assert caught.value.place == "judge"
