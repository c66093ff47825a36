"""Compare's "Answers side by side": the filters, each side's attempts, both answers and verdicts, and the deep link."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from agentic_core.runs import RunStore
from tests.pages.conftest import APP, OpenApp
from tests.report.test_compare_answers import A_RUN, B_RUN, _record, _run

COMPARE = "pages/compare.py"
LINK = ("pair_show", "pair_task", "attempt_a", "attempt_b")


def _param(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def _texts(at: AppTest) -> list[str]:
    return [str(t.value) for t in at.text]


def _stored(history: Path) -> tuple[str, str]:
    store = RunStore(history)
    return store.save(_run("v1", A_RUN), "answers").id, store.save(_run("v2", B_RUN), "answers").id


def _open(open_app: OpenApp, **query: str) -> AppTest:
    open_app()  # the offline environment
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(COMPARE).run()
    assert not at.exception
    return at


def test_the_filters_pick_a_task_and_both_answers_show_with_their_verdicts(open_app: OpenApp, history: Path) -> None:
    run_a, run_b = _stored(history)
    at = _open(open_app, run_a=run_a, run_b=run_b)
    show = at.radio(key="compare_pair_show")
    assert show.value == "all" and show.options == [
        "All paired tasks (5)", "Flipped to worse (1)", "Flipped to better (2)", "Both wrong (1)"]
    show.set_value("worse").run()
    assert at.selectbox(key="compare_pair_task").options == ["refund"]
    texts = _texts(at)
    assert "You have 30 days to return it." in texts and "You have 14 days to return it." in texts
    assert "30 days" in texts  # the reference
    verdicts = [m.value for m in at.markdown if "answer threshold" in m.value]
    assert len(verdicts) == 2 and ":green[**correct**]" in verdicts[0] and ":red[**incorrect**]" in verdicts[1]
    diffs = [h.proto.body for h in at.get("html") if "A (green: only in A)" in h.proto.body]
    assert len(diffs) == 1 and "<b>30</b>" in diffs[0] and "<b>14</b>" in diffs[0]
    # Two attempts on each side: a box per side, and the caption says which is shown.
    assert at.selectbox(key="compare_attempt_b").options == ["#1 · v2-refund-0 · incorrect",
                                                              "#2 · v2-refund-1 · incorrect"]
    assert any("B made 2 attempts: 2 incorrect; showing #1 (v2-refund-0)." in c.value for c in at.caption)
    assert {k: _param(at, k) for k in LINK} == {"pair_show": "worse", "pair_task": "refund", "attempt_a": "1",
                                                "attempt_b": "1"}
    at.radio(key="compare_pair_show").set_value("both_wrong").run()
    assert at.selectbox(key="compare_pair_task").value == "warranty" and _param(at, "pair_task") == "warranty"


def test_a_deep_link_opens_that_exact_view_and_the_url_keeps_it(open_app: OpenApp, history: Path) -> None:
    run_a, run_b = _stored(history)
    link = {"run_a": run_a, "run_b": run_b, "pair_show": "both_wrong", "pair_task": "warranty", "attempt_a": "2",
            "attempt_b": "2"}
    at = _open(open_app, **link)
    assert not at.warning
    assert at.radio(key="compare_pair_show").value == "both_wrong"
    assert at.selectbox(key="compare_pair_task").value == "warranty"
    assert at.selectbox(key="compare_attempt_a").value == 2 and at.selectbox(key="compare_attempt_b").value == 2
    texts = _texts(at)
    assert "Six months." in texts and "One year." in texts and "Two years." in texts  # A's 2nd, B's 2nd, reference
    assert {k: _param(at, k) for k in link} == link  # the URL is the link: reloading it shows the same view
    # Picking B's other attempt changes the link with it.
    at.selectbox(key="compare_attempt_b").set_value(1).run()
    assert _param(at, "attempt_b") == "1" and "Two years." in [str(t.value) for t in at.text]


def test_a_link_asking_for_what_is_not_there_says_so(open_app: OpenApp, history: Path) -> None:
    run_a, run_b = _stored(history)
    at = _open(open_app, run_a=run_a, run_b=run_b, pair_show="better", pair_task="refund", attempt_b="7")
    warnings = " ".join(w.value for w in at.warning)
    assert "is not flipped to better" in warnings and "B made 2 attempts at this task" in warnings
    assert at.radio(key="compare_pair_show").value == "all" and at.selectbox(key="compare_pair_task").value == "refund"
    assert _param(at, "attempt_b") == "1"


def test_two_assistants_of_one_run_are_linked_too(open_app: OpenApp, history: Path, tmp_path: Path) -> None:
    path = tmp_path / "both.jsonl"
    records = [_record(agent, task, n, turns) for agent, spec in (("v1", A_RUN), ("v2", B_RUN))
               for task, attempts in spec.items() for n, turns in enumerate(attempts)]
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    at = open_app(COMPARE, data=path)
    assert at.radio(key="compare_source").value == "assistants"
    assert (_param(at, "assistant_a"), _param(at, "assistant_b")) == ("v1", "v2")
    assert _param(at, "run_a") is None
    at.radio(key="compare_pair_show").set_value("worse").run()
    assert "You have 14 days to return it." in _texts(at)
    # The same view, linked with the sides swapped: B's refund answers were the right ones.
    linked = AppTest.from_file(APP, default_timeout=60)
    for key, value in {"assistant_a": "v2", "assistant_b": "v1", "pair_show": "better", "pair_task": "refund"}.items():
        linked.query_params[key] = value
    linked.run()
    linked.switch_page(COMPARE).run()
    assert not linked.exception and not linked.warning
    assert (linked.selectbox(key="compare_assistant_a").value, linked.selectbox(key="compare_assistant_b").value) == (
        "v2", "v1")
    assert linked.selectbox(key="compare_pair_task").value == "refund"
