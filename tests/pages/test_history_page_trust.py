"""History page on a damaged or read-only history (issue 23): a message, never an exception."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentic_core.runs import RunStore
from agentic_core.runs.store import default_runs_path
from tests.conftest import SEEDS
from tests.pages.conftest import OpenApp
from tests.runs.test_store_trust import damage_runs_table

HISTORY = "pages/history.py"


def _two_runs(path: Path) -> list[str]:
    from agentic_core.evaluate import evaluate

    result = evaluate(SEEDS, "dataset", cache_mode="off")
    store = RunStore(path)
    return [store.save(result, "seed_examples.json").id for _ in range(2)]


def test_a_damaged_history_is_an_error_with_the_fix(open_app: OpenApp, history: Path) -> None:
    _two_runs(history)
    damage_runs_table(history)
    at = open_app(HISTORY)
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "is damaged" in errors and "move the file aside" in errors


def test_a_read_only_history_is_listed_and_says_it_is_read_only(
    open_app: OpenApp, history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _two_runs(history)
    real_access = os.access
    # Tests run as root, whom chmod does not stop: the store is told the file is not writable.
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if mode & os.W_OK else real_access(p, mode, **k))
    assert default_runs_path() == history
    at = open_app(HISTORY)
    assert not at.exception and not at.error
    assert sorted(at.dataframe[0].value["id"].tolist()) == sorted(ids)
    assert "read-only" in " ".join(i.value for i in at.info)
