"""The Explorer's thread of a whole trace and the side-by-side answer / ground truth diff."""

from __future__ import annotations

import html
import re
from pathlib import Path

from agentic_core import load_paths
from agentic_core.data.trace import TraceCall, TraceStep
from agentic_core.report.side_diff import side_by_side, side_by_side_html
from agentic_core.report.thread import MAX_CHARS, judged_steps, thread_html

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_side_by_side_keeps_each_text_whole_and_marks_its_own_words() -> None:
    answer, truth = "The flight DL678 leaves at 13:15.", "the flight DL679 leaves at 13:15 from LAX."
    left, right = side_by_side(answer, truth)
    assert plain(left) == answer and plain(right) == truth
    assert re.findall(r"<ins[^>]*>(.*?)</ins>", left) == ["<b>DL678</b>"]
    assert re.findall(r"<del[^>]*>(.*?)</del>", right) == ["<b>DL679</b>", "<b>from LAX</b>"]
    assert "<ins" not in right and "<del" not in left
    assert "The" in left and "<ins" not in left.split("flight")[0], "case alone is no difference"


def test_side_by_side_escapes_the_data() -> None:
    left, right = side_by_side("<script>alert(1)</script>", "<b>x</b>")
    assert "<script" not in left and plain(left) == "<script>alert(1)</script>"
    assert "<b>x" not in right and plain(right) == "<b>x</b>"
    assert side_by_side_html("a", "b").count('class="col"') == 2


def trace() -> list[TraceStep]:
    return [
        TraceStep(role="system", content="policy " * 1000),
        TraceStep(role="user", content="Where is order 7?", interaction=0),
        TraceStep(role="assistant", tool_calls=[TraceCall(name="lookup", arguments={"order": 7})], interaction=0),
        TraceStep(role="tool", content='{"status": "shipped"}', name="lookup", interaction=0),
        TraceStep(role="assistant", content="Checking.", interaction=0),
        TraceStep(role="assistant", content="It <b>shipped</b>.", interaction=0),
        TraceStep(role="user", content="Thanks", interaction=1),
        TraceStep(role="assistant", content="You're welcome", interaction=1),
    ]


def test_judged_steps_are_each_turns_query_and_final_answer() -> None:
    assert judged_steps(trace()) == {1: (0, "query"), 5: (0, "answer"), 6: (1, "query"), 7: (1, "answer")}


def test_thread_shows_every_message_in_order_escaped_and_bounded() -> None:
    out = thread_html(trace(), ["incorrect", "correct"], term="order")
    steps = re.findall(r'data-step="(\d+)"', out)
    assert steps == [str(i) for i in range(8)]
    assert out.count('class="m assistant judged"') == 2 and out.count("judged query") == 2
    assert "judged answer · turn 1 · incorrect" in out and "judged answer · turn 2 · correct" in out
    assert "calls <b>lookup</b>" in out and "&quot;order&quot;: 7" in out
    assert "Tool result · lookup" in out
    assert "It &lt;b&gt;shipped&lt;/b&gt;." in out
    assert "<mark>order</mark>" in out
    assert f"({7000 - MAX_CHARS:,} more characters not shown)" in out


def test_tau_bench_trace_renders_whole() -> None:
    conv = load_paths([SAMPLES / "tau_bench_airline.json"]).conversations[0]
    assert conv.trace is not None
    out = thread_html(conv.trace, ["correct"])
    assert len(re.findall(r'data-step="', out)) == len(conv.trace)
    assert out.count("judged query") == 1 and out.count("judged answer") == 1
