"""When a live conversation is complete: idle time, a lone trace's root span, buckets that hold whole conversations."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agentic_core.io.otel_spans import Span
from agentic_core.io.otel_spool import SpanSpool
from agentic_core.live.pending import ROOT_GRACE_S, Pending


def test_a_conversation_named_by_an_id_completes_only_when_idle() -> None:
    pending = Pending(idle_s=30)
    # Turn 1 is one trace, turn 2 another, both naming conv-1: their roots end, the conversation goes on.
    pending.see(1, "t1", "conv-1", False, 100.0)
    pending.see(2, "t1", "conv-1", True, 101.0)
    pending.see(3, "t2", "conv-1", True, 110.0)
    assert len(pending) == 1
    assert pending.take_due(139.9, 10) == []
    assert pending.next_due(120.0) == 20.0
    (done,) = pending.take_due(140.0, 10)
    assert done.traces == {"t1", "t2"} and done.first == 1 and done.spans == 3 and len(pending) == 0


def test_a_trace_naming_no_conversation_completes_when_its_root_arrives() -> None:
    pending = Pending(idle_s=30)
    pending.see(5, "lone", None, False, 100.0)
    pending.see(6, "lone", None, True, 100.5)
    assert pending.take_due(100.5 + ROOT_GRACE_S - 0.01, 10) == []
    (done,) = pending.take_due(100.5 + ROOT_GRACE_S, 10)
    assert done.key("spool") == "spool:5"
    # A small idle time wins over the grace.
    quick = Pending(idle_s=0.2)
    quick.see(1, "t", None, True, 10.0)
    assert len(quick.take_due(10.2, 10)) == 1


def test_a_later_span_naming_an_id_joins_two_traces_into_one_conversation() -> None:
    pending = Pending(idle_s=30)
    pending.see(1, "t1", "conv-1", False, 1.0)
    pending.see(2, "t2", None, True, 2.0)  # a lone trace so far: its root arrived
    pending.see(3, "t2", "conv-1", False, 3.0)  # now it names conv-1: one bucket, completed by idle time only
    assert len(pending) == 1
    assert pending.take_due(3.0 + ROOT_GRACE_S, 10) == []
    (done,) = pending.take_due(33.0, 10)
    assert done.traces == {"t1", "t2"} and done.conversations == {"conv-1"} and done.first == 1


def test_spans_of_a_completed_conversation_start_a_new_one() -> None:
    pending = Pending(idle_s=1)
    pending.see(1, "t1", "c", True, 0.0)
    assert len(pending.take_due(5.0, 10)) == 1
    pending.see(9, "t1", "c", False, 6.0)
    (late,) = pending.take_due(7.0, 10)
    assert late.first == 9


def test_the_longest_waiting_complete_conversations_go_first_up_to_the_limit() -> None:
    pending = Pending(idle_s=1)
    for seq in (30, 10, 20):
        pending.see(seq, f"t{seq}", None, False, 0.0)
    assert [b.first for b in pending.take_due(10.0, 2)] == [10, 20]
    assert [b.first for b in pending.take_due(10.0, 2)] == [30]


SPANS = st.lists(
    st.tuples(st.sampled_from(["t1", "t2", "t3", "t4", "t5"]), st.sampled_from([None, None, "a", "b", "c"])),
    min_size=1, max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(SPANS)
def test_every_conversation_the_importer_makes_lies_in_one_bucket(spans: list[tuple[str, str | None]]) -> None:
    # The importer's grouping (SpanSpool.groups) of the same spans, taken whole: each of its conversations must lie
    # inside one bucket, or the live path would judge a conversation in pieces.
    pending = Pending(idle_s=1)
    spool = SpanSpool()
    for seq, (trace, conversation) in enumerate(spans):
        pending.see(seq, trace, conversation, False, 0.0)
        attrs = {} if conversation is None else {"gen_ai.conversation.id": conversation}
        spool.append(Span(trace, f"{seq:016x}", "", "s", 0, 0, attrs, (), 0, "", {}, seq))
    buckets = pending.take_due(10.0, len(spans))
    assert sum(b.spans for b in buckets) == len(spans) and len(pending) == 0
    bucket_of = {trace: n for n, b in enumerate(buckets) for trace in b.traces}
    assert len(bucket_of) == len({t for t, _ in spans})  # each trace in exactly one bucket
    for positions in spool.groups().values():
        assert len({bucket_of[spans[p][0]] for p in positions}) == 1
    # And no bucket is larger than needed: two traces share one only when they share a conversation id.
    for bucket in buckets:
        ids = {trace: {c for t, c in spans if t == trace and c} for trace in bucket.traces}
        if len(bucket.traces) > 1:
            assert all(ids[trace] for trace in bucket.traces)


def test_buckets_whose_judging_failed_come_back_whole_and_wait_idle_s_again() -> None:
    pending = Pending(idle_s=10)
    pending.see(1, "t1", "c", False, 0.0)
    pending.see(2, "t2", "c", True, 1.0)
    pending.see(3, "lone", None, True, 1.0)
    taken = pending.take_due(20.0, 10)
    assert len(taken) == 2 and len(pending) == 0
    pending.see(4, "t2", None, False, 21.0)  # a late span of t2 arrived meanwhile: it joins the restored bucket
    pending.restore(taken, 22.0)
    assert len(pending) == 2
    assert pending.take_due(31.9, 10) == []
    back = sorted(pending.take_due(32.0, 10), key=lambda b: b.first)
    assert [(b.first, b.traces, b.conversations) for b in back] == [(1, {"t1", "t2"}, {"c"}), (3, {"lone"}, set())]
