"""Data values on the Data page and in the Explorer are inert text: no image fetched, no live link.

The dataset's ids, task, context, qa_id and tool parameters hold a Markdown image and bare URLs (which
Streamlit's Markdown, remark-gfm, turns into links even when escaped). Every Markdown body the pages
draw is parsed (tests/markdown_render.py): no image, no link, no autolink, and the values still shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.markdown_render import fetched_or_linked, visible_text
from tests.pages.conftest import APP, OpenApp

IMAGE = "![x](http://example.invalid/a.png)"
URL = "http://example.invalid/"
WWW = "www.example.invalid"
MAIL = "ops@example.invalid"


def _record(session_id: str, score: float, *, hostile: bool) -> dict[str, Any]:
    value = (lambda text: text) if hostile else (lambda text: "plain")
    return {
        "session_id": session_id,
        "assistant_id": value(URL),
        "task_id": value(f"see {URL}"),
        "context": value(f"{IMAGE} {WWW} {MAIL}"),
        "conversation": [
            {
                "qa_id": value(f"q {URL}"),
                "query": "Book it",
                "assistant": "Booked.",
                "ground_truth_assistant": "Booked it.",
                "agentic": {"tools_used": [{"tool_name": "book", "parameters": {"url": value(URL)}, "step": 1}]},
                "ground_truth_agentic": {"expected_tools": [{"tool_name": "book", "parameters": {"url": f"{URL}b"}}]},
                "score": score,
            }
        ],
    }


@pytest.fixture
def hostile_file(tmp_path: Path) -> Path:
    """Two conversations: the first (failing, so listed first) holds the values; the second is plain."""
    path = tmp_path / "hostile.jsonl"
    records = [_record(IMAGE, 0.2, hostile=True), _record("s-plain", 0.9, hostile=False)]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def _bodies(at: AppTest) -> list[str]:
    """Every Markdown body on the page and in the sidebar (texts, captions, headings, alerts, expander labels)."""
    elements = [*at.markdown, *at.caption, *at.title, *at.header, *at.subheader]
    elements += [*at.success, *at.info, *at.warning, *at.error]
    return [str(e.value) for e in elements] + [str(e.label) for e in at.expander]


def _assert_inert(at: AppTest, *values: str) -> None:
    bodies = _bodies(at)
    assert {body: fetched_or_linked(body) for body in bodies if fetched_or_linked(body)} == {}
    shown = "\n".join(visible_text(body) for body in bodies)
    for value in values:  # the values are on the page (so the check above saw them), as their own text
        assert value in shown, value


def test_the_data_pages_record_line_shows_ids_as_text(open_app: OpenApp, hostile_file: Path) -> None:
    at = open_app("pages/data.py")
    at.file_uploader(key="upload").set_value(
        [("hostile.jsonl", hostile_file.read_bytes(), "application/json")]
    ).run()
    assert not at.exception
    assert "Loaded 2 conversations" in "\n".join(s.value for s in at.success)
    _assert_inert(at, f"session_id {IMAGE}", f"assistant_id {URL}")


def test_the_explorer_shows_ids_task_context_qa_id_and_tool_parameters_as_text(
    open_app: OpenApp, hostile_file: Path
) -> None:
    at = open_app("pages/explorer.py", hostile_file)
    assert at.selectbox(key="conversation").value == 0  # the failing, hostile conversation is drawn
    _assert_inert(at, f"{IMAGE} · {URL}", f"task see {URL}", f"{IMAGE} {WWW} {MAIL}", f"q {URL}")
    # The tool parameters: the reasoning names the expected and used URLs, as text.
    tool_lines = [b for b in _bodies(at) if b.startswith("**Tool reasoning:**")]
    assert tool_lines and URL in visible_text(tool_lines[0])


def test_a_links_conversation_and_the_runs_tasks_are_text_in_the_explorers_warnings(
    open_app: OpenApp, hostile_file: Path
) -> None:
    open_app(None, hostile_file)  # the hostile file is the data the app opens with (offline, dataset judge)
    at = AppTest.from_file(APP, default_timeout=60)
    # A backtick would end a one-backtick code span: the link's value must still not become an image.
    at.query_params["conversation"] = f"no `{IMAGE}`"
    at.query_params["task"] = URL + "x"
    at.run()
    at.switch_page("pages/explorer.py").run()
    assert not at.exception
    said = "\n".join(w.value for w in at.warning)
    assert "is not in this run" in said and "was ignored" in said
    _assert_inert(at, f"no `{IMAGE}`", f"task={URL}x", f"see {URL}")
