"""Explorer: filters in the URL, deep links to a stored run's conversation, highlighting and the word diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.evaluate import evaluate
from agentic_core.io.samples import SAMPLES, load_sample
from agentic_core.runs import RunStore
from tests.pages.conftest import APP, OpenApp

PAGE = "pages/explorer.py"


def param(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def linked(open_app: OpenApp, said: list[str] | None = None, **query: str) -> AppTest:
    """A new session opened by a link to the Explorer with ``query`` (offline, as open_app sets it up).

    AppTest opens the default page first (it cannot start on a page ``st.navigation`` renames): what that
    first run said is added to ``said``.
    """
    open_app()  # sets the offline environment
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    if said is not None:
        said.append(warnings(at))
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def warnings(at: AppTest) -> str:
    return " ".join(w.value for w in at.warning)


def test_the_url_carries_the_filters_and_the_selected_conversation(open_app: OpenApp) -> None:
    at = open_app(PAGE, "travel")
    first = at.selectbox(key="conversation").value
    sid = at.dataframe[0].value.set_index("row").at[first, "session_id"]
    assert param(at, "conversation") == sid
    at.multiselect(key="explorer_tool").set_value(["book_flight"]).run()
    at.slider(key="explorer_score").set_value((0.0, 0.5)).run()
    assert not at.exception
    assert param(at, "tool") == "book_flight" and param(at, "score_max") == "0.5"
    table = at.dataframe[0].value
    assert 0 < len(table) < 40
    row = int(table["row"].iloc[-1])
    at.selectbox(key="conversation").set_value(row).run()
    assert param(at, "conversation") == table.set_index("row").at[row, "session_id"]
    at.multiselect(key="explorer_tool").set_value([]).run()
    assert param(at, "tool") is None


def test_a_shared_link_restores_the_filters_and_names_bad_values(open_app: OpenApp) -> None:
    at = linked(open_app, status="incorrect", q="sup0", score_max="0.8", tool_below="2", assistant="nobody")
    assert at.multiselect(key="explorer_status").value == ["incorrect"]
    assert at.text_input(key="explorer_search").value == "sup0"
    assert at.slider(key="explorer_score").value == (0.0, 0.8)
    said = warnings(at)
    assert "`tool_below=2` was ignored" in said and "`assistant=nobody` was ignored" in said
    assert "not a setting" not in said  # the shared settings' reader leaves the Explorer's parameters alone
    table = at.dataframe[0].value
    assert set(table["status"]) <= {"incorrect"}


def test_a_deep_link_opens_a_conversation_of_a_stored_run(open_app: OpenApp, history: Path) -> None:
    result = evaluate(load_sample("travel"), "dataset", cache_mode="off")
    run_id = RunStore(history).save(result, SAMPLES["travel"].title).id
    row = next(i for i, c in enumerate(result.conversations) if c.session_id == "trv-011")
    at = linked(open_app, run=run_id, conversation="trv-011")
    assert not at.warning
    assert any(SAMPLES["travel"].title in c.value for c in at.sidebar.caption)
    assert at.selectbox(key="conversation").value == row
    assert "trv-011 · " in "\n".join(h.value for h in at.subheader)
    assert param(at, "run") == run_id and param(at, "conversation") == "trv-011"


def test_a_link_to_a_missing_run_or_conversation_says_so(open_app: OpenApp, history: Path) -> None:
    first: list[str] = []
    at = linked(open_app, first, run="20990101-000000-dead", conversation="trv-011")
    said = first[0] + warnings(at)
    assert "`20990101-000000-dead` could not be reopened" in said and "History" in said
    assert "`trv-011` is not in this run" in said  # the built-in support sample is shown instead
    at = linked(open_app, conversation="no-such-session")
    assert "`no-such-session` is not in this run" in warnings(at)
    assert at.selectbox(key="conversation").value is not None


def test_search_matches_are_highlighted_escaped(open_app: OpenApp) -> None:
    at = open_app(PAGE, "travel")
    at.text_input(key="explorer_search").set_value("lisbon").run()
    assert not at.exception
    shown = [h.proto.body for h in at.get("html")]
    assert any("<mark>Lisbon</mark>" in b or "<mark>lisbon</mark>" in b for b in shown)


def test_the_answer_is_diffed_word_by_word_against_the_ground_truth(open_app: OpenApp) -> None:
    at = open_app(PAGE, "travel")
    table = at.dataframe[0].value
    row = int(table.loc[table["session_id"] == "trv-011", "row"].item())
    at.selectbox(key="conversation").set_value(row).run()
    assert not at.exception
    assert any(e.label.startswith("Answer vs ground truth") for e in at.expander)
    bodies = " ".join(h.proto.body for h in at.get("html"))
    assert "<ins" in bodies or "<del" in bodies


def test_the_table_is_paged_and_a_link_opens_its_conversations_page(
    open_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    import agentic_core.report as report  # the page reads its page size from the package's face

    monkeypatch.setattr(report, "EXPLORER_PAGE_ROWS", 50)
    at = open_app(PAGE)  # support sample: 240 conversations, 5 pages
    assert len(at.dataframe[0].value) == 50
    assert "Showing **240** of 240" in " ".join(c.value for c in at.caption)
    at.number_input(key="explorer_page").set_value(5).run()
    last = at.dataframe[0].value
    assert len(last) == 40 and at.selectbox(key="conversation").value == last["row"].iloc[0]
    sid = str(last["session_id"].iloc[-1])
    row = int(last["row"].iloc[-1])
    linked_at = linked(open_app, conversation=f"#{row}")
    assert not linked_at.warning
    assert linked_at.number_input(key="explorer_page").value == 5
    assert linked_at.selectbox(key="conversation").value == row
    assert sid in "\n".join(h.value for h in linked_at.subheader)
