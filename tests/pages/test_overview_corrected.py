"""The Overview's corrected headline (issue 37): beside the judge-only one when the run has human labels, with
the core's numbers; one line to the review queue without labels; "N of M conversations" on a headline that rests
on some conversations only."""

from __future__ import annotations

from pathlib import Path

from agentic_core.analysis.aggregate import aggregate
from agentic_core.evaluate import evaluate
from agentic_core.io.samples import load_sample
from agentic_core.runs import RunStore
from agentic_core.settings import make_settings
from tests.pages.conftest import OpenApp
from tests.pages.test_unscored_bounds_box import write_data
from ui.format import ci_text, pct


def _metric(at: object, label: str) -> tuple[str, str]:
    found = [(m.value, m.proto.delta) for m in at.metric if m.label == label]  # type: ignore[attr-defined]
    assert len(found) == 1, [m.label for m in at.metric]  # type: ignore[attr-defined]
    return found[0]


def test_the_corrected_headline_shows_the_cores_reading(open_app: OpenApp) -> None:
    at = open_app(data="labelled")  # the sample that ships human labels on 54 of its 56 conversations
    assert not at.exception and not at.error
    result = evaluate(load_sample("labelled"), "dataset", cache_mode="off")
    agg = aggregate(result, make_settings())
    reading = agg.corrected
    assert reading is not None and reading.success_rate.ci is not None
    rate = reading.success_rate
    assert _metric(at, "Success rate, corrected") == (pct(rate.estimate), ci_text(rate.ci))
    assert _metric(at, "Success rate, judge only") == (pct(agg.success_rate.value), ci_text(agg.success_rate.ci))
    box = " ".join(m.value for m in at.markdown)
    assert "recommended reading" in box and f"corrected with {reading.n_labelled} human labels" in box
    captions = " ".join(c.value for c in at.caption)
    assert ci_text(rate.labels_only_ci) in captions  # the labels-only interval, for comparison
    assert "Design: tasks" in captions
    assert "read as a uniform random sample" in captions  # the note: data labels do not say their design


def test_without_labels_one_line_points_to_the_review_queue(open_app: OpenApp) -> None:
    at = open_app()
    assert not [m for m in at.metric if m.label == "Success rate, corrected"]
    assert any("No human labels yet" in c.value for c in at.caption)


def test_labels_given_in_the_queue_reach_the_overview(open_app: OpenApp, history: Path) -> None:
    at = open_app(page="pages/review.py")
    for _ in range(3):
        at.button(key="review_right").click().run()
    at.switch_page("pages/overview.py").run()
    assert not at.exception
    run_id = RunStore(history).runs()[0].id
    assert len(RunStore(history).labels(run_id)) == 3
    # Three labels on fewer than 20 tasks: a reading with no value yet, said, never a 0.
    assert _metric(at, "Success rate, corrected")[0] == "n/a"
    assert any("Corrected for the judge's errors" in m.value for m in at.markdown)
    assert any("label 20 more tasks" in c.value for c in at.caption)  # the reading says what it needs


def test_a_headline_without_some_conversations_says_n_of_m(open_app: OpenApp, tmp_path: Path) -> None:
    # 8 tasks x 2 attempts; the dataset judge leaves two conversations unscored (no score): 14 of 16 counted.
    at = open_app(data=write_data(tmp_path / "two.jsonl", attempts=2))
    # Said under the card (a caption wraps; a label is cut short at the card's width) and in its tooltip.
    assert [c.value for c in at.caption if c.value.startswith("on ")] == ["on 14 of 16 conversations"]
    rate = next(m for m in at.metric if m.label == "Success rate (pass@1)")
    assert "14 of 16 conversations" in rate.help
    at.toggle(key="unscored_incorrect").set_value(True).run()  # the toggle stays: every conversation then counts
    assert not [c.value for c in at.caption if c.value.startswith("on ")]
    assert "of 16 conversations" not in next(m for m in at.metric if m.label == "Success rate (pass@1)").help
