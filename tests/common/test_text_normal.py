"""The shared text normalisers (agentic_core/common/text_normal.py) and the places that now call them."""

from __future__ import annotations

import re
import sys

import pytest

from agentic_core.common.text_normal import fold_case, normalise_text, squeeze


def test_squeeze_is_the_regex_form_the_unit_names_used_for_every_character() -> None:
    # judges/offline/findings/tokens.py wrote re.sub(r"\s+", " ", raw.strip()): the judge's unit names must not change.
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        text = f"{ch}km{ch}{ch}per{ch}h{ch}"
        assert squeeze(text) == re.sub(r"\s+", " ", text.strip()), hex(code)


@pytest.mark.parametrize(
    ("text", "squeezed", "folded"),
    [
        ("  The  Order\n\tShipped ", "The Order Shipped", "the order shipped"),
        ("Straße", "Straße", "strasse"),
        ("", "", ""),
        (" \n ", "", ""),
        ("a\u00a0b\u2003c", "a b c", "a b c"),  # no-break and em spaces are whitespace
    ],
)
def test_squeeze_and_fold_case(text: str, squeezed: str, folded: str) -> None:
    assert squeeze(text) == squeezed
    assert fold_case(text) == folded


def test_a_quote_is_found_whatever_its_spacing_and_case() -> None:
    from agentic_core.agentic_metrics.compute import _evidence_text

    transcript = "USER: where is my order?\nASSISTANT:  It   shipped\non Monday."
    shown = _evidence_text({"evidence": ["it shipped on monday", "It was lost"], "reasoning": "Done."}, transcript)
    assert shown == (
        "Done. Evidence: \u201cit shipped on monday\u201d; \u201cIt was lost\u201d (not found in the conversation)"
    )


def test_the_text_rule_is_the_tools_function() -> None:
    import agentic_core.tools as tools
    from agentic_core.data.schemas import ParameterRule
    from agentic_core.tools.values import values_agree

    text = ParameterRule(rule="text")

    assert tools.normalise_text is normalise_text
    assert normalise_text("U.S.A.  Ｄｅｐｔ") == "usa dept"
    assert values_agree("New York, NY", "new york,ny", text)
    assert not values_agree("3.14", "314", text)
