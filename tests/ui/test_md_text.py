"""Data shown in Markdown renders as its own text: no image, link, autolink, emphasis or code from data values."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from agentic_core.common import md_code
from tests.markdown_render import MARKUP, MD, autolinks, leaves, rendered_text
from ui.format import md_text


def test_an_image_in_a_value_is_shown_not_fetched() -> None:
    text, markup = rendered_text(f"**Turn 1** · {md_text('![x](http://host/p.png)')}")
    assert "image" not in markup and markup == {"strong_open"}
    assert text.endswith("![x](http://host/p.png)")
    assert autolinks(f"**Turn 1** · {md_text('![x](http://host/p.png)')}") == []


def test_a_raw_value_would_have_been_an_image() -> None:
    # The guard against a parser that renders nothing: the same value unescaped is an image.
    assert "image" in rendered_text("**Turn 1** · ![x](http://host/p.png)")[1]


_MARKUP_CHARS = st.sampled_from(list("ab1 .-+=#*_`[]()<>!|~$&\\:\n"))


@given(st.text(alphabet=_MARKUP_CHARS | st.characters(exclude_categories=("Cc", "Cs")), max_size=40))
def test_any_value_renders_as_exactly_its_text(value: str) -> None:
    text, markup = rendered_text(f"Value: {md_text(value)}")
    assert markup == set()
    # what the reader sees is the value, with line breaks as spaces and runs of spaces at its edges trimmed
    expected = " ".join(value.splitlines())
    assert " ".join(text.removeprefix("Value:").split()) == " ".join(expected.split())


@given(st.text(alphabet=st.sampled_from(list("ab1 .-+=#*_`[]()<>!|~$&\\:")), max_size=20))
def test_a_value_at_the_start_of_a_body_starts_no_block(value: str) -> None:
    tokens = MD.parse(md_text(value))
    assert [t.type for t in tokens if t.nesting == 1] in ([], ["paragraph_open"])


def test_a_url_or_an_address_in_a_value_is_no_link() -> None:
    for value in ("http://example.invalid/", "see https://a.example/x?y=1", "www.example.com", "ops@example.com"):
        body = f"Session {md_text(value)}"
        assert autolinks(body) == [], value
        assert rendered_text(body)[0] == f"Session {value}"  # shown as it is: the joiner is invisible


def test_escaping_alone_would_still_have_made_links() -> None:
    # The guard against a check that finds nothing: the raw values, and the values backslash-escaped
    # (resolved before remark-gfm looks for links), are links.
    for value in ("http://example.invalid/", "www.example.com", "ops@example.com"):
        assert autolinks(value) and autolinks(re.sub(r"([:/.@])", r"\\\1", value)), value


_URLISH = st.sampled_from(["http", "https", "HTTP", "www", "WwW", ":", "//", ".", "@", "a", "b1", "-", "_", " "])


@given(st.lists(_URLISH | st.text(alphabet=_MARKUP_CHARS, max_size=3), max_size=12).map("".join))
def test_no_value_makes_an_autolink(value: str) -> None:
    body = f"Value: {md_text(value)}"
    assert autolinks(body) == []
    assert rendered_text(body)[1] == set()


_CODE_PIECES = st.sampled_from(["`", "``", " ", "http://x.io", "![x](http://h/p.png)"]) | st.text(
    alphabet=_MARKUP_CHARS | st.characters(exclude_categories=("Cc", "Cs")), max_size=5
)


@given(st.lists(_CODE_PIECES, max_size=8).map("".join))
def test_a_code_span_shows_exactly_its_value(value: str) -> None:
    tokens = leaves(MD.parse(f"The link's {md_code(value)} was ignored"))
    code = [t.content for t in tokens if t.type == "code_inline"]
    # An empty value shows as one space: an empty span would be two backticks of text.
    assert code == [" ".join(value.splitlines()) or " "]
    assert {t.type for t in tokens} & MARKUP == {"code_inline"}
    # the sentence around it is intact: the span ends where it should
    assert "".join(t.content for t in tokens if t.type == "text") == "The link's  was ignored"
