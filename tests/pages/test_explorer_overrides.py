"""Explorer overrides: mark an answer correct / incorrect with a note; stored with the run, counted, listed, cleared."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from agentic_core.runs import RunStore
from tests.pages.conftest import OpenApp

PAGE = "pages/explorer.py"


def correct_conversations(at: AppTest) -> int:
    table = at.dataframe[0].value
    return int((table["status"] == "correct").sum())


def selected_row(at: AppTest) -> int:
    """The interaction row the verdict form is on."""
    value = at.selectbox(key="override_row").value
    assert value is not None
    return int(value)


def mark_first(at: AppTest, verdict: str, note: str) -> int:
    """Mark the first interaction of the selected conversation; returns its row."""
    row = selected_row(at)
    at.radio(key=f"override_verdict_{row}").set_value(verdict)
    at.text_input(key=f"override_note_{row}").set_value(note)
    at.button(key="override_save").click().run()
    assert not at.exception and not at.error
    return row


def test_marking_an_answer_counts_it_stores_it_and_lists_it(open_app: OpenApp, history: Path) -> None:
    at = open_app(PAGE)  # support sample: the first listed conversation is incorrect
    before = correct_conversations(at)
    conv = at.selectbox(key="conversation").value
    row = selected_row(at)
    # The form starts on what counts now (the judge's threshold is 0.7), never its opposite (issue 36).
    score = at.session_state["_active_run"].result.interactions["score"].iat[row]
    assert at.radio(key=f"override_verdict_{row}").value == ("correct" if score >= 0.7 else "incorrect")
    # Mark every interaction of the (incorrect) conversation correct: it becomes correct.
    run = at.session_state["_active_run"]
    start, end = (int(b[conv]) for b in run.result.conversation_bounds())
    rows = list(range(start, end))
    assert len(at.selectbox(key="override_row").options) == len(rows)
    for interaction in rows:
        at.selectbox(key="override_row").set_value(interaction).run()
        mark_first(at, "correct", "the judge missed a paraphrase")
    assert any("Marked correct" in s.value for s in at.success)
    assert correct_conversations(at) == before + 1
    assert at.selectbox(key="conversation").value == conv
    assert ":violet-badge[marked correct by hand]" in "\n".join(m.value for m in at.markdown)

    # Stored with the run: the sample shown at first is stored now, with its overrides.
    runs = RunStore(history).runs()
    assert len(runs) == 1
    stored = RunStore(history).payload(runs[0].id).overrides
    assert len(stored) == len(rows) and all(o.correct and o.note == "the judge missed a paraphrase" for o in stored)
    active = at.session_state["_active_run"]
    assert active.stored_id == runs[0].id and len(active.result.overrides) == len(rows)

    # Listed, each with a clear button.
    listed = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert len(listed) == len(rows) and set(listed["verdict"]) == {"correct"}
    first = int(listed["row"].iloc[-1])  # the one the judge failed
    at.button(key=f"override_clear_{first}").click().run()
    assert not at.exception
    assert first not in at.session_state["_active_run"].result.overrides
    assert first not in {o.row for o in RunStore(history).payload(runs[0].id).overrides}
    assert correct_conversations(at) == before


def test_a_verdict_can_be_changed_and_cleared_in_place(open_app: OpenApp, history: Path) -> None:
    at = open_app(PAGE)
    row = mark_first(at, "incorrect", "wrong date")
    run_id = RunStore(history).runs()[0].id
    assert RunStore(history).payload(run_id).overrides[0].correct is False
    assert at.text_input(key=f"override_note_{row}").value == "wrong date"
    mark_first(at, "correct", "on second thought, right")
    (override,) = RunStore(history).payload(run_id).overrides
    assert override.correct and override.note == "on second thought, right"
    at.button(key="override_clear").click().run()
    assert not at.exception and RunStore(history).payload(run_id).overrides == []
    assert any("cleared" in s.value for s in at.success)


def test_overrides_never_touch_the_shared_first_run(open_app: OpenApp, history: Path) -> None:
    at = open_app(PAGE)
    mark_first(at, "correct", "")
    fresh = open_app(PAGE)  # another session: the same shared first-run result
    assert fresh.session_state["_active_run"].result.overrides == {}
    assert "Your verdicts in this run (0)" in [e.label for e in fresh.expander]


def test_overrides_reach_the_calibration_page(open_app: OpenApp, history: Path) -> None:
    at = open_app(PAGE)
    mark_first(at, "correct", "")
    at.switch_page("pages/calibration.py").run()
    assert not at.exception  # the active run has a human verdict now: it is calibrated itself
    assert not any("has no human verdicts" in i.value for i in at.info)
    assert next(m.value for m in at.metric if m.label == "Labelled answers") == "1"
    # Issue 25: one verdict is no ground for a threshold: "Use it" waits for enough of both verdicts.
    assert at.button(key="calibration_use_threshold").disabled
    assert any("at least 10" in i.value for i in at.info)
