"""The span tree: nesting, offsets and durations, the judged answer, errors, paging, mended parents, sequences."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.data.spans import TraceSpan
from agentic_core.report.span_tree import span_tree
from agentic_core.report.span_tree_html import MAX_NEST, duration_text, span_tree_html, tree_summary

MS = 1_000_000  # nanoseconds per millisecond
T0 = 1_700_000_000_000 * MS


def _span(name: str, start_ms: float | None = None, end_ms: float | None = None, **kw: object) -> TraceSpan:
    times = {}
    if start_ms is not None:
        times["start_ns"] = T0 + int(start_ms * MS)
    if end_ms is not None:
        times["end_ns"] = T0 + int(end_ms * MS)
    return TraceSpan.model_validate({"name": name, **times, **kw})


def _agent_trace() -> list[TraceSpan]:
    """An agent turn, listed out of order: agent > (chat, tool > (http), chat answering)."""
    return [
        _span("chat answer", 700, 1000, id="c2", parent_id="a", kind="llm", input_tokens=300, output_tokens=40,
              cost=0.002, interaction=0, answer=True),
        _span("lookup", 300, 650, id="t", parent_id="a", kind="tool", error="lookup timed out", interaction=0),
        _span("invoke_agent", 0, 1000, id="a", kind="agent"),
        _span("http GET", 310, 640, id="h", parent_id="t"),
        _span("chat plan", 10, 290, id="c1", parent_id="a", kind="llm", input_tokens=200, output_tokens=10,
              cost=0.001, interaction=0),
    ]


def test_steps_nest_under_their_parents_children_in_start_order() -> None:
    tree = span_tree(_agent_trace())
    assert [(n.name, n.depth, n.children, n.inside) for n in tree.nodes] == [
        ("invoke_agent", 0, 3, 4),
        ("chat plan", 1, 0, 0),
        ("lookup", 1, 1, 1),
        ("http GET", 2, 0, 0),
        ("chat answer", 1, 0, 0),
    ]
    assert [n.index for n in tree.nodes] == [2, 4, 1, 3, 0]  # positions in Conversation.spans
    assert not tree.flat and tree.total == 5 and (tree.orphans, tree.cycles) == (0, 0)


def test_offsets_durations_and_totals_are_measured_from_the_trace_start() -> None:
    tree = span_tree(_agent_trace())
    by_name = {n.name: n for n in tree.nodes}
    assert (by_name["lookup"].start_ms, by_name["lookup"].duration_ms) == (300, 350)
    assert (by_name["chat answer"].start_ms, by_name["chat answer"].duration_ms) == (700, 300)
    assert tree.trace_ms == 1000
    assert (tree.input_tokens, tree.output_tokens, tree.errors) == (500, 50, 1)
    assert tree.cost is not None and abs(tree.cost - 0.003) < 1e-12
    assert not any(n.estimated for n in tree.nodes)


def test_the_html_marks_the_answer_colours_the_error_and_places_each_bar() -> None:
    page = span_tree_html(span_tree(_agent_trace()), ["incorrect"])
    assert page.count("judged answer · turn 1 · incorrect") == 1
    answer = re.search(r'<div class="sp leaf ans" data-span="0">.*?</div></div>', page)
    assert answer and "chat answer" in answer.group(0)
    assert re.search(r'<details class="sp err" data-span="1" open>', page)  # the failed tool, with its call inside
    assert '<div class="why">error: lookup timed out</div>' in page
    # lookup runs 300-650 ms of a 1,000 ms trace: its bar starts at 30% and is 35% wide.
    assert 'style="left:30.00%;width:35.00%"' in page
    assert page.count("<details") == 2 and page.count('class="sp leaf') == 3
    assert page.count("<details") == page.count("</details>")


def test_names_and_errors_are_escaped_never_markup() -> None:
    spans = [_span("<script>alert(1)</script>", 0, 5, error="<img src=x onerror=alert(1)>")]
    page = span_tree_html(span_tree(spans))
    assert "<script>alert" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_missing_parents_become_roots_and_cycles_are_cut_at_their_first_step() -> None:
    spans = [
        _span("a", 0, 10, id="a", parent_id="c"),  # a -> c -> b -> a: a cycle, cut at a (first in the list)
        _span("b", 1, 9, id="b", parent_id="a"),
        _span("c", 2, 8, id="c", parent_id="b"),
        _span("self", 3, 4, id="s", parent_id="s"),  # its own parent
        _span("lost", 5, 6, id="l", parent_id="nowhere"),
    ]
    tree = span_tree(spans)
    assert [(n.name, n.depth) for n in tree.nodes] == [("a", 0), ("b", 1), ("c", 2), ("self", 0), ("lost", 0)]
    assert (tree.orphans, tree.cycles) == (1, 2)
    words = tree_summary(tree)
    assert "1 step naming a parent not in the trace" in words and "2 parent cycles cut" in words


def test_timestamps_only_make_a_sequence_each_step_lasting_until_the_next_starts() -> None:
    spans = [_span("model", 0), _span("tool", 1200), _span("model", 1500, 2500), _span("score", 4000)]
    tree = span_tree(spans)
    assert tree.flat and [n.depth for n in tree.nodes] == [0, 0, 0, 0]
    assert [(n.duration_ms, n.estimated) for n in tree.nodes] == [
        (1200, True), (300, True), (1000, False), (None, False)]
    assert tree.estimated == 2 and tree.trace_ms == 4000
    assert "in sequence" in tree_summary(tree) and "2 durations estimated" in tree_summary(tree)
    assert span_tree_html(tree).count('class="est"') == 2


def test_a_parent_without_an_end_lasts_until_its_last_step_inside_ends() -> None:
    spans = [_span("agent", 0, id="a"), _span("chat", 100, 400, id="c", parent_id="a"),
             _span("tool", 500, 900, id="t", parent_id="a"), _span("after", 2000)]
    by_name = {n.name: n for n in span_tree(spans).nodes}
    assert (by_name["agent"].duration_ms, by_name["agent"].estimated) == (900, True)


def test_a_step_without_a_start_follows_its_parent_and_has_no_bar() -> None:
    spans = [_span("agent", 0, 100, id="a"), _span("late", 50, 60, parent_id="a"), _span("untimed", parent_id="a")]
    tree = span_tree(spans)
    assert [n.name for n in tree.nodes] == ["agent", "untimed", "late"]
    untimed = tree.nodes[1]
    assert untimed.start_ms is None and untimed.duration_ms is None
    page = span_tree_html(tree)
    assert page.count('<div class="bar">') == 2


def test_a_huge_trace_is_shown_a_page_at_a_time_with_the_count() -> None:
    n = 60_000
    chain = [_span(f"s{i}", i, i + 1, id=str(i), parent_id=str(i - 1) if i else None) for i in range(n)]
    chain[0] = _span("s0", 0, 1, id="0", parent_id=str(n - 1))  # and a cycle through all of them
    tree = span_tree(chain, page=2, page_size=300)
    assert tree.total == n and tree.pages == 200 and tree.first == 600 and len(tree.nodes) == 300
    assert [node.name for node in tree.nodes[:2]] == ["s600", "s601"] and tree.cycles == 1
    assert tree.above[0] == "s0" and len(tree.above) == 600
    page = span_tree_html(tree)
    assert page.count("data-span=") == 300
    assert page.count("<details") <= MAX_NEST  # deep nesting drawn flat past MAX_NEST levels
    assert "depth 609" in page and "Continues inside: s595 › s596 › s597 › s598 › s599" in page
    assert span_tree(chain, page=10_000, page_size=300).page == 199  # clamped to the last page


def test_a_large_tree_opens_its_first_two_levels_a_small_one_whole() -> None:
    small = span_tree_html(span_tree([_span("r", 0, 9, id="r"), _span("a", 1, 8, id="a", parent_id="r"),
                                      _span("b", 2, 7, id="b", parent_id="a"), _span("c", 3, 4, parent_id="b")]))
    assert small.count(" open>") == 3
    wide = [_span("r", 0, 9, id="r"), _span("a", 1, 8, id="a", parent_id="r"), _span("b", 2, 7, id="b", parent_id="a")]
    wide += [_span(f"leaf{i}", 3, 4, parent_id="b") for i in range(100)]
    assert span_tree_html(span_tree(wide)).count(" open>") == 2


def test_no_spans_make_an_empty_tree() -> None:
    tree = span_tree([])
    assert (tree.total, tree.nodes, tree.trace_ms, tree.pages) == (0, (), None, 1)
    assert "0 steps" in span_tree_html(tree)


def test_durations_and_costs_read_as_people_write_them() -> None:
    assert [duration_text(ms) for ms in (0.42, 120, 1250, 125_000)] == ["0.42 ms", "120 ms", "1.25 s", "2 min 5 s"]
    small, zero, large = (tree_summary(span_tree([_span("x", 0, 1, cost=c)])) for c in (0.000096, 0.0, 1234.5))
    assert "cost 0.000096" in small and "e-05" not in small
    assert zero.endswith("cost 0") and large.endswith("cost 1,234.50")


@st.composite
def _forests(draw: st.DrawFn) -> list[TraceSpan]:
    n = draw(st.integers(1, 40))
    spans = []
    for i in range(n):
        parent = draw(st.one_of(st.none(), st.integers(0, n + 2)))  # past n: a parent not in the trace
        start = draw(st.one_of(st.none(), st.integers(0, 1_000)))
        end = None if start is None else draw(st.one_of(st.none(), st.integers(start, 2_000)))
        spans.append(_span(f"s{i}", start, end, id=str(i), parent_id=None if parent is None else str(parent)))
    return spans


@settings(max_examples=100, deadline=None)
@given(_forests(), st.integers(1, 7))
def test_every_step_is_shown_once_after_its_parent_whatever_the_links(spans: list[TraceSpan], size: int) -> None:
    whole = span_tree(spans, page_size=len(spans))
    order = [n.index for n in whole.nodes]
    assert sorted(order) == list(range(len(spans)))
    paged = [n.index for p in range(whole.total // size + 1) for n in span_tree(spans, page=p, page_size=size).nodes]
    assert paged[: len(order)] == order  # the pages cut the same order (the last may repeat past the end)
    seen: dict[int, int] = {}
    stack: list[tuple[int, int]] = []  # (depth, index) of the steps the current one can be inside
    for node in whole.nodes:
        assert node.duration_ms is None or node.duration_ms >= 0
        while stack and stack[-1][0] >= node.depth:
            stack.pop()
        assert node.depth == len(stack)  # one deeper than the step it is inside
        stack.append((node.depth, node.index))
        seen[node.index] = node.depth
    assert sum(n.children for n in whole.nodes) == sum(1 for n in whole.nodes if n.depth > 0)
