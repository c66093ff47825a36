"""The glossary: every anchor unique and reachable, every setting and page guide linked to an entry."""

from __future__ import annotations

import re

import pytest

from agentic_core.glossary import (
    ANCHORS,
    ENTRIES,
    PAGE_GUIDES,
    SETTING_ANCHORS,
    glossary_link,
    search_entries,
    setting_help,
)
from agentic_core.settings import SETTINGS

LINK = re.compile(r"\(/glossary#([a-z0-9-]+)\)")


def test_anchors_are_unique_and_cross_references_resolve() -> None:
    assert len(ANCHORS) == len(ENTRIES)
    for entry in ENTRIES:
        assert entry.plain.strip(), entry.term
        assert set(entry.see_also) <= set(ANCHORS), entry.term


@pytest.mark.parametrize(
    "anchor",
    [
        "pass-k", "pass-hat-k", "success-rate", "unit-of-trial", "k-auto", "estimator", "mode", "target",
        "wilson", "bca-bootstrap", "hierarchical-beta-binomial", "monte-carlo", "t-interval", "mover",
        "paired-t", "copula", "prior", "unscored", "reliable", "inconsistent", "functional", "needs-improvement",
        "tool-selection", "tool-parameters", "tool-sequence", "tool-utilization", "threshold", "cohens-kappa",
        "roc-auc", "p-b-greater-a", "tool-call-accuracy", "topic-adherence", "goal-accuracy",
    ],
)
def test_every_word_the_dashboard_uses_has_an_entry_with_words(anchor: str) -> None:
    assert anchor in ANCHORS


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_every_setting_help_ends_with_a_link_to_an_existing_entry(name: str) -> None:
    text = setting_help(name, SETTINGS[name].help)
    found = LINK.findall(text)
    assert found and found[-1] in ANCHORS, f"{name}: {text}"
    assert text.endswith(glossary_link(SETTING_ANCHORS[name]))


@pytest.mark.parametrize("page", sorted(PAGE_GUIDES))
def test_page_guides_link_only_to_existing_entries(page: str) -> None:
    links = LINK.findall(PAGE_GUIDES[page])
    assert links, page
    assert set(links) <= set(ANCHORS), page


def test_guides_cover_every_results_page_but_the_explorer() -> None:
    assert set(PAGE_GUIDES) == {"overview", "uncertainty", "tools", "compare", "calibration", "agentic_metrics",
                                "history"}


def test_search_matches_every_word_case_insensitively() -> None:
    assert search_entries("") == ENTRIES
    assert [e.anchor for e in search_entries("KAPPA agreement")] == ["cohens-kappa"]
    assert "pass-hat-k" in {e.anchor for e in search_entries("pass^k")}
    assert search_entries("no-such-word-anywhere") == ()


def test_a_link_to_a_missing_entry_is_refused() -> None:
    with pytest.raises(KeyError):
        glossary_link("no-such-anchor")


def test_words_agree_with_the_settings_and_interpretation() -> None:
    from agentic_core.stats import interpretation as labels

    assert "90%" in ANCHORS["k-auto"].plain and "90%" in SETTINGS["k"].help
    assert "k <= attempts" in ANCHORS["estimator"].plain and "k <= attempts" in SETTINGS["estimator"].help
    reliable = f"pass@K > {labels.RELIABLE_PASS_AT:.2f} and pass^K > {labels.RELIABLE_PASS_POW:.2f}"
    assert reliable in ANCHORS["reliable"].formula and reliable in ANCHORS["interpretation"].formula
    assert f"pass@K < {labels.NEEDS_IMPROVEMENT_PASS_AT:.2f}" in ANCHORS["needs-improvement"].formula


def test_markdown_holds_every_term_and_formula() -> None:
    from agentic_core.glossary import glossary_markdown

    text = glossary_markdown()
    for entry in ENTRIES:
        assert f"### {entry.term}\n" in text
        assert entry.formula in text
