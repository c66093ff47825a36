"""Explorer filters chosen on one dataset are reset on another; an empty list names the filters hiding rows."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.pages.conftest import OpenApp, judge_travel
from ui.format import md_text

PAGE = "pages/explorer.py"


def shown(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Showing"))


def test_filters_reset_on_other_data(open_app: OpenApp, history: object) -> None:
    at = open_app(PAGE)
    task = at.multiselect(key="explorer_task").options[0]
    at.multiselect(key="explorer_task").set_value([task]).run()
    at.text_input(key="explorer_search").set_value("zzz-not-there").run()
    infos = " ".join(i.value for i in at.info)
    assert "No conversation matches these filters" in infos and "search: “zzz-not-there”" in infos
    assert md_text(f"task: {task}") in infos
    judge_travel(at)
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.text_input(key="explorer_search").value == ""
    assert at.multiselect(key="explorer_task").value == []
    assert "The filters were reset" in " ".join(i.value for i in at.info)
    assert shown(at).startswith("Showing **40** of 40")
