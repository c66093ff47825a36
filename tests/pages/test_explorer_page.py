"""AppTest of the Explorer page, driven by widget keys (offline: the dataset judge, a temporary cache)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from agentic_core.io.loader import load_paths
from agentic_core.io.samples import SAMPLES
from agentic_core.report.explorer import STATUS_ORDER
from tests.pages.conftest import OpenApp
from ui.format import md_text

APP = Path(__file__).parents[2] / "dashboard.py"
PAGE = "pages/explorer.py"


@pytest.fixture
def xapp(open_app: OpenApp) -> Callable[[str | None], AppTest]:
    """Open the Explorer on the default sample (or the sample named) with the dataset judge."""
    return lambda data=None: open_app(PAGE, data)


def conversations(at: AppTest) -> pd.DataFrame:
    """The conversation table (the first dataframe on the page)."""
    frame = at.dataframe[0].value
    assert "status" in frame.columns and "row" in frame.columns
    return frame


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_lists_failing_conversations_first(xapp: Callable[[str | None], AppTest]) -> None:
    at = xapp(None)  # support bot: 240 conversations, 156 correct at the judge's threshold 0.7
    table = conversations(at)
    assert len(table) == 240
    assert table["status"].iloc[0] == "incorrect"
    ranks = table["status"].map(STATUS_ORDER).tolist()
    assert ranks == sorted(ranks)
    assert (table["status"] == "correct").sum() == 156
    assert "Showing **240** of 240 conversations" in "\n".join(c.value for c in at.caption)
    # the drill-down opens on the first listed (failing) conversation
    assert at.selectbox(key="conversation").value == table["row"].iloc[0]
    assert ":red-badge[incorrect]" in markdown(at)


def test_status_filter_and_search_narrow_the_rows(xapp: Callable[[str | None], AppTest]) -> None:
    at = xapp(None)
    at.multiselect(key="explorer_status").set_value(["correct"]).run()
    assert not at.exception
    table = conversations(at)
    assert len(table) == 156 and set(table["status"]) == {"correct"}
    assert set(at.selectbox(key="conversation").options) == {
        f"#{r} {s} · {a} — correct"
        for r, s, a in zip(table["row"], table["session_id"], table["assistant_id"], strict=True)
    }

    at.multiselect(key="explorer_status").set_value(["incorrect", "unscored", "correct"])
    at.text_input(key="explorer_search").set_value("SUP04").run()  # case-insensitive, by session id
    table = conversations(at)
    assert len(table) == 8 and table["session_id"].str.startswith("sup04").all()

    at.text_input(key="explorer_search").set_value("blender").run()  # text inside a query
    table = conversations(at)
    assert 0 < len(table) < 240
    assert table["first_query"].str.lower().str.contains("blender").any()

    at.text_input(key="explorer_search").set_value("no such text anywhere").run()
    assert not at.exception
    assert any("No conversation matches" in i.value for i in at.info)
    assert len(at.dataframe) == 0


def test_threshold_slider_moves_conversations_to_incorrect(xapp: Callable[[str | None], AppTest]) -> None:
    at = xapp(None)
    before = (conversations(at)["status"] == "incorrect").sum()
    at.slider(key="threshold").set_value(0.95).run()
    assert not at.exception
    after = (conversations(at)["status"] == "incorrect").sum()
    assert after > before


def test_drill_down_shows_interactions_and_the_tool_diff(xapp: Callable[[str | None], AppTest]) -> None:
    at = xapp("travel")
    table = conversations(at)
    assert len(table) == 40 and table["status"].iloc[0] == "incorrect"
    # trv-004 (row 3): its second turn answers from memory instead of calling book_flight
    row = int(table.loc[table["session_id"] == "trv-004", "row"].item())
    at.selectbox(key="conversation").set_value(row).run()
    assert not at.exception
    text = markdown(at)
    assert "trv-004 · travel-agent-v2.3" in "\n".join(h.value for h in at.subheader)
    assert text.count("**Turn ") == 4
    # the tool reasoning names the missing call (as text: data never becomes Markdown)
    assert md_text("'book_flight' (expected call #1)") in text
    diffs = [d.value for d in at.dataframe[1:]]
    missing = pd.concat(diffs)
    missing = missing[missing["diff"] == "MISSING"]
    assert missing["expected_call"].str.contains("book_flight").any()
    assert missing["used_call"].eq("").all()
    # the queries, answers and ground truths are shown verbatim
    shown = {t.value for t in at.text}
    conv = next(c for c in load_paths([SAMPLES["travel"].path]).conversations if c.session_id == "trv-004")
    for turn in conv.conversation:
        assert {turn.query, turn.assistant, turn.ground_truth_assistant} <= shown


def test_drill_down_shows_parameter_mismatches(xapp: Callable[[str | None], AppTest]) -> None:
    at = xapp("travel")
    table = conversations(at)
    row = int(table.loc[table["session_id"] == "trv-011", "row"].item())
    at.selectbox(key="conversation").set_value(row).run()
    assert not at.exception
    diffs = pd.concat([d.value for d in at.dataframe[1:]])
    mismatch = diffs[diffs["diff"] == "PARAMETER MISMATCH"]
    assert mismatch["mismatches"].str.contains('city: expected "Lisbon", got "Lisbon, Portugal"').any()
    text = markdown(at)
    assert "**Verdict:** Judge score" in text and "answer threshold 0.70" in text
    assert "**Judge reasoning** (ok): score" in text


def test_selection_follows_the_filter(xapp: Callable[[str | None], AppTest]) -> None:
    at = xapp(None)
    first_incorrect = at.selectbox(key="conversation").value
    at.multiselect(key="explorer_status").set_value(["correct"]).run()
    assert not at.exception
    table = conversations(at)
    # the previously selected failing conversation is filtered out: the first listed one is shown
    assert first_incorrect not in set(table["row"])
    assert at.selectbox(key="conversation").value == table["row"].iloc[0]
    assert ":green-badge[correct]" in markdown(at)


def test_data_values_are_shown_as_text_never_as_markdown(
    xapp: Callable[[str | None], AppTest], tmp_path: Path
) -> None:
    """A qa_id, a session id, a note or a tool parameter holding Markdown image syntax fetches nothing."""
    from markdown_it import MarkdownIt

    from agentic_core.common.markdown_text import WORD_JOINER

    image = "![x](http://attacker.invalid/p.png)"
    record = {
        "session_id": f"s {image}",
        "assistant_id": "**bold**",
        "context": image,
        "conversation": [
            {
                "qa_id": f"`{image}`",
                "query": "Book it",
                "assistant": "Booked.",
                "ground_truth_assistant": "Booked it.",
                "agentic": {"tools_used": [{"tool_name": "book", "parameters": {"id": image}, "step": 1}]},
                "ground_truth_agentic": {"expected_tools": [{"tool_name": "book", "parameters": {"id": "x"}}]},
                "score": 0.2,
            }
        ],
    }
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    at = xapp(path)  # type: ignore[arg-type]
    parser = MarkdownIt("commonmark")

    def images(body: str) -> list[str]:
        found = []
        for token in parser.parse(body):
            found += [c.attrs.get("src", "") for c in token.children or [] if c.type == "image"]
        return [str(src) for src in found]

    bodies = [m.value for m in [*at.markdown, *at.caption, *at.subheader, *at.warning, *at.error]]
    # the values are on the page (escaped, and with an invisible word joiner breaking the URL's autolink)...
    assert any(image in body.replace("\\", "").replace(WORD_JOINER, "") for body in bodies)
    assert [src for body in bodies for src in images(body)] == []  # ...as text, never as an image
