"""Data shown in Markdown renders as its own text: no image, link, emphasis or code from data values."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ui.format import md_text

# GFM-ish: CommonMark plus tables and strikethrough, as Streamlit's renderer has them.
_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
_MARKUP = {"image", "link_open", "em_open", "strong_open", "code_inline", "s_open", "html_inline", "html_block"}


def _leaves(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for token in tokens:
        out.append(token)
        out.extend(_leaves(token.children or []))
    return out


def rendered_text(markdown: str) -> tuple[str, set[str]]:
    """The text a reader sees, and the kinds of markup tokens the Markdown produced."""
    tokens = _leaves(_MD.parse(markdown))
    text = "".join(t.content for t in tokens if t.type in {"text", "softbreak"})
    return text, {t.type for t in tokens} & _MARKUP


def test_an_image_in_a_value_is_shown_not_fetched() -> None:
    text, markup = rendered_text(f"**Turn 1** · {md_text('![x](http://host/p.png)')}")
    assert "image" not in markup and markup == {"strong_open"}
    assert text.endswith("![x](http://host/p.png)")


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
    tokens = _MD.parse(md_text(value))
    assert [t.type for t in tokens if t.nesting == 1] in ([], ["paragraph_open"])
