"""Glossary page, "How to read this page" expanders, glossary links in setting tooltips, the chart theme."""

from __future__ import annotations

import re

import pytest

from agentic_core.glossary import ANCHORS, ENTRIES, PAGE_GUIDES
from tests.pages.conftest import OpenApp

LINK = re.compile(r"\[Glossary\]\(/glossary#([a-z0-9-]+)\)$")


def test_glossary_lists_every_entry_with_its_anchor_and_searches(open_app: OpenApp) -> None:
    at = open_app("pages/glossary.py")
    assert [s.value for s in at.subheader] == [e.term for e in ENTRIES]
    assert [s.proto.anchor for s in at.subheader] == [e.anchor for e in ENTRIES]
    at.text_input(key="glossary_search").input("kappa").run()
    assert not at.exception
    assert [s.value for s in at.subheader] == [ANCHORS["cohens-kappa"].term]
    at.text_input(key="glossary_search").input("zzz-not-a-word").run()
    assert not at.subheader and at.info


@pytest.mark.parametrize("page", sorted(PAGE_GUIDES))
def test_results_pages_open_with_how_to_read(page: str, open_app: OpenApp) -> None:
    at = open_app(f"pages/{page}.py")
    assert at.expander[0].label == "How to read this page"
    assert any("/glossary#" in md.value for md in at.expander[0].markdown)


def test_explorer_has_no_how_to_read(open_app: OpenApp) -> None:
    at = open_app("pages/explorer.py")
    assert all(e.label != "How to read this page" for e in at.expander)


def test_every_sidebar_setting_tooltip_links_to_an_existing_entry(open_app: OpenApp) -> None:
    at = open_app()
    widgets = [*at.sidebar.slider, *at.sidebar.select_slider, *at.sidebar.selectbox, *at.sidebar.toggle]
    widgets += list(at.sidebar.radio)
    assert len(widgets) >= 9
    for widget in widgets:
        match = LINK.search(widget.help or "")
        assert match and match.group(1) in ANCHORS, f"{widget.key}: {widget.help!r}"


def test_tools_and_prior_tooltips_link_too(open_app: OpenApp) -> None:
    at = open_app("pages/tools.py")
    for key in ("w_selection", "tool_threshold"):
        assert LINK.search(at.slider(key=key).help or ""), key
    at = open_app("pages/uncertainty.py")
    assert LINK.search(at.radio(key="prior").help or "")


def test_charts_follow_the_page_theme_with_no_chart_only_choice(open_app: OpenApp) -> None:
    # A light / dark choice for the charts alone left black boxes on a white page (issue 25).
    at = open_app()
    assert not [r for r in at.sidebar.radio if r.key == "theme_toggle"]
    chart = at.get("plotly_chart")[0]
    assert chart.proto.theme == "streamlit"  # drawn in the page's own theme
