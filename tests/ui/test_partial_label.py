"""A cancelled run kept as partial stays labelled "(partial)" once stored and reopened (issue 25)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from agentic_core.evaluate import evaluate
from agentic_core.runs import RunStore
from tests.datasets import conv, convs
from ui.runs import PARTIAL, is_partial


def test_the_partial_mark_is_stored_with_the_run(tmp_path: Path) -> None:
    result = evaluate(convs([conv("s1", [0.9]), conv("s2", [0.2])]), "dataset", cache_mode="off")
    assert not is_partial(result)
    warned = [*result.judge_run.warnings, "Partial run: cancelled after 1 of 2 interactions had a verdict"]
    if dataclasses.is_dataclass(result.judge_run):
        result.judge_run = dataclasses.replace(result.judge_run, warnings=warned)
    else:
        result.judge_run = result.judge_run.model_copy(update={"warnings": warned})
    assert is_partial(result)
    store = RunStore(tmp_path / "runs.sqlite3")
    meta = store.save(result, "data", name=f"data · dataset{PARTIAL}")
    assert is_partial(store.open(meta.id))  # what open_stored_run labels the reopened run by
    assert store.runs()[0].name.endswith(PARTIAL)  # what History, Compare's picker and `runs list` show
