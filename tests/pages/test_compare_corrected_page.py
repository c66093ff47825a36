"""Compare page: the corrected difference card beside the success rate's delta when the runs carry human labels
(issue 37, Compare)."""

from __future__ import annotations

from pathlib import Path

from agentic_core.analysis.compare_runs import Side, compare_sides
from agentic_core.evaluate import evaluate
from agentic_core.runs import RunStore
from agentic_core.settings import make_settings
from tests.analysis.test_compare_runs import agent
from tests.cli.test_compare_corrected_cli import labelled
from tests.datasets import convs
from tests.pages.conftest import OpenApp
from tests.pages.test_compare_page import COMPARE, text_of
from ui.format import ci_text
from ui.views import delta_words


def test_two_labelled_runs_show_the_corrected_delta_and_its_line(open_app: OpenApp, history: Path) -> None:
    store = RunStore(history)
    a = evaluate(convs(labelled("v1", set(range(15)), {3, 20}, range(25))), "dataset", cache_mode="off")
    b = evaluate(convs(labelled("v2", set(range(23)), {4, 21, 27}, range(2, 30))), "dataset", cache_mode="off")
    store.save(a, "before")
    store.save(b, "after")
    settings = make_settings(threshold=0.5)
    core = compare_sides(Side(a, settings), Side(b, settings)).corrected
    assert core is not None and core.estimate is not None
    at = open_app(COMPARE)
    assert not at.exception and not at.error
    card = next(m for m in at.metric if m.label == "Corrected delta (B - A)")
    assert card.value == delta_words(core.estimate)
    assert card.delta == ci_text(core.ci)
    assert "corrected difference (B - A) with 23 human-labelled shared tasks" in text_of(at)


def test_runs_without_labels_show_no_corrected_card(open_app: OpenApp, history: Path) -> None:
    store = RunStore(history)
    store.save(evaluate(convs(agent("v1", set(range(15)))), "dataset", cache_mode="off"), "before")
    store.save(evaluate(convs(agent("v2", set(range(20)))), "dataset", cache_mode="off"), "after")
    at = open_app(COMPARE)
    assert not at.exception and not at.error
    assert "Corrected delta (B - A)" not in {m.label for m in at.metric}
    assert "corrected difference" not in text_of(at)
